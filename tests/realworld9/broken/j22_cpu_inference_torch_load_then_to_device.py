"""Production inference script for a model trained on a GPU: the whole pickled model is loaded with torch.load(model_path, weights_only=False).to(device), i.e. moved after loading instead of mapped while loading, on a CPU-only machine
source: https://akhiltvsn.medium.com/making-sense-of-pytorchs-to-device-and-map-location-b1631f381b8a
reported-error: loading with model = torch.load(model_path).to(device) failed on a CPU-only device; torch.load(model_path, map_location=device) is needed
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 39
root-cause: line 39
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization


class TextScorer(nn.Module):
    def __init__(self, vocab=1000, d=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, d)
        self.head = nn.Linear(d, 2)

    def forward(self, tokens, offsets):
        return self.head(self.emb(tokens, offsets))


def export_from_training_box(path):
    """What the GPU training job wrote: the whole model, storages tagged cuda:0."""
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(TextScorer(), path)
    finally:
        torch.serialization.location_tag = orig


class InferenceService:
    def __init__(self, model_path):
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = torch.load(model_path, weights_only=False).to(self.device)  # root-cause # fails-here
        self.model.eval()

    @torch.no_grad()
    def score(self, token_lists):
        tokens = torch.cat([torch.tensor(t) for t in token_lists]).to(self.device)
        offsets = torch.tensor([0] + [len(t) for t in token_lists[:-1]]).cumsum(0).to(self.device)
        return self.model(tokens, offsets).softmax(-1)[:, 1].tolist()


if __name__ == "__main__":
    model_path = os.path.join(tempfile.mkdtemp(), "scorer.pt")
    export_from_training_box(model_path)
    service = InferenceService(model_path)
    print(service.score([[1, 2, 3], [4, 5]]))
