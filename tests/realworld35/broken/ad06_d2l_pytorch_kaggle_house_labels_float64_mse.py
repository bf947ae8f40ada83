"""Kaggle house-price regression (ShusenTang/Dive-into-DL-PyTorch 3.16_kaggle-house-price: pandas standardisation + get_dummies, torch.tensor features, Linear net, MSELoss, log_rmse, Adam, k-fold cross-validation, train_and_pred writing submission.csv): the variant builds train_labels without dtype=torch.float and drops the loop's y.float(), so every training loss is computed in float64 against the float32 predictions
source: https://github.com/ShusenTang/Dive-into-DL-PyTorch/blob/aa75893a815c02af1c6299a7b56ec0f4408a4f70/code/chapter03_DL-basics/3.16_kaggle-house-price.ipynb
reported-error: (none filed; the notebook passes dtype=torch.float for the labels and calls y.float() in train; the variant silently trains on a float64 loss)
outcome: ok (silent: the MSELoss at line 80 promotes to float64 on every batch, printed as "fold 0, loss dtype torch.float64"; no error, the gradients still come back float32)
root-cause: line 50
expect: DG008
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn


# ---- synthetic stand-in for data/kaggle_house/train.csv and test.csv
def make_house_frames(n_train=200, n_test=100, seed=0):
    rng = np.random.RandomState(seed)
    n = n_train + n_test
    frame = pd.DataFrame({
        "Id": np.arange(1, n + 1),
        "MSSubClass": rng.choice([20, 60, 70], n),
        "MSZoning": pd.Series(rng.choice(["RL", "RM", None], n), dtype=object),
        "LotFrontage": np.where(rng.rand(n) < 0.1, np.nan, rng.uniform(40, 120, n)),
        "LotArea": rng.randint(5000, 20000, n),
        "YearBuilt": rng.randint(1900, 2010, n),
        "SaleCondition": pd.Series(rng.choice(["Normal", "Abnorml"], n), dtype=object),
    })
    price = 50000 + 8.0 * frame["LotArea"] + 400.0 * (frame["YearBuilt"] - 1900) + rng.normal(0, 8000, n)
    train = frame.iloc[:n_train].copy()
    train["SalePrice"] = price[:n_train].round(2)
    return train, frame.iloc[n_train:].reset_index(drop=True)


train_data, test_data = make_house_frames()
all_features = pd.concat((train_data.iloc[:, 1:-1], test_data.iloc[:, 1:]))

numeric_features = all_features.dtypes[all_features.dtypes != 'object'].index
all_features[numeric_features] = all_features[numeric_features].apply(
    lambda x: (x - x.mean()) / (x.std()))
# after standardisation every numeric mean is 0, so missing values become 0
all_features[numeric_features] = all_features[numeric_features].fillna(0)
# dummy_na=True makes a missing value a legal category with its own indicator
all_features = pd.get_dummies(all_features, dummy_na=True).astype(np.float64)

n_train = train_data.shape[0]
train_features = torch.tensor(all_features[:n_train].values, dtype=torch.float)
test_features = torch.tensor(all_features[n_train:].values, dtype=torch.float)
train_labels = torch.tensor(train_data.SalePrice.values).view(-1, 1)  # root-cause

loss = torch.nn.MSELoss()


def get_net(feature_num):
    net = nn.Linear(feature_num, 1)
    for param in net.parameters():
        nn.init.normal_(param, mean=0, std=0.01)
    return net


def log_rmse(net, features, labels):
    with torch.no_grad():
        # clip predictions below 1 to 1 so that the log is stable
        clipped_preds = torch.max(net(features), torch.tensor(1.0))
        rmse = torch.sqrt(2 * loss(clipped_preds.log(), labels.log()).mean())
    return rmse.item()


def train(net, train_features, train_labels, test_features, test_labels,
          num_epochs, learning_rate, weight_decay, batch_size):
    train_ls, test_ls = [], []
    dataset = torch.utils.data.TensorDataset(train_features, train_labels)
    train_iter = torch.utils.data.DataLoader(dataset, batch_size, shuffle=True)
    # Adam optimiser
    optimizer = torch.optim.Adam(params=net.parameters(), lr=learning_rate, weight_decay=weight_decay)
    net = net.float()
    for epoch in range(num_epochs):
        for X, y in train_iter:
            l = loss(net(X.float()), y)  # fails-here
            optimizer.zero_grad()
            l.backward()
            optimizer.step()
        train_ls.append(log_rmse(net, train_features, train_labels))
        if test_labels is not None:
            test_ls.append(log_rmse(net, test_features, test_labels))
    return train_ls, test_ls, l.dtype


def get_k_fold_data(k, i, X, y):
    # the training and validation data of the i-th fold
    assert k > 1
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
        train_ls, valid_ls, loss_dtype = train(net, *data, num_epochs, learning_rate, weight_decay, batch_size)
        train_l_sum += train_ls[-1]
        valid_l_sum += valid_ls[-1]
        print('fold %d, loss dtype %s, train rmse %f, valid rmse %f' % (i, loss_dtype, train_ls[-1], valid_ls[-1]))
    return train_l_sum / k, valid_l_sum / k


def train_and_pred(train_features, test_features, train_labels, test_data,
                   num_epochs, lr, weight_decay, batch_size, out_dir):
    net = get_net(train_features.shape[1])
    train_ls, _, _ = train(net, train_features, train_labels, None, None, num_epochs, lr, weight_decay, batch_size)
    print('train rmse %f' % train_ls[-1])
    preds = net(test_features).detach().numpy()
    test_data['SalePrice'] = pd.Series(preds.reshape(1, -1)[0])
    submission = pd.concat([test_data['Id'], test_data['SalePrice']], axis=1)
    submission.to_csv(os.path.join(out_dir, 'submission.csv'), index=False)


k, num_epochs, lr, weight_decay, batch_size = 5, 100, 5, 0, 64
train_l, valid_l = k_fold(k, train_features, train_labels, num_epochs, lr, weight_decay, batch_size)
print('%d-fold validation: avg train rmse %f, avg valid rmse %f' % (k, train_l, valid_l))
train_and_pred(train_features, test_features, train_labels, test_data, num_epochs, lr, weight_decay, batch_size,
               tempfile.mkdtemp())
