"""The deeponet-fno Burgers DeepONet of bt05 (lu-group/deeponet-fno #4) on the re-typed DeepXDE PyTorch backend, with the trunk grid cast like the rest of get_data's arrays (np.linspace(...).astype(np.float32)), so the periodic grid features, the branch inputs and the float32 DeepONet agree and the operator trains; the float64 stand-in data cast with astype(np.float32), the float64 StandardScaler statistics cast before use and torch.as_tensor of the NumPy arrays are kept
source: https://github.com/lu-group/deeponet-fno/issues/4
reported-error: (none; the fixed situation of bt05)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
from sklearn.preprocessing import StandardScaler

torch.manual_seed(0)


def burgers_like_data(n_samples=240, n_grid=2**10, nu=0.01, seed=0):
    """Stand-in for burgers_data_R10.mat ('a': initial conditions, 'u': solutions, float64 as loadmat returns them):
    random periodic initial conditions, advanced by a viscous spectral step plus a small nonlinear correction."""
    rng = np.random.default_rng(seed)
    x = np.linspace(0, 1, n_grid, endpoint=False)
    k = np.fft.rfftfreq(n_grid, d=1.0 / n_grid)
    coef = rng.normal(size=(n_samples, 8)) / (1.0 + np.arange(8)) ** 1.5
    a = sum(coef[:, [j]] * np.sin(2 * np.pi * (j + 1) * x + j) for j in range(8))
    u = np.fft.irfft(np.fft.rfft(a, axis=1) * np.exp(-nu * (2 * np.pi * k) ** 2), n=n_grid, axis=1)
    u = u - 0.05 * np.gradient(u**2, x, axis=1)
    return {"a": a, "u": u}


def periodic(x):
    x = x * 2 * np.pi
    return torch.cat([torch.cos(x), torch.sin(x), torch.cos(2 * x), torch.sin(2 * x)], 1)


def get_data(ntrain, ntest):
    sub_x = 2**3
    sub_y = 2**3
    data = burgers_like_data(ntrain + ntest)
    x_data = data["a"][:, ::sub_x].astype(np.float32)
    y_data = data["u"][:, ::sub_y].astype(np.float32)
    x_branch_train = x_data[:ntrain, :]
    y_train = y_data[:ntrain, :]
    x_branch_test = x_data[-ntest:, :]
    y_test = y_data[-ntest:, :]

    grid = np.linspace(0, 1, num=2**10)[::sub_y, None].astype(np.float32)

    x_train = (x_branch_train, grid)
    x_test = (x_branch_test, grid)
    return x_train, y_train, x_test, y_test


class FNN(torch.nn.Module):
    def __init__(self, layer_sizes, activation):
        super().__init__()
        self.activation = activation
        self.linears = torch.nn.ModuleList()
        for i in range(1, len(layer_sizes)):
            self.linears.append(torch.nn.Linear(layer_sizes[i - 1], layer_sizes[i]))
            torch.nn.init.xavier_normal_(self.linears[-1].weight)
            torch.nn.init.zeros_(self.linears[-1].bias)

    def forward(self, x):
        for j, linear in enumerate(self.linears[:-1]):
            x = self.activation(linear(x))
        return self.linears[-1](x)


class DeepONetCartesianProd(torch.nn.Module):
    def __init__(self, layer_sizes_branch, layer_sizes_trunk, activation):
        super().__init__()
        self.branch = FNN(layer_sizes_branch, activation)
        self.trunk = FNN(layer_sizes_trunk, activation)
        self.activation_trunk = activation
        self.b = torch.nn.parameter.Parameter(torch.tensor(0.0))
        self._input_transform = None
        self._output_transform = None

    def apply_feature_transform(self, transform):
        self._input_transform = transform

    def apply_output_transform(self, transform):
        self._output_transform = transform

    def forward(self, inputs):
        x_func, x_loc = inputs
        x_func = self.branch(x_func)
        if self._input_transform is not None:
            x_loc = self._input_transform(x_loc)
        x_loc = self.activation_trunk(self.trunk(x_loc))
        x = torch.einsum("bi,ni->bn", x_func, x_loc)
        x = x + self.b
        if self._output_transform is not None:
            x = self._output_transform(inputs, x)
        return x


class TripleCartesianProd:
    def __init__(self, X_train, y_train, X_test, y_test):
        self.train_x, self.train_y = X_train, y_train
        self.test_x, self.test_y = X_test, y_test


class Model:
    def __init__(self, data, net):
        self.data, self.net = data, net

    def compile(self, lr):
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)

    def outputs(self, inputs):
        inputs = tuple(torch.as_tensor(x) for x in inputs)
        return self.net(inputs)

    def train(self, iterations):
        targets = torch.as_tensor(self.data.train_y)
        for it in range(iterations):
            loss = torch.mean((self.outputs(self.data.train_x) - targets) ** 2)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
            if it % 100 == 0:
                with torch.no_grad():
                    pred = self.outputs(self.data.test_x).numpy()
                err = np.mean(np.linalg.norm(pred - self.data.test_y, axis=1) / np.linalg.norm(self.data.test_y, axis=1))
                print(f"{it}: train loss {loss.item():.3e}, test mean l2 relative error {err:.3e}")


x_train, y_train, x_test, y_test = get_data(200, 40)

m = 2**7
net = DeepONetCartesianProd([m, 128, 128, 128, 128], [4, 128, 128, 128], torch.tanh)
net.apply_feature_transform(periodic)

scaler = StandardScaler().fit(y_train)
std = np.sqrt(scaler.var_.astype(np.float32))


def output_transform(inputs, outputs):
    return outputs * torch.as_tensor(std) + torch.as_tensor(scaler.mean_.astype(np.float32))


net.apply_output_transform(output_transform)

data = TripleCartesianProd(x_train, y_train, x_test, y_test)
model = Model(data, net)
model.compile(lr=1e-3)
model.train(iterations=201)
