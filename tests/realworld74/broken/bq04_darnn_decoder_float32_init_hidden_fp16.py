"""A DA-RNN load forecaster (dual-stage attention encoder-decoder over sliding windows built in NumPy, re-typed after Seanny123/da-rnn and the decoder in the report: input-attention LSTM encoder, temporal-attention LSTM decoder that walks the history and then the horizon with teacher forcing, a 24-step output head) trained with apex-style amp at opt_level O2 (re-typed amp_initialize: the model is cast to float16 and its forward casts floating inputs to float16); the decoder's init_hidden builds h0/c0 with torch.zeros, float32, so the attention input that concatenates them with the float16 encoder output is float32 and the float16 attention layer rejects it
source: https://github.com/NVIDIA/apex/issues/667
reported-error: with opt_level O2 or O3 (O1 works): decoder forward, torch.cat((hidden.repeat(...), cell.repeat(self.T -1, 1, 1).permute(1, 0, 2), input_encoded), dim=2) -> RuntimeError: Expected object of scalar type Float but got scalar type Half for sequence element 2 in sequence argument at position #1 'tensors' (torch 1.3.1; torch.cat now promotes to float32 and the float16 Linear after it fails instead)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Half at line 83
root-cause: line 97
expect: DG004
"""
import functools

import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
np.random.seed(0)
device = torch.device("cpu")
history_size, output_size, batch_size = 10, 24, 16


def amp_initialize(model, opt_level="O2"):
    """apex.amp.initialize for O2/O3: cast the model to float16 and cast floating inputs of its forward to float16."""
    if opt_level in ("O2", "O3"):
        model.half()
        forward = model.forward

        @functools.wraps(forward)
        def new_fwd(*args, **kwargs):
            cast = [a.half() if torch.is_tensor(a) and a.is_floating_point() else a for a in args]
            return forward(*cast, **kwargs)

        model.forward = new_fwd
    return model


class Encoder(nn.Module):
    def __init__(self, input_size, hidden_size, T):
        super().__init__()
        self.input_size, self.hidden_size, self.T = input_size, hidden_size, T
        self.lstm_layer = nn.LSTM(input_size=input_size, hidden_size=hidden_size, num_layers=1)
        self.attn_linear = nn.Linear(in_features=2 * hidden_size + T - 1, out_features=1)

    def forward(self, input_data):
        input_encoded = input_data.data.new(input_data.size(0), self.T - 1, self.hidden_size).zero_()
        hidden = self.init_hidden(input_data)
        cell = self.init_hidden(input_data)
        for t in range(self.T - 1):
            x = torch.cat((hidden.repeat(self.input_size, 1, 1).permute(1, 0, 2),
                           cell.repeat(self.input_size, 1, 1).permute(1, 0, 2),
                           input_data.permute(0, 2, 1)), dim=2)
            x = self.attn_linear(x.view(-1, self.hidden_size * 2 + self.T - 1))
            attn_weights = F.softmax(x.view(-1, self.input_size), dim=1)
            weighted_input = torch.mul(attn_weights, input_data[:, t, :])
            _, lstm_states = self.lstm_layer(weighted_input.unsqueeze(0), (hidden, cell))
            hidden, cell = lstm_states
            input_encoded[:, t, :] = hidden
        return input_encoded

    def init_hidden(self, x):
        return x.data.new(1, x.size(0), self.hidden_size).zero_()


class Decoder(nn.Module):
    def __init__(self, encoder_hidden_size, decoder_hidden_size, history_size):
        super().__init__()
        self.encoder_hidden_size = encoder_hidden_size
        self.decoder_hidden_size = decoder_hidden_size
        self.T = history_size + 1
        self.attn_layer = nn.Sequential(nn.Linear(2 * decoder_hidden_size + encoder_hidden_size, encoder_hidden_size),
                                        nn.Tanh(), nn.Linear(encoder_hidden_size, 1))
        self.lstm1 = nn.LSTM(1, decoder_hidden_size, 1)
        self.out1 = nn.Linear(encoder_hidden_size + 1, 1)
        self.out2 = nn.Linear(decoder_hidden_size + encoder_hidden_size, output_size)
        self.out1.weight.data.normal_()

    def forward(self, input_encoded, y_history, target=None):
        hidden = self.init_hidden()
        cell = self.init_hidden()
        y_prev = y_history[:, -1]
        for i in range(self.T + output_size - 2):
            x = torch.cat((hidden.repeat(self.T - 1, 1, 1).permute(1, 0, 2),
                           cell.repeat(self.T - 1, 1, 1).permute(1, 0, 2), input_encoded), dim=2)
            x = F.softmax(self.attn_layer(x.view(-1, 2 * self.decoder_hidden_size + self.encoder_hidden_size)).view(-1, self.T - 1), dim=1)  # fails-here
            context = torch.bmm(x.unsqueeze(1), input_encoded)[:, 0, :]
            if i < self.T - 1:
                y_in = y_history[:, i]
            elif target is not None:
                y_in = target[:, i - (self.T - 1)]  # teacher forcing over the horizon
            else:
                y_in = y_prev
            y_tilde = self.out1(torch.cat((context, y_in.unsqueeze(1)), dim=1))
            _, (hidden, cell) = self.lstm1(y_tilde.unsqueeze(0), (hidden, cell))
            y_prev = y_tilde[:, 0]
        return self.out2(torch.cat((hidden[0], context), dim=1))

    def init_hidden(self):
        return torch.zeros(1, batch_size, self.decoder_hidden_size).to(device)  # root-cause


class DARNN(nn.Module):
    def __init__(self, n_features, enc_hidden=32, dec_hidden=32):
        super().__init__()
        self.encoder = Encoder(n_features, enc_hidden, history_size + 1)
        self.decoder = Decoder(enc_hidden, dec_hidden, history_size)

    def forward(self, X, y_history, target=None):
        return self.decoder(self.encoder(X), y_history, target)


# hourly load with 4 weather drivers; windows of 10 past hours predict the next 24 hours
hours = np.arange(3000)
drivers = np.stack([np.sin(2 * np.pi * hours / 24), np.cos(2 * np.pi * hours / 24),
                    np.sin(2 * np.pi * hours / 168), np.random.randn(len(hours)) * 0.1], axis=1)
load = 0.8 * drivers[:, 0] + 0.3 * drivers[:, 2] + 0.05 * np.random.randn(len(hours))
X = np.stack([drivers[i:i + history_size] for i in range(len(hours) - history_size - output_size)])
y_hist = np.stack([load[i:i + history_size] for i in range(len(hours) - history_size - output_size)])
y_target = np.stack([load[i + history_size:i + history_size + output_size] for i in range(len(hours) - history_size - output_size)])
X, y_hist, y_target = (torch.from_numpy(a.astype(np.float32)) for a in (X, y_hist, y_target))

model = DARNN(n_features=4).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
model = amp_initialize(model, opt_level="O2")
for step in range(20):
    idx = torch.randint(0, len(X), (batch_size,))
    pred = model(X[idx], y_hist[idx], y_target[idx])
    loss = F.mse_loss(pred.float(), y_target[idx])
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 5 == 0:
        print(f"step {step} mse {loss.item():.4f}")
