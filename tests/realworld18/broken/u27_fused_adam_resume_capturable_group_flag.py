"""Resume script that works around "state_steps on cpu" reports by restoring the optimizer state and then forcing capturable=True on every param group; on a CPU run the next Adam step asserts that capturable state_steps must live on a CUDA-like device
source: https://github.com/pytorch/pytorch/issues/103256
reported-error: when the state dict is manipulated (map_location="cpu"), the optimizer is unable to bring back its state ... error saying that state_steps is on cpu when it should be on cuda (fused/capturable load_state_dict)
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 51
root-cause: line 33
expect: DG016
"""
import io

import torch
import torch.nn as nn


def make_model():
    return nn.Sequential(nn.Linear(2, 3), nn.Sigmoid(), nn.Linear(3, 1), nn.Sigmoid())


def train_steps(model, optimizer, n):
    x = torch.tensor([0.1, 0.2, 0.3, 0.4, 0.5, 0.6]).reshape(3, 2)
    for _ in range(n):
        optimizer.zero_grad()
        loss = model(x).sum()
        loss.backward()
        optimizer.step()
    return loss.item()


def load_training_state(buf, model, optimizer):
    checkpoint = torch.load(buf, map_location="cpu")
    model.load_state_dict(checkpoint["state_dict"])
    optimizer.load_state_dict(checkpoint["optimizer"])
    for group in optimizer.param_groups:
        group["capturable"] = True  # root-cause
    return checkpoint["step"]


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = make_model().to(device)
optimizer = torch.optim.Adam(model.parameters())
train_steps(model, optimizer, 2)
buf = io.BytesIO()
torch.save({"state_dict": model.state_dict(), "optimizer": optimizer.state_dict(), "step": 2}, buf)
buf.seek(0)

model2 = make_model().to(device)
optimizer2 = torch.optim.Adam(model2.parameters())
start = load_training_state(buf, model2, optimizer2)
x = torch.tensor([0.1, 0.2, 0.3, 0.4, 0.5, 0.6], device=device).reshape(3, 2)
loss = model2(x).sum()
loss.backward()
optimizer2.step()  # fails-here
print("resumed from", start, "loss", loss.item())
