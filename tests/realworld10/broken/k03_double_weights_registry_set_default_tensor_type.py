"""Digits classifier whose author wants every weight and bias in double precision: a setup_numerics(cfg) helper picks torch.DoubleTensor from a dict and calls the deprecated torch.set_default_tensor_type before a registry builds the model by name; training works but warns on every run
source: https://github.com/pytorch/pytorch/issues/2110
reported-error: question "May I use DoubleTensor always?" for weights and biases; torch.set_default_tensor_type is deprecated since PyTorch 2.1 (UserWarning) in favour of torch.set_default_dtype
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 36
expect: DG002
"""
import numpy as np
import torch
import torch.nn as nn

MODELS = {}
TENSOR_TYPES = {"double": torch.DoubleTensor, "float": torch.FloatTensor}


def register(name):
    def deco(fn):
        MODELS[name] = fn
        return fn

    return deco


@register("mlp")
def build_mlp(cfg):
    return nn.Sequential(nn.Flatten(), nn.Linear(64, cfg["hidden"]), nn.ReLU(), nn.Linear(cfg["hidden"], 10))


@register("linear")
def build_linear(cfg):
    return nn.Sequential(nn.Flatten(), nn.Linear(64, 10))


def setup_numerics(cfg):
    torch.manual_seed(cfg["seed"])
    torch.set_default_tensor_type(TENSOR_TYPES[cfg["precision"]])  # root-cause


def load_digits(n=256, seed=0):
    rng = np.random.default_rng(seed)
    pixels = rng.integers(0, 17, size=(n, 8, 8)) / 16.0
    labels = rng.integers(0, 10, size=n)
    return torch.from_numpy(pixels), torch.from_numpy(labels)


cfg = {"model": "mlp", "hidden": 32, "precision": "double", "seed": 0, "epochs": 3, "lr": 0.1}
setup_numerics(cfg)
model = MODELS[cfg["model"]](cfg)
x, y = load_digits()
opt = torch.optim.SGD(model.parameters(), lr=cfg["lr"])
for epoch in range(cfg["epochs"]):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch}: loss {loss.item():.4f} ({loss.dtype})")
