"""Dialog response ranker whose generation script accepts --cpu, but Scorer.load() restores the ranker weights (saved during GPU training, simulated with cuda:0 storage tags) with a plain torch.load(path)
source: https://github.com/golsun/DialogRPT/issues/7
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 28
root-cause: line 28
expect: DG010
"""
import argparse
import os
import tempfile

import torch
import torch.nn as nn
from torch import serialization


class Scorer(nn.Module):
    def __init__(self, vocab=500, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)
        self.out = nn.Linear(dim, 1)

    def forward(self, ids):
        return self.out(self.emb(ids)).squeeze(-1)

    def load(self, path):
        print("loading from " + path)
        weights = torch.load(path)  # root-cause # fails-here
        self.load_state_dict(weights)


def save_as_gpu_checkpoint(model, path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(model.state_dict(), path)
    finally:
        serialization.location_tag = original


def get_model(path, cuda):
    model = Scorer()
    model.load(path)
    if cuda:
        model.cuda()
    return model.eval()


if __name__ == "__main__":
    ckpt = os.path.join(tempfile.mkdtemp(), "updown.pth")
    save_as_gpu_checkpoint(Scorer(), ckpt)
    parser = argparse.ArgumentParser()
    parser.add_argument("-pr", "--path_ranker")
    parser.add_argument("--cpu", action="store_true")
    args = parser.parse_args(["-pr", ckpt, "--cpu"])
    ranker = get_model(args.path_ranker, cuda=not args.cpu)
    hyps = torch.randint(0, 500, (3, 12))
    print("scores", ranker(hyps).tolist())
