"""segmentation_models.pytorch-style TrainEpoch.run with CrossEntropyLoss on a float (N,1,H,W) mask
source: https://github.com/qubvel-org/segmentation_models.pytorch/issues/197
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #2 'target' in call to _thnn_nll_loss2d_forward
outcome: RuntimeError: only batches of spatial targets supported (3D tensors) but got targets of dimension: 4 at line 72
root-cause: line 25
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

CLASSES = ['sky', 'building', 'road', 'car']


class Dataset_(Dataset):
    def __init__(self, n=16, classes=CLASSES):
        rng = np.random.default_rng(0)
        self.images = rng.random((n, 3, 32, 32)).astype('float32')
        self.masks = rng.integers(0, len(classes), size=(n, 32, 32))

    def __getitem__(self, i):
        image = self.images[i]
        mask = self.masks[i]
        mask = np.expand_dims(mask, axis=0).astype('float')  # root-cause
        return image, mask

    def __len__(self):
        return len(self.images)


class CrossEntropyLoss(nn.CrossEntropyLoss):
    __name__ = 'cross_entropy_loss'


class Epoch:
    def __init__(self, model, loss, stage_name, device='cpu', verbose=True):
        self.model = model
        self.loss = loss
        self.stage_name = stage_name
        self.verbose = verbose
        self.device = device
        self.model.to(self.device)
        self.loss.to(self.device)

    def run(self, dataloader):
        self.on_epoch_start()
        logs = {}
        loss_sum, n = 0.0, 0
        for x, y in dataloader:
            x, y = x.to(self.device), y.to(self.device)
            loss, y_pred = self.batch_update(x, y)
            loss_sum += loss.item()
            n += 1
        logs[self.loss.__name__] = loss_sum / max(n, 1)
        if self.verbose:
            print(self.stage_name, logs)
        return logs


class TrainEpoch(Epoch):
    def __init__(self, model, loss, optimizer, device='cpu', verbose=True):
        super().__init__(model=model, loss=loss, stage_name='train', device=device, verbose=verbose)
        self.optimizer = optimizer

    def on_epoch_start(self):
        self.model.train()

    def batch_update(self, x, y):
        self.optimizer.zero_grad()
        prediction = self.model.forward(x)
        loss = self.loss(prediction, y)  # fails-here
        loss.backward()
        self.optimizer.step()
        return loss, prediction


model = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, len(CLASSES), 1))
loss = CrossEntropyLoss()
optimizer = torch.optim.Adam([dict(params=model.parameters(), lr=0.0001)])
device = 'cuda' if torch.cuda.is_available() else 'cpu'
train_loader = DataLoader(Dataset_(), batch_size=4, shuffle=True)
train_epoch = TrainEpoch(model, loss=loss, optimizer=optimizer, device=device, verbose=True)
for i in range(0, 2):
    print('\nEpoch: {}'.format(i))
    train_logs = train_epoch.run(train_loader)
