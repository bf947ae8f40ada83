"""Small CNN trained with a Trainer object. Images are kept as raw uint8 to save memory."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build_fake_cifar(n=64):
    images = torch.randint(0, 256, (n, 3, 32, 32), dtype=torch.uint8)  # expect: DG004
    labels = torch.randint(0, 10, (n,))
    return TensorDataset(images, labels)


class SmallCNN(nn.Module):
    def __init__(self, n_classes=10):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(16, 32, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
        )
        self.classifier = nn.Linear(32, n_classes)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


class Trainer:
    def __init__(self, model, train_loader, lr=1e-3):
        self.model = model
        self.train_loader = train_loader
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
        self.criterion = nn.CrossEntropyLoss()
        self.global_step = 0

    def train_epoch(self):
        self.model.train()
        for images, labels in self.train_loader:
            self.optimizer.zero_grad()
            outputs = self.model(images)
            loss = self.criterion(outputs, labels)
            loss.backward()
            self.optimizer.step()
            self.global_step += 1
            if self.global_step % 10 == 0:
                print("step", self.global_step, "loss", round(loss.item(), 4))

    def fit(self, epochs):
        for _ in range(epochs):
            self.train_epoch()


if __name__ == "__main__":
    loader = DataLoader(build_fake_cifar(), batch_size=16, shuffle=True)
    Trainer(SmallCNN(), loader).fit(epochs=1)
