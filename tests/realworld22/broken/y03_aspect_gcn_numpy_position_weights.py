"""Aspect-based sentiment with a dependency-graph GCN (AEGCN/ASGCN layout): position_weight() builds the distance-to-aspect weights as a NumPy array and multiplies them into the BiLSTM output, which promotes the text representation to float64, and the graph convolution's torch.matmul(text, self.weight) then mixes float64 text with a float32 weight
source: https://github.com/Xillv/Code-for-AEGCN-Glove/issues/3
reported-error: RuntimeError: expected scalar type Double but found Float (models/aegcn.py line 30, hidden = torch.matmul(text, self.weight), reached from self.gc1(self.position_weight(text_out, aspect_double_idx, text_len, aspect_len), adj))
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 22
root-cause: line 48
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- layers/graph_conv.py
class GraphConvolution(nn.Module):
    def __init__(self, in_features, out_features):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(in_features, out_features) * 0.1)
        self.bias = nn.Parameter(torch.zeros(out_features))

    def forward(self, text, adj):
        hidden = torch.matmul(text, self.weight)  # fails-here
        denom = torch.sum(adj, dim=2, keepdim=True) + 1
        return torch.matmul(adj, hidden) / denom + self.bias


# ---- models/aegcn.py
class AEGCN(nn.Module):
    def __init__(self, vocab=200, emb=32, hid=16, polarities=3):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.lstm = nn.LSTM(emb, hid, batch_first=True, bidirectional=True)
        self.gc1 = GraphConvolution(2 * hid, 2 * hid)
        self.gc2 = GraphConvolution(2 * hid, 2 * hid)
        self.fc = nn.Linear(2 * hid, polarities)

    def position_weight(self, x, aspect_double_idx, text_len, aspect_len):
        batch_size, seq_len = x.shape[0], x.shape[1]
        weight = np.zeros((batch_size, seq_len))
        for i in range(batch_size):
            start, end = aspect_double_idx[i]
            context_len = text_len[i] - aspect_len[i]
            for j in range(seq_len):
                if j < start:
                    weight[i, j] = 1 - (start - j) / context_len
                elif j > end and j < text_len[i]:
                    weight[i, j] = 1 - (j - end) / context_len
        return torch.from_numpy(weight).unsqueeze(2) * x  # root-cause

    def forward(self, text_idx, adj, aspect_double_idx, text_len, aspect_len):
        text_out, _ = self.lstm(self.embed(text_idx))
        x = F.relu(self.gc1(self.position_weight(text_out, aspect_double_idx, text_len, aspect_len), adj))
        x = F.relu(self.gc2(x, adj))
        return self.fc(x.max(dim=1).values)


# ---- data_utils.py
def make_batch(batch_size=8, seq_len=12, vocab=200, seed=0):
    g = torch.Generator().manual_seed(seed)
    text_idx = torch.randint(1, vocab, (batch_size, seq_len), generator=g)
    adj = (torch.rand(batch_size, seq_len, seq_len, generator=g) < 0.2).float()
    adj = adj + adj.transpose(1, 2) + torch.eye(seq_len)
    starts = torch.randint(0, seq_len - 3, (batch_size,), generator=g)
    aspect_double_idx = [(int(s), int(s) + 1) for s in starts]
    return text_idx, adj.clamp(max=1.0), aspect_double_idx, [seq_len] * batch_size, [2] * batch_size, torch.randint(0, 3, (batch_size,), generator=g)


if __name__ == "__main__":
    torch.manual_seed(0)
    model = AEGCN()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        text_idx, adj, aspect_idx, text_len, aspect_len, polarity = make_batch(seed=step)
        outputs = model(text_idx, adj, aspect_idx, text_len, aspect_len)
        loss = F.cross_entropy(outputs, polarity)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")
