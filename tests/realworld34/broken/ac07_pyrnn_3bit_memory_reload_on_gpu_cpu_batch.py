"""Continuous-time RNN on the 3-bit flip-flop task (pyrnn layout: ThreeBitDataset / make_batch / plot_predictions in three_bit_memory.py, CTRNN with fit/save/load/predict, examples/3bit_memory_train.py): training runs with on_gpu=False, but the best checkpoint is reloaded with on_gpu=FIT, which moves the network to the GPU, while plot_predictions feeds it a DataLoader batch and a zero hidden state that are both on the CPU
source: https://github.com/FedeClaudi/pyrnn/issues/1
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (examples/3bit_memory_train.py line 86 plot_predictions(rnn, N, batch_size) -> three_bit_memory.py line 122 o, h = model.predict(X))
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (the reloaded CTRNN's Linear layers are on cuda:0, the batch and the hidden state on the CPU; not run on a GPU for this set) at line 81; on CPU: ok
root-cause: line 125
expect: DG009
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.utils.data as data
from numpy import random as rnd

device = "cuda" if torch.cuda.is_available() else "cpu"


# ---- examples/three_bit_memory.py
class ThreeBitDataset(data.Dataset):
    def __init__(self, sequence_length, dataset_length=1):
        self.sequence_length = sequence_length
        self.dataset_length = dataset_length
        self.make_trials()

    def __len__(self):
        return self.dataset_length

    def make_trials(self):
        seq_len = self.sequence_length
        self.items = {}
        for i in range(self.dataset_length):
            X_batch, Y_batch = torch.zeros((seq_len, 3)), torch.zeros((seq_len, 3))
            for m in range(3):
                X, Y = torch.zeros(seq_len), torch.zeros(seq_len)
                X[rnd.uniform(1, seq_len - 1, int(seq_len / 20)).astype(np.int32)] = 1
                X[rnd.uniform(1, seq_len - 1, int(seq_len / 20)).astype(np.int32)] = -1
                X[0] = 1
                state = 0
                for n, x in enumerate(X):
                    state = 1 if x == 1 else (-1 if x == -1 else state)
                    Y[n] = state
                X_batch[:, m], Y_batch[:, m] = X, Y
            self.items[i] = (X_batch, Y_batch)

    def __getitem__(self, item):
        return self.items[item]


def make_batch(seq_len):
    dataloader = torch.utils.data.DataLoader(ThreeBitDataset(seq_len, dataset_length=1), batch_size=1, shuffle=True)
    return [b for b in dataloader][0]


def plot_predictions(model, seq_len, batch_size):
    X, Y = make_batch(seq_len)
    o, h = model.predict(X)
    for n in range(3):  # (matplotlib panels in the original)
        print(f"Input {n}: mean |output - target| = {np.abs(o[0, :, n] - Y[0, :, n].numpy()).mean():.3f}")


# ---- pyrnn/_rnn.py
class CTRNN(nn.Module):
    def __init__(self, input_size=3, output_size=3, n_units=64, tau=50, dt=5, on_gpu=False):
        super().__init__()
        self.n_units, self.alpha = n_units, dt / tau
        self.w_in = nn.Linear(input_size, n_units)
        self.w_rec = nn.Linear(n_units, n_units, bias=False)
        self.w_out = nn.Linear(n_units, output_size)
        if on_gpu:
            self.to(device)

    def _initialize_hidden(self, x):
        return torch.zeros((1, x.shape[0], self.n_units))

    def forward(self, x, h=None):
        h = self._initialize_hidden(x) if h is None else h
        out, hidden = [], []
        for t in range(x.shape[1]):
            h = (1 - self.alpha) * h + self.alpha * torch.tanh(self.w_rec(h) + self.w_in(x[:, t]))  # fails-here
            out.append(self.w_out(h))
            hidden.append(h)
        return torch.cat(out).transpose(0, 1), torch.cat(hidden).transpose(0, 1)

    def fit(self, dataset, n_epochs=5, lr=0.005, batch_size=16):
        loader = torch.utils.data.DataLoader(dataset, batch_size=batch_size, shuffle=True)
        optimizer = torch.optim.Adam(self.parameters(), lr=lr, amsgrad=True)
        criterion = torch.nn.MSELoss()
        for epoch in range(n_epochs):
            for X, Y in loader:
                optimizer.zero_grad()
                output, h = self(X)
                loss = criterion(output, Y)
                loss.backward()
                optimizer.step()
            print(f"epoch {epoch} loss {loss.item():.4f}")

    def save(self, path):
        torch.save(self.state_dict(), path)

    @classmethod
    def load(cls, path, *args, **kwargs):
        model = cls(*args, **kwargs)
        model.load_state_dict(torch.load(path, map_location=device))
        model.eval()
        return model

    def predict(self, X):
        o, h = self(X[0, :, :].unsqueeze(0))
        return o.detach().cpu().numpy(), h.detach().cpu().numpy()


# ---- examples/3bit_memory_train.py
FIT = True
n_units, N, batch_size, epochs = 64, 100, 16, 3
save_path = os.path.join(tempfile.mkdtemp(), "3bit_memory_minloss.pt")

dataset = ThreeBitDataset(N, dataset_length=64)
rnn = CTRNN(input_size=3, output_size=3, n_units=n_units, on_gpu=False, tau=50, dt=5)
rnn.fit(dataset, n_epochs=epochs, batch_size=batch_size)
rnn.save(save_path)

rnn = CTRNN.load(save_path, input_size=3, output_size=3, n_units=n_units,
                 on_gpu=FIT,  # root-cause
                 tau=50, dt=5)
plot_predictions(rnn, N, batch_size)
