"""Sound-event tagger whose make_targets() builds F.one_hot(labels, n_classes) (int64) and only turns them into smoothed float targets when cfg.label_smoothing > 0; with the default 0.0 the Long one-hot tensor reaches BCEWithLogitsLoss
source: https://github.com/speechbrain/speechbrain/issues/353
reported-error: none quoted (BCE_loss misbehaves with label_smoothing; here the un-smoothed branch keeps integer targets)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 35
root-cause: line 16
expect: DG007
"""
from types import SimpleNamespace

import torch
import torch.nn as nn
import torch.nn.functional as F


def make_targets(labels, cfg):
    targets = F.one_hot(labels, cfg.n_classes)  # root-cause
    if cfg.label_smoothing > 0:
        targets = targets * (1 - cfg.label_smoothing) + cfg.label_smoothing / cfg.n_classes
    return targets


class FrameTagger(nn.Module):
    def __init__(self, n_mels, n_classes):
        super().__init__()
        self.gru = nn.GRU(n_mels, 32, batch_first=True)
        self.head = nn.Linear(32, n_classes)

    def forward(self, mels):
        out, _ = self.gru(mels)
        return self.head(out.mean(1))


def train_step(model, criterion, opt, mels, labels, cfg):
    logits = model(mels)
    loss = criterion(logits, make_targets(labels, cfg))  # fails-here
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), cfg.clip)
    opt.step()
    return loss.item()


cfg = SimpleNamespace(n_mels=20, n_classes=5, label_smoothing=0.0, clip=5.0)
model = FrameTagger(cfg.n_mels, cfg.n_classes)
criterion = nn.BCEWithLogitsLoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
mels = torch.randn(8, 30, cfg.n_mels)
labels = torch.randint(0, cfg.n_classes, (8,))
print("loss", train_step(model, criterion, opt, mels, labels, cfg))
