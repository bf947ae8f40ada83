"""ReChorus-style BPR recommender whose batch_to_gpu helper leaves the user and item ids as int32 (numpy ids from the corpus); nn.Embedding accepts Int as well as Long indices, and the BPR loss needs no class targets
source: https://github.com/THUwangcy/ReChorus/issues/12
reported-error: none (int32 ids into Embedding are valid in current torch)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


def batch_to_gpu(batch, device):
    return {k: torch.from_numpy(v).to(device) for k, v in batch.items()}


class BPR(nn.Module):
    def __init__(self, n_users, n_items, emb_size=16):
        super().__init__()
        self.u_embeddings = nn.Embedding(n_users, emb_size)
        self.i_embeddings = nn.Embedding(n_items, emb_size)

    def forward(self, feed_dict):
        u_ids, i_ids = feed_dict["user_id"], feed_dict["item_id"]
        cf_u_vectors = self.u_embeddings(u_ids)
        cf_i_vectors = self.i_embeddings(i_ids)
        return {"prediction": (cf_u_vectors[:, None, :] * cf_i_vectors).sum(-1)}


def make_batches(n_users=50, n_items=80, n=256, bs=64, seed=0):
    rng = np.random.default_rng(seed)
    users = rng.integers(0, n_users, n).astype(np.int32)
    pos = rng.integers(0, n_items, n).astype(np.int32)
    neg = rng.integers(0, n_items, n).astype(np.int32)
    for i in range(0, n, bs):
        yield {"user_id": users[i : i + bs], "item_id": np.stack([pos[i : i + bs], neg[i : i + bs]], 1)}


device = torch.device("cpu")
model = BPR(50, 80).to(device)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for batch in make_batches():
    prediction = model(batch_to_gpu(batch, device))["prediction"]
    loss = -torch.nn.functional.logsigmoid(prediction[:, 0] - prediction[:, 1]).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print("bpr loss", loss.item(), "ids dtype", batch_to_gpu(batch, device)["user_id"].dtype)
