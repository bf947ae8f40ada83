"""KTH action recognition: labels stored as uint8 (Byte) go to NLLLoss, which accepts Byte targets in current PyTorch
source: https://github.com/vkhoi/KTH-Action-Recognition/issues/8
reported-error: Runtime Error: Expected object of scalar type Long but got scalar type Byte for argument #2 'target' (PyTorch 1.0)
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import Dataset, DataLoader


class RawDataset(Dataset):
    def __init__(self, n=32):
        self.instances = np.random.rand(n, 1, 60, 80).astype(np.float32)
        self.labels = np.random.randint(0, 6, size=n).astype(np.uint8)

    def __len__(self):
        return len(self.instances)

    def __getitem__(self, idx):
        return {"instance": torch.from_numpy(self.instances[idx]), "label": torch.from_numpy(self.labels[idx:idx + 1])[0]}


class CNNSingleFrame(nn.Module):
    def __init__(self):
        super(CNNSingleFrame, self).__init__()
        self.conv1 = nn.Conv2d(1, 16, kernel_size=5)
        self.fc1 = nn.Linear(16 * 28 * 38, 6)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)
        return F.log_softmax(self.fc1(x.view(x.size(0), -1)), dim=1)


model = CNNSingleFrame()
criterion = nn.NLLLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
for sample in DataLoader(RawDataset(), batch_size=8, shuffle=True):
    assert sample["label"].dtype == torch.uint8
    optimizer.zero_grad()
    outputs = model(sample["instance"])
    loss = criterion(outputs, sample["label"])
    loss.backward()
    optimizer.step()
