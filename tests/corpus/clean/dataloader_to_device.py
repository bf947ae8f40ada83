import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

DEVICE = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class MLP(nn.Module):
    def __init__(self, sizes):
        super().__init__()
        self.layers = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))

    def forward(self, x):
        for layer in self.layers[:-1]:
            x = F.gelu(layer(x))
        return self.layers[-1](x)


def evaluate(model, loader):
    model.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in loader:
            xb, yb = xb.to(DEVICE), yb.to(DEVICE)
            correct += (model(xb).argmax(1) == yb).sum().item()
    return correct / len(loader.dataset)


def main():
    torch.manual_seed(0)
    ds = TensorDataset(torch.randn(300, 8), torch.randint(0, 5, (300,)))
    train_loader = DataLoader(ds, batch_size=50, shuffle=True)
    model = MLP([8, 32, 32, 5]).to(DEVICE)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    for epoch in range(3):
        model.train()
        for xb, yb in train_loader:
            xb = xb.to(DEVICE, non_blocking=True)
            yb = yb.to(DEVICE, non_blocking=True)
            optimizer.zero_grad(set_to_none=True)
            F.cross_entropy(model(xb), yb).backward()
            optimizer.step()
        print(epoch, evaluate(model, train_loader))


if __name__ == "__main__":
    main()
