"""DeepXDE-style Poisson problem on an L-shaped domain built as the CSG union of two rectangles, PyTorch backend (re-typed geometry, PDE data and Model): the rectangles sample float32 points (config.real), but CSGUnion.random_points / random_boundary_points collect them into np.empty buffers of NumPy's default float64, so the collocation points reach the float32 FNN as float64 through torch.as_tensor
source: https://github.com/lululxvi/deepxde/pull/438
reported-error: "Fix for the CSG random_points and random_boundary_points dtype in PyTorch (e.g. RuntimeError: expected scalar type Double but found Float)"
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 156
root-cause: line 78
expect: DG004
"""
import numpy as np
import torch


class Real:
    def __init__(self, precision):
        self.precision = precision
        self.reals = {32: {np: np.float32, torch: torch.float32}, 64: {np: np.float64, torch: torch.float64}}

    def __call__(self, package):
        return self.reals[self.precision][package]


real = Real(32)  # deepxde.config.real: float32 unless set_default_float("float64")


def sample(n_samples, dimension):
    rng = np.random.default_rng(0)
    return rng.random(size=(n_samples, dimension), dtype=real(np))


class Hypercube:
    def __init__(self, xmin, xmax):
        self.xmin = np.array(xmin, dtype=real(np))
        self.xmax = np.array(xmax, dtype=real(np))
        self.dim = len(xmin)
        self.bbox = (self.xmin, self.xmax)

    def inside(self, x):
        return np.logical_and(np.all(x >= self.xmin, axis=-1), np.all(x <= self.xmax, axis=-1))

    def on_boundary(self, x):
        _on = np.logical_or(np.any(np.isclose(x, self.xmin), axis=-1), np.any(np.isclose(x, self.xmax), axis=-1))
        return np.logical_and(self.inside(x), _on)

    def random_points(self, n):
        x = sample(n, self.dim)
        return (self.xmax - self.xmin) * x + self.xmin

    def random_boundary_points(self, n):
        x = sample(n, self.dim)
        rng = np.random.default_rng(1)
        rand_dim = rng.integers(self.dim, size=n)
        x[np.arange(n), rand_dim] = np.round(x[np.arange(n), rand_dim])
        return (self.xmax - self.xmin) * x + self.xmin

    def __or__(self, other):
        return CSGUnion(self, other)


class Rectangle(Hypercube):
    pass


class CSGUnion:
    def __init__(self, geom1, geom2):
        self.geom1, self.geom2 = geom1, geom2
        self.dim = geom1.dim
        self.bbox = (np.minimum(geom1.bbox[0], geom2.bbox[0]), np.maximum(geom1.bbox[1], geom2.bbox[1]))

    def inside(self, x):
        return np.logical_or(self.geom1.inside(x), self.geom2.inside(x))

    def on_boundary(self, x):
        return np.logical_or(
            np.logical_and(self.geom1.on_boundary(x), ~self.geom2.inside(x)),
            np.logical_and(self.geom2.on_boundary(x), ~self.geom1.inside(x)),
        )

    def random_points(self, n):
        x = np.empty(shape=(n, self.dim))  # root-cause
        i = 0
        while i < n:
            tmp = np.random.rand(n, self.dim) * (self.bbox[1] - self.bbox[0]) + self.bbox[0]
            tmp = tmp[self.inside(tmp)]
            if len(tmp) > n - i:
                tmp = tmp[: n - i]
            x[i : i + len(tmp)] = tmp
            i += len(tmp)
        return x

    def random_boundary_points(self, n):
        x = np.empty(shape=(n, self.dim))  # root-cause-alt
        i = 0
        while i < n:
            b1 = self.geom1.random_boundary_points(n)
            b1 = b1[~self.geom2.inside(b1)]
            b2 = self.geom2.random_boundary_points(n)
            b2 = b2[~self.geom1.inside(b2)]
            tmp = np.random.permutation(np.concatenate((b1, b2)))
            if len(tmp) > n - i:
                tmp = tmp[: n - i]
            x[i : i + len(tmp)] = tmp
            i += len(tmp)
        return x


