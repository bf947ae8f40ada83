"""Road-sensor congestion classification with a two-layer GCN on a single graph (PyG-style Data object in plain torch): the symmetric adjacency normalisation D^-1/2 A D^-1/2 is done in NumPy on distance-based weights and converted with torch.from_numpy, so the propagation matrix is float64 while the node features and weights are float32
source: https://github.com/pyg-team/pytorch_geometric/issues/1134
reported-error: RuntimeError: Expected object of scalar type Double but got scalar type Float for argument #2 'mat2' in call to _th_mm (x = self.conv1(x, edge_index) on a hand-built single-graph Data object)
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 53
root-cause: line 40
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- data/sensors.py
class Data:
    def __init__(self, **kw):
        self.__dict__.update(kw)


def gaussian_kernel_adjacency(coords, sigma=0.3, thresh=0.1):
    d = np.linalg.norm(coords[:, None, :] - coords[None, :, :], axis=-1)
    w = np.exp(-(d ** 2) / sigma ** 2)
    w[w < thresh] = 0.0
    np.fill_diagonal(w, 1.0)
    return w


def normalise(w):
    deg = w.sum(axis=1)
    d_inv_sqrt = 1.0 / np.sqrt(deg)
    return d_inv_sqrt[:, None] * w * d_inv_sqrt[None, :]


def load_sensor_graph(n=60, n_feat=8, seed=0):
    rng = np.random.default_rng(seed)
    coords = rng.random((n, 2))
    speeds = rng.normal(60, 10, size=(n, n_feat)).astype(np.float32)
    x = torch.from_numpy((speeds - speeds.mean(0)) / speeds.std(0))
    y = torch.from_numpy((speeds.mean(1) < 58).astype(np.int64))
    a_hat = torch.from_numpy(normalise(gaussian_kernel_adjacency(coords)))  # root-cause
    train_mask = torch.zeros(n, dtype=torch.bool)
    train_mask[: n // 2] = True
    return Data(x=x, a_hat=a_hat, y=y, train_mask=train_mask, test_mask=~train_mask)


# ---- models/gcn.py
class DenseGCNConv(nn.Module):
    def __init__(self, cin, cout):
        super().__init__()
        self.lin = nn.Linear(cin, cout)

    def forward(self, x, a_hat):
        return torch.mm(a_hat, self.lin(x))  # fails-here


class Net(nn.Module):
    def __init__(self, cin, hidden, classes):
        super().__init__()
        self.conv1 = DenseGCNConv(cin, hidden)
        self.conv2 = DenseGCNConv(hidden, classes)

    def forward(self, data):
        x = F.relu(self.conv1(data.x, data.a_hat))
        x = F.dropout(x, training=self.training)
        return F.log_softmax(self.conv2(x, data.a_hat), dim=1)


def main():
    torch.manual_seed(0)
    data = load_sensor_graph()
    model = Net(data.x.shape[1], 16, 2)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01, weight_decay=5e-4)
    model.train()
    for epoch in range(50):
        optimizer.zero_grad()
        out = model(data)
        loss = F.nll_loss(out[data.train_mask], data.y[data.train_mask])
        loss.backward()
        optimizer.step()
    model.eval()
    pred = model(data).argmax(1)
    print("test acc", (pred[data.test_mask] == data.y[data.test_mask]).float().mean().item())


if __name__ == "__main__":
    main()
