"""Variant-effect scoring with a (small) Borzoi genomic-track model (johahi/borzoi-pytorch #21 as in av02) in the state the maintainer restored by pinning transformers < 4.51: from_pretrained instantiates the model on the CPU and copies the checkpoint in, so the non-persistent relative-position buffer keeps the values its __init__ computed (with device=self.to_v.weight.device) and borzoi.to(device) moves it with the weights; the buffer stays non-persistent and the checkpoint is still read with map_location="cpu"
source: https://github.com/johahi/borzoi-pytorch/issues/21
reported-error: (none filed; the fixed situation of av02)
outcome: ok
root-cause: -
expect: none
"""
import json
import math
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
from torch import einsum

torch.manual_seed(0)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


# ---- borzoi_pytorch/pytorch_borzoi_transformer.py
def get_positional_features_central_mask(positions, features, seq_len):
    pow_rate = math.exp(math.log(seq_len + 1) / features)
    center_widths = torch.pow(pow_rate, torch.arange(1, features + 1, device=positions.device)).float() - 1
    return (center_widths[None, ...] > positions.abs()[..., None]).float()


def get_positional_embed(seq_len, feature_size, device):
    distances = torch.arange(-seq_len + 1, seq_len, device=device)
    embeddings = get_positional_features_central_mask(distances, feature_size // 2, seq_len)
    return torch.cat((embeddings, torch.sign(distances)[..., None] * embeddings), dim=-1)


def relative_shift(x):
    # enformer-pytorch's relative_shift: (b, h, i, 2i-1) -> (b, h, i, i)
    to_pad = torch.zeros_like(x[..., :1])
    x = torch.cat((to_pad, x), dim=-1)
    _, h, t1, t2 = x.shape
    x = x.reshape(-1, h, t2, t1)[:, :, 1:, :].reshape(-1, h, t1, t2 - 1)
    return x[..., :((t2 + 1) // 2)]


class Attention(nn.Module):
    def __init__(self, dim, *, seq_len, num_rel_pos_features, heads=4, dim_key=16, dim_value=16):
        super().__init__()
        self.scale, self.heads = dim_key ** -0.5, heads
        self.to_q = nn.Linear(dim, dim_key * heads, bias=False)
        self.to_k = nn.Linear(dim, dim_key * heads, bias=False)
        self.to_v = nn.Linear(dim, dim_value * heads, bias=False)
        self.to_out = nn.Linear(dim_value * heads, dim)
        self.register_buffer("positions", get_positional_embed(seq_len, num_rel_pos_features, self.to_v.weight.device), persistent=False)
        self.to_rel_k = nn.Linear(num_rel_pos_features, dim_key * heads, bias=False)
        self.rel_content_bias = nn.Parameter(torch.randn(1, heads, 1, dim_key))
        self.rel_pos_bias = nn.Parameter(torch.randn(1, heads, 1, dim_key))

    def forward(self, x):
        b, n, _ = x.shape
        h = self.heads
        q, k, v = (t.reshape(b, n, h, -1).transpose(1, 2) for t in (self.to_q(x), self.to_k(x), self.to_v(x)))
        q = q * self.scale
        content_logits = einsum("b h i d, b h j d -> b h i j", q + self.rel_content_bias, k)
        rel_k = self.to_rel_k(self.positions).reshape(-1, h, q.shape[-1]).transpose(0, 1)
        rel_logits = relative_shift(einsum("b h i d, h j d -> b h i j", q + self.rel_pos_bias, rel_k))
        attn = (content_logits + rel_logits).softmax(dim=-1)
        out = einsum("b h i j, b h j d -> b h i d", attn, v).transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out)


# ---- borzoi_pytorch/pytorch_borzoi_model.py (trimmed: conv tower, one transformer block, human head)
class Borzoi(nn.Module):
    def __init__(self, config):
        super().__init__()
        dim, L = config["dim"], config["seq_len"]
        self.conv_dna = nn.Conv1d(4, dim // 2, 15, padding=7)
        self.res_tower = nn.Sequential(nn.MaxPool1d(2), nn.BatchNorm1d(dim // 2), nn.GELU(),
                                       nn.Conv1d(dim // 2, dim, 5, padding=2), nn.MaxPool1d(2))
        self.transformer = nn.ModuleList([nn.LayerNorm(dim),
                                          Attention(dim, seq_len=L // 4, num_rel_pos_features=config["rel_feats"])])
        self.human_head = nn.Conv1d(dim, config["n_tracks"], 1)

    def forward(self, x):
        x = self.res_tower(self.conv_dna(x)).transpose(1, 2)
        x = x + self.transformer[1](self.transformer[0](x))
        return nn.functional.softplus(self.human_head(x.transpose(1, 2)))

    @classmethod
    def from_pretrained(cls, path):
        """transformers' PreTrainedModel.from_pretrained before 4.51 (as pinned): init on the CPU, then copy the weights."""
        with open(os.path.join(path, "config.json")) as fh:
            config = json.load(fh)
        state_dict = torch.load(os.path.join(path, "pytorch_model.bin"), map_location="cpu")
        model = cls(config)
        model.load_state_dict(state_dict)
        return model


def one_hot(seq):
    idx = np.frombuffer(seq.encode(), dtype=np.uint8)
    out = np.zeros((4, len(seq)), dtype=np.float32)
    for i, base in enumerate(b"ACGT"):
        out[i, idx == base] = 1.0
    return torch.from_numpy(out)


# the "hub" checkpoint: weights written by the conversion notebook
hub_dir = tempfile.mkdtemp()
config = {"dim": 64, "seq_len": 512, "rel_feats": 8, "n_tracks": 16}
with open(os.path.join(hub_dir, "config.json"), "w") as fh:
    json.dump(config, fh)
torch.save(Borzoi(config).state_dict(), os.path.join(hub_dir, "pytorch_model.bin"))

borzoi = Borzoi.from_pretrained(hub_dir)
borzoi.to(device)
borzoi.eval()

rng = np.random.default_rng(0)
ref = "".join(rng.choice(list("ACGT"), size=config["seq_len"]))
pos = config["seq_len"] // 2
alt = ref[:pos] + ("C" if ref[pos] != "C" else "T") + ref[pos + 1:]
with torch.no_grad():
    x = torch.stack([one_hot(ref), one_hot(alt)]).to(device)
    pred = borzoi(x)
center = slice(pred.shape[-1] // 2 - 4, pred.shape[-1] // 2 + 4)
lfc = torch.log2(pred[1, :, center].sum(-1) + 1) - torch.log2(pred[0, :, center].sum(-1) + 1)
print(f"variant {ref[pos]}>{alt[pos]} at {pos}: max |log2 fold change| over {config['n_tracks']} tracks = {lfc.abs().max().item():.4f}")
