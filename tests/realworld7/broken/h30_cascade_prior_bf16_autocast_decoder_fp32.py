"""Two-stage text-to-image sampling on a GPU without bf16 weights: stage C runs under a bfloat16 autocast block and its output conditions the float32 stage B decoder, called after the block
source: https://github.com/Stability-AI/StableCascade/issues/93
reported-error: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and BFloat16 (fixed by changing the autocast dtype to float32)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 31
root-cause: line 39
expect: DG017
"""
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"


class StageC(nn.Module):
    def __init__(self, c_in=16, c_cond=24, c_hidden=32):
        super().__init__()
        self.clip_mapper = nn.Linear(c_cond, c_hidden)
        self.blocks = nn.Sequential(nn.Linear(c_in + c_hidden, c_hidden), nn.GELU(), nn.Linear(c_hidden, c_in))

    def forward(self, x, clip):
        return self.blocks(torch.cat([x, self.clip_mapper(clip)], dim=-1))


class StageB(nn.Module):
    def __init__(self, c_effnet=16, c_hidden=32, c_out=12):
        super().__init__()
        self.effnet_mapper = nn.Sequential(nn.Linear(c_effnet, c_hidden), nn.GELU())
        self.out = nn.Linear(c_hidden, c_out)

    def forward(self, effnet):
        return self.out(self.effnet_mapper(effnet))  # fails-here


models_c = StageC().to(device).eval()
models_b = StageB().to(device).eval()
clip_text = torch.randn(2, 24, device=device)
sampled_c = torch.randn(2, 16, device=device)

with torch.no_grad(), torch.autocast(device_type=device, dtype=torch.bfloat16):  # root-cause
    for t in range(4):
        sampled_c = models_c(sampled_c, clip_text)

with torch.no_grad():
    sampled_b = models_b(sampled_c)  # root-cause-alt
print("stage B latents:", tuple(sampled_b.shape), sampled_b.dtype)
