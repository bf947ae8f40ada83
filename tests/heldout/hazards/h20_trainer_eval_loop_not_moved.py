"""CUDA ONLY: training batches are moved to the device, but the validation loop
forgets to move them -> device mismatch at the eval forward on a GPU machine.
Runs without error on a CPU-only machine."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class Trainer:
    def __init__(self, model, train_loader, val_loader, device=None):
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.train_loader = train_loader
        self.val_loader = val_loader
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.1, momentum=0.9)
        self.loss_fn = nn.CrossEntropyLoss()

    def train_one_epoch(self):
        self.model.train()
        for x, y in self.train_loader:
            x, y = x.to(self.device), y.to(self.device)
            self.optimizer.zero_grad()
            loss = self.loss_fn(self.model(x), y)
            loss.backward()
            self.optimizer.step()
        return loss.item()

    @torch.no_grad()
    def validate(self):
        self.model.eval()
        correct = total = 0
        for x, y in self.val_loader:
            logits = self.model(x)  # expect: DG009
            correct += (logits.argmax(dim=1).cpu() == y).sum().item()
            total += y.numel()
        return correct / total

    def fit(self, epochs=2):
        for epoch in range(epochs):
            train_loss = self.train_one_epoch()
            acc = self.validate()
            print(f"epoch {epoch}: train_loss={train_loss:.3f} val_acc={acc:.3f}")


def loaders():
    Xtr, ytr = torch.randn(256, 8), torch.randint(0, 2, (256,))
    Xva, yva = torch.randn(64, 8), torch.randint(0, 2, (64,))
    return (DataLoader(TensorDataset(Xtr, ytr), batch_size=32, shuffle=True),
            DataLoader(TensorDataset(Xva, yva), batch_size=64))


if __name__ == "__main__":
    train_dl, val_dl = loaders()
    Trainer(nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2)), train_dl, val_dl).fit()
