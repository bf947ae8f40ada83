"""Trainer class: model, optimizer and loaders as attributes; every batch (train and
validation) is moved to the device returned by a helper."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def resolve_device(prefer_gpu=True):
    if prefer_gpu and torch.cuda.is_available():
        return torch.device("cuda")
    return torch.device("cpu")


class Trainer:
    def __init__(self, model, train_loader, val_loader, lr=0.05):
        self.device = resolve_device()
        self.model = model.to(self.device)
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=lr, momentum=0.9, weight_decay=5e-4)
        self.scheduler = torch.optim.lr_scheduler.StepLR(self.optimizer, step_size=1, gamma=0.5)
        self.criterion = nn.CrossEntropyLoss()

    def _step(self, batch):
        x, y = (t.to(self.device, non_blocking=True) for t in batch)
        return self.criterion(self.model(x), y)

    def train_epoch(self):
        self.model.train()
        for batch in self.train_loader:
            loss = self._step(batch)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        self.scheduler.step()
        return loss.item()

    @torch.no_grad()
    def evaluate(self):
        self.model.eval()
        correct = total = 0
        for x, y in self.val_loader:
            x, y = x.to(self.device), y.to(self.device)
            pred = self.model(x).argmax(1)
            correct += (pred == y).sum().item()
            total += y.numel()
        return correct / total

    def fit(self, epochs):
        for epoch in range(epochs):
            print(f"epoch {epoch}: loss={self.train_epoch():.3f} acc={self.evaluate():.3f}")


def make_loaders():
    X, y = torch.randn(320, 10), torch.randint(0, 3, (320,))
    train = TensorDataset(X[:256], y[:256])
    val = TensorDataset(X[256:], y[256:])
    return DataLoader(train, batch_size=32, shuffle=True), DataLoader(val, batch_size=64)


if __name__ == "__main__":
    tl, vl = make_loaders()
    Trainer(nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 3)), tl, vl).fit(2)
