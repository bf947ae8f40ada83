"""Linear regression in float64: torch.set_default_dtype is the first thing the script does
source: https://github.com/pytorch/pytorch/issues/110940
reported-error: traceback inside optimizer.step on CUDA (torch 2.1 Adam "step" handling); unrelated to the default-dtype order, which is correct here
outcome: ok
root-cause: none
expect: none
"""
import torch
import torch.nn as nn
import torch.optim as optim

torch.set_default_dtype(torch.float64)
device = "cuda" if torch.cuda.is_available() else "cpu"
dtype = torch.float64

X = torch.randn(10, 1, device=device, dtype=dtype)
y = 2 * X + 1 + 0.1 * torch.randn(10, 1, device=device, dtype=dtype)


class LinearRegression(nn.Module):
    def __init__(self, device: str = None):
        super(LinearRegression, self).__init__()
        self.linear = nn.Linear(1, 1, device=device)

    def forward(self, x):
        return self.linear(x)


model = LinearRegression(device=device)
criterion = nn.MSELoss()
optimizer = optim.Adam(model.parameters(), lr=0.01)

for epoch in range(10):
    outputs = model(X)
    loss = criterion(outputs, y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(loss.item(), model.linear.weight.dtype)
