"""Default device picked at run time, shuffling DataLoader given a generator on that same device
source: https://github.com/pytorch/pytorch/issues/118084
reported-error: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.optim import Adam
from torch.utils.data import DataLoader


def getDefaultDevice():
    if torch.cuda.is_available():
        torch.set_default_device('cuda')
        return torch.device('cuda')
    print("No GPU detected, default device is cpu")
    return torch.device('cpu')


device = getDefaultDevice()
config = {'n_labels': 3, 'batch_size': 2, 'lr': 5e-5, 'epochs': 2}


class FinanceIncDataset(object):
    def __init__(self, n=8, max_length=16):
        rng = np.random.default_rng(0)
        self.input_ids = rng.integers(0, 100, size=(n, max_length))
        self.labels = rng.integers(0, config['n_labels'], size=n)

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, idx):
        return {'input_ids': torch.from_numpy(self.input_ids[idx]),
                'labels': torch.tensor(int(self.labels[idx]))}


class TinyClassifier(nn.Module):
    def __init__(self, vocab=100, dim=32, n_labels=3):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, n_labels)

    def forward(self, input_ids):
        return self.head(self.emb(input_ids).mean(1))


train_loader = DataLoader(FinanceIncDataset(), batch_size=config['batch_size'], shuffle=True,
                          generator=torch.Generator(device=device))
model = TinyClassifier(n_labels=config['n_labels']).to(device)
optimizer = Adam(model.parameters(), lr=config['lr'])
criterion = nn.CrossEntropyLoss()

for epoch in range(config['epochs']):
    for batch in train_loader:
        input_ids = batch['input_ids'].to(device)
        labels = batch['labels'].to(device)
        loss = criterion(model(input_ids), labels)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(epoch, loss.item())
