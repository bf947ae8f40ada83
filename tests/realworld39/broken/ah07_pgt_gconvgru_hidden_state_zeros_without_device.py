"""Weekly chickenpox-case forecasting with PyTorch Geometric Temporal's GConvGRU on a static county graph (pytorch_geometric_temporal issue #20: GConvGRU._set_hidden_state creates the initial hidden state with torch.zeros(X.shape[0], self.out_channels), without the input's device): the recurrent model is moved to CUDA when one is available and the snapshots follow it, but H is born on the CPU, so the first Chebyshev convolution of H inside the update gate mixes a CPU input with CUDA weights
source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/20
reported-error: "GConvGRU error using CUDA": in the GConvGRU class the hidden state is created regardless of the device type of the input (suggested fix: torch.zeros(X.shape[0], self.out_channels).to(X.device))
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (exact wording varies with the torch version, e.g. "... but got mat1 is on cpu, different from other tensors on cuda:0"; not run on a GPU for this set: no device machine was lent to this task) at line 46; on CPU: ok
root-cause: line 92
expect: DG009
"""
import json

import numpy as np

import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- torch_geometric/nn/conv/cheb_conv.py (sym normalization, lambda_max = 2)
class ChebConv(nn.Module):
    def __init__(self, in_channels, out_channels, K, normalization="sym", bias=True):
        super().__init__()
        self.K = K
        self.normalization = normalization
        self.lins = nn.ModuleList([nn.Linear(in_channels, out_channels, bias=False) for _ in range(K)])
        self.bias = nn.Parameter(torch.zeros(out_channels)) if bias else None
        for lin in self.lins:
            nn.init.xavier_uniform_(lin.weight)

    def __norm__(self, edge_index, num_nodes, edge_weight, lambda_max=None):
        row, col = edge_index
        deg = torch.zeros(num_nodes, dtype=edge_weight.dtype, device=edge_weight.device)
        deg = deg.index_add_(0, row, edge_weight)
        deg_inv_sqrt = deg.pow(-0.5)
        deg_inv_sqrt[deg_inv_sqrt == float("inf")] = 0
        lambda_max = 2.0 if lambda_max is None else lambda_max
        # L_hat = 2 L / lambda_max - I = -D^-1/2 A D^-1/2 for lambda_max = 2
        return -deg_inv_sqrt[row] * edge_weight * deg_inv_sqrt[col] * (2.0 / lambda_max)

    def propagate(self, edge_index, x, norm):
        row, col = edge_index
        return torch.zeros_like(x).index_add_(0, col, norm.view(-1, 1) * x[row])

    def forward(self, x, edge_index, edge_weight=None, lambda_max=None):
        norm = self.__norm__(edge_index, x.size(0), edge_weight, lambda_max)
        Tx_0 = x
        Tx_1 = x  # Dummy.
        out = self.lins[0](Tx_0)  # fails-here
        if len(self.lins) > 1:
            Tx_1 = self.propagate(edge_index, x=x, norm=norm)
            out = out + self.lins[1](Tx_1)
        for lin in self.lins[2:]:
            Tx_2 = self.propagate(edge_index, x=Tx_1, norm=norm)
            Tx_2 = 2. * Tx_2 - Tx_0
            out = out + lin.forward(Tx_2)
            Tx_0, Tx_1 = Tx_1, Tx_2
        if self.bias is not None:
            out = out + self.bias
        return out


