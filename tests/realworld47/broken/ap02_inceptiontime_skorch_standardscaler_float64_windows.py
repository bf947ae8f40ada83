"""Multivariate time-series classification with InceptionTime wrapped in a skorch NeuralNetClassifier (TheMrGhostman/InceptionTime-Pytorch: inception.py's Inception and InceptionBlock, the README's nn.Sequential with Reshape / Flatten, re-typed as in the notebook; skorch's NeuralNetClassifier reduced to its fit loop, which turns X into a tensor with torch.as_tensor and no cast), the state of the issue: the user's sensor table is read with pandas (float64 columns), scaled with scikit-learn's StandardScaler and cut into (N, C, L) windows, so X stays float64 and the first Inception module's bottleneck Conv1d (float32 weights) rejects it
source: https://github.com/TheMrGhostman/InceptionTime-Pytorch/issues/2
reported-error: generalize to other datasets: wrapping the README's InceptionTime in a skorch NeuralNetClassifier on a multichannel dataset gives "RuntimeError: expected scalar type Double but found Float" in the first line of the forward method of Inception (calling bottleneck); fixed by converting X to float (X = X.float()); the maintainer: "I usually convert vectors/matrices into torch.tensor and make it float manually"
outcome: RuntimeError: expected scalar type Double but found Float at line 53
root-cause: line 184
expect: DG004
"""
import io

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.preprocessing import LabelEncoder, StandardScaler


# ---- inception.py
def correct_sizes(sizes):
    corrected_sizes = [s if s % 2 != 0 else s - 1 for s in sizes]
    return corrected_sizes


def pass_through(X):
    return X


