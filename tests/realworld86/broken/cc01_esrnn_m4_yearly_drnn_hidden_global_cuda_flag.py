"""An esrnn_torch-style ESRNN fit on M4-Yearly-like panels (re-typed: the Batch/Iterator of utils/data.py, the _ESM level smoothing, the DRNN of utils/DRNN.py with its module-level use_cuda flag, _RNN stacking dilated LSTM groups, the pinball training loop) asked to run with device='cpu' on a machine that has a GPU: DRNN.init_hidden moves the LSTM state to the GPU because a GPU exists, while the windows and the weights stay on the CPU
source: https://github.com/kdgutier/esrnn_torch/issues/14
reported-error: "RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cpu and hidden tensor at cuda:0" when executing the M4 example with ESRNN(..., device='cpu')
outcome: RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cpu and hidden tensor at meta at line 69
root-cause: line 98
expect: DG009
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.autograd as autograd

torch.manual_seed(1)
np.random.seed(1)

# ---- ESRNN/utils/DRNN.py -------------------------------------------------------------
# The reporter's machine has a GPU, so `torch.cuda.is_available()` is True there even though the
# model was asked for device='cpu'. This CPU-only rebuild stands the GPU in with the meta device.
GPU = torch.device("meta")
use_cuda = True  # torch.cuda.is_available() on the reporter's machine  # root-cause-alt


class DRNN(nn.Module):
    def __init__(self, n_input, n_hidden, n_layers, dilations, dropout=0, cell_type="GRU", batch_first=False):
        super(DRNN, self).__init__()
        self.dilations = dilations
        self.cell_type = cell_type
        self.batch_first = batch_first
        layers = []
        cell = {"GRU": nn.GRU, "RNN": nn.RNN, "LSTM": nn.LSTM}[cell_type]
        for i in range(n_layers):
            if i == 0:
                c = cell(n_input, n_hidden, dropout=dropout)
            else:
                c = cell(n_hidden, n_hidden, dropout=dropout)
            layers.append(c)
        self.cells = nn.Sequential(*layers)

    def forward(self, inputs, hidden=None):
        if self.batch_first:
            inputs = inputs.transpose(0, 1)
        outputs = []
        for i, (cell, dilation) in enumerate(zip(self.cells, self.dilations)):
            inputs, _ = self.drnn_layer(cell, inputs, dilation)
            outputs.append(inputs[-dilation:])
        if self.batch_first:
            inputs = inputs.transpose(0, 1)
        return inputs, outputs

    def drnn_layer(self, cell, inputs, rate, hidden=None):
        n_steps = len(inputs)
        batch_size = inputs[0].size(0)
        hidden_size = cell.hidden_size
        inputs, dilated_steps = self._pad_inputs(inputs, n_steps, rate)
        dilated_inputs = self._prepare_inputs(inputs, rate)
        dilated_outputs, hidden = self._apply_cell(dilated_inputs, cell, batch_size, rate, hidden_size)
        splitted_outputs = self._split_outputs(dilated_outputs, rate)
        outputs = self._unpad_outputs(splitted_outputs, n_steps)
        return outputs, hidden

    def _apply_cell(self, dilated_inputs, cell, batch_size, rate, hidden_size, hidden=None):
        if hidden is None:
            if self.cell_type == "LSTM":
                c, m = self.init_hidden(batch_size * rate, hidden_size)
                hidden = (c.unsqueeze(0), m.unsqueeze(0))
            else:
                hidden = self.init_hidden(batch_size * rate, hidden_size).unsqueeze(0)
        dilated_outputs, hidden = cell(dilated_inputs, hidden)  # fails-here
        return dilated_outputs, hidden

    def _unpad_outputs(self, splitted_outputs, n_steps):
        return splitted_outputs[:n_steps]

    def _split_outputs(self, dilated_outputs, rate):
        batchsize = dilated_outputs.size(1) // rate
        blocks = [dilated_outputs[:, i * batchsize: (i + 1) * batchsize, :] for i in range(rate)]
        interleaved = torch.stack(blocks).transpose(1, 0).contiguous()
        return interleaved.view(dilated_outputs.size(0) * rate, batchsize, dilated_outputs.size(2))

    def _pad_inputs(self, inputs, n_steps, rate):
        if (n_steps % rate) != 0:
            dilated_steps = n_steps // rate + 1
            zeros_ = torch.zeros(dilated_steps * rate - inputs.size(0), inputs.size(1), inputs.size(2))
            if use_cuda:
                zeros_ = zeros_.to(GPU)
            inputs = torch.cat((inputs, autograd.Variable(zeros_)))
        else:
            dilated_steps = n_steps // rate
        return inputs, dilated_steps

    def _prepare_inputs(self, inputs, rate):
        return torch.cat([inputs[j::rate, :, :] for j in range(rate)], 1)

    def init_hidden(self, batch_size, hidden_dim):
        hidden = autograd.Variable(torch.zeros(batch_size, hidden_dim))
        if use_cuda:
            hidden = hidden.to(GPU)  # root-cause
        if self.cell_type == "LSTM":
            memory = autograd.Variable(torch.zeros(batch_size, hidden_dim))
            if use_cuda:
                memory = memory.to(GPU)
            return hidden, memory
        return hidden


# ---- ESRNN/utils/config.py, data.py --------------------------------------------------
class ModelConfig:
    def __init__(self, **kw):
        self.__dict__.update(kw)


class Batch:
    def __init__(self, mc, y, categories, idxs):
        device = mc.device
        y = np.float32(y)
        self.idxs = torch.LongTensor(idxs).to(device)
        if y.shape[1] > mc.max_series_length:
            y = y[:, -mc.max_series_length:]
        self.y = torch.tensor(y).float().to(device)
        cats = np.zeros((len(idxs), mc.exogenous_size))
        cats[np.arange(len(idxs)), [mc.category_to_idx[c] for c in categories]] = 1
        self.categories = torch.from_numpy(cats).float().to(device)


class Iterator:
    def __init__(self, mc, X, y):
        self.mc, self.X, self.y = mc, X, y
        self.n_series = len(y)
        self.n_batches = int(np.ceil(self.n_series / mc.batch_size))
        self.batch_idx = 0

    def get_batch(self):
        first = self.batch_idx * self.mc.batch_size
        last = min(first + self.mc.batch_size, self.n_series)
        idxs = list(range(first, last))
        self.batch_idx = (self.batch_idx + 1) % self.n_batches
        return Batch(self.mc, self.y[idxs], self.X[idxs, 1], idxs)


# ---- ESRNN/utils/ESRNN.py (no seasonality: M4 Yearly) ---------------------------------
class _ESM(nn.Module):
    def __init__(self, mc):
        super().__init__()
        self.mc = mc
        self.embeds = nn.Embedding(mc.n_series, 1)
        self.embeds.weight.data.fill_(0.5)

    def forward(self, ts_object):
        mc = self.mc
        y, idxs = ts_object.y, ts_object.idxs
        n_series, n_time = y.shape
        lev_sms = torch.sigmoid(self.embeds(idxs)[:, 0])
        levels = [y[:, 0]]
        for t in range(1, n_time):
            levels.append(lev_sms * y[:, t] + (1 - lev_sms) * levels[t - 1])
        levels = torch.stack(levels).transpose(1, 0)
        n_windows = n_time - mc.input_size - mc.output_size + 1
        windows_y_hat = torch.zeros((n_windows, len(idxs), mc.input_size + mc.exogenous_size), device=mc.device)
        windows_y = torch.zeros((n_windows, len(idxs), mc.output_size), device=mc.device)
        for i in range(n_windows):
            end = mc.input_size + i
            w = torch.log(y[:, i:end] / levels[:, [end - 1]])
            w = w + torch.randn_like(w) * mc.noise_std
            windows_y_hat[i] += torch.cat((w, ts_object.categories), 1)
            windows_y[i] += torch.log(y[:, end:end + mc.output_size] / levels[:, [end]])
        return windows_y_hat, windows_y, levels


class _RNN(nn.Module):
    def __init__(self, mc):
        super().__init__()
        layers = []
        for grp_num in range(len(mc.dilations)):
            input_size = mc.input_size + mc.exogenous_size if grp_num == 0 else mc.state_hsize
            layers.append(DRNN(input_size, mc.state_hsize, n_layers=len(mc.dilations[grp_num]),
                               dilations=mc.dilations[grp_num], cell_type=mc.cell_type))
        self.rnn_stack = nn.Sequential(*layers)
        self.adapterW = nn.Linear(mc.state_hsize, mc.output_size)

    def forward(self, input_data):
        for layer_num in range(len(self.rnn_stack)):
            residual = input_data
            output, _ = self.rnn_stack[layer_num](input_data)
            if layer_num > 0:
                output += residual
            input_data = output
        return self.adapterW(input_data)


class _ESRNN(nn.Module):
    def __init__(self, mc):
        super().__init__()
        self.es = _ESM(mc).to(mc.device)
        self.rnn = _RNN(mc).to(mc.device)

    def forward(self, ts_object):
        windows_y_hat, windows_y, levels = self.es(ts_object)
        return windows_y, self.rnn(windows_y_hat), levels


def pinball_loss(y, y_hat, tau):
    delta = y - y_hat
    return torch.mean(torch.max(tau * delta, (tau - 1) * delta))


# ---- the M4 example of the README, on synthetic Yearly panels --------------------------
n_series, n_time = 16, 30
categories = ["Macro", "Micro", "Demographic", "Industry", "Finance", "Other"]
t = np.arange(n_time)
y_train_df = pd.DataFrame(
    [{"unique_id": f"Y{i}", "ds": 1990 + s, "y": 1000 + 40 * i + 25 * s + 30 * np.random.randn()}
     for i in range(n_series) for s in t]
)
X_train_df = pd.DataFrame({"unique_id": [f"Y{i}" for i in range(n_series)],
                           "x": [categories[i % 6] for i in range(n_series)]})

mc = ModelConfig(max_epochs=2, batch_size=4, learning_rate=1e-4, input_size=4, output_size=6,
                 cell_type="LSTM", state_hsize=40, dilations=[[1], [6]], noise_std=0.001,
                 training_percentile=50, n_series=n_series, max_series_length=n_time,
                 exogenous_size=len(categories), category_to_idx={c: i for i, c in enumerate(categories)},
                 device="cpu")

y_wide = y_train_df.pivot(index="unique_id", columns="ds", values="y").loc[X_train_df.unique_id].values
dataloader = Iterator(mc, X_train_df.values, y_wide)
esrnn = _ESRNN(mc).to(mc.device)
es_optimizer = torch.optim.Adam(esrnn.es.parameters(), lr=mc.learning_rate * 0.8)
rnn_optimizer = torch.optim.Adam(esrnn.rnn.parameters(), lr=mc.learning_rate)

for epoch in range(mc.max_epochs):
    esrnn.train()
    losses = []
    for j in range(dataloader.n_batches):
        es_optimizer.zero_grad()
        rnn_optimizer.zero_grad()
        batch = dataloader.get_batch()
        windows_y, windows_y_hat, levels = esrnn(batch)
        loss = pinball_loss(windows_y, windows_y_hat, mc.training_percentile / 100)
        losses.append(loss.item())
        loss.backward()
        rnn_optimizer.step()
        es_optimizer.step()
    print(f"========= Epoch {epoch} finished, training loss {np.mean(losses):.5f}")