# ---- torch_geometric_temporal/nn/recurrent/gconv_gru.py
class GConvGRU(nn.Module):
    """Chebyshev Graph Convolutional Gated Recurrent Unit Cell."""

    def __init__(self, in_channels, out_channels, K, normalization="sym", bias=True):
        super().__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.K = K
        self.normalization = normalization
        self.bias = bias
        self._create_parameters_and_layers()

    def _create_update_gate_parameters_and_layers(self):
        self.conv_x_z = ChebConv(self.in_channels, self.out_channels, self.K, self.normalization, self.bias)
        self.conv_h_z = ChebConv(self.out_channels, self.out_channels, self.K, self.normalization, self.bias)

    def _create_reset_gate_parameters_and_layers(self):
        self.conv_x_r = ChebConv(self.in_channels, self.out_channels, self.K, self.normalization, self.bias)
        self.conv_h_r = ChebConv(self.out_channels, self.out_channels, self.K, self.normalization, self.bias)

    def _create_candidate_state_parameters_and_layers(self):
        self.conv_x_h = ChebConv(self.in_channels, self.out_channels, self.K, self.normalization, self.bias)
        self.conv_h_h = ChebConv(self.out_channels, self.out_channels, self.K, self.normalization, self.bias)

    def _create_parameters_and_layers(self):
        self._create_update_gate_parameters_and_layers()
        self._create_reset_gate_parameters_and_layers()
        self._create_candidate_state_parameters_and_layers()

    def _set_hidden_state(self, X, H):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels)  # root-cause
        return H

    def _calculate_update_gate(self, X, edge_index, edge_weight, H, lambda_max):
        Z = self.conv_x_z(X, edge_index, edge_weight, lambda_max=lambda_max)
        Z = Z + self.conv_h_z(H, edge_index, edge_weight, lambda_max=lambda_max)
        Z = torch.sigmoid(Z)
        return Z

    def _calculate_reset_gate(self, X, edge_index, edge_weight, H, lambda_max):
        R = self.conv_x_r(X, edge_index, edge_weight, lambda_max=lambda_max)
        R = R + self.conv_h_r(H, edge_index, edge_weight, lambda_max=lambda_max)
        R = torch.sigmoid(R)
        return R

    def _calculate_candidate_state(self, X, edge_index, edge_weight, H, R, lambda_max):
        H_tilde = self.conv_x_h(X, edge_index, edge_weight, lambda_max=lambda_max)
        H_tilde = H_tilde + self.conv_h_h(H * R, edge_index, edge_weight, lambda_max=lambda_max)
        H_tilde = torch.tanh(H_tilde)
        return H_tilde

    def _calculate_hidden_state(self, Z, H, H_tilde):
        H = Z * H + (1 - Z) * H_tilde
        return H

    def forward(self, X, edge_index, edge_weight=None, H=None, lambda_max=None):
        H = self._set_hidden_state(X, H)
        Z = self._calculate_update_gate(X, edge_index, edge_weight, H, lambda_max)
        R = self._calculate_reset_gate(X, edge_index, edge_weight, H, lambda_max)
        H_tilde = self._calculate_candidate_state(X, edge_index, edge_weight, H, R, lambda_max)
        H = self._calculate_hidden_state(Z, H, H_tilde)
        return H


# ---- torch_geometric_temporal/signal/static_graph_temporal_signal.py
class Snapshot:
    def __init__(self, x, edge_index, edge_attr, y):
        self.x, self.edge_index, self.edge_attr, self.y = x, edge_index, edge_attr, y


class StaticGraphTemporalSignal:
    def __init__(self, edge_index, edge_weight, features, targets):
        self.edge_index = edge_index
        self.edge_weight = edge_weight
        self.features = features
        self.targets = targets
        self.snapshot_count = len(features)

    def _get_edge_index(self):
        return torch.LongTensor(self.edge_index)

    def _get_edge_weight(self):
        return torch.FloatTensor(self.edge_weight)

    def __getitem__(self, time_index):
        return Snapshot(x=torch.FloatTensor(self.features[time_index]), edge_index=self._get_edge_index(),
                        edge_attr=self._get_edge_weight(), y=torch.FloatTensor(self.targets[time_index]))

    def __iter__(self):
        for t in range(self.snapshot_count):
            yield self[t]