class Inception(nn.Module):
    def __init__(self, in_channels, n_filters, kernel_sizes=[9, 19, 39], bottleneck_channels=32, activation=nn.ReLU(), return_indices=False):
        super(Inception, self).__init__()
        self.return_indices = return_indices
        if in_channels > 1:
            self.bottleneck = nn.Conv1d(
                in_channels=in_channels,
                out_channels=bottleneck_channels,
                kernel_size=1,
                stride=1,
                bias=False
            )
        else:
            self.bottleneck = pass_through
            bottleneck_channels = 1

        self.conv_from_bottleneck_1 = nn.Conv1d(in_channels=bottleneck_channels, out_channels=n_filters, kernel_size=kernel_sizes[0], stride=1, padding=kernel_sizes[0]//2, bias=False)
        self.conv_from_bottleneck_2 = nn.Conv1d(in_channels=bottleneck_channels, out_channels=n_filters, kernel_size=kernel_sizes[1], stride=1, padding=kernel_sizes[1]//2, bias=False)
        self.conv_from_bottleneck_3 = nn.Conv1d(in_channels=bottleneck_channels, out_channels=n_filters, kernel_size=kernel_sizes[2], stride=1, padding=kernel_sizes[2]//2, bias=False)
        self.max_pool = nn.MaxPool1d(kernel_size=3, stride=1, padding=1, return_indices=return_indices)
        self.conv_from_maxpool = nn.Conv1d(in_channels=in_channels, out_channels=n_filters, kernel_size=1, stride=1, padding=0, bias=False)
        self.batch_norm = nn.BatchNorm1d(num_features=4*n_filters)
        self.activation = activation

    def forward(self, X):
        # step 1
        Z_bottleneck = self.bottleneck(X)  # fails-here
        if self.return_indices:
            Z_maxpool, indices = self.max_pool(X)
        else:
            Z_maxpool = self.max_pool(X)
        # step 2
        Z1 = self.conv_from_bottleneck_1(Z_bottleneck)
        Z2 = self.conv_from_bottleneck_2(Z_bottleneck)
        Z3 = self.conv_from_bottleneck_3(Z_bottleneck)
        Z4 = self.conv_from_maxpool(Z_maxpool)
        # step 3
        Z = torch.cat([Z1, Z2, Z3, Z4], axis=1)
        Z = self.activation(self.batch_norm(Z))
        if self.return_indices:
            return Z, indices
        else:
            return Z


class InceptionBlock(nn.Module):
    def __init__(self, in_channels, n_filters=32, kernel_sizes=[9, 19, 39], bottleneck_channels=32, use_residual=True, activation=nn.ReLU(), return_indices=False):
        super(InceptionBlock, self).__init__()
        self.use_residual = use_residual
        self.return_indices = return_indices
        self.activation = activation
        self.inception_1 = Inception(in_channels=in_channels, n_filters=n_filters, kernel_sizes=kernel_sizes, bottleneck_channels=bottleneck_channels, activation=activation, return_indices=return_indices)
        self.inception_2 = Inception(in_channels=4*n_filters, n_filters=n_filters, kernel_sizes=kernel_sizes, bottleneck_channels=bottleneck_channels, activation=activation, return_indices=return_indices)
        self.inception_3 = Inception(in_channels=4*n_filters, n_filters=n_filters, kernel_sizes=kernel_sizes, bottleneck_channels=bottleneck_channels, activation=activation, return_indices=return_indices)
        if self.use_residual:
            self.residual = nn.Sequential(
                nn.Conv1d(in_channels=in_channels, out_channels=4*n_filters, kernel_size=1, stride=1, padding=0),
                nn.BatchNorm1d(num_features=4*n_filters)
            )

    def forward(self, X):
        if self.return_indices:
            Z, i1 = self.inception_1(X)
            Z, i2 = self.inception_2(Z)
            Z, i3 = self.inception_3(Z)
        else:
            Z = self.inception_1(X)
            Z = self.inception_2(Z)
            Z = self.inception_3(Z)
        if self.use_residual:
            Z = Z + self.residual(X)
            Z = self.activation(Z)
        if self.return_indices:
            return Z, [i1, i2, i3]
        else:
            return Z


# ---- the notebook's helper modules
class Flatten(nn.Module):
    def __init__(self, out_features):
        super(Flatten, self).__init__()
        self.output_dim = out_features

    def forward(self, x):
        return x.view(-1, self.output_dim)


class Reshape(nn.Module):
    def __init__(self, out_shape):
        super(Reshape, self).__init__()
        self.out_shape = out_shape

    def forward(self, x):
        return x.view(-1, *self.out_shape)


# ---- skorch.NeuralNetClassifier (re-typed: skorch.utils.to_tensor is torch.as_tensor(X, device=device), no cast)
class NeuralNetClassifier:
    def __init__(self, module, criterion=nn.CrossEntropyLoss, optimizer=torch.optim.Adam, lr=0.01,
                 max_epochs=10, batch_size=128, device="cpu"):
        self.module_, self.criterion_ = module.to(device), criterion()
        self.optimizer_ = optimizer(self.module_.parameters(), lr=lr)
        self.max_epochs, self.batch_size, self.device = max_epochs, batch_size, device

    def fit(self, X, y):
        for epoch in range(self.max_epochs):
            self.module_.train()
            perm = np.random.permutation(len(X))
            losses = []
            for start in range(0, len(X), self.batch_size):
                idx = perm[start:start + self.batch_size]
                Xi = torch.as_tensor(X[idx], device=self.device)
                yi = torch.as_tensor(y[idx], device=self.device)
                y_pred = self.module_(Xi)
                loss = self.criterion_(y_pred, yi)
                self.optimizer_.zero_grad()
                loss.backward()
                self.optimizer_.step()
                losses.append(loss.item())
            print(f"epoch {epoch + 1}  train_loss {np.mean(losses):.4f}")
        return self

    def predict(self, X):
        self.module_.eval()
        with torch.no_grad():
            return self.module_(torch.as_tensor(X, device=self.device)).argmax(1).cpu().numpy()


# ---- the user's data: a multichannel sensor log (CSV read with pandas; seeded, written to memory)
N_CHANNELS, LENGTH = 3, 64
FEATURES = ["acc_x", "acc_y", "acc_z"]


def make_csv(n_windows=96, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for w in range(n_windows):
        label = ["walk", "run", "sit", "stairs"][w % 4]
        freq = {"walk": 2.0, "run": 4.0, "sit": 0.2, "stairs": 1.0}[label]
        t = np.arange(LENGTH) / 32.0
        sig = np.stack([np.sin(2 * np.pi * freq * t + k) for k in range(N_CHANNELS)], 1) * (1 + 0.3 * rng.standard_normal((1, N_CHANNELS)))
        sig += 0.2 * rng.standard_normal(sig.shape) + 9.81 * (np.arange(N_CHANNELS) == 2)
        for i in range(LENGTH):
            rows.append([w, i, *sig[i], label])
    df = pd.DataFrame(rows, columns=["window", "step", *FEATURES, "activity"])
    buf = io.StringIO()
    df.to_csv(buf, index=False)
    buf.seek(0)
    return buf


if __name__ == "__main__":
    np.random.seed(0)
    torch.manual_seed(0)
    df = pd.read_csv(make_csv())
    scaler = StandardScaler()
    scaled = scaler.fit_transform(df[FEATURES].values)  # root-cause
    X = scaled.reshape(-1, LENGTH, N_CHANNELS).transpose(0, 2, 1)  # (N, C, L)
    y = LabelEncoder().fit_transform(df.groupby("window")["activity"].first().values)
    print("X", X.shape, X.dtype, "y", y.shape, y.dtype)

    InceptionTime = nn.Sequential(
        Reshape(out_shape=(N_CHANNELS, LENGTH)),
        InceptionBlock(in_channels=N_CHANNELS, n_filters=32, kernel_sizes=[5, 11, 23], bottleneck_channels=32, use_residual=True, activation=nn.ReLU()),
        InceptionBlock(in_channels=32*4, n_filters=32, kernel_sizes=[5, 11, 23], bottleneck_channels=32, use_residual=True, activation=nn.ReLU()),
        nn.AdaptiveAvgPool1d(output_size=1),
        Flatten(out_features=32*4*1),
        nn.Linear(in_features=4*32*1, out_features=4)
    )
    net = NeuralNetClassifier(InceptionTime, max_epochs=3, lr=0.001, batch_size=32)
    net.fit(X[:80], y[:80])
    acc = (net.predict(X[80:]) == y[80:]).mean()
    print(f"held-out accuracy: {acc:.3f}")
