"""A PyTorchStepByStep-style StepByStep trainer (re-typed from stepbystep/v0.py: _mini_batch averaging the mini-batch losses with np.mean, save_checkpoint/load_checkpoint) trains the book's Chapter 2 linear regression, saves a checkpoint and resumes from it: the checkpoint's loss lists hold NumPy float64 scalars and the plain torch.load refuses them
source: https://github.com/dvgodoy/PyTorchStepByStep/issues/61
reported-error: "UnpicklingError when loading model checkpoint with torch.load in PyTorch 2.6" (checkpoint = torch.load('model_checkpoint.pth') with model_state_dict, optimizer_state_dict, loss and val_loss; the author added weights_only=False to the notebooks and stepbystep/*.py)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray.scalar was not an allowed global by default. ... at line 112
root-cause: line 112
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim
from torch.utils.data import DataLoader, TensorDataset, random_split


class StepByStep(object):
    def __init__(self, model, loss_fn, optimizer):
        self.model = model
        self.loss_fn = loss_fn
        self.optimizer = optimizer
        self.device = 'cuda' if torch.cuda.is_available() else 'cpu'
        self.model.to(self.device)

        self.train_loader = None
        self.val_loader = None

        self.losses = []
        self.val_losses = []
        self.total_epochs = 0

        self.train_step_fn = self._make_train_step_fn()
        self.val_step_fn = self._make_val_step_fn()

    def set_loaders(self, train_loader, val_loader=None):
        self.train_loader = train_loader
        self.val_loader = val_loader

    def _make_train_step_fn(self):
        def perform_train_step_fn(x, y):
            self.model.train()
            yhat = self.model(x)
            loss = self.loss_fn(yhat, y)
            loss.backward()
            self.optimizer.step()
            self.optimizer.zero_grad()
            return loss.item()

        return perform_train_step_fn

    def _make_val_step_fn(self):
        def perform_val_step_fn(x, y):
            self.model.eval()
            yhat = self.model(x)
            loss = self.loss_fn(yhat, y)
            return loss.item()

        return perform_val_step_fn

    def _mini_batch(self, validation=False):
        if validation:
            data_loader = self.val_loader
            step_fn = self.val_step_fn
        else:
            data_loader = self.train_loader
            step_fn = self.train_step_fn

        if data_loader is None:
            return None

        mini_batch_losses = []
        for x_batch, y_batch in data_loader:
            x_batch = x_batch.to(self.device)
            y_batch = y_batch.to(self.device)

            mini_batch_loss = step_fn(x_batch, y_batch)
            mini_batch_losses.append(mini_batch_loss)

        loss = np.mean(mini_batch_losses)
        return loss

    def set_seed(self, seed=42):
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
        torch.manual_seed(seed)
        np.random.seed(seed)

    def train(self, n_epochs, seed=42):
        self.set_seed(seed)

        for epoch in range(n_epochs):
            self.total_epochs += 1

            loss = self._mini_batch(validation=False)
            self.losses.append(loss)

            with torch.no_grad():
                val_loss = self._mini_batch(validation=True)
                self.val_losses.append(val_loss)

    def save_checkpoint(self, filename):
        checkpoint = {'epoch': self.total_epochs,
                      'model_state_dict': self.model.state_dict(),
                      'optimizer_state_dict': self.optimizer.state_dict(),
                      'loss': self.losses,  # root-cause-alt
                      'val_loss': self.val_losses}

        torch.save(checkpoint, filename)

    def load_checkpoint(self, filename):
        checkpoint = torch.load(filename)  # root-cause  # fails-here

        self.model.load_state_dict(checkpoint['model_state_dict'])
        self.optimizer.load_state_dict(checkpoint['optimizer_state_dict'])

        self.total_epochs = checkpoint['epoch']
        self.losses = checkpoint['loss']
        self.val_losses = checkpoint['val_loss']

        self.model.train()


# data_generation/simple_linear_regression.py
true_b = 1
true_w = 2
N = 100

np.random.seed(42)
x = np.random.rand(N, 1)
epsilon = (.1 * np.random.randn(N, 1))
y = true_b + true_w * x + epsilon

# data_preparation/v2.py
torch.manual_seed(13)
x_tensor = torch.as_tensor(x).float()
y_tensor = torch.as_tensor(y).float()
dataset = TensorDataset(x_tensor, y_tensor)
n_total = len(dataset)
n_train = int(n_total * .8)
n_val = n_total - n_train
train_data, val_data = random_split(dataset, [n_train, n_val])
train_loader = DataLoader(dataset=train_data, batch_size=16, shuffle=True)
val_loader = DataLoader(dataset=val_data, batch_size=16)

# model_configuration/v2.py
lr = 0.1
torch.manual_seed(42)
model = nn.Sequential(nn.Linear(1, 1))
optimizer = optim.SGD(model.parameters(), lr=lr)
loss_fn = nn.MSELoss(reduction='mean')

sbs = StepByStep(model, loss_fn, optimizer)
sbs.set_loaders(train_loader, val_loader)
sbs.train(n_epochs=50)
print(f"after {sbs.total_epochs} epochs: {model.state_dict()} train loss {sbs.losses[-1]:.5f}")

ckpt_dir = tempfile.mkdtemp()
ckpt_path = os.path.join(ckpt_dir, 'model_checkpoint.pth')
sbs.save_checkpoint(ckpt_path)

# resuming: a fresh model, optimizer and trainer, then the checkpoint
torch.manual_seed(42)
new_model = nn.Sequential(nn.Linear(1, 1))
new_optimizer = optim.SGD(new_model.parameters(), lr=lr)
new_sbs = StepByStep(new_model, loss_fn, new_optimizer)
new_sbs.load_checkpoint(ckpt_path)
new_sbs.set_loaders(train_loader, val_loader)
new_sbs.train(n_epochs=50)
print(f"resumed to {new_sbs.total_epochs} epochs: {new_model.state_dict()} train loss {new_sbs.losses[-1]:.5f}")
