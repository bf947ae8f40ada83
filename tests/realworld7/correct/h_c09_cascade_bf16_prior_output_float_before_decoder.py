"""Two-stage sampling where the bfloat16 autocast output of stage C is converted back with .float() before the float32 stage B decoder runs outside the block
source: https://github.com/Stability-AI/StableCascade/issues/93
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
stage_c = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 16)).to(device).eval()
stage_b = nn.Sequential(nn.Linear(16, 32), nn.GELU(), nn.Linear(32, 12)).to(device).eval()

sampled_c = torch.randn(2, 16, device=device)
with torch.no_grad(), torch.autocast(device_type=device, dtype=torch.bfloat16):
    for t in range(4):
        sampled_c = stage_c(sampled_c)
sampled_c = sampled_c.float()

with torch.no_grad():
    sampled_b = stage_b(sampled_c)
print("stage B latents:", tuple(sampled_b.shape), sampled_b.dtype)
