"""Metric-learning trainer that runs the embedder under float16 autocast but converts the embeddings with .float() inside the block, so the miner's similarity matrix is float32 and masking it with the float32 maximum is exact
source: https://github.com/KevinMusgrave/pytorch-metric-learning/pull/233
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- miners/multi_similarity_miner.py
class MultiSimilarityMiner:
    def __init__(self, epsilon=0.1):
        self.epsilon = epsilon

    def mine(self, embeddings, labels):
        emb = F.normalize(embeddings, dim=1)
        mat = emb @ emb.t()
        same = labels[:, None] == labels[None, :]
        pos_ignore = torch.finfo(torch.float32).max
        neg_ignore = -torch.finfo(torch.float32).max
        mat_pos = mat.masked_fill(~same | torch.eye(len(labels), dtype=torch.bool), pos_ignore)
        mat_neg = mat.masked_fill(same, neg_ignore)
        hardest_pos = mat_pos.min(dim=1, keepdim=True).values
        hard_neg = same.logical_not() & (mat_neg + self.epsilon > hardest_pos)
        return hard_neg.nonzero(as_tuple=True)


# ---- losses
def contrastive_loss(embeddings, labels, pairs, margin=0.5):
    a, n = pairs
    emb = F.normalize(embeddings.float(), dim=1)
    pos = 1 - (emb[:, None] * emb[None]).sum(-1)[labels[:, None] == labels[None, :]].mean()
    neg = F.relu((emb[a] * emb[n]).sum(-1) - margin).mean() if len(a) else emb.sum() * 0
    return pos + neg


class Embedder(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, 2, 1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, dim))

    def forward(self, x):
        return self.net(x)


def train(steps=3, use_amp=True):
    torch.manual_seed(0)
    model, miner = Embedder(), MultiSimilarityMiner()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(steps):
        images, labels = torch.rand(16, 3, 32, 32), torch.randint(0, 4, (16,))
        with torch.autocast("cpu", dtype=torch.float16, enabled=use_amp):
            embeddings = model(images).float()
        pairs = miner.mine(embeddings, labels)
        loss = contrastive_loss(embeddings, labels, pairs)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}, hard negatives {len(pairs[0])}")


if __name__ == "__main__":
    train()
