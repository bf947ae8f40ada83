"""Federated averaging that adds the scaled update only to floating-point state_dict entries and copies integer buffers such as num_batches_tracked
source: https://github.com/AI-secure/DBA/issues/1
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import copy

import torch
import torch.nn as nn
import torch.nn.functional as F


class CifarNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, 10)

    def forward(self, x):
        return self.fc(F.adaptive_avg_pool2d(F.relu(self.bn(self.conv(x))), 1).flatten(1))


def local_train(model, lr=0.1, steps=2):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        loss = F.cross_entropy(model(torch.randn(8, 3, 16, 16)), torch.randint(0, 10, (8,)))
        opt.zero_grad()
        loss.backward()
        opt.step()
    return model


def average_shrink_models(target_model, weight_accumulator, eta, no_models):
    for name, data in target_model.state_dict().items():
        if not data.is_floating_point():
            continue
        data.add_(weight_accumulator[name] * (eta / no_models))


if __name__ == "__main__":
    target = CifarNet()
    for epoch in range(2):
        acc = {n: torch.zeros_like(d) for n, d in target.state_dict().items()}
        for _ in range(3):
            local = local_train(copy.deepcopy(target))
            for n, d in local.state_dict().items():
                acc[n].add_(d - target.state_dict()[n])
        average_shrink_models(target, acc, eta=1.0, no_models=3)
        print("epoch", epoch, "aggregated", target.bn.num_batches_tracked.item())
