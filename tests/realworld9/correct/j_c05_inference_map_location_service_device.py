"""Inference service for a model trained on a GPU: the state_dict checkpoint (storages tagged cuda:0) is loaded with map_location=self.device, the service's own device variable, before load_state_dict, so it also works on a CPU-only machine
source: https://akhiltvsn.medium.com/making-sense-of-pytorchs-to-device-and-map-location-b1631f381b8a
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


class TextScorer(nn.Module):
    def __init__(self, vocab=1000, d=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, d)
        self.head = nn.Linear(d, 2)

    def forward(self, tokens, offsets):
        return self.head(self.emb(tokens, offsets))


class InferenceService:
    def __init__(self, model_path):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = TextScorer()
        state = torch.load(model_path, map_location=self.device)
        self.model.load_state_dict(state)
        self.model.to(self.device).eval()

    @torch.no_grad()
    def score(self, token_lists):
        tokens = torch.cat([torch.tensor(t) for t in token_lists]).to(self.device)
        offsets = torch.tensor([0] + [len(t) for t in token_lists[:-1]]).cumsum(0).to(self.device)
        return self.model(tokens, offsets).softmax(-1)[:, 1].tolist()


model_path = os.path.join(tempfile.mkdtemp(), "scorer.pt")
with mock.patch.object(torch.serialization, "location_tag", lambda storage: "cuda:0"):
    torch.save(TextScorer().state_dict(), model_path)
print(InferenceService(model_path).score([[1, 2, 3], [4, 5]]))
