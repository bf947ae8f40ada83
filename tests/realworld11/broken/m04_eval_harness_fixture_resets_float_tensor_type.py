"""Evaluation harness whose setup helper "resets" the default with torch.set_default_tensor_type(torch.FloatTensor) before scoring a classifier on a hand-written CSV split; the call changes nothing (float32 is already the default) but is the deprecated API and warns on every run
source: https://github.com/pytorch/pytorch/issues/117505
reported-error: none at run time: the deprecated set_default_tensor_type call was replaced by set_default_dtype (deprecation warning)
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 20
expect: DG002
"""
import io

import numpy as np
import torch
import torch.nn as nn

CSV = "\n".join(f"{(i * 7) % 11 / 10:.2f},{(i * 3) % 5 / 4:.2f},{(i * 5) % 13 / 12:.2f},{int((i * 7) % 11 > 5)}" for i in range(60))


def setup_eval_environment(seed=0):
    torch.manual_seed(seed)
    np.random.seed(seed)
    torch.set_default_tensor_type(torch.FloatTensor)  # root-cause


def read_split(text):
    rows = [line.split(",") for line in io.StringIO(text).read().splitlines()]
    feats = [[float(v) for v in r[:-1]] for r in rows]
    labels = [int(r[-1]) for r in rows]
    return torch.tensor(feats), torch.tensor(labels)


def confusion(pred, true, k=2):
    m = np.zeros((k, k), dtype=np.int64)
    for p, t in zip(pred, true):
        m[t, p] += 1
    return m


def f1_from_confusion(m):
    tp = m[1, 1]
    prec = tp / max(m[:, 1].sum(), 1)
    rec = tp / max(m[1, :].sum(), 1)
    return 0.0 if prec + rec == 0 else 2 * prec * rec / (prec + rec)


def main():
    setup_eval_environment()
    x, y = read_split(CSV)
    model = nn.Sequential(nn.Linear(3, 16), nn.ReLU(), nn.Linear(16, 2))
    opt = torch.optim.SGD(model.parameters(), lr=0.5)
    for _ in range(40):
        loss = nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    with torch.no_grad():
        pred = model(x).argmax(1).numpy()
    m = confusion(pred, y.numpy())
    print(f"loss {loss.item():.4f} f1 {f1_from_confusion(m):.3f}")


if __name__ == "__main__":
    main()
