"""deepxde pytorch backend: float64 collocation points go into a float32 FNN via torch.as_tensor
source: https://github.com/lululxvi/deepxde/issues/558
reported-error: RuntimeError: expected scalar type Float but found Double
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 36
root-cause: line 55
expect: DG004
"""
import numpy as np
import torch


class Geometry:
    """Interval geometry; samples points with NumPy (float64 by default)."""

    def __init__(self, l, r):
        self.l, self.r = l, r

    def uniform_points(self, n):
        return np.linspace(self.l, self.r, num=n)[:, None]


class FNN(torch.nn.Module):
    """Fully-connected neural network (deepxde.nn.pytorch.fnn style)."""

    def __init__(self, layer_sizes, activation):
        super().__init__()
        self.activation = activation
        self.linears = torch.nn.ModuleList()
        for i in range(1, len(layer_sizes)):
            self.linears.append(torch.nn.Linear(layer_sizes[i - 1], layer_sizes[i]))
        self.inputs = None

    def forward(self, inputs):
        x = inputs
        for linear in self.linears[:-1]:
            x = self.activation(linear(x))  # fails-here
        x = self.linears[-1](x)
        return x


def pde(x, y):
    dy_x = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)[0]
    dy_xx = torch.autograd.grad(dy_x, x, grad_outputs=torch.ones_like(dy_x), create_graph=True)[0]
    return -dy_xx - np.pi ** 2 * torch.sin(np.pi * x)


class Model:
    def __init__(self, geom, net):
        self.geom = geom
        self.net = net
        self.opt = torch.optim.Adam(self.net.parameters(), lr=1e-3)

    def outputs_losses(self, inputs, training):
        self.net.train(mode=training)
        self.net.inputs = torch.as_tensor(inputs)  # root-cause
        self.net.inputs.requires_grad_()
        outputs_ = self.net(self.net.inputs)
        residual = pde(self.net.inputs, outputs_)
        return outputs_, torch.mean(residual ** 2)

    def train(self, iterations):
        train_x = self.geom.uniform_points(64)
        for it in range(iterations):
            self.opt.zero_grad()
            _, loss = self.outputs_losses(train_x, True)
            loss.backward()
            self.opt.step()
            if it % 10 == 0:
                print(it, loss.item())


if __name__ == "__main__":
    geom = Geometry(-1, 1)
    net = FNN([1] + [50] * 3 + [1], torch.tanh)
    model = Model(geom, net)
    model.train(iterations=30)
