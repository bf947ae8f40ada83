"""H24 fixed: every batch and target is moved to the model's device."""
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(20, 64)
        self.fc2 = nn.Linear(64, 3)

    def forward(self, x):
        return self.fc2(F.relu(self.fc1(x)))


def train_one_epoch(model, loader, optimizer):
    model.train()
    for xb, yb in loader:
        xb, yb = xb.to(device), yb.to(device)
        optimizer.zero_grad()
        loss = F.cross_entropy(model(xb), yb)
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    dataset = TensorDataset(torch.randn(200, 20), torch.randint(0, 3, (200,)))
    loader = DataLoader(dataset, batch_size=32, shuffle=True)
    model = Net().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        train_one_epoch(model, loader, optimizer)
