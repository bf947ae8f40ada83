"""Dataset returns Python float labels; default_collate builds a float64 target that BCELoss rejects
source: https://github.com/pytorch/pytorch/issues/69446
reported-error: RuntimeError: Found dtype Double but expected Float
outcome: RuntimeError: Found dtype Double but expected Float at line 43
root-cause: line 23
expect: DG007
"""
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader


class ClickDataset(Dataset):
    def __init__(self, n=64):
        g = torch.Generator().manual_seed(0)
        self.features = torch.randn(n, 8, generator=g)
        self.clicked = [1.0 if v > 0 else 0.0 for v in self.features[:, 0].tolist()]

    def __len__(self):
        return len(self.features)

    def __getitem__(self, idx):
        return self.features[idx], self.clicked[idx]  # root-cause


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 1)

    def forward(self, x):
        return torch.sigmoid(self.fc(x)).squeeze(-1)


loader = DataLoader(ClickDataset(), batch_size=16, shuffle=True)
model = Net()
criterion = nn.BCELoss()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

for x, target in loader:
    optimizer.zero_grad()
    pred = model(x)
    loss = criterion(pred, target)  # target comes from Dataset and is of type torch.DoubleTensor  # fails-here
    loss.backward()
    optimizer.step()
