"""Differentiable architecture search (DARTS-style supernet under an apex O2-like cast): the architecture weights alphas/betas/gamma are kept in a plain list and registered as new nn.Parameter wrappers, so casting the network to half converts the registered copies but the forward pass keeps using the float32 list, and the mixed op's float32 output reaches the next half conv
source: https://github.com/NVIDIA/apex/issues/639
reported-error: type torch.cuda.FloatTensor but got torch.cuda.HalfTensor (model._parameters incl. alphas, betas, gamma are float16, but model._arch_parameters stay float32 with opt_level O2)
outcome: RuntimeError: Input type (float) and bias type (c10::Half) should be the same at line 49
root-cause: line 43
expect: DG004
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

PRIMITIVES = ["conv_3x3", "conv_5x5", "avg_pool", "skip"]


# ---- operations.py
def make_op(name, c):
    return {"conv_3x3": lambda: nn.Conv2d(c, c, 3, padding=1), "conv_5x5": lambda: nn.Conv2d(c, c, 5, padding=2),
            "avg_pool": lambda: nn.AvgPool2d(3, 1, 1), "skip": lambda: nn.Identity()}[name]()


class MixedOp(nn.Module):
    def __init__(self, c):
        super().__init__()
        self._ops = nn.ModuleList([make_op(p, c) for p in PRIMITIVES])

    def forward(self, x, weights):
        return (weights.view(-1, 1, 1, 1, 1) * torch.stack([op(x) for op in self._ops])).sum(0)


# ---- model_search.py
class Network(nn.Module):
    def __init__(self, c=8, num_classes=5, layers=2):
        super().__init__()
        self.stem = nn.Conv2d(3, c, 3, padding=1)
        self.cells = nn.ModuleList([MixedOp(c) for _ in range(layers)])
        self.post = nn.ModuleList([nn.Conv2d(c, c, 1) for _ in range(layers)])
        self.classifier = nn.Linear(c, num_classes)
        self._arch_param_names = ["alphas", "betas", "gamma"]
        alphas = 1e-3 * torch.randn(layers, len(PRIMITIVES))
        betas = 1e-3 * torch.randn(layers)
        gamma = torch.zeros(1)
        self._arch_parameters = [alphas, betas, gamma]
        [self.register_parameter(name, nn.Parameter(param)) for name, param in zip(self._arch_param_names, self._arch_parameters)]  # root-cause

    def forward(self, x):
        s = self.stem(x)
        alphas = self._arch_parameters[0]
        for i, (cell, post) in enumerate(zip(self.cells, self.post)):
            s = post(cell(s, F.softmax(alphas[i], dim=-1)))  # fails-here
        return self.classifier(s.mean((2, 3)))


# ---- train_search.py
def amp_initialize_o2(model):
    return model.half()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = amp_initialize_o2(Network())
    optimizer = torch.optim.SGD([p for n, p in model.named_parameters() if n not in model._arch_param_names], lr=0.025)
    x = torch.rand(4, 3, 16, 16).half()
    y = torch.randint(0, 5, (4,))
    loss = F.cross_entropy(model(x).float(), y)
    loss.backward()
    optimizer.step()
    print("loss", loss.item())
