"""pyLOM-style MLP.save stores the activation function object next to the weights; MLP.load fails under weights_only
source: https://github.com/ArnauMiro/pyLowOrder/issues/104
reported-error: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL torch.nn.functional.relu was not an allowed global by default.
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL torch.nn.functional.relu was not an allowed global by default. ... at line 66
root-cause: line 66
expect: DG011
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class MLP(nn.Module):
    r"""Multi-layer perceptron model for regression tasks."""

    def __init__(self, input_size, output_size, n_layers, hidden_size, p_dropouts=0.0,
                 activation=F.relu, device=torch.device("cpu"), **kwargs):
        super().__init__()
        self.input_size = input_size
        self.output_size = output_size
        self.n_layers = n_layers
        self.hidden_size = hidden_size
        self.p_dropouts = p_dropouts
        self.activation = activation
        self.device = device
        self.layers = nn.ModuleList()
        for i in range(n_layers):
            in_size = input_size if i == 0 else hidden_size
            self.layers.append(nn.Linear(in_size, hidden_size))
        self.oupt = nn.Linear(hidden_size, output_size)
        self.to(self.device)

    def forward(self, x):
        for layer in self.layers:
            x = F.dropout(self.activation(layer(x)), p=self.p_dropouts, training=self.training)
        return self.oupt(x)

    def fit(self, x, y, epochs=20, lr=1e-3):
        optimizer = torch.optim.Adam(self.parameters(), lr=lr)
        for epoch in range(epochs):
            optimizer.zero_grad()
            loss = F.mse_loss(self(x), y)
            loss.backward()
            optimizer.step()
        return {"train_loss": [loss.item()]}

    def save(self, path):
        checkpoint = {
            "input_size": self.input_size,
            "output_size": self.output_size,
            "n_layers": self.n_layers,
            "hidden_size": self.hidden_size,
            "p_dropouts": self.p_dropouts,
            "activation": self.activation,  # root-cause-alt
            "device": self.device,
            "state_dict": self.state_dict(),
        }
        torch.save(checkpoint, path)

    @classmethod
    def load(cls, path, device=torch.device("cpu")):
        checkpoint = torch.load(path, map_location=device)  # root-cause # fails-here
        checkpoint["device"] = device
        model = cls(**checkpoint)
        model.load_state_dict(checkpoint["state_dict"])
        return model


def test_mlp():
    tmp = tempfile.mkdtemp()
    x = torch.from_numpy(np.random.rand(64, 3).astype(np.float32))
    y = torch.from_numpy(np.random.rand(64, 2).astype(np.float32))
    model = MLP(input_size=3, output_size=2, n_layers=2, hidden_size=16)
    print(model.fit(x, y))
    path = os.path.join(tmp, "mlp.pth")
    model.save(path)
    model_loaded = MLP.load(path)
    print(torch.allclose(model_loaded(x), model(x)))


if __name__ == "__main__":
    test_mlp()
