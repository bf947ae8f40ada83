"""Character-level LSTM (Udacity char-rnn notebook) where the encoded text is an int32 NumPy array, so the target batches are IntTensors fed to CrossEntropyLoss
source: https://github.com/udacity/deep-learning-v2-pytorch/issues/73
reported-error: type error at the loss when not using CUDA; the fix is targets.view(batch_size*seq_length).long() (RuntimeError: Expected object of type torch.LongTensor but found type torch.IntTensor for argument #2 'target')
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 71
root-cause: line 17
expect: DG006
"""
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F

text = "the quick brown fox jumps over the lazy dog. " * 40
chars = tuple(set(text))
int2char = dict(enumerate(chars))
char2int = {ch: ii for ii, ch in int2char.items()}
encoded = np.array([char2int[ch] for ch in text], dtype=np.int32)  # root-cause


def one_hot_encode(arr, n_labels):
    one_hot = np.zeros((arr.size, n_labels), dtype=np.float32)
    one_hot[np.arange(one_hot.shape[0]), arr.flatten()] = 1.0
    return one_hot.reshape((*arr.shape, n_labels))


def get_batches(arr, batch_size, seq_length):
    batch_size_total = batch_size * seq_length
    n_batches = len(arr) // batch_size_total
    arr = arr[: n_batches * batch_size_total].reshape((batch_size, -1))
    for n in range(0, arr.shape[1], seq_length):
        x = arr[:, n:n + seq_length]
        y = np.zeros_like(x)
        y[:, :-1], y[:, -1] = x[:, 1:], arr[:, (n + seq_length) % arr.shape[1]]
        yield x, y


class CharRNN(nn.Module):
    def __init__(self, tokens, n_hidden=32, n_layers=2, drop_prob=0.5):
        super().__init__()
        self.chars = tokens
        self.n_hidden = n_hidden
        self.n_layers = n_layers
        self.lstm = nn.LSTM(len(self.chars), n_hidden, n_layers, dropout=drop_prob, batch_first=True)
        self.dropout = nn.Dropout(drop_prob)
        self.fc = nn.Linear(n_hidden, len(self.chars))

    def forward(self, x, hidden):
        r_output, hidden = self.lstm(x, hidden)
        out = self.dropout(r_output).contiguous().view(-1, self.n_hidden)
        return self.fc(out), hidden

    def init_hidden(self, batch_size):
        weight = next(self.parameters()).data
        return (weight.new(self.n_layers, batch_size, self.n_hidden).zero_(),
                weight.new(self.n_layers, batch_size, self.n_hidden).zero_())


def train(net, data, epochs=1, batch_size=8, seq_length=20, lr=0.001, clip=5):
    net.train()
    opt = torch.optim.Adam(net.parameters(), lr=lr)
    criterion = nn.CrossEntropyLoss()
    n_chars = len(net.chars)
    for e in range(epochs):
        h = net.init_hidden(batch_size)
        for x, y in get_batches(data, batch_size, seq_length):
            x = one_hot_encode(x, n_chars)
            inputs, targets = torch.from_numpy(x), torch.from_numpy(y)
            h = tuple([each.data for each in h])
            net.zero_grad()
            output, h = net(inputs, h)
            loss = criterion(output, targets.view(batch_size * seq_length))  # fails-here
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), clip)
            opt.step()
        print(f"Epoch: {e + 1}/{epochs} Loss: {loss.item():.4f}")


if __name__ == "__main__":
    net = CharRNN(chars)
    train(net, encoded)
