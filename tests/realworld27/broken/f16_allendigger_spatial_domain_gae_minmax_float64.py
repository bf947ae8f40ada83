"""Spatial-domain clustering of mouse-brain voxels with a graph autoencoder (Allendigger analysis.get_spatial_domain layout): the float32 cast of the expression matrix happens only on the variable-genes branch, the default branch scales adata.X with MinMaxScaler (float64) and wraps it with torch.tensor, and the first GCNConv multiplies the double node features by its float32 weight
source: https://github.com/xiaoqunwang-lab/Allendigger/pull/3
reported-error: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float when running get_spatial_domain on E13pt5 dataset (fixed by "casting tensor type")
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 31
root-cause: line 79
expect: DG004
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn


# ---- sklearn.preprocessing.MinMaxScaler (stand-in with the same float64 output)
class MinMaxScaler:
    def fit_transform(self, X):
        X = np.asarray(X, dtype=np.float64)
        span = X.max(axis=0) - X.min(axis=0)
        return (X - X.min(axis=0)) / np.where(span == 0, 1.0, span)


# ---- torch_geometric.nn (stand-ins for GCNConv and GAE)
class GCNConv(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(in_channels, out_channels))
        self.bias = nn.Parameter(torch.zeros(out_channels))
        nn.init.xavier_uniform_(self.weight)

    def forward(self, x, edge_index):
        x = torch.matmul(x, self.weight)  # fails-here
        row, col = edge_index
        deg = torch.zeros(x.size(0), dtype=x.dtype).index_add_(0, row, torch.ones(row.size(0), dtype=x.dtype))
        norm = deg[row].rsqrt() * deg[col].rsqrt()
        out = torch.zeros_like(x).index_add_(0, row, x[col] * norm.unsqueeze(-1))
        return out + self.bias


class GAE(nn.Module):
    def __init__(self, encoder):
        super().__init__()
        self.encoder = encoder

    def encode(self, *args):
        return self.encoder(*args)

    def recon_loss(self, z, pos_edge_index):
        pos = (z[pos_edge_index[0]] * z[pos_edge_index[1]]).sum(-1).sigmoid()
        neg_index = torch.randint(0, z.size(0), pos_edge_index.shape)
        neg = (z[neg_index[0]] * z[neg_index[1]]).sum(-1).sigmoid()
        return -torch.log(pos + 1e-15).mean() - torch.log(1 - neg + 1e-15).mean()


# ---- allendigger/accessdata.py (synthetic voxel x gene table for one section)
def get_data(n_voxels=120, n_genes=40, seed=0):
    rng = np.random.default_rng(seed)
    obs = pd.DataFrame({"x": rng.integers(0, 20, n_voxels), "y": rng.integers(0, 20, n_voxels), "z": np.full(n_voxels, 14)})
    X = rng.gamma(2.0, 1.0, (n_voxels, n_genes))
    return obs, X


# ---- allendigger/analysis.py
def get_spatial_domain(section_id=14, knn=6, lr_rate=1e-3, epochs=20, weight_decay=1e-5, latent_dim=8,
                       use_variable_genes=False, var_genes=(), verbose=True):
    obs, X = get_data()
    coord = obs[["x", "y"]].to_numpy(dtype=float)
    dist = np.linalg.norm(coord[:, None] - coord[None], axis=-1)
    indices = np.argsort(dist, axis=1)[:, :knn + 1]
    voxel1 = np.repeat(np.arange(len(coord)), knn + 1)
    voxel2 = indices.reshape(-1)
    edge_index = torch.LongTensor(np.array([voxel1, voxel2]))

    if use_variable_genes:
        mat = X.astype(np.float32)[:, list(var_genes)]
    else:
        mat = X
    min_max_scaler = MinMaxScaler()
    mat = min_max_scaler.fit_transform(mat)
    mat = torch.tensor(mat)  # root-cause
    nodes = mat

    class GCNEncoder(nn.Module):
        def __init__(self, in_channels, out_channels):
            super().__init__()
            self.conv1 = GCNConv(in_channels, 2 * out_channels)
            self.conv2 = GCNConv(2 * out_channels, out_channels)
            self.conv3 = GCNConv(out_channels, 2 * out_channels)
            self.conv4 = GCNConv(2 * out_channels, in_channels)

        def forward(self, x, edge_index):
            hidden1 = self.conv1(x, edge_index).relu()
            encoded = self.conv2(hidden1, edge_index)
            hidden2 = self.conv3(encoded, edge_index).relu()
            return encoded, self.conv4(hidden2, edge_index)

    model = GAE(GCNEncoder(nodes.shape[1], latent_dim))
    optimizer = torch.optim.Adam(model.parameters(), lr=lr_rate, weight_decay=weight_decay)

    def train():
        model.train()
        optimizer.zero_grad()
        z, out = model.encode(nodes, edge_index)
        loss = model.recon_loss(z, edge_index)
        loss.backward()
        optimizer.step()
        return float(loss)

    for epoch in range(1, epochs + 1):
        loss = train()
        if verbose and epoch % 10 == 0:
            print(f"Epoch:{epoch},Loss:{loss:.4f}")
    encoded, _ = model.encode(nodes, edge_index)
    return encoded.detach().numpy()


if __name__ == "__main__":
    torch.manual_seed(0)
    emb = get_spatial_domain()
    print("latent embedding", emb.shape, emb.dtype)
