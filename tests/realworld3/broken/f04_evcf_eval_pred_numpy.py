"""Mult-VAE evaluation converts CUDA predictions with np.array before NDCG
source: https://github.com/psywaves/EVCF/issues/1
reported-error: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
outcome: cuda-only: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first. at line 49; on CPU: ok
root-cause: line 46
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


def NDCG_binary_at_k_batch(X_pred, heldout_batch, k=100):
    batch_users = X_pred.shape[0]
    idx_topk_part = np.argpartition(-X_pred, k, axis=1)
    topk_part = X_pred[np.arange(batch_users)[:, np.newaxis], idx_topk_part[:, :k]]
    idx_part = np.argsort(-topk_part, axis=1)
    idx_topk = idx_topk_part[np.arange(batch_users)[:, np.newaxis], idx_part]
    tp = 1. / np.log2(np.arange(2, k + 2))
    DCG = (heldout_batch[np.arange(batch_users)[:, np.newaxis], idx_topk] * tp).sum(axis=1)
    IDCG = np.array([(tp[:min(n, k)]).sum() for n in (heldout_batch > 0).sum(axis=1)])
    return DCG / np.maximum(IDCG, 1e-8)


class VAE(nn.Module):
    def __init__(self, n_items, h=64, z=16):
        super().__init__()
        self.enc = nn.Linear(n_items, h)
        self.mu = nn.Linear(h, z)
        self.dec = nn.Sequential(nn.Linear(z, h), nn.Tanh(), nn.Linear(h, n_items))

    def forward(self, x):
        h = torch.tanh(self.enc(x))
        return self.dec(self.mu(h))


def evaluate(model, data_tr, data_te, batch_size=50):
    model.eval()
    n100_list = []
    with torch.no_grad():
        for st in range(0, data_tr.shape[0], batch_size):
            x = torch.tensor(data_tr[st:st + batch_size], dtype=torch.float32).to(device)
            heldout = data_te[st:st + batch_size]
            pred_val = model(x)  # root-cause
            pred_val[x.nonzero(as_tuple=True)] = -np.inf
            # should be removed if not necessary
            pred_val = np.array(pred_val)  # fails-here
            n100_list.append(NDCG_binary_at_k_batch(pred_val, heldout, 100))
    return np.mean(np.concatenate(n100_list))


rng = np.random.default_rng(0)
n_items = 300
train = (rng.random((120, n_items)) < 0.05).astype(np.float32)
test = (rng.random((120, n_items)) < 0.02).astype(np.float32)
model = VAE(n_items).to(device)
print("NDCG@100:", evaluate(model, train, test))
