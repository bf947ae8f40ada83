import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(6, 12)
        self.b = nn.Linear(12, 1)

    def forward(self, x):
        return self.b(torch.tanh(self.a(x)))


def batches(n_batches=4, size=32):
    for _ in range(n_batches):
        x = torch.randn(size, 6)
        yield x, x.mean(dim=1, keepdim=True)


net = Net().double()  # expect: DG004
opt = torch.optim.Adam(net.parameters(), lr=1e-3)
for x, y in batches():
    opt.zero_grad()
    pred = net(x)
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    opt.step()
