"""Mastering PyTorch chapter 4 rnn.py: sentiment labels stay int64 while the loss is BCEWithLogitsLoss
source: https://github.com/PacktPublishing/Mastering-PyTorch/issues/4
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 63
root-cause: line 26
expect: DG007
"""
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)

VOCAB = 200
train_data = [([random.randrange(2, VOCAB) for _ in range(random.randint(5, 12))], random.randint(0, 1))
              for _ in range(64)]


def batches(data, batch_size=16):
    for i in range(0, len(data), batch_size):
        chunk = data[i:i + batch_size]
        maxlen = max(len(t) for t, _ in chunk)
        text = torch.tensor([t + [1] * (maxlen - len(t)) for t, _ in chunk]).t()
        sentiment = torch.tensor([s for _, s in chunk])  # root-cause
        yield text, sentiment


class RNN(nn.Module):
    def __init__(self, input_dim, embedding_dim, hidden_dim, output_dim):
        super().__init__()
        self.embedding = nn.Embedding(input_dim, embedding_dim)
        self.rnn = nn.RNN(embedding_dim, hidden_dim)
        self.fc = nn.Linear(hidden_dim, output_dim)

    def forward(self, text):
        # text dim: [sentence len, batch size]
        embedded = self.embedding(text)
        output, hidden = self.rnn(embedded)
        return self.fc(hidden.squeeze(0))


input_dim = VOCAB
embedding_dim = 100
hidden_dim = 256
output_dim = 1

rnn_model = RNN(input_dim, embedding_dim, hidden_dim, output_dim)
optim = torch.optim.Adam(rnn_model.parameters(), lr=1e-3)
loss_func = nn.BCEWithLogitsLoss()
device = torch.device('cpu')
rnn_model = rnn_model.to(device)
loss_func = loss_func.to(device)


def train(model, data_iterator, optim, loss_func):
    loss = 0
    model.train()
    for text, sentiment in data_iterator:
        optim.zero_grad()
        preds = model(text).squeeze(1)
        loss_curr = loss_func(preds, sentiment)  # fails-here
        loss_curr.backward()
        optim.step()
        loss += loss_curr.item()
    return loss


train(rnn_model, batches(train_data), optim, loss_func)
