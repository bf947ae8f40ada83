from torch import nn, optim
from torch.nn import functional as F
import torch


class TwoLayer(nn.Module):
    def __init__(self, d_in, d_hidden, n_classes):
        super().__init__()
        self.layer1 = nn.Linear(d_in, d_hidden)
        self.layer2 = nn.Linear(d_hidden, n_classes)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return self.layer2(self.drop(F.relu(self.layer1(x))))


def run():
    torch.manual_seed(1)
    model = TwoLayer(16, 32, 4)
    optimizer = optim.SGD(model.parameters(), lr=0.1, momentum=0.9, nesterov=True)
    inputs = torch.randn(64, 16)
    targets = torch.randint(0, 4, (64,), dtype=torch.long)
    for epoch in range(5):
        optimizer.zero_grad()
        loss = F.cross_entropy(model(inputs), targets)
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    print(run())
