"""Sentence-type tagger trained with gradient accumulation on JSON-lines records parsed by hand; a compact_labels() helper stores the labels as np.int32 "to save memory", and the int32 tensors reach nn.NLLLoss after log_softmax
source: https://duoke360.com/post/34183
reported-error: RuntimeError: "nll_loss_forward_reduce_cuda_kernel_2d_index" not implemented for 'Int' (NLLLoss targets stored as int32; on CPU: expected target dtype to be Long or Byte, but got Int)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 43
root-cause: line 24
expect: DG006
"""
import json

import numpy as np
import torch
import torch.nn as nn

JSONL = "\n".join(json.dumps({"feats": [(i * k) % 7 / 7 for k in range(1, 6)], "type": i % 3}) for i in range(36))


def read_jsonl(text):
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    feats = np.array([r["feats"] for r in records], dtype=np.float32)
    return feats, [r["type"] for r in records]


def compact_labels(labels):
    return np.asarray(labels, dtype=np.int32)  # root-cause


class Tagger(nn.Module):
    def __init__(self, n_in=5, n_types=3):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(n_in, 24), nn.ReLU(), nn.Linear(24, n_types))

    def forward(self, x):
        return torch.log_softmax(self.mlp(x), dim=-1)


def train(model, feats, labels, accum=3, micro=4):
    crit = nn.NLLLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x_all, y_all = torch.from_numpy(feats), torch.from_numpy(labels)
    opt.zero_grad()
    for step, s in enumerate(range(0, len(x_all), micro)):
        logp = model(x_all[s:s + micro])
        loss = crit(logp, y_all[s:s + micro]) / accum  # fails-here
        loss.backward()
        if (step + 1) % accum == 0:
            opt.step()
            opt.zero_grad()
    return loss.item() * accum


if __name__ == "__main__":
    feats, labels = read_jsonl(JSONL)
    print(f"last loss {train(Tagger(), feats, compact_labels(labels)):.4f}")
