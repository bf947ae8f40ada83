"""Mechanisms-of-Action multi-label classifier (SriCoD/Hyperparam-Autotuning src/: train.py merges train_features.csv with the k-fold targets frame and hands to_numpy() arrays to utils.MOADataset; utils.Model builds an nn.Sequential of Linear/BatchNorm1d/Dropout/ReLU blocks in a loop; utils.Engine holds model, optimizer and device and computes BCEWithLogitsLoss in a static loss_fn): the variant's MOADataset.__getitem__ keeps the dtype=torch.float of the features but not of the targets, so the 0/1 target columns, int64 in pandas, reach BCEWithLogitsLoss as int64
source: https://github.com/SriCoD/Hyperparam-Autotuning/blob/1daee29992375ebefe7009651eb4aa3544ba8b19/src/train.py
reported-error: (none filed; utils.py builds "y" with torch.tensor(self.targets[item, :], dtype=torch.float); the variant drops the dtype and Engine.train fails in loss_fn)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 42
root-cause: line 27
expect: DG007
"""
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.nn as nn


# ---- utils.py (__getitem__ takes the `item` argument upstream forgot; evaluate is dedented into the class)
class MOADataset:
    def __init__(self, features, targets):
        # both features and targets are numpy arrays
        self.features = features
        self.targets = targets

    def __getitem__(self, item):
        return {
            "x": torch.tensor(self.features[item, :], dtype=torch.float),
            "y": torch.tensor(self.targets[item, :]),  # root-cause
        }

    def __len__(self):
        return self.features.shape[0]


class Engine:
    def __init__(self, model, optimizer, device):
        self.model = model
        self.device = device
        self.optimizer = optimizer

    @staticmethod
    def loss_fn(targets, outputs):
        return nn.BCEWithLogitsLoss()(outputs, targets)  # fails-here

    def train(self, data_loader):
        self.model.train()
        final_loss = 0
        for data in data_loader:
            self.optimizer.zero_grad()
            inputs = data["x"].to(self.device)
            targets = data["y"].to(self.device)
            outputs = self.model(inputs)
            loss = self.loss_fn(targets, outputs)
            loss.backward()
            self.optimizer.step()
            final_loss += loss.item()
        return final_loss / len(data_loader)

    def evaluate(self, data_loader):
        self.model.eval()
        final_loss = 0
        for data in data_loader:
            inputs = data["x"].to(self.device)
            targets = data["y"].to(self.device)
            outputs = self.model(inputs)
            loss = self.loss_fn(targets, outputs)
            final_loss += loss.item()
        return final_loss / len(data_loader)


class Model(nn.Module):
    def __init__(self, nfeatures, ntargets, nlayers, hidden_size, dropout):
        super().__init__()
        layers = []
        for _ in range(nlayers):
            if len(layers) == 0:
                layers.append(nn.Linear(nfeatures, hidden_size))
                layers.append(nn.BatchNorm1d(hidden_size))
                layers.append(nn.Dropout(dropout))
                layers.append(nn.ReLU())
            else:
                layers.append(nn.Linear(hidden_size, hidden_size))
                layers.append(nn.BatchNorm1d(hidden_size))
                layers.append(nn.Dropout(dropout))
                layers.append(nn.ReLU())
        layers.append(nn.Linear(hidden_size, ntargets))
        self.model = nn.Sequential(*layers)

    def forward(self, x):
        return self.model(x)


# ---- synthetic ./input/ (train_features.csv, train_targets_folds.csv from create_folds.py)
def write_inputs(folder, n=400, n_genes=30, n_targets=8):
    rng = np.random.default_rng(0)
    sig = [f"id_{i:05d}" for i in range(n)]
    feats = pd.DataFrame(rng.normal(size=(n, n_genes)), columns=[f"g-{i}" for i in range(n_genes)])
    feats.insert(0, "sig_id", sig)
    feats["cp_type"] = rng.choice(["trt_cp", "ctl_vehicle"], n)
    feats["cp_time"] = rng.choice([24, 48, 72], n)
    feats["cp_dose"] = rng.choice(["D1", "D2"], n)
    feats.to_csv(os.path.join(folder, "train_features.csv"), index=False)
    targets = pd.DataFrame((rng.random((n, n_targets)) < 0.1).astype(int), columns=[f"moa_{j}" for j in range(n_targets)])
    targets.insert(0, "sig_id", sig)
    targets["kfold"] = np.arange(n) % 5
    targets.to_csv(os.path.join(folder, "train_targets_folds.csv"), index=False)


# ---- train.py
DEVICE = "cpu"
EPOCHS = 3
INPUT = tempfile.mkdtemp()


def run_training(fold, save_model=False):
    df = pd.read_csv(os.path.join(INPUT, "train_features.csv"))
    df = df.drop(["cp_time", "cp_dose", "cp_type"], axis=1)

    targets_df = pd.read_csv(os.path.join(INPUT, "train_targets_folds.csv"))

    feature_columns = df.drop("sig_id", axis=1).columns
    target_columns = targets_df.drop(["sig_id", "kfold"], axis=1).columns

    df = df.merge(targets_df, on="sig_id", how="left")

    train_df = df[df.kfold != fold].reset_index(drop=True)
    valid_df = df[df.kfold == fold].reset_index(drop=True)

    xtrain = train_df[feature_columns].to_numpy()
    ytrain = train_df[target_columns].to_numpy()

    xvalid = valid_df[feature_columns].to_numpy()
    yvalid = valid_df[target_columns].to_numpy()

    train_dataset = MOADataset(features=xtrain, targets=ytrain)
    valid_dataset = MOADataset(features=xvalid, targets=yvalid)

    train_loader = torch.utils.data.DataLoader(
        train_dataset, batch_size=64, num_workers=0, shuffle=True
    )

    valid_loader = torch.utils.data.DataLoader(
        valid_dataset, batch_size=64, num_workers=0
    )

    model = Model(
        nfeatures=xtrain.shape[1],
        ntargets=ytrain.shape[1],
        nlayers=2,
        hidden_size=128,
        dropout=0.3,
    )

    model.to(DEVICE)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.001)

    eng = Engine(model, optimizer, device=DEVICE)

    best_loss = np.inf
    early_stopping_iter = 10
    early_stopping_counter = 0

    for epoch in range(EPOCHS):
        train_loss = eng.train(train_loader)
        valid_loss = eng.evaluate(valid_loader)
        print(f"{fold}, {epoch}, {train_loss}, {valid_loss}")
        if valid_loss < best_loss:
            best_loss = valid_loss
            if save_model:
                torch.save(model.state_dict(), os.path.join(INPUT, f"model_{fold}.bin"))
        else:
            early_stopping_counter += 1

        if early_stopping_counter > early_stopping_iter:
            break


if __name__ == "__main__":
    write_inputs(INPUT)
    run_training(fold=0)
