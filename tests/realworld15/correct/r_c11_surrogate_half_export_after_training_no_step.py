"""Physics surrogate trained in float32 with Adam; only after the last optimizer step is the model converted with .half() for a float16 inference export, and the optimizer is never stepped again
source: https://github.com/pytorch/pytorch/issues/127197
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)


def train(model, optimizer, steps=20):
    for _ in range(steps):
        x = torch.rand(64, 3)
        loss = ((model(x) - torch.sin(x.sum(-1, keepdim=True))) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def export_half(model):
    model.eval().half()
    with torch.no_grad():
        return model(torch.rand(4, 3, dtype=torch.float16))


print("final loss", train(model, optimizer))
del optimizer
print("half export output dtype", export_half(model).dtype)
