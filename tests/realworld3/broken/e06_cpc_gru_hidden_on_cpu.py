"""CPC encoder: GRU hidden state created with torch.zeros on CPU while the model and batch are on cuda
source: https://github.com/talipucar/CPC/issues/1
reported-error: RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu
outcome: cuda-only: RuntimeError: Input and hidden tensors are not at the same device, found input tensor at cuda:0 and hidden tensor at cpu at line 31; on CPU: ok
root-cause: line 25
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

config = {"batch_size": 8, "seq_len": 64, "timestep": 4, "hidden": 32, "epochs": 2, "learning_rate": 1e-3}


class CDCK2(nn.Module):
    def __init__(self, timestep, batch_size, seq_len, hidden=32):
        super(CDCK2, self).__init__()
        self.batch_size, self.seq_len, self.timestep = batch_size, seq_len, timestep
        self.encoder = nn.Sequential(nn.Conv1d(1, hidden, 4, stride=4), nn.ReLU())
        self.gru = nn.GRU(hidden, hidden // 2, num_layers=1, batch_first=True)
        self.Wk = nn.ModuleList([nn.Linear(hidden // 2, hidden) for _ in range(timestep)])

    def init_hidden(self, batch_size):
        return torch.zeros(1, batch_size, self.gru.hidden_size)  # root-cause

    def forward(self, x, hidden):
        z = self.encoder(x).transpose(1, 2)
        t = z.size(1) - self.timestep
        prior_sequence = z[:, :t, :]
        output, hidden = self.gru(prior_sequence, hidden)  # fails-here
        c_t = output[:, -1, :]
        predictions = torch.stack([w(c_t) for w in self.Wk], 1)
        encoder_samples = z[:, t:, :]
        return encoder_samples, predictions, hidden


class Encoder:
    def __init__(self, options):
        self.options = options
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.cpc = CDCK2(options["timestep"], options["batch_size"], options["seq_len"], options["hidden"]).to(self.device)
        self.optimizer = torch.optim.Adam(self.cpc.parameters(), lr=options["learning_rate"])

    def fit(self, data_loader):
        for epoch in range(self.options["epochs"]):
            for (Xbatch,) in data_loader:
                Xbatch = Xbatch.to(self.device)
                hidden = self.cpc.init_hidden(Xbatch.size(0))
                encoder_samples, predictions, hidden = self.cpc(Xbatch, hidden)
                loss = ((encoder_samples - predictions) ** 2).mean()
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print("epoch", epoch, "loss", loss.item())


x = torch.from_numpy(np.random.randn(32, 1, config["seq_len"]).astype(np.float32))
data_loader = DataLoader(TensorDataset(x), batch_size=config["batch_size"], shuffle=True)
encoder = Encoder(config)
encoder.fit(data_loader)
