"""TransE inference on any machine: the GPU-trained checkpoint is loaded with map_location taken from a device variable, then the model is moved there
source: https://github.com/Sujit-O/pykg2vec/issues/223
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile
from unittest import mock

import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class TransE(nn.Module):
    def __init__(self, n_ent=20, n_rel=4, dim=16):
        super().__init__()
        self.ent = nn.Embedding(n_ent, dim)
        self.rel = nn.Embedding(n_rel, dim)

    def forward(self, h, r, t):
        return (self.ent(h) + self.rel(r) - self.ent(t)).abs().sum(-1)


path = os.path.join(tempfile.mkdtemp(), "transe.pt")
with mock.patch.object(torch.serialization, "location_tag", lambda storage: "cuda:0"):
    torch.save(TransE().state_dict(), path)

map_location = device
model = TransE()
model.load_state_dict(torch.load(path, map_location=map_location))
model.to(device)
all_t = torch.arange(20, device=device)
with torch.no_grad():
    scores = model(torch.full_like(all_t, 3), torch.full_like(all_t, 1), all_t)
print("best tails:", scores.topk(3, largest=False).indices.tolist())