def temporal_signal_split(data_iterator, train_ratio=0.8):
    train_snapshots = int(train_ratio * data_iterator.snapshot_count)
    train = StaticGraphTemporalSignal(data_iterator.edge_index, data_iterator.edge_weight,
                                      data_iterator.features[0:train_snapshots], data_iterator.targets[0:train_snapshots])
    test = StaticGraphTemporalSignal(data_iterator.edge_index, data_iterator.edge_weight,
                                     data_iterator.features[train_snapshots:], data_iterator.targets[train_snapshots:])
    return train, test


# ---- torch_geometric_temporal/dataset/chickenpox.py
class ChickenpoxDatasetLoader:
    """Weekly chickenpox cases in the counties of Hungary (here a synthetic stand-in in the same JSON format)."""

    def __init__(self, n_counties=20, n_weeks=40, seed=0):
        rng = np.random.default_rng(seed)
        edges = [[i, (i + 1) % n_counties] for i in range(n_counties)] + \
                [[i, int(rng.integers(0, n_counties))] for i in range(n_counties)]
        edges = edges + [[b, a] for a, b in edges]
        season = np.sin(2 * np.pi * np.arange(n_weeks) / 52)[:, None]
        cases = np.maximum(0, 30 + 20 * season + rng.normal(0, 5, (n_weeks, n_counties)))
        self._dataset = json.loads(json.dumps({"edges": edges, "FX": cases.round(1).tolist()}))

    def _get_edges(self):
        self._edges = np.array(self._dataset["edges"]).T

    def _get_edge_weights(self):
        self._edge_weights = np.ones(self._edges.shape[1])

    def _get_targets_and_features(self):
        stacked_target = np.array(self._dataset["FX"])
        stacked_target = (stacked_target - stacked_target.mean(0)) / (stacked_target.std(0) + 1e-8)
        self.features = [stacked_target[i:i + self.lags, :].T for i in range(stacked_target.shape[0] - self.lags)]
        self.targets = [stacked_target[i + self.lags, :].T for i in range(stacked_target.shape[0] - self.lags)]

    def get_dataset(self, lags=4):
        self.lags = lags
        self._get_edges()
        self._get_edge_weights()
        self._get_targets_and_features()
        return StaticGraphTemporalSignal(self._edges, self._edge_weights, self.features, self.targets)


# ---- the user's script (the library's GConvGRU example, on the GPU)
class RecurrentGCN(nn.Module):
    def __init__(self, node_features, filters):
        super().__init__()
        self.recurrent = GConvGRU(node_features, filters, 2)
        self.linear = nn.Linear(filters, 1)

    def forward(self, x, edge_index, edge_weight):
        h = self.recurrent(x, edge_index, edge_weight)
        h = F.relu(h)
        h = self.linear(h)
        return h


def main():
    torch.manual_seed(0)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    loader = ChickenpoxDatasetLoader()
    dataset = loader.get_dataset(lags=4)
    train_dataset, test_dataset = temporal_signal_split(dataset, train_ratio=0.8)

    model = RecurrentGCN(node_features=4, filters=16).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

    model.train()
    for epoch in range(3):
        cost = 0
        for time, snapshot in enumerate(train_dataset):
            x, edge_index, edge_attr = snapshot.x.to(device), snapshot.edge_index.to(device), snapshot.edge_attr.to(device)
            y_hat = model(x, edge_index, edge_attr)
            cost = cost + torch.mean((y_hat.squeeze(-1) - snapshot.y.to(device)) ** 2)
        cost = cost / (time + 1)
        cost.backward()
        optimizer.step()
        optimizer.zero_grad()
        print(f"Epoch {epoch}: train MSE {cost.item():.4f}")

    model.eval()
    cost = 0
    with torch.no_grad():
        for time, snapshot in enumerate(test_dataset):
            y_hat = model(snapshot.x.to(device), snapshot.edge_index.to(device), snapshot.edge_attr.to(device))
            cost = cost + torch.mean((y_hat.squeeze(-1) - snapshot.y.to(device)) ** 2)
    print("Test MSE: {:.4f}".format((cost / (time + 1)).item()))


if __name__ == "__main__":
    main()
