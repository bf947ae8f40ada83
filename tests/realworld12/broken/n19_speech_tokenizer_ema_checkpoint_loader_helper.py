"""Speech-tokenizer fine-tuning script whose load_ema_weights() helper reads an EMA checkpoint that was serialized directly from CUDA tensors (simulated with cuda:0 storage tags) using torch.load(path, weights_only=True) but no map_location; on a CPU-only laptop the load fails before the model is built
source: https://github.com/janhq/ichigo/pull/219
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 51
root-cause: line 51
expect: DG010
"""
import copy
import os
import tempfile
from pathlib import Path

import torch
import torch.nn as nn
from torch import serialization


class Tokenizer(nn.Module):
    def __init__(self, n_mels=20, codebook=32, dim=24):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(n_mels, dim, 3, padding=1), nn.GELU(), nn.Conv1d(dim, dim, 3, padding=1))
        self.codebook = nn.Embedding(codebook, dim)

    def forward(self, mels):
        z = self.encoder(mels).transpose(1, 2)
        dist = torch.cdist(z, self.codebook.weight.unsqueeze(0))
        return dist.argmin(-1), z


class EMA:
    def __init__(self, model, decay=0.999):
        self.shadow = copy.deepcopy(model).eval()
        self.decay = decay

    @torch.no_grad()
    def update(self, model):
        for s, p in zip(self.shadow.parameters(), model.parameters()):
            s.lerp_(p, 1 - self.decay)


def export_from_gpu_run(path):
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"ema": Tokenizer().state_dict(), "step": 50_000}, path)
    finally:
        serialization.location_tag = original


def load_ema_weights(path):
    ckpt = torch.load(path, weights_only=True)  # root-cause # fails-here
    return ckpt["ema"], ckpt["step"]


def finetune(ckpt_path, steps=3):
    model = Tokenizer()
    state, start = load_ema_weights(ckpt_path)
    model.load_state_dict(state)
    ema = EMA(model)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-4)
    for step in range(start, start + steps):
        mels = torch.randn(2, 20, 40)
        codes, z = model(mels)
        loss = (z - model.codebook(codes).detach()).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        ema.update(model)
        print(f"step {step}: commit loss {loss.item():.4f}")


if __name__ == "__main__":
    path = Path(tempfile.mkdtemp()) / "ichigo_tokenizer_ema.pt"
    export_from_gpu_run(os.fspath(path))
    finetune(path)
