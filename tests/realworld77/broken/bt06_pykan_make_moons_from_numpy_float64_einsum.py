"""pykan's classification example (example 3) with a KAN of width [2, 1] (re-typed B-spline KANLayer, KAN and its LBFGS `train` loop): the two-moons inputs from scikit-learn are float64 NumPy arrays, torch.from_numpy keeps them float64, so the B-spline basis computed from them is float64 and coef2curve's einsum mixes it with the float32 spline coefficients
source: https://github.com/KindXiaoming/pykan/issues/113
reported-error: "expected scalar type Double but found Float: Occurred when trying to implement example 3" (dataset['train_input'] = torch.from_numpy(train_input) from make_moons, then model.train(dataset, opt="LBFGS", steps=20))
outcome: RuntimeError: expected scalar type Double but found Float at line 37
root-cause: line 106
expect: DG004
"""
import torch
from sklearn.datasets import make_moons

torch.manual_seed(0)


def B_batch(x, grid, k=0, extend=True):
    def extend_grid(grid, k_extend=0):
        h = (grid[:, [-1]] - grid[:, [0]]) / (grid.shape[1] - 1)
        for i in range(k_extend):
            grid = torch.cat([grid[:, [0]] - h, grid], dim=1)
            grid = torch.cat([grid, grid[:, [-1]] + h], dim=1)
        return grid

    if extend:
        grid = extend_grid(grid, k_extend=k)
    grid = grid.unsqueeze(dim=2)
    x = x.unsqueeze(dim=1)
    if k == 0:
        value = (x >= grid[:, :-1]) * (x < grid[:, 1:])
    else:
        B_km1 = B_batch(x[:, 0], grid=grid[:, :, 0], k=k - 1, extend=False)
        value = (x - grid[:, : -(k + 1)]) / (grid[:, k:-1] - grid[:, : -(k + 1)]) * B_km1[:, :-1] + (
            grid[:, k + 1 :] - x
        ) / (grid[:, k + 1 :] - grid[:, 1:(-k)]) * B_km1[:, 1:]
    return value


def coef2curve(x_eval, grid, coef, k):
    return torch.einsum("ij,ijk->ik", coef, B_batch(x_eval, grid, k))  # fails-here


def curve2coef(x_eval, y_eval, grid, k):
    mat = B_batch(x_eval, grid, k).permute(0, 2, 1)
    return torch.linalg.lstsq(mat, y_eval.unsqueeze(dim=2)).solution[:, :, 0]


class KANLayer(torch.nn.Module):
    def __init__(self, in_dim=3, out_dim=2, num=5, k=3, noise_scale=0.1, scale_base=1.0, scale_sp=1.0, grid_range=(-1, 1)):
        super().__init__()
        self.size = size = out_dim * in_dim
        self.out_dim, self.in_dim, self.num, self.k = out_dim, in_dim, num, k
        grid = torch.einsum("i,j->ij", torch.ones(size), torch.linspace(grid_range[0], grid_range[1], steps=num + 1))
        self.grid = torch.nn.Parameter(grid).requires_grad_(False)
        noises = (torch.rand(size, self.grid.shape[1]) - 1 / 2) * noise_scale / num
        self.coef = torch.nn.Parameter(curve2coef(self.grid, noises, self.grid, k))
        self.scale_base = torch.nn.Parameter(torch.ones(size) * scale_base)
        self.scale_sp = torch.nn.Parameter(torch.ones(size) * scale_sp)
        self.base_fun = torch.nn.SiLU()
        self.mask = torch.nn.Parameter(torch.ones(size)).requires_grad_(False)

    def forward(self, x):
        batch = x.shape[0]
        x = torch.einsum("ij,k->ikj", x, torch.ones(self.out_dim)).reshape(batch, self.size).permute(1, 0)
        base = self.base_fun(x).permute(1, 0)
        y = coef2curve(x_eval=x, grid=self.grid, coef=self.coef, k=self.k).permute(1, 0)
        y = self.scale_base.unsqueeze(dim=0) * base + self.scale_sp.unsqueeze(dim=0) * y
        y = self.mask[None, :] * y
        return torch.sum(y.reshape(batch, self.out_dim, self.in_dim), dim=2)


class KAN(torch.nn.Module):
    def __init__(self, width, grid=3, k=3):
        super().__init__()
        self.act_fun = torch.nn.ModuleList(KANLayer(width[l], width[l + 1], num=grid, k=k) for l in range(len(width) - 1))
        self.biases = torch.nn.ModuleList(torch.nn.Linear(width[l + 1], 1, bias=False) for l in range(len(width) - 1))
        for b in self.biases:
            torch.nn.init.zeros_(b.weight)

    def forward(self, x):
        for layer, bias in zip(self.act_fun, self.biases):
            x = layer(x) + bias.weight
        return x

    def train_kan(self, dataset, opt="LBFGS", steps=20, metrics=None):
        optimizer = torch.optim.LBFGS(self.parameters(), lr=1, history_size=10, line_search_fn="strong_wolfe")
        results = {"train_loss": []}
        for m in metrics or ():
            results[m.__name__] = []
        for _ in range(steps):
            def closure():
                optimizer.zero_grad()
                loss = torch.mean((self(dataset["train_input"]) - dataset["train_label"]) ** 2)
                loss.backward()
                return loss

            optimizer.step(closure)
            with torch.no_grad():
                results["train_loss"].append(torch.sqrt(torch.mean((self(dataset["train_input"]) - dataset["train_label"]) ** 2)).item())
                for m in metrics or ():
                    results[m.__name__].append(m().item())
        return results


dataset = {}
train_input, train_label = make_moons(n_samples=1000, shuffle=True, noise=0.1, random_state=0)
test_input, test_label = make_moons(n_samples=1000, shuffle=True, noise=0.1, random_state=1)

dataset["train_input"] = torch.from_numpy(train_input)  # root-cause
dataset["test_input"] = torch.from_numpy(test_input)  # root-cause-alt
dataset["train_label"] = torch.from_numpy(train_label[:, None])
dataset["test_label"] = torch.from_numpy(test_label[:, None])

model = KAN(width=[2, 1], grid=3, k=3)


def train_acc():
    return torch.mean((torch.round(model(dataset["train_input"])[:, 0]) == dataset["train_label"][:, 0]).float())


def test_acc():
    return torch.mean((torch.round(model(dataset["test_input"])[:, 0]) == dataset["test_label"][:, 0]).float())


results = model.train_kan(dataset, opt="LBFGS", steps=20, metrics=(train_acc, test_acc))
print("train acc", results["train_acc"][-1], "test acc", results["test_acc"][-1])
