"""The sentiment-discovery-style mLSTM train-on-GPU / generate-on-CPU run of cd03 (NVIDIA/sentiment-discovery #54) with the fix the thread points to: generate.py reads mlstm.pt with torch.load(f, map_location='cpu'), as main.py already does for --load, so the cuda:0-tagged storages land on the CPU and the model samples text
source: https://github.com/NVIDIA/sentiment-discovery/issues/54
reported-error: (none filed; the fixed situation of cd03)
outcome: ok
root-cause: -
expect: none
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import serialization

torch.manual_seed(1234)


# ---- apex RNN: mLSTM (multiplicative LSTM), re-typed small ----
class mLSTMCell(nn.Module):
    def __init__(self, input_size, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.w_ih = nn.Parameter(torch.empty(4 * hidden_size, input_size))
        self.w_hh = nn.Parameter(torch.empty(4 * hidden_size, hidden_size))
        self.w_mih = nn.Parameter(torch.empty(hidden_size, input_size))
        self.w_mhh = nn.Parameter(torch.empty(hidden_size, hidden_size))
        self.b_ih = nn.Parameter(torch.zeros(4 * hidden_size))
        self.b_hh = nn.Parameter(torch.zeros(4 * hidden_size))
        for w in (self.w_ih, self.w_hh, self.w_mih, self.w_mhh):
            nn.init.uniform_(w, -1.0 / hidden_size ** 0.5, 1.0 / hidden_size ** 0.5)

    def forward(self, x, hidden):
        hx, cx = hidden
        m = F.linear(x, self.w_mih) * F.linear(hx, self.w_mhh)
        gates = F.linear(x, self.w_ih, self.b_ih) + F.linear(m, self.w_hh, self.b_hh)
        ingate, forgetgate, cellgate, outgate = gates.chunk(4, 1)
        cy = torch.sigmoid(forgetgate) * cx + torch.sigmoid(ingate) * torch.tanh(cellgate)
        hy = torch.sigmoid(outgate) * torch.tanh(cy)
        return hy, cy


class stackedRNN(nn.Module):
    """apex.RNN.mLSTM(ninp, nhid, nlayers): keeps its hidden state between calls, like apex's RNNBackend."""

    def __init__(self, ninp, nhid, nlayers, dropout=0.0):
        super().__init__()
        self.rnns = nn.ModuleList([mLSTMCell(ninp if i == 0 else nhid, nhid) for i in range(nlayers)])
        self.nhid = nhid
        self.hidden = None

    def init_hidden(self, bsz):
        w = self.rnns[0].w_ih
        self.hidden = [(w.new_zeros(bsz, self.nhid), w.new_zeros(bsz, self.nhid)) for _ in self.rnns]
        return self.hidden

    def detach_hidden(self):
        if self.hidden is not None:
            self.hidden = [(h.detach(), c.detach()) for h, c in self.hidden]

    def forward(self, emb, reset_mask=None):
        seq_len, bsz, _ = emb.shape
        if self.hidden is None or self.hidden[0][0].size(0) != bsz:
            self.init_hidden(bsz)
        outputs = []
        for t in range(seq_len):
            x = emb[t]
            new_hidden = []
            for cell, hid in zip(self.rnns, self.hidden):
                h, c = cell(x, hid)
                new_hidden.append((h, c))
                x = h
            self.hidden = new_hidden
            outputs.append(x)
        return torch.stack(outputs), self.hidden


def mLSTM(ninp, nhid, nlayers, dropout=0.0):
    return stackedRNN(ninp, nhid, nlayers, dropout)


# ---- model/model.py ----
class RNNModel(nn.Module):
    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super().__init__()
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.decoder = nn.Linear(nhid, ntoken)
        self.rnn = {"mLSTM": mLSTM}[rnn_type](ninp, nhid, nlayers, dropout=dropout)
        self.decoder.bias.data.fill_(0)
        self.rnn_type = rnn_type
        self.nhid = nhid
        self.nlayers = nlayers

    def forward(self, input, reset_mask=None, **kwargs):
        emb = self.drop(self.encoder(input))
        self.rnn.detach_hidden()
        output, hidden = self.rnn(emb, reset_mask=reset_mask)
        output = self.drop(output)
        decoded = self.decoder(output.view(output.size(0) * output.size(1), output.size(2)))
        return decoded.view(output.size(0), output.size(1), decoded.size(1)), hidden

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        sd = {}
        sd["encoder"] = self.encoder.state_dict(prefix=prefix, keep_vars=keep_vars)
        sd["rnn"] = self.rnn.state_dict(prefix=prefix, keep_vars=keep_vars)
        sd = {"encoder": sd}
        sd["decoder"] = self.decoder.state_dict(prefix=prefix, keep_vars=keep_vars)
        return sd

    def load_state_dict(self, state_dict, strict=True):
        if "decoder" in state_dict:
            self.decoder.load_state_dict(state_dict["decoder"], strict=strict)
        self.encoder.load_state_dict(state_dict["encoder"]["encoder"], strict=strict)
        self.rnn.load_state_dict(state_dict["encoder"]["rnn"], strict=strict)


