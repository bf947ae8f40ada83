"""Dive-into-DL-PyTorch 3.16 Kaggle house prices of bg06 (ShusenTang/Dive-into-DL-PyTorch #187) with the conversion from the thread: the bool get_dummies columns are kept, and the frame is turned into a float64 array with np.array(...).astype(np.float64) before torch.tensor(..., dtype=torch.float), so the features become float32 tensors and the 3-fold validation trains; the int64 SalePrice labels converted with dtype=torch.float are kept
source: https://github.com/ShusenTang/Dive-into-DL-PyTorch/issues/187
reported-error: (none; the fixed situation of bg06)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


def house_frame(n, with_price):
    zoning = rng.choice(["RL", "RM", "FV", None], n, p=[0.6, 0.25, 0.1, 0.05])
    frame = pd.DataFrame({
        "Id": np.arange(n), "MSSubClass": rng.choice([20, 50, 60, 70, 120], n), "MSZoning": zoning,
        "LotFrontage": np.where(rng.random(n) < 0.15, np.nan, rng.normal(70, 20, n).round()),
        "LotArea": rng.integers(1500, 20000, n), "OverallQual": rng.integers(1, 11, n),
        "GrLivArea": rng.integers(400, 3500, n), "SaleType": rng.choice(["WD", "New", "COD"], n),
        "SaleCondition": rng.choice(["Normal", "Abnorml", "Partial"], n),
    })
    if with_price:
        frame["SalePrice"] = (30000 + 60 * frame.GrLivArea + 15000 * frame.OverallQual
                              + rng.normal(0, 20000, n)).clip(35000).astype(int)
    return frame


train_data = house_frame(1460, True)
test_data = house_frame(1459, False)
all_features = pd.concat((train_data.iloc[:, 1:-1], test_data.iloc[:, 1:]))

# 3.16.3 preprocessing (pandas 3 gives the text columns the str dtype, so the numeric columns are picked by exclusion)
numeric_features = all_features.select_dtypes(exclude=["object", "string"]).columns
all_features[numeric_features] = all_features[numeric_features].apply(lambda x: (x - x.mean()) / (x.std()))
all_features[numeric_features] = all_features[numeric_features].fillna(0)
all_features = pd.get_dummies(all_features, dummy_na=True)
print(all_features.shape, all_features.dtypes.value_counts().to_dict())

n_train = train_data.shape[0]
train_features = torch.tensor(np.array(all_features[:n_train]).astype(np.float64), dtype=torch.float)
test_features = torch.tensor(np.array(all_features[n_train:]).astype(np.float64), dtype=torch.float)
train_labels = torch.tensor(train_data.SalePrice.values, dtype=torch.float).view(-1, 1)

# 3.16.4 training
loss = torch.nn.MSELoss()


def get_net(feature_num):
    net = nn.Linear(feature_num, 1)
    for param in net.parameters():
        nn.init.normal_(param, mean=0, std=0.01)
    return net


def log_rmse(net, features, labels):
    with torch.no_grad():
        clipped_preds = torch.max(net(features), torch.tensor(1.0))
        rmse = torch.sqrt(2 * loss(clipped_preds.log(), labels.log()).mean())
    return rmse.item()


def train(net, train_features, train_labels, test_features, test_labels, num_epochs, learning_rate,
          weight_decay, batch_size):
    train_ls, test_ls = [], []
    dataset = torch.utils.data.TensorDataset(train_features, train_labels)
    train_iter = torch.utils.data.DataLoader(dataset, batch_size, shuffle=True)
    optimizer = torch.optim.Adam(params=net.parameters(), lr=learning_rate, weight_decay=weight_decay)
    net = net.float()
    for epoch in range(num_epochs):
        for X, y in train_iter:
            l = loss(net(X.float()), y.float())
            optimizer.zero_grad()
            l.backward()
            optimizer.step()
        train_ls.append(log_rmse(net, train_features, train_labels))
        if test_labels is not None:
            test_ls.append(log_rmse(net, test_features, test_labels))
    return train_ls, test_ls


def get_k_fold_data(k, i, X, y):
    fold_size = X.shape[0] // k
    X_train, y_train = None, None
    for j in range(k):
        idx = slice(j * fold_size, (j + 1) * fold_size)
        X_part, y_part = X[idx, :], y[idx]
        if j == i:
            X_valid, y_valid = X_part, y_part
        elif X_train is None:
            X_train, y_train = X_part, y_part
        else:
            X_train = torch.cat((X_train, X_part), dim=0)
            y_train = torch.cat((y_train, y_part), dim=0)
    return X_train, y_train, X_valid, y_valid


def k_fold(k, X_train, y_train, num_epochs, learning_rate, weight_decay, batch_size):
    train_l_sum, valid_l_sum = 0, 0
    for i in range(k):
        data = get_k_fold_data(k, i, X_train, y_train)
        net = get_net(X_train.shape[1])
        train_ls, valid_ls = train(net, *data, num_epochs, learning_rate, weight_decay, batch_size)
        train_l_sum += train_ls[-1]
        valid_l_sum += valid_ls[-1]
        print('fold %d, train rmse %f, valid rmse %f' % (i, train_ls[-1], valid_ls[-1]))
    return train_l_sum / k, valid_l_sum / k


k, num_epochs, lr, weight_decay, batch_size = 3, 20, 5, 0, 64
train_l, valid_l = k_fold(k, train_features, train_labels, num_epochs, lr, weight_decay, batch_size)
print('%d-fold validation: avg train rmse %f, avg valid rmse %f' % (k, train_l, valid_l))
