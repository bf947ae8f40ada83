"""Genomics foundation model (alphagenome-pytorch layout) loaded with a mixed-precision DtypePolicy: predict() wraps forward() in torch.autocast, but encode() calls _compute_embeddings_ncl directly, whose cast_to_compute turns the one-hot DNA into bfloat16 while the DnaEmbedder Conv1d weights stay float32
source: https://github.com/genomicsxai/alphagenome-pytorch/pull/47
reported-error: RuntimeError: Input type (CUDABFloat16Type) and weight type (torch.cuda.FloatTensor) should be the same (AlphaGenome.encode() with dtype_policy=DtypePolicy.mixed_precision(); predict() works because it runs under torch.autocast)
outcome: RuntimeError: Input type (c10::BFloat16) and bias type (float) should be the same at line 33
root-cause: line 62
expect: DG004
"""
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class DtypePolicy:
    params_dtype: torch.dtype = torch.float32
    compute_dtype: torch.dtype = torch.float32

    @classmethod
    def mixed_precision(cls):
        return cls(params_dtype=torch.float32, compute_dtype=torch.bfloat16)

    def cast_to_compute(self, x):
        return x.to(self.compute_dtype)


class DnaEmbedder(nn.Module):
    def __init__(self, channels=32):
        super().__init__()
        self.conv = nn.Conv1d(4, channels, kernel_size=15, padding=7)

    def forward(self, x_ncl):
        return self.conv(x_ncl)  # fails-here


class AlphaGenome(nn.Module):
    def __init__(self, dtype_policy=DtypePolicy()):
        super().__init__()
        self.dtype_policy = dtype_policy
        self.embedder = DnaEmbedder()
        self.organism_embed = nn.Embedding(2, 32)
        self.trunk = nn.Sequential(nn.Conv1d(32, 32, 5, padding=2), nn.GELU(), nn.AvgPool1d(128))
        self.head = nn.Linear(32, 8)

    def _compute_embeddings_ncl(self, dna_sequence, organism_index):
        x = self.dtype_policy.cast_to_compute(dna_sequence.transpose(1, 2))
        x = self.embedder(x)
        x = x + self.organism_embed(organism_index)[:, :, None].to(x.dtype)
        return self.trunk(x)

    def forward(self, dna_sequence, organism_index):
        emb = self._compute_embeddings_ncl(dna_sequence, organism_index)
        return self.head(emb.transpose(1, 2))

    def predict(self, dna_sequence, organism_index):
        device_type = "cuda" if dna_sequence.is_cuda else "cpu"
        use_amp = self.dtype_policy.compute_dtype != torch.float32
        with torch.autocast(device_type=device_type, dtype=self.dtype_policy.compute_dtype, enabled=use_amp):
            return self.forward(dna_sequence, organism_index)

    def encode(self, dna_sequence, organism_index, resolutions=(128,)):
        emb = self._compute_embeddings_ncl(dna_sequence, organism_index)  # root-cause
        return {res: emb for res in resolutions}


if __name__ == "__main__":
    torch.manual_seed(0)
    model = AlphaGenome(dtype_policy=DtypePolicy.mixed_precision()).eval()
    idx = torch.randint(0, 4, (2, 1024))
    batch = nn.functional.one_hot(idx, 4).float()
    organism_index = torch.zeros(2, dtype=torch.long)
    with torch.no_grad():
        print("predict", model.predict(batch, organism_index).shape)
        print("encode", {k: v.shape for k, v in model.encode(batch, organism_index=organism_index).items()})
