"""The eat_pytorch_in_20_days Titanic example of ba04 (lyhue1991/eat_pytorch_in_20_days #37) with the preprocessed frame made numeric before .values: preprocessing(df).astype(float).values gives a float64 ndarray, torch.tensor(x_train).float() turns it into float32 features and the three-layer net trains with BCEWithLogitsLoss; the bool get_dummies blocks, the int32 null flags and the float64-to-.float() tensor conversion of features and labels are kept
source: https://github.com/lyhue1991/eat_pytorch_in_20_days/issues/37
reported-error: (none filed; the fixed situation of ba04)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)
rng = np.random.default_rng(0)


def make_titanic(n):
    """Synthetic stand-in for eat_pytorch_datasets/titanic/{train,test}.csv (same columns, NaNs included)."""
    sex = rng.choice(["male", "female"], n)
    pclass = rng.choice([1, 2, 3], n, p=[0.25, 0.2, 0.55])
    age = np.where(rng.random(n) < 0.2, np.nan, rng.uniform(1, 70, n).round())
    logit = 1.5 * (sex == "female") - 0.8 * (pclass - 2) - 0.01 * np.nan_to_num(age, nan=30)
    return pd.DataFrame({
        "PassengerId": np.arange(n), "Survived": (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(np.int64),
        "Pclass": pclass, "Name": [f"passenger {i}" for i in range(n)], "Sex": sex, "Age": age,
        "SibSp": rng.integers(0, 4, n), "Parch": rng.integers(0, 3, n), "Ticket": [f"T{i}" for i in range(n)],
        "Fare": rng.lognormal(3, 1, n).round(4), "Cabin": np.where(rng.random(n) < 0.7, None, "C85"),
        "Embarked": rng.choice(["S", "C", "Q", None], n, p=[0.7, 0.18, 0.1, 0.02]),
    })


def preprocessing(dfdata):
    dfresult = pd.DataFrame()
    # Pclass
    dfPclass = pd.get_dummies(dfdata['Pclass'])
    dfPclass.columns = ['Pclass_' + str(x) for x in dfPclass.columns]
    dfresult = pd.concat([dfresult, dfPclass], axis=1)
    # Sex
    dfSex = pd.get_dummies(dfdata['Sex'])
    dfresult = pd.concat([dfresult, dfSex], axis=1)
    # Age
    dfresult['Age'] = dfdata['Age'].fillna(0)
    dfresult['Age_null'] = pd.isna(dfdata['Age']).astype('int32')
    # SibSp,Parch,Fare
    dfresult['SibSp'] = dfdata['SibSp']
    dfresult['Parch'] = dfdata['Parch']
    dfresult['Fare'] = dfdata['Fare']
    # Cabin
    dfresult['Cabin_null'] = pd.isna(dfdata['Cabin']).astype('int32')
    # Embarked
    dfEmbarked = pd.get_dummies(dfdata['Embarked'], dummy_na=True)
    dfEmbarked.columns = ['Embarked_' + str(x) for x in dfEmbarked.columns]
    dfresult = pd.concat([dfresult, dfEmbarked], axis=1)
    return dfresult


dftrain_raw, dftest_raw = make_titanic(712), make_titanic(179)
x_train = preprocessing(dftrain_raw).astype(float).values
y_train = dftrain_raw[['Survived']].values
x_test = preprocessing(dftest_raw).astype(float).values
y_test = dftest_raw[['Survived']].values
print("x_train.shape =", x_train.shape, x_train.dtype)

dl_train = DataLoader(TensorDataset(torch.tensor(x_train).float(), torch.tensor(y_train).float()), shuffle=True, batch_size=8)
dl_val = DataLoader(TensorDataset(torch.tensor(x_test).float(), torch.tensor(y_test).float()), shuffle=False, batch_size=8)


def create_net():
    net = nn.Sequential()
    net.add_module("linear1", nn.Linear(15, 20))
    net.add_module("relu1", nn.ReLU())
    net.add_module("linear2", nn.Linear(20, 15))
    net.add_module("relu2", nn.ReLU())
    net.add_module("linear3", nn.Linear(15, 1))
    return net


net = create_net()
loss_fn = nn.BCEWithLogitsLoss()
optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
for epoch in range(1, 4):
    net.train()
    for features, labels in dl_train:
        loss = loss_fn(net(features), labels)
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
    net.eval()
    with torch.no_grad():
        acc = sum(((net(f) > 0).float() == l).sum().item() for f, l in dl_val) / len(y_test)
    print(f"epoch {epoch} loss {loss.item():.4f} val_acc {acc:.3f}")
