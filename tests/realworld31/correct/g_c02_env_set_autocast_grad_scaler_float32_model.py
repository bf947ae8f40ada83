"""Image-classifier AMP loop (autocast + GradScaler) with the model kept in float32: autocast runs the convolutions and the linear layer in float16, the gradients land on float32 parameters and GradScaler unscales them
source: https://github.com/HFtion/Env_set/blob/5282e0c619fcba6570fcea3d3ee2ae798a37d2f6/pytorch/autocast.py
reported-error: none (fixed version: no model.half(); autocast alone lowers the compute precision)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

device = "cuda" if torch.cuda.is_available() else "cpu"
epochs = 2


class SmallCNN(nn.Module):
    def __init__(self, n_class=10):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(4))
        self.classifier = nn.Linear(8 * 16, n_class)

    def forward(self, x):
        return self.classifier(self.features(x).flatten(1))


def get_loader():
    images = torch.randn(32, 3, 16, 16)
    labels = torch.randint(0, 10, (32,))
    return DataLoader(TensorDataset(images, labels), batch_size=8, shuffle=True)


model = SmallCNN().to(device)
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
loader_train = get_loader()
scaler = torch.amp.GradScaler(device)

for epoch in range(epochs):
    model.train()
    for i, (images, labels) in enumerate(loader_train):
        images = images.to(device)
        labels = labels.to(device)

        optimizer.zero_grad()

        with torch.autocast(device_type=device, dtype=torch.float16):
            output = model(images)
            loss = criterion(output, labels)
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
    print(f"epoch {epoch} loss {loss.item():.4f}")
