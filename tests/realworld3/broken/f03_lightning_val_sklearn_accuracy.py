"""LightningModule validation_step passes a CUDA argmax tensor to a numpy accuracy_score
source: https://github.com/Lightning-AI/pytorch-lightning/issues/1429
reported-error: TypeError: can't convert CUDA tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
outcome: cuda-only: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first. at line 18; on CPU: ok
root-cause: line 42
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def accuracy_score(y_true, y_pred):
    # stand-in for sklearn.metrics.accuracy_score: works on numpy arrays
    y_true = np.asarray(y_true)
    y_pred = np.asarray(y_pred)  # fails-here
    return float((y_true == y_pred).mean())


class LitClassifier(nn.Module):
    """A LightningModule-shaped model driven by a tiny hand-written trainer."""

    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(28 * 28, 64)
        self.l2 = nn.Linear(64, 10)

    def forward(self, x):
        return self.l2(torch.relu(self.l1(x.view(x.size(0), -1))))

    def training_step(self, batch, batch_idx):
        x, y = batch
        y_hat = self(x)
        return {'loss': F.cross_entropy(y_hat, y)}

    def validation_step(self, batch, batch_idx):
        x, y = batch
        y_hat = self(x)
        labels_hat = torch.argmax(y_hat, dim=1)
        val_acc = accuracy_score(y.cpu(), labels_hat)  # root-cause
        return {'val_loss': F.cross_entropy(y_hat, y), 'val_acc': torch.tensor(val_acc)}

    def validation_epoch_end(self, outputs):
        avg_loss = torch.stack([x['val_loss'] for x in outputs]).mean()
        avg_acc = torch.stack([x['val_acc'] for x in outputs]).mean()
        return {'val_loss': avg_loss, 'val_acc': avg_acc}

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3)


class MiniTrainer:
    def __init__(self, max_epochs=1, gpus=1):
        self.max_epochs = max_epochs
        self.device = torch.device('cuda' if gpus and torch.cuda.is_available() else 'cpu')

    def fit(self, model, train_dataloader, val_dataloaders):
        model.to(self.device)
        opt = model.configure_optimizers()
        for epoch in range(self.max_epochs):
            model.train()
            for i, (x, y) in enumerate(train_dataloader):
                x, y = x.to(self.device), y.to(self.device)
                loss = model.training_step((x, y), i)['loss']
                opt.zero_grad()
                loss.backward()
                opt.step()
            model.eval()
            outs = []
            with torch.no_grad():
                for i, (x, y) in enumerate(val_dataloaders):
                    x, y = x.to(self.device), y.to(self.device)
                    outs.append(model.validation_step((x, y), i))
            print(model.validation_epoch_end(outs))


X = torch.rand(256, 1, 28, 28)
Y = torch.randint(0, 10, (256,))
train_dl = DataLoader(TensorDataset(X[:192], Y[:192]), batch_size=32, shuffle=True)
val_dl = DataLoader(TensorDataset(X[192:], Y[192:]), batch_size=32)
MiniTrainer(max_epochs=1, gpus=1).fit(LitClassifier(), train_dl, val_dl)
