"""Physics-informed DeepONet for the 1D Poisson equation, DeepXDE style on the pytorch backend (re-typed), with the fix of PR #1403 that PR #1311's review asked for: Chebyshev.eval_batch returns its values .astype(config.real(np)), so the source values reach the float32 branch net as float32; the float64 random Chebyshev coefficients, the float64 NumPy evaluation inside eval_batch and the torch.as_tensor conversions without dtype are kept
source: https://github.com/lululxvi/deepxde/pull/1311
reported-error: (none; the fixed situation of bg03)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch

np.random.seed(0)
torch.manual_seed(0)


class config:
    @staticmethod
    def real(lib):
        return np.float32 if lib is np else torch.float32


# ---- deepxde.geometry.Interval (re-typed) ----
class Interval:
    dim = 1

    def __init__(self, l, r):
        self.l, self.r = l, r

    def uniform_points(self, n, boundary=True):
        return np.linspace(self.l, self.r, num=n, dtype=config.real(np))[:, None]

    def random_points(self, n):
        return (np.random.rand(n, 1) * (self.r - self.l) + self.l).astype(config.real(np))

    def boundary_points(self):
        return np.array([[self.l], [self.r]], dtype=config.real(np))


# ---- deepxde.data.PDE with one DirichletBC (re-typed) ----
class PDE:
    def __init__(self, geom, pde, num_domain):
        self.geom, self.pde = geom, pde
        self.num_bcs = [2]
        self.train_x = np.vstack((geom.boundary_points(), geom.random_points(num_domain)))


# ---- deepxde.data.function_spaces.Chebyshev, after PR #1403 (re-typed) ----
class Chebyshev:
    def __init__(self, N=100, M=1):
        self.N, self.M = N, M

    def random(self, size):
        return 2 * self.M * np.random.rand(size, self.N) - self.M

    def eval_batch(self, features, xs):
        return np.polynomial.chebyshev.chebval(2 * np.ravel(xs) - 1, features.T).astype(config.real(np))


# ---- deepxde.data.PDEOperatorCartesianProd (re-typed) ----
class PDEOperatorCartesianProd:
    def __init__(self, pde, function_space, evaluation_points, num_function):
        self.pde, self.func_space, self.eval_pts, self.num_func = pde, function_space, evaluation_points, num_function
        self.train_x = self.train_aux_vars = None
        self.train_next_batch()

    def train_next_batch(self):
        if self.train_x is None:
            func_feats = self.func_space.random(self.num_func)
            func_vals = self.func_space.eval_batch(func_feats, self.eval_pts)
            vx = self.func_space.eval_batch(func_feats, self.pde.train_x[:, [0]])
            self.train_x = (func_vals, self.pde.train_x)
            self.train_aux_vars = vx
        return self.train_x, None, self.train_aux_vars

    def losses(self, outputs, inputs, model):
        n_bc = self.pde.num_bcs[0]
        losses = []
        for i in range(self.num_func):
            out = outputs[i][:, None]
            f = self.pde.pde(inputs[1], out, model.net.auxiliary_vars[i][:, None])
            losses.append([torch.mean(f[n_bc:] ** 2), torch.mean(out[:n_bc] ** 2)])
        return [torch.stack(parts).mean() for parts in zip(*losses)]


# ---- deepxde.nn.pytorch FNN / DeepONetCartesianProd (re-typed) ----
class FNN(torch.nn.Module):
    def __init__(self, layer_sizes, activation):
        super().__init__()
        self.activation = activation
        self.linears = torch.nn.ModuleList()
        for i in range(1, len(layer_sizes)):
            layer = torch.nn.Linear(layer_sizes[i - 1], layer_sizes[i], dtype=config.real(torch))
            torch.nn.init.xavier_normal_(layer.weight)
            torch.nn.init.zeros_(layer.bias)
            self.linears.append(layer)

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
        self.auxiliary_vars = None

    def forward(self, inputs):
        x_func = self.branch(inputs[0])
        x_loc = self.activation_trunk(self.trunk(inputs[1]))
        return torch.einsum("bi,ni->bn", x_func, x_loc) + self.b


# ---- deepxde.Model, pytorch backend (re-typed) ----
class Model:
    def __init__(self, data, net):
        self.data, self.net = data, net

    def train(self, iterations, lr=1e-3):
        optimizer = torch.optim.Adam(self.net.parameters(), lr=lr)
        for it in range(iterations):
            inputs, _, auxiliary_vars = self.data.train_next_batch()
            self.net.auxiliary_vars = torch.as_tensor(auxiliary_vars)
            inputs = tuple(map(lambda x: torch.as_tensor(x).requires_grad_(), inputs))
            outputs = self.net(inputs)
            loss = sum(self.data.losses(outputs, inputs, self))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            if it % 20 == 0:
                print(f"step {it}: loss {loss.item():.3e}")


def equation(x, y, f):
    dy_x = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)[0]
    dy_xx = torch.autograd.grad(dy_x, x, grad_outputs=torch.ones_like(dy_x), create_graph=True)[0]
    return -dy_xx - f


geom = Interval(0, 1)
pde = PDE(geom, equation, num_domain=100)
degree = 3
space = Chebyshev(N=degree + 1)
num_eval_points = 10
evaluation_points = geom.uniform_points(num_eval_points, boundary=True)
pde_op = PDEOperatorCartesianProd(pde, space, evaluation_points, num_function=100)
net = DeepONetCartesianProd([num_eval_points, 32, 32], [1, 32, 32], torch.tanh)
print("trunk points", pde.train_x.dtype, "branch input", pde_op.train_x[0].dtype)
model = Model(pde_op, net)
model.train(iterations=60)