class DirichletBC:
    def __init__(self, geom, func, on_boundary):
        self.geom, self.func, self.on_boundary = geom, func, on_boundary

    def collocation_points(self, X):
        return X[[self.on_boundary(x, on) for x, on in zip(X, self.geom.on_boundary(X))]]

    def error(self, X, inputs, outputs, beg, end):
        values = torch.as_tensor(self.func(X[beg:end]))
        return outputs[beg:end] - values


class PDE:
    def __init__(self, geom, pde, bcs, num_domain, num_boundary):
        self.geom, self.pde, self.bcs = geom, pde, bcs
        self.num_domain, self.num_boundary = num_domain, num_boundary

    def train_points(self):
        X = np.empty((0, self.geom.dim), dtype=real(np))
        X = self.geom.random_points(self.num_domain)
        tmp = self.geom.random_boundary_points(self.num_boundary)
        return np.vstack((tmp, X))

    def train_next_batch(self):
        self.train_x_all = self.train_points()
        x_bcs = [bc.collocation_points(self.train_x_all) for bc in self.bcs]
        self.num_bcs = list(map(len, x_bcs))
        self.train_x = np.vstack((np.vstack(x_bcs), self.train_x_all))
        return self.train_x

    def losses(self, outputs, inputs):
        f = self.pde(inputs, outputs)
        bcs_start = np.cumsum([0] + self.num_bcs)
        losses = [torch.mean(f[bcs_start[-1] :] ** 2)]
        for i, bc in enumerate(self.bcs):
            error = bc.error(self.train_x, inputs, outputs, bcs_start[i], bcs_start[i + 1])
            losses.append(torch.mean(error**2))
        return losses


class FNN(torch.nn.Module):
    def __init__(self, layer_sizes):
        super().__init__()
        self.linears = torch.nn.ModuleList()
        for i in range(1, len(layer_sizes)):
            self.linears.append(torch.nn.Linear(layer_sizes[i - 1], layer_sizes[i], dtype=real(torch)))
            torch.nn.init.xavier_uniform_(self.linears[-1].weight)
            torch.nn.init.zeros_(self.linears[-1].bias)

    def forward(self, x):
        for linear in self.linears[:-1]:
            x = torch.tanh(linear(x))  # fails-here
        return self.linears[-1](x)


class Model:
    def __init__(self, data, net):
        self.data, self.net = data, net

    def compile(self, lr):
        def outputs_losses(inputs):
            self.net.inputs = torch.as_tensor(inputs)
            self.net.inputs.requires_grad_()
            outputs_ = self.net(self.net.inputs)
            return outputs_, torch.stack(self.data.losses(outputs_, self.net.inputs))

        self.outputs_losses = outputs_losses
        self.opt = torch.optim.Adam(self.net.parameters(), lr=lr)

    def train(self, iterations):
        train_x = self.data.train_next_batch()
        for it in range(iterations):
            _, losses = self.outputs_losses(train_x)
            self.opt.zero_grad()
            torch.sum(losses).backward()
            self.opt.step()
            if it % 100 == 0:
                print(it, [f"{v:.3e}" for v in losses.tolist()])


def hessian(y, x, i, j):
    dy = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)[0]
    return torch.autograd.grad(dy[:, i : i + 1], x, grad_outputs=torch.ones_like(y), create_graph=True)[0][:, j : j + 1]


def pde(x, y):
    return -hessian(y, x, 0, 0) - hessian(y, x, 1, 1) - 1


np.random.seed(0)
torch.manual_seed(0)
geom = Rectangle([-1, -1], [1, 0]) | Rectangle([-1, 0], [0, 1])
bc = DirichletBC(geom, lambda x: np.zeros((len(x), 1), dtype=real(np)), lambda _, on_boundary: on_boundary)
data = PDE(geom, pde, [bc], num_domain=600, num_boundary=120)
net = FNN([2] + [32] * 3 + [1])
model = Model(data, net)
model.compile(lr=1e-3)
model.train(iterations=300)
