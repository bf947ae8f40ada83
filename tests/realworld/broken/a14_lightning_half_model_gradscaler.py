"""model.half() plus 16-bit native AMP (GradScaler): unscale refuses FP16 gradients
source: https://github.com/Lightning-AI/pytorch-lightning/issues/5140
reported-error: ValueError: Attempting to unscale FP16 gradients.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 60
root-cause: line 46
expect: DG014
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

config = {'n_class': 2, 'num_workers': 0, 'batch_size': 8, 'lr': 0.001, 'size': 32, 'epochs': 2, 'folds': 2}
device = 'cuda' if torch.cuda.is_available() else 'cpu'


class Model(nn.Module):
    def __init__(self, n_class, size, **kwargs):
        super().__init__()
        self.nets = nn.ModuleList([
            nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, n_class))
            for _ in range(kwargs.get('folds', 1))
        ])
        self.cur_net = self.nets[0]

    def set_net(self, i):
        self.cur_net = self.nets[i]

    def forward(self, x):
        return self.cur_net(x)


class MyDataModule:
    def __init__(self, size, batch_size, num_workers):
        self.x = torch.rand(32, 3, size, size)
        self.y = torch.randint(0, 2, (32,))
        self.batch_size = batch_size
        self.num_workers = num_workers

    def train_dataloader(self, i):
        return DataLoader(TensorDataset(self.x, self.y), batch_size=self.batch_size,
                          shuffle=True, num_workers=self.num_workers)


def train():
    model = Model(**config)
    model.half()  # root-cause
    model.to(device)
    data_module = MyDataModule(config['size'], config['batch_size'], config['num_workers'])
    scaler = torch.amp.GradScaler(device)
    for i in range(config['folds']):
        model.set_net(i)
        optimizer = torch.optim.Adam(model.cur_net.parameters(), lr=config['lr'])
        for epoch in range(config['epochs']):
            for x, y in data_module.train_dataloader(i):
                x, y = x.to(device), y.to(device)
                with torch.autocast(device_type=device, dtype=torch.float16):
                    loss = nn.functional.cross_entropy(model(x.half()), y)
                optimizer.zero_grad()
                scaler.scale(loss).backward()
                scaler.step(optimizer)  # fails-here
                scaler.update()
            print(i, epoch, loss.item())


if __name__ == '__main__':
    train()
