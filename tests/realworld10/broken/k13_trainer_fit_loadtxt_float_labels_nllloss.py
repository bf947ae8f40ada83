"""Classifier trained by a small Trainer class (fit/validate with best-model tracking): the class labels are read from the same np.loadtxt table as the features, so Yt_train stays float, and NLLLoss on the log-softmax output rejects the float targets
source: https://openillumi.com/?p=8593
reported-error: RuntimeError: expected scalar type Long but found Float (the labels Yt_train passed to the loss are float; labels.long() fixes it)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Double at line 32
root-cause: line 55
expect: DG006
"""
import copy
import io

import numpy as np
import torch
import torch.nn as nn


def table(n=240, seed=0):
    rng = np.random.default_rng(seed)
    feats = rng.normal(size=(n, 4))
    label = (feats[:, 0] > 0).astype(int) + (feats[:, 1] > 0.5).astype(int)
    rows = "\n".join(" ".join(f"{v:.5f}" for v in f) + f" {c}" for f, c in zip(feats, label))
    return np.loadtxt(io.StringIO(rows))


class Trainer:
    def __init__(self, model, lr=0.05):
        self.model = model
        self.criterion = nn.NLLLoss()
        self.optimizer = torch.optim.SGD(model.parameters(), lr=lr)
        self.best_state, self.best_loss = None, float("inf")

    def _loss(self, x, y):
        return self.criterion(torch.log_softmax(self.model(x), dim=1), y)  # fails-here

    def fit(self, train, valid, epochs=5):
        for epoch in range(epochs):
            self.model.train()
            loss = self._loss(*train)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            val = self.validate(*valid)
            if val < self.best_loss:
                self.best_loss, self.best_state = val, copy.deepcopy(self.model.state_dict())
            print(f"epoch {epoch}: train {loss.item():.4f} valid {val:.4f}")
        self.model.load_state_dict(self.best_state)

    @torch.no_grad()
    def validate(self, x, y):
        self.model.eval()
        return self._loss(x, y).item()


data = table()
Xt = torch.tensor(data[:, :4], dtype=torch.float32)
Yt = torch.tensor(data[:, 4])  # root-cause
Xt_train, Xt_valid, Yt_train, Yt_valid = Xt[:200], Xt[200:], Yt[:200], Yt[200:]
trainer = Trainer(nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3)))
trainer.fit((Xt_train, Yt_train), (Xt_valid, Yt_valid))
