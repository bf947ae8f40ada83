"""JSON-lines tagger that still stores its labels compactly as np.int32, but the gradient-accumulation step converts each target slice with .long() right before nn.NLLLoss
source: https://duoke360.com/post/34183
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import json

import numpy as np
import torch
import torch.nn as nn

JSONL = "\n".join(json.dumps({"feats": [(i * k) % 7 / 7 for k in range(1, 6)], "type": i % 3}) for i in range(36))


def read_jsonl(text):
    records = [json.loads(line) for line in text.splitlines() if line.strip()]
    return np.array([r["feats"] for r in records], dtype=np.float32), np.asarray([r["type"] for r in records], dtype=np.int32)


def train(model, feats, labels, accum=3, micro=4):
    crit = nn.NLLLoss()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    x_all, y_all = torch.from_numpy(feats), torch.from_numpy(labels)
    opt.zero_grad()
    for step, s in enumerate(range(0, len(x_all), micro)):
        logp = torch.log_softmax(model(x_all[s:s + micro]), dim=-1)
        loss = crit(logp, y_all[s:s + micro].long()) / accum
        loss.backward()
        if (step + 1) % accum == 0:
            opt.step()
            opt.zero_grad()
    return loss.item() * accum


if __name__ == "__main__":
    feats, labels = read_jsonl(JSONL)
    model = nn.Sequential(nn.Linear(5, 24), nn.ReLU(), nn.Linear(24, 3))
    print(f"last loss {train(model, feats, labels):.4f} (labels stored as {labels.dtype})")
