"""tez-style Model.load after the PR: the GPU-written checkpoint is read with torch.load(model_path, map_location=self.device), the device chosen by the caller and kept in a variable, then the model is moved there
source: https://github.com/abhishekkrthakur/tez/pull/18
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization


class Model(nn.Module):
    def save(self, model_path):
        torch.save({"state_dict": self.state_dict(), "epoch": 3}, model_path)

    def load(self, model_path, device="cuda"):
        self.device = device
        model_dict = torch.load(model_path, map_location=self.device)
        self.load_state_dict(model_dict["state_dict"])
        self.to(self.device)


class TextClassifier(Model):
    def __init__(self, vocab=1000, dim=32, n_classes=4):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim)
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, ids):
        return self.fc(self.embed(ids))


orig = torch.serialization.location_tag
torch.serialization.location_tag = lambda storage: "cuda:0"
try:
    path = os.path.join(tempfile.mkdtemp(), "model.bin")
    TextClassifier().save(path)
finally:
    torch.serialization.location_tag = orig

device = "cuda" if torch.cuda.is_available() else "cpu"
model = TextClassifier()
model.load(path, device=device)
print(model(torch.randint(0, 1000, (2, 8), device=device)).softmax(-1))
