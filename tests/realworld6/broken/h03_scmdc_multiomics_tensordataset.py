"""Single-cell multi-omics autoencoder (scMDC style): normalised RNA and ATAC count matrices (float64 NumPy) wrapped in a TensorDataset and fed to float32 encoders
source: https://github.com/xianglin226/scMDC/issues/8
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 54
root-cause: line 83
expect: DG005
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def read_dataset(n_cells=128, n_genes=50, n_peaks=40, seed=0):
    rng = np.random.default_rng(seed)
    x1 = rng.poisson(2.0, size=(n_cells, n_genes))
    x2 = rng.poisson(1.0, size=(n_cells, n_peaks))
    return x1, x2


def normalize(x, filter_min_counts=True, size_factors=True, logtrans_input=True):
    if filter_min_counts:
        x = x[:, x.sum(0) > 0]
    sf = x.sum(1, keepdims=True) / np.median(x.sum(1)) if size_factors else 1.0
    x = x / sf
    if logtrans_input:
        x = np.log1p(x)
    return x, np.squeeze(sf)


def buildNetwork(layers, activation="relu"):
    net = []
    for i in range(1, len(layers)):
        net.append(nn.Linear(layers[i - 1], layers[i]))
        if activation == "relu":
            net.append(nn.ReLU())
    return nn.Sequential(*net)


class scMultiCluster(nn.Module):
    def __init__(self, input_dim1, input_dim2, encodeLayer=(64, 32), decodeLayer1=(32, 64), decodeLayer2=(32, 64), z_dim=8):
        super().__init__()
        self.encoder = buildNetwork([input_dim1 + input_dim2] + list(encodeLayer))
        self._enc_mu = nn.Linear(encodeLayer[-1], z_dim)
        self.decoder1 = buildNetwork([z_dim] + list(decodeLayer1))
        self.decoder2 = buildNetwork([z_dim] + list(decodeLayer2))
        self.dec_mean1 = nn.Linear(decodeLayer1[-1], input_dim1)
        self.dec_mean2 = nn.Linear(decodeLayer2[-1], input_dim2)

    def forwardAE(self, x1, x2):
        x = torch.cat([x1, x2], dim=-1)
        h = self.encoder(x + torch.randn_like(x) * 0.1)  # fails-here
        z = self._enc_mu(h)
        return self.dec_mean1(self.decoder1(z)), self.dec_mean2(self.decoder2(z)), z

    def pretrain_autoencoder(self, X1, X2, batch_size=32, lr=1e-3, epochs=2):
        dataset = TensorDataset(torch.Tensor(X1.shape[0] * [0.0]), X1, X2)
        dataloader = DataLoader(dataset, batch_size=batch_size, shuffle=True)
        optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, self.parameters()), lr=lr, amsgrad=True)
        for epoch in range(epochs):
            for batch_idx, (_, x1_batch, x2_batch) in enumerate(dataloader):
                mean1, mean2, _ = self.forwardAE(x1_batch, x2_batch)
                loss = nn.functional.mse_loss(mean1, x1_batch) + nn.functional.mse_loss(mean2, x2_batch)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
            print(f"Pretrain epoch {epoch + 1}, loss {loss.item():.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", default=32, type=int)
    parser.add_argument("--pretrain_epochs", default=2, type=int)
    args = parser.parse_args()
    x1, x2 = read_dataset()
    x1, sf1 = normalize(x1)
    x2, sf2 = normalize(x2)
    print(f"### Autoencoder: Successfully preprocessed {x1.shape[1]} genes and {x1.shape[0]} cells.")
    model = scMultiCluster(input_dim1=x1.shape[1], input_dim2=x2.shape[1])
    model.pretrain_autoencoder(
        X1=torch.from_numpy(x1), X2=torch.from_numpy(x2),  # root-cause
        batch_size=args.batch_size, epochs=args.pretrain_epochs)
