import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(10, 4)

    def forward(self, x):
        return F.log_softmax(self.fc(x), dim=1)


def make_data(n=64):
    x = torch.rand(n, 10)
    y = torch.floor(x[:, 0] * 4)  # class ids computed with float math stay float  # expect: DG006
    return x, y


model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = make_data()
for epoch in range(10):
    optimizer.zero_grad()
    output = model(x)
    loss = F.nll_loss(output, y)
    loss.backward()
    optimizer.step()
