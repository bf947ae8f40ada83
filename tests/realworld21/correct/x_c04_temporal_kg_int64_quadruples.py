"""Temporal KG extrapolation whose loader parses the timestamps as integer hours and builds the quadruple array with dtype=np.int64, so the entity and relation ids index the embedding tables as int64
source: https://github.com/INK-USC/RE-Net/issues/29
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- utils.py
def load_quadruples(lines):
    quadruples, times = [], set()
    for line in lines:
        head, rel, tail, time = line.split("\t")
        quadruples.append([int(head), int(rel), int(tail), int(float(time))])
        times.add(int(float(time)))
    return np.array(quadruples, dtype=np.int64), np.array(sorted(times), dtype=np.int64)


def fake_dataset(n=120, n_ent=20, n_rel=5, seed=0):
    rng = np.random.default_rng(seed)
    return [f"{rng.integers(n_ent)}\t{rng.integers(n_rel)}\t{rng.integers(n_ent)}\t{24.0 * rng.integers(6)}" for _ in range(n)]


# ---- model.py
class RENetLite(nn.Module):
    def __init__(self, num_nodes, num_rels, h_dim=16):
        super().__init__()
        self.ent_embeds = nn.Parameter(torch.randn(num_nodes, h_dim) * 0.1)
        self.rel_embeds = nn.Parameter(torch.randn(num_rels, h_dim) * 0.1)
        self.encoder = nn.GRU(2 * h_dim, h_dim, batch_first=True)
        self.linear = nn.Linear(3 * h_dim, num_nodes)

    def forward(self, triplets):
        s, r, o = triplets[:, 0], triplets[:, 1], triplets[:, 2]
        s_emb = self.ent_embeds[s]
        r_emb = self.rel_embeds[r]
        _, h = self.encoder(torch.cat([s_emb, r_emb], dim=1).unsqueeze(1))
        logits = self.linear(torch.cat([s_emb, h.squeeze(0), r_emb], dim=1))
        return F.cross_entropy(logits, o.long())


# ---- train.py
def train(epochs=2, batch_size=32):
    train_data, times = load_quadruples(fake_dataset())
    model = RENetLite(num_nodes=20, num_rels=5)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(epochs):
        for t in times:
            snapshot = train_data[train_data[:, 3] == t]
            for i in range(0, len(snapshot), batch_size):
                batch_data = torch.from_numpy(snapshot[i:i + batch_size, :3])
                loss = model(batch_data)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train()
