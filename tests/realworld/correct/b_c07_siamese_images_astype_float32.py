"""Fixed siamese-triplet#49: the stacked /255. images are cast with .astype(np.float32) before torch.from_numpy
source: https://github.com/adambielski/siamese-triplet/issues/49
reported-error: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader


class Data_Load(Dataset):
    def __init__(self, n=8):
        self.train_data = []
        for j in range(n):
            img = np.random.randint(0, 256, size=(32, 32, 3), dtype=np.uint8)
            self.train_data.append(np.moveaxis(img[:, :, :3] / 255., -1, 0))
        self.train_data = np.stack(self.train_data).astype(np.float32)
        self.train_labels = torch.from_numpy(np.arange(n) % 2)

    def __getitem__(self, index):
        return torch.from_numpy(self.train_data[index]), self.train_labels[index]

    def __len__(self):
        return len(self.train_data)


class EmbeddingNet(nn.Module):
    def __init__(self):
        super(EmbeddingNet, self).__init__()
        self.convnet = nn.Sequential(nn.Conv2d(3, 8, 5), nn.PReLU(), nn.MaxPool2d(2, stride=2))
        self.fc = nn.Linear(8 * 14 * 14, 2)

    def forward(self, x):
        output = self.convnet(x)
        return self.fc(output.view(output.size()[0], -1))


model = EmbeddingNet()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.CrossEntropyLoss()
for data, target in DataLoader(Data_Load(), batch_size=4, shuffle=True):
    optimizer.zero_grad()
    loss = loss_fn(model(data), target)
    loss.backward()
    optimizer.step()
