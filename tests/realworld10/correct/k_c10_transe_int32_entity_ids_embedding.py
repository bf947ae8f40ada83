"""Knowledge-graph TransE model whose triples are loaded as an np.int32 array and passed to the entity and relation embeddings as IntTensor indices; nn.Embedding accepts Int as well as Long (the old "scalar type Long" error is gone) and the margin loss needs no class targets
source: https://github.com/orcax/PGPR/issues/8
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

n_entities, n_relations = 50, 5
triples = np.random.default_rng(0).integers(0, [n_entities, n_relations, n_entities], size=(256, 3)).astype(np.int32)


class TransE(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.entity_embed = nn.Embedding(n_entities, dim)
        self.relation_embed = nn.Embedding(n_relations, dim)

    def score(self, h, r, t):
        return (self.entity_embed(h) + self.relation_embed(r) - self.entity_embed(t)).norm(p=1, dim=-1)


model = TransE()
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loader = DataLoader(TensorDataset(torch.from_numpy(triples)), batch_size=64, shuffle=True)
for epoch in range(2):
    for (batch,) in loader:
        h, r, t = batch.unbind(1)
        t_neg = torch.randint(0, n_entities, t.shape, dtype=torch.int32)
        loss = torch.relu(1.0 + model.score(h, r, t) - model.score(h, r, t_neg)).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f} (ids {batch.dtype})")
