"""Trainer with an end-of-epoch validation callback that calls self.model.half() "to speed up evaluation" and never converts back; the next epoch's batches follow the model's dtype, and the Adam state created in float32 during epoch 0 makes optimizer.step() fail
source: https://github.com/NVIDIA/apex/issues/798
reported-error: RuntimeError: expected scalar type Half but found Float
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::Half at line 31
root-cause: line 37
expect: DG015
"""
import torch
import torch.nn as nn


class Trainer:
    def __init__(self, cfg):
        torch.manual_seed(0)
        self.cfg = cfg
        self.model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=cfg["lr"])
        self.x = torch.randn(128, 20)
        self.y = (self.x[:, 0] > 0).long()

    @property
    def dtype(self):
        return next(self.model.parameters()).dtype

    def train_epoch(self):
        for i in range(0, 128, 32):
            xb, yb = self.x[i:i + 32].to(self.dtype), self.y[i:i + 32]
            loss = nn.functional.cross_entropy(self.model(xb).float(), yb)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()  # fails-here
        return loss.item()

    @torch.no_grad()
    def on_epoch_end(self):
        self.model.eval()
        self.model.half()  # root-cause
        acc = (self.model(self.x.half()).argmax(1) == self.y).float().mean().item()
        self.model.train()
        return acc

    def fit(self):
        for epoch in range(self.cfg["epochs"]):
            loss = self.train_epoch()
            print("epoch", epoch, "loss", round(loss, 4), "val acc", self.on_epoch_end())


Trainer({"lr": 1e-3, "epochs": 3}).fit()
