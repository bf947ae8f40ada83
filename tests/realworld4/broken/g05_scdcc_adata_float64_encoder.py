"""scDCC autoencoder pretraining: the normalised count matrix (float64 after NumPy size-factor/log1p scaling) is turned into a tensor without a cast, and the encoder's Linear rejects it
source: https://github.com/ttgump/scDCC/issues/2
reported-error: RuntimeError from torch._C._nn.linear at h = self.encoder(x+torch.randn_like(x) * float(self.sigma)) in encodeBatch (message cut off in the report; the input comes from the float64 AnnData matrix)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 41
root-cause: line 46
expect: DG005
"""
import argparse
import math

import numpy as np
import torch
import torch.nn as nn


def normalize(counts):
    size_factors = counts.sum(1) / np.median(counts.sum(1))
    X = np.log1p(counts / size_factors[:, None])
    X = (X - X.mean(0)) / (X.std(0) + 1e-8)
    return X, size_factors


def buildNetwork(layers, activation="relu"):
    net = []
    for i in range(1, len(layers)):
        net.append(nn.Linear(layers[i - 1], layers[i]))
        net.append(nn.ReLU() if activation == "relu" else nn.Sigmoid())
    return nn.Sequential(*net)


class scDCC(nn.Module):
    def __init__(self, input_dim, z_dim, encodeLayer=[], decodeLayer=[], sigma=1.0):
        super().__init__()
        self.sigma = sigma
        self.encoder = buildNetwork([input_dim] + encodeLayer)
        self.decoder = buildNetwork([z_dim] + decodeLayer)
        self._enc_mu = nn.Linear(encodeLayer[-1], z_dim)
        self._dec_mean = nn.Linear(decodeLayer[-1], input_dim)

    def forward(self, x):
        h = self.encoder(x + torch.randn_like(x) * float(self.sigma))  # fails-here
        z = self._enc_mu(h)
        return z, self._dec_mean(self.decoder(z))

    def pretrain_autoencoder(self, X, batch_size=64, lr=0.001, epochs=2):
        X = torch.tensor(X)  # root-cause
        optimizer = torch.optim.Adam(self.parameters(), lr=lr, amsgrad=True)
        num_batch = int(math.ceil(X.shape[0] / batch_size))
        for epoch in range(epochs):
            for batch_idx in range(num_batch):
                x_batch = X[batch_idx * batch_size:(batch_idx + 1) * batch_size]
                _, mean = self.forward(x_batch)
                loss = ((mean - x_batch) ** 2).mean()
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print("Pretrain epoch %d, loss %.4f" % (epoch + 1, loss.item()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="scDCC pretraining")
    parser.add_argument("--batch_size", default=64, type=int)
    parser.add_argument("--pretrain_epochs", default=2, type=int)
    parser.add_argument("--sigma", default=2.5, type=float)
    args = parser.parse_args()

    counts = np.random.default_rng(0).poisson(2.0, size=(300, 200)).astype(np.float64) + 1.0
    X, sf = normalize(counts)
    model = scDCC(input_dim=X.shape[1], z_dim=32, encodeLayer=[256, 64], decodeLayer=[64, 256], sigma=args.sigma)
    model.pretrain_autoencoder(X, batch_size=args.batch_size, epochs=args.pretrain_epochs)
