"""Digit classifier ported from a Keras notebook: x_train kept as the uint8 (N, 28, 28, 1) channels-last array Keras accepted, turned into a tensor with torch.tensor and moved to channels-first with .permute(0, 3, 1, 2) before model.fit-style training
source: https://androidkt.com/pytorch-changes-image-channel-order-between-channel-first-and-channel-last/
reported-error: uint8 images must be reordered to NCHW and given a float dtype before a PyTorch Conv2d (Keras rescales inside the model)
outcome: RuntimeError: Input type (unsigned char) and bias type (float) should be the same at line 29
root-cause: line 42
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn

rng = np.random.default_rng(0)
x_train = rng.integers(0, 256, size=(256, 28, 28, 1), dtype=np.uint8)
y_train = rng.integers(0, 10, size=256)


class Sequential(nn.Sequential):
    """A Keras-like fit() on top of nn.Sequential."""

    def compile(self, lr=1e-3):
        self.opt = torch.optim.Adam(self.parameters(), lr=lr)
        self.loss_fn = nn.CrossEntropyLoss()

    def fit(self, x, y, epochs=1, batch_size=64):
        for epoch in range(epochs):
            perm = torch.randperm(len(x))
            for i in range(0, len(x), batch_size):
                idx = perm[i:i + batch_size]
                loss = self.loss_fn(self(x[idx]), y[idx])  # fails-here
                self.opt.zero_grad()
                loss.backward()
                self.opt.step()
            print(f"Epoch {epoch + 1}/{epochs} - loss: {loss.item():.4f}")


model = Sequential(
    nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2),
    nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2),
    nn.Flatten(), nn.Dropout(0.5), nn.Linear(64 * 5 * 5, 10))
model.compile()

X = torch.tensor(x_train).permute(0, 3, 1, 2)  # root-cause
Y = torch.tensor(y_train)
model.fit(X, Y, epochs=2)
