"""getDefaultDevice() sets torch.set_default_device('cuda'); the shuffling DataLoader then breaks
source: https://github.com/pytorch/pytorch/issues/118084
reported-error: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' at line 77 (torch 2.13 RandomSampler calls torch.randperm(n, generator=cpu_generator).tolist(); the reporter's torch 2.1 failed at .numpy() in the same sampler); on CPU: ok
root-cause: line 20
expect: DG003
"""
import numpy as np
import torch
import torch.nn as nn
from torch.optim import Adam
from torch.utils.data import DataLoader

print("Torch version: ", torch.__version__)


def getDefaultDevice():
    if torch.cuda.is_available():
        print("\nSetting default device to cuda.\n")
        torch.set_default_device('cuda')  # root-cause
        print("Device name: ", torch.cuda.get_device_name(device=None))
        print("BF16 support: ", torch.cuda.is_bf16_supported())

        return torch.device('cuda')

    else:
        print("No GPU detected, default device is cpu")

        return torch.device('cpu')


device = getDefaultDevice()

config = {
    'n_labels': 3,
    'batch_size': 2,
    'lr': 5e-5,
    'epochs': 2,
    'accumulation_steps': 2,
    'max_length': 16
}


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


train_dataset = FinanceIncDataset(max_length=config['max_length'])
train_loader = DataLoader(train_dataset, batch_size=config['batch_size'], shuffle=True)  # root-cause-alt

model = TinyClassifier(n_labels=config['n_labels']).to(device)
optimizer = Adam(model.parameters(), lr=config['lr'])
criterion = nn.CrossEntropyLoss()

for epoch in range(config['epochs']):
    model.train()
    for step, batch in enumerate(train_loader):  # fails-here
        input_ids = batch['input_ids'].to(device)
        labels = batch['labels'].to(device)
        loss = criterion(model(input_ids), labels) / config['accumulation_steps']
        loss.backward()
        if (step + 1) % config['accumulation_steps'] == 0:
            optimizer.step()
            optimizer.zero_grad()
    print(epoch, loss.item())
