"""Seq2seq date translator: int32 DateData batches are converted with .type(torch.LongTensor) before the loss (the fix from the thread)
source: https://github.com/MorvanZhou/NLP-Tutorials/issues/20
reported-error: RuntimeError: expected scalar type Long but found Int
outcome: ok
root-cause: none
expect: none
"""
import datetime

import numpy as np
import torch
from torch import nn
from torch.nn.functional import cross_entropy
from torch.utils.data import DataLoader

PAD_ID = 0


class DateData:
    def __init__(self, n):
        np.random.seed(1)
        self.date_cn, self.date_en = [], []
        for timestamp in np.random.randint(143835585, 2043835585, n):
            date = datetime.datetime.fromtimestamp(int(timestamp))
            self.date_cn.append(date.strftime("%y-%m-%d"))
            self.date_en.append(date.strftime("%d/%b/%Y"))
        self.vocab = set([str(i) for i in range(0, 10)] + ["-", "/", "<GO>", "<EOS>"] + [
            i.split("/")[1] for i in self.date_en])
        self.v2i = {v: i for i, v in enumerate(sorted(list(self.vocab)), start=1)}
        self.v2i["<PAD>"] = PAD_ID
        self.vocab.add("<PAD>")
        self.i2v = {i: v for v, i in self.v2i.items()}
        self.x, self.y = [], []
        for cn, en in zip(self.date_cn, self.date_en):
            self.x.append([self.v2i[v] for v in cn])
            self.y.append([self.v2i["<GO>"], ] + [self.v2i[v] for v in en[:3]] + [
                self.v2i[en[3:6]], ] + [self.v2i[v] for v in en[6:]] + [self.v2i["<EOS>"], ])
        self.x, self.y = np.array(self.x, dtype=np.int32), np.array(self.y, dtype=np.int32)
        self.start_token = self.v2i["<GO>"]
        self.end_token = self.v2i["<EOS>"]

    def __len__(self):
        return len(self.x)

    @property
    def num_word(self):
        return len(self.vocab)

    def __getitem__(self, index):
        return self.x[index], self.y[index], len(self.y[index]) - 1


class Seq2Seq(nn.Module):
    def __init__(self, enc_v_dim, dec_v_dim, emb_dim, units, max_pred_len, start_token, end_token):
        super().__init__()
        self.units = units
        self.dec_v_dim = dec_v_dim
        self.enc_embeddings = nn.Embedding(enc_v_dim, emb_dim)
        self.encoder = nn.LSTM(emb_dim, units, 1, batch_first=True)
        self.dec_embeddings = nn.Embedding(dec_v_dim, emb_dim)
        self.decoder_cell = nn.LSTMCell(emb_dim, units)
        self.decoder_dense = nn.Linear(units, dec_v_dim)
        self.opt = torch.optim.Adam(self.parameters(), lr=0.001)
        self.max_pred_len = max_pred_len

    def encode(self, x):
        embedded = self.enc_embeddings(x)
        hidden = (torch.zeros(1, x.shape[0], self.units), torch.zeros(1, x.shape[0], self.units))
        o, (h, c) = self.encoder(embedded, hidden)
        return h, c

    def train_logit(self, x, y):
        hx, cx = self.encode(x)
        hx, cx = hx[0], cx[0]
        dec_emb_in = self.dec_embeddings(y[:, :-1]).permute(1, 0, 2)
        output = []
        for i in range(dec_emb_in.shape[0]):
            hx, cx = self.decoder_cell(dec_emb_in[i], (hx, cx))
            output.append(self.decoder_dense(hx))
        return torch.stack(output, dim=0).permute(1, 0, 2)

    def step(self, x, y):
        self.opt.zero_grad()
        logit = self.train_logit(x, y)
        dec_out = y[:, 1:]
        loss = cross_entropy(logit.reshape(-1, self.dec_v_dim), dec_out.reshape(-1))
        loss.backward()
        self.opt.step()
        return loss.detach().numpy()


def train():
    dataset = DateData(400)
    loader = DataLoader(dataset, batch_size=32, shuffle=True)
    model = Seq2Seq(dataset.num_word, dataset.num_word, emb_dim=16, units=32, max_pred_len=11,
                    start_token=dataset.start_token, end_token=dataset.end_token)
    for i in range(2):
        for batch_idx, batch in enumerate(loader):
            bx, by, decoder_len = batch
            bx = bx.type(torch.LongTensor)
            by = by.type(torch.LongTensor)
            loss = model.step(bx, by)
            if batch_idx % 5 == 0:
                print("Epoch: ", i, "| t: ", batch_idx, "| loss: %.3f" % loss)


if __name__ == "__main__":
    train()
