"""tez-style Model base class: load(model_path, device) reads the checkpoint with torch.load(model_path) and only afterwards calls self.to(device); with a checkpoint saved from a GPU run and device="cpu" on a machine without CUDA the load itself fails
source: https://github.com/abhishekkrthakur/tez/pull/18
reported-error: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False (the PR adds map_location to torch.load in Model.load for CPU-only use)
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 27
root-cause: line 27
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.device = None
        self.optimizer = None

    def save(self, model_path):
        torch.save({"state_dict": self.state_dict(), "epoch": 3}, model_path)

    def load(self, model_path, device="cuda"):
        self.device = device
        model_dict = torch.load(model_path)  # root-cause # fails-here
        self.load_state_dict(model_dict["state_dict"])
        self.to(self.device)


class TextClassifier(Model):
    def __init__(self, vocab=1000, dim=32, n_classes=4):
        super().__init__()
        self.embed = nn.EmbeddingBag(vocab, dim)
        self.fc = nn.Linear(dim, n_classes)

    def forward(self, ids):
        return self.fc(self.embed(ids))


def save_like_gpu_run(model, path):
    orig = torch.serialization.location_tag
    torch.serialization.location_tag = lambda storage: "cuda:0"
    try:
        model.save(path)
    finally:
        torch.serialization.location_tag = orig


if __name__ == "__main__":
    path = os.path.join(tempfile.mkdtemp(), "model.bin")
    save_like_gpu_run(TextClassifier(), path)
    model = TextClassifier()
    model.load(path, device="cpu")
    print(model(torch.randint(0, 1000, (2, 8))).softmax(-1))
