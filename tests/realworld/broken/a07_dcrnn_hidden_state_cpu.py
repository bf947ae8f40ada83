"""Recurrent graph conv: _set_hidden_state creates H with torch.zeros on the CPU
source: https://github.com/benedekrozemberczki/pytorch_geometric_temporal/issues/18
reported-error: RuntimeError: All input tensors must be on the same device. Received cuda:0 and cpu
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument tensors in method wrapper_CUDA_cat) at line 27; on CPU: ok
root-cause: line 23
expect: DG009
"""
import torch
import torch.nn.functional as F


class DCRNN(torch.nn.Module):
    def __init__(self, in_channels: int, out_channels: int):
        super(DCRNN, self).__init__()
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.conv_x_z = torch.nn.Linear(in_channels + out_channels, out_channels)
        self.conv_x_r = torch.nn.Linear(in_channels + out_channels, out_channels)
        self.conv_x_h = torch.nn.Linear(in_channels + out_channels, out_channels)

    def _set_hidden_state(self, X, H):
        if H is None:
            H = torch.zeros(X.shape[0], self.out_channels)  # root-cause
        return H

    def _calculate_update_gate(self, X, H):
        Z = torch.cat([X, H], dim=1)  # fails-here
        return torch.sigmoid(self.conv_x_z(Z))

    def _calculate_reset_gate(self, X, H):
        R = torch.cat([X, H], dim=1)
        return torch.sigmoid(self.conv_x_r(R))

    def _calculate_candidate_state(self, X, H, R):
        H_tilde = torch.cat([X, H * R], dim=1)
        return torch.tanh(self.conv_x_h(H_tilde))

    def forward(self, X, H=None):
        H = self._set_hidden_state(X, H)
        Z = self._calculate_update_gate(X, H)
        R = self._calculate_reset_gate(X, H)
        H_tilde = self._calculate_candidate_state(X, H, R)
        H = Z * H + (1 - Z) * H_tilde
        return H


class RecurrentGCN(torch.nn.Module):
    def __init__(self, node_features):
        super(RecurrentGCN, self).__init__()
        self.recurrent = DCRNN(node_features, 32)
        self.linear = torch.nn.Linear(32, 1)

    def forward(self, x):
        h = self.recurrent(x)
        h = F.relu(h)
        return self.linear(h)


device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
model = RecurrentGCN(node_features=4).to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=0.01)

model.train()
for epoch in range(5):
    cost = 0
    for time in range(6):
        x = torch.randn(20, 4).to(device)
        y = torch.randn(20, 1).to(device)
        y_hat = model(x)
        cost = cost + torch.mean((y_hat - y) ** 2)
    cost = cost / (time + 1)
    cost.backward()
    optimizer.step()
    optimizer.zero_grad()
    print(epoch, cost.item())
