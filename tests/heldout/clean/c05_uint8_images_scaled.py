"""Raw uint8 images are stored in the Dataset and converted with .float() / 255 in the loop."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


class RawImages(Dataset):
    def __init__(self, n=48):
        self.images = torch.randint(0, 256, (n, 3, 16, 16), dtype=torch.uint8)
        self.labels = torch.randint(0, 4, (n,))

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return self.images[i], self.labels[i]


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 8, 3, padding=1)
        self.bn = nn.BatchNorm2d(8)
        self.fc = nn.Linear(8, 4)

    def forward(self, x):
        x = torch.relu(self.bn(self.conv(x)))
        return self.fc(x.mean(dim=(2, 3)))


MEAN = torch.tensor([0.5, 0.5, 0.5]).view(1, 3, 1, 1)
STD = torch.tensor([0.25, 0.25, 0.25]).view(1, 3, 1, 1)

model = Net()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(2):
    for batch_idx, (img, label) in enumerate(DataLoader(RawImages(), batch_size=16, shuffle=True)):
        x = (img.float() / 255 - MEAN) / STD
        loss = nn.functional.cross_entropy(model(x), label)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch} loss {loss.item():.3f}")
