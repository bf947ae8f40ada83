"""Linear model and neural net from scratch on the Kaggle Titanic table (fastai/course22 notebook 05, "Linear model and neural net from scratch": read train.csv with pandas, fill NAs with the modes, LogFare, pd.get_dummies over Sex/Pclass/Embarked, t_indep = tensor(df[indep_cols].values, dtype=torch.float), then the hand-written linear model trained with gradient descent), the state of the issue: with pandas 2 get_dummies returns bool columns, so df[indep_cols].values mixes float64 and bool and is a numpy object array that torch cannot convert
source: https://github.com/fastai/course22/issues/99
reported-error: Notebook 5 "can't convert np.ndarray of type numpy.object_" TypeError at t_indep = tensor(df[indep_cols].values, dtype=torch.float); the fix given is df[indep_cols].to_numpy(dtype=np.float32)
outcome: TypeError: can't convert np.ndarray of type numpy.object_. The only supported types are: float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, uint32, uint16, uint8, and bool. at line 59
root-cause: line 59
expect: DG004
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
from torch import tensor

torch.manual_seed(442)
np.set_printoptions(linewidth=140)
torch.set_printoptions(linewidth=140, sci_mode=False, edgeitems=7)
pd.set_option('display.width', 140)


# ---- synthetic stand-in for the competition's train.csv (the notebook downloads it with kaggle)
def write_titanic_csv(path, n=891, seed=0):
    rng = np.random.default_rng(seed)
    sex = rng.choice(["male", "female"], size=n, p=[0.65, 0.35])
    pclass = rng.choice([1, 2, 3], size=n, p=[0.24, 0.21, 0.55])
    age = np.where(rng.random(n) < 0.2, np.nan, np.round(rng.uniform(1, 75, size=n)))
    fare = np.round(rng.gamma(2.0, 16.0, size=n) * (4 - pclass), 4)
    embarked = rng.choice(["S", "C", "Q", None], size=n, p=[0.72, 0.19, 0.087, 0.003])
    logit = 1.8 * (sex == "female") - 0.8 * (pclass - 2) - 0.02 * np.nan_to_num(age, nan=30)
    survived = (rng.random(n) < 1 / (1 + np.exp(-logit))).astype(int)
    df = pd.DataFrame({
        "PassengerId": np.arange(1, n + 1), "Survived": survived, "Pclass": pclass,
        "Name": [f"Passenger {i}" for i in range(n)], "Sex": sex, "Age": age,
        "SibSp": rng.integers(0, 4, size=n), "Parch": rng.integers(0, 3, size=n),
        "Ticket": [f"T{i:05d}" for i in range(n)], "Fare": fare,
        "Cabin": np.where(rng.random(n) < 0.77, None, "C85"), "Embarked": embarked,
    })
    df.to_csv(path, index=False)


path = tempfile.mkdtemp()
write_titanic_csv(os.path.join(path, 'train.csv'))

# ## Cleaning the data
df = pd.read_csv(os.path.join(path, 'train.csv'))
print(df.isna().sum())
modes = df.mode().iloc[0]
df.fillna(modes, inplace=True)
print(df.describe(include=(np.number)))
df['LogFare'] = np.log(df['Fare'] + 1)
print(pd.get_dummies(df, columns=["Sex", "Pclass", "Embarked"]).columns)
df = pd.get_dummies(df, columns=["Sex", "Pclass", "Embarked"])
added_cols = ['Sex_male', 'Sex_female', 'Pclass_1', 'Pclass_2', 'Pclass_3', 'Embarked_C', 'Embarked_Q', 'Embarked_S']
print(df[added_cols].head())

t_dep = tensor(df.Survived)
indep_cols = ['Age', 'SibSp', 'Parch', 'LogFare'] + added_cols
t_indep = tensor(df[indep_cols].values, dtype=torch.float)  # root-cause  # fails-here
print(t_indep.shape)

# ## Setting up a linear model
n_coeff = t_indep.shape[1]
coeffs = torch.rand(n_coeff) - 0.5
vals, indices = t_indep.max(dim=0)
t_indep = t_indep / vals
preds = (t_indep * coeffs).sum(axis=1)
loss = torch.abs(preds - t_dep).mean()


def calc_preds(coeffs, indeps): return (indeps * coeffs).sum(axis=1)
def calc_loss(coeffs, indeps, deps): return torch.abs(calc_preds(coeffs, indeps) - deps).mean()


# ## Gradient descent step, training the linear model
def init_coeffs(): return (torch.rand(n_coeff) - 0.5).requires_grad_()


def update_coeffs(coeffs, lr):
    coeffs.sub_(coeffs.grad * lr)
    coeffs.grad.zero_()


def one_epoch(coeffs, lr):
    loss = calc_loss(coeffs, trn_indep, trn_dep)
    loss.backward()
    with torch.no_grad(): update_coeffs(coeffs, lr)
    print(f"{loss:.3f}", end="; ")


def train_model(epochs=30, lr=0.01):
    torch.manual_seed(442)
    coeffs = init_coeffs()
    for i in range(epochs): one_epoch(coeffs, lr=lr)
    return coeffs


# RandomSplitter(seed=42)(df) from fastai, re-typed
perm = np.random.default_rng(42).permutation(len(df))
cut = int(len(df) * 0.2)
val_idx, trn_idx = perm[:cut], perm[cut:]
trn_indep, val_indep = t_indep[trn_idx], t_indep[val_idx]
trn_dep, val_dep = t_dep[trn_idx], t_dep[val_idx]

coeffs = train_model(18, lr=0.2)
print()


def acc(coeffs): return (val_dep.bool() == (calc_preds(coeffs, val_indep) > 0.5)).float().mean()


print("validation accuracy", float(acc(coeffs)))
