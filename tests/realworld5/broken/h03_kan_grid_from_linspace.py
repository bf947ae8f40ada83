"""KAN-style layer whose spline grid is built with np.linspace (float64) and stored as a plain tensor; the float32 input is promoted and the einsum with float32 coefficients fails
source: https://github.com/KindXiaoming/pykan/issues/105
reported-error: RuntimeError: expected scalar type Double but found Float (from torch.einsum in coef2curve)
outcome: RuntimeError: expected scalar type Float but found Double at line 23
root-cause: line 30
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


def B_batch(x, grid, k=0):
    # x: (batch, in_dim), grid: (in_dim, n_grid)
    x = x.unsqueeze(2)
    grid = grid.unsqueeze(0)
    value = ((x >= grid[:, :, :-1]) * (x < grid[:, :, 1:])).to(grid.dtype)
    return value


def coef2curve(x_eval, grid, coef):
    b_splines = B_batch(x_eval, grid)
    return torch.einsum("ijk,jlk->ijl", b_splines, coef)  # fails-here


class KANLayer(nn.Module):
    def __init__(self, in_dim=2, out_dim=1, num=5):
        super().__init__()
        grid = np.linspace(-1, 1, num + 1)
        self.grid = torch.from_numpy(np.tile(grid, (in_dim, 1)))  # root-cause
        self.coef = nn.Parameter(torch.randn(in_dim, out_dim, num) * 0.1)

    def forward(self, x):
        y = coef2curve(x, self.grid, self.coef)
        return y.sum(dim=1)


class KAN(nn.Module):
    def __init__(self, width=(2, 3, 1)):
        super().__init__()
        self.layers = nn.ModuleList(KANLayer(width[i], width[i + 1]) for i in range(len(width) - 1))

    def forward(self, x):
        for layer in self.layers:
            x = torch.tanh(layer(x))
        return x


def create_dataset(n=200):
    x = torch.rand(n, 2) * 2 - 1
    y = (x[:, 0] * x[:, 1] > 0).float().unsqueeze(1)
    return {"train_input": x, "train_label": y}


if __name__ == "__main__":
    dataset = create_dataset()
    model = KAN()
    opt = torch.optim.LBFGS(model.parameters(), lr=0.1)
    loss_fn = nn.MSELoss()

    def closure():
        opt.zero_grad()
        loss = loss_fn(model(dataset["train_input"]), dataset["train_label"])
        loss.backward()
        return loss

    for step in range(3):
        print(step, opt.step(closure).item())
