"""Optimizer set up from a CUDA-graphs recipe: the parameter groups are built by hand and the backbone group sets "capturable": True, while the script falls back to the CPU when no GPU is present
source: https://github.com/pytorch/pytorch/issues/89987
reported-error: AssertionError: If capturable=True, params and state_steps must be CUDA tensors. (in Adam.step, with capturable given per parameter group)
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at line 46
root-cause: line 33
expect: DG016
"""
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")

config = {
    "lr": 1e-3,
    "head_lr": 5e-3,
    "weight_decay": 0.0,
    "steps": 3,
}


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 32), nn.ReLU())
        self.head = nn.Linear(32, 1)

    def forward(self, x):
        return self.head(self.backbone(x))


def build_param_groups(model, cfg):
    return [
        {"params": model.backbone.parameters(), "lr": cfg["lr"], "capturable": True},  # root-cause
        {"params": model.head.parameters(), "lr": cfg["head_lr"]},
    ]


model = Net().to(device)
optimizer = torch.optim.Adam(build_param_groups(model, config), weight_decay=config["weight_decay"])
x = torch.randn(16, 10, device=device)
y = torch.randn(16, 1, device=device)
for step in range(config["steps"]):
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
    print(step, loss.item())