# ---- main.py on the GPU server: train on reviews, save model.state_dict() ----
REVIEWS = [
    "This product works great and I love it.\n",
    "Terrible quality, it broke after one day.\n",
    "Great value, would buy again.\n",
    "I hate this, waste of money.\n",
    "The battery lasts long and the screen is great.\n",
] * 6
corpus = "".join(REVIEWS).encode("utf-8")
data = torch.tensor(list(corpus), dtype=torch.long)

RUN_TMP = tempfile.TemporaryDirectory(prefix="sentiment_discovery_")  # removed at exit
RUN_DIR = RUN_TMP.name
save_path = os.path.join(RUN_DIR, "mlstm.pt")

train_args = argparse.Namespace(model="mLSTM", emsize=16, nhid=64, nlayers=1, dropout=0.0, tied=False, lr=5e-3,
                                seq_length=32, batch_size=4, epochs=8, cuda=torch.cuda.is_available())
train_args.data_size = 256
lm = RNNModel(train_args.model, train_args.data_size, train_args.emsize, train_args.nhid, train_args.nlayers,
              train_args.dropout, train_args.tied)
if train_args.cuda:
    lm.cuda()
optim = torch.optim.Adam(lm.parameters(), lr=train_args.lr)
nbatch = data.size(0) // train_args.batch_size
batches = data[: nbatch * train_args.batch_size].view(train_args.batch_size, -1).t().contiguous().to("cuda" if train_args.cuda else "cpu")
for epoch in range(train_args.epochs):
    total = 0.0
    lm.rnn.init_hidden(train_args.batch_size)
    for i in range(0, batches.size(0) - 1, train_args.seq_length):
        seq_len = min(train_args.seq_length, batches.size(0) - 1 - i)
        inp, target = batches[i:i + seq_len], batches[i + 1:i + 1 + seq_len]
        output, _ = lm(inp)
        loss = F.cross_entropy(output.view(-1, train_args.data_size), target.reshape(-1))
        optim.zero_grad()
        loss.backward()
        optim.step()
        total += loss.item()
    print(f"| epoch {epoch} | train loss {total / max(1, batches.size(0) // train_args.seq_length):.3f}")

original_tag = serialization.location_tag
serialization.location_tag = lambda storage: "cuda:0"  # the server trained with model.cuda()
try:
    with open(save_path, "wb") as f:
        torch.save(lm.state_dict(), f)
finally:
    serialization.location_tag = original_tag

# ---- generate.py on the CPU-only PC ----
parser = argparse.ArgumentParser(description="PyTorch Sentiment Discovery Generation/Visualization")
parser.add_argument("--model", type=str, default="mLSTM")
parser.add_argument("--emsize", type=int, default=16)
parser.add_argument("--nhid", type=int, default=64)
parser.add_argument("--nlayers", type=int, default=1)
parser.add_argument("--dropout", type=float, default=0.0)
parser.add_argument("--tied", action="store_true")
parser.add_argument("--load_model", type=str, default="model.pt")
parser.add_argument("--gen_length", type=int, default=120)
parser.add_argument("--temperature", type=float, default=0.5)
parser.add_argument("--text", default="Great")
args = parser.parse_args(["--load_model", save_path])
args.data_size = 256
args.cuda = torch.cuda.is_available()

model = RNNModel(args.model, args.data_size, args.emsize, args.nhid, args.nlayers, args.dropout, args.tied)
if args.cuda:
    model.cuda()
with open(args.load_model, "rb") as f:
    sd = torch.load(f, map_location="cpu")
model.load_state_dict(sd)


def model_step(model, input):
    out, _ = model(input)
    return out


def sample(out, temperature):
    word_weights = out.float().squeeze().data.div(temperature).exp().cpu()
    return torch.multinomial(word_weights, 1)[0]


model.eval()
model.rnn.init_hidden(1)
input = torch.LongTensor([int(ord("\n"))]).view(1, 1).contiguous()
if args.cuda:
    input = input.cuda()
with torch.no_grad():
    for c in args.text:
        input.data.fill_(int(ord(c)))
        out = model_step(model, input)
    input.data.fill_(sample(out, args.temperature))
    chrs = list(args.text)
    for i in range(args.gen_length):
        chrs.append(chr(input.data[0]))
        out = model_step(model, input)
        input.data.fill_(sample(out, args.temperature))
print("".join(chrs))
