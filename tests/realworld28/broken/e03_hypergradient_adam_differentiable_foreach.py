"""MAML-style meta-learning experiment (learned initialisation) that differentiates through the optimizer update: the inner optimizer is built with differentiable=True and, to make the CPU run use the multi-tensor path as on the GPU, foreach=True; the foreach kernels have no autograd, so the first inner step fails
source: https://github.com/pytorch/pytorch/issues/143947
reported-error: (the foreach implementation is not differentiable: a differentiable optimizer step that takes the foreach path calls _foreach_* ops that autograd does not support; the reporter had to pass foreach=config["foreach"])
outcome: AssertionError: _foreach ops don't support autograd at line 40
root-cause: line 31
expect: DG016
"""
import torch
import torch.nn as nn

config = {"inner_lr": 0.05, "meta_lr": 0.01, "inner_steps": 3, "foreach": True}


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x)


def make_task(n=32):
    w = torch.randn(4, 1)
    x = torch.randn(n, 4)
    return x, x @ w + 0.1 * torch.randn(n, 1)


def inner_loop(model, x, y):
    params = [p * 1.0 for p in model.parameters()]
    inner_opt = torch.optim.Adam(params, lr=config["inner_lr"], differentiable=True,  # root-cause
                                 foreach=config["foreach"])
    for _ in range(config["inner_steps"]):
        w1, b1, w2, b2 = params
        pred = torch.tanh(x @ w1.t() + b1) @ w2.t() + b2
        loss = nn.functional.mse_loss(pred, y)
        grads = torch.autograd.grad(loss, params, create_graph=True)
        for p, g in zip(params, grads):
            p.grad = g
        inner_opt.step()  # fails-here
    return params


def main():
    torch.manual_seed(0)
    model = Regressor()
    meta_opt = torch.optim.SGD(model.parameters(), lr=config["meta_lr"])
    for it in range(5):
        x, y = make_task()
        params = inner_loop(model, x, y)
        w1, b1, w2, b2 = params
        val_loss = nn.functional.mse_loss(torch.tanh(x @ w1.t() + b1) @ w2.t() + b2, y)
        meta_opt.zero_grad()
        val_loss.backward()
        meta_opt.step()
        print(it, "val", round(val_loss.item(), 4))


if __name__ == "__main__":
    main()
