"""MNIST-style CNN ported from a Keras experiment that set the whole model to bfloat16 (Keras set_floatx("bfloat16")); the PyTorch port does model.to(torch.bfloat16) in build() and trains with Adam(lr=1e-5), and most weights never move because the updates round away in bfloat16
source: https://github.com/tensorflow/tensorflow/issues/58138
reported-error: none raised (with the model in bfloat16 and the Adam optimizer the loss does not decrease; SGD does)
outcome: ok (silent: after the Adam steps at line 46 fewer than half of the bfloat16 weights changed at all, printed as "weights changed: X/Y")
root-cause: line 32
expect: DG013
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, 1)
        self.conv2 = nn.Conv2d(8, 16, 3, 1)
        self.fc1 = nn.Linear(16 * 12 * 12, 64)
        self.fc2 = nn.Linear(64, 10)

    def forward(self, x):
        x = F.relu(self.conv2(F.relu(self.conv1(x))))
        x = torch.flatten(F.max_pool2d(x, 2), 1)
        return F.log_softmax(self.fc2(F.relu(self.fc1(x))), dim=1)


def build(floatx="bfloat16"):
    model = Net()
    if floatx == "bfloat16":
        model = model.to(torch.bfloat16)  # root-cause
    return model


model = build()
dtype = next(model.parameters()).dtype
optimizer = torch.optim.Adam(model.parameters(), lr=1e-5)
before = [p.detach().clone() for p in model.parameters()]
data = torch.randn(32, 1, 28, 28, dtype=dtype)
target = torch.randint(0, 10, (32,))
for step in range(20):
    loss = F.nll_loss(model(data), target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()  # fails-here
changed = sum(int((p.detach() != b).sum()) for p, b in zip(model.parameters(), before))
total = sum(p.numel() for p in model.parameters())
print(f"loss {loss.item():.4f}")
print(f"weights changed: {changed}/{total}")
