"""Image-classifier training notes on mixed precision (HFtion/Env_set pytorch/autocast.py loop): the AMP variant adds autocast and a GradScaler but also calls model.half() "to save memory", so the gradients are float16 and GradScaler.step refuses to unscale them
source: https://github.com/HFtion/Env_set/blob/5282e0c619fcba6570fcea3d3ee2ae798a37d2f6/pytorch/autocast.py
reported-error: (none filed; the file's loop with GradScaler/autocast and a model already cast with .half(): ValueError: Attempting to unscale FP16 gradients.)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 51
root-cause: line 33
expect: DG014
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
model.half()  # root-cause
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
loader_train = get_loader()
scaler = torch.amp.GradScaler(device)

for epoch in range(epochs):
    model.train()
    for i, (images, labels) in enumerate(loader_train):
        images = images.to(device).half()
        labels = labels.to(device)

        optimizer.zero_grad()

        with torch.autocast(device_type=device, dtype=torch.float16):
            output = model(images)
            loss = criterion(output, labels)
        scaler.scale(loss).backward()
        scaler.step(optimizer)  # fails-here
        scaler.update()
    print(f"epoch {epoch} loss {loss.item():.4f}")
