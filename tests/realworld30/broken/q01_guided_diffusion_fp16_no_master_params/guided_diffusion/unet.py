import math

import torch
import torch.nn as nn


def zero_module(module):
    for p in module.parameters():
        p.detach().zero_()
    return module


def timestep_embedding(timesteps, dim, max_period=10000):
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32) / half)
    args = timesteps[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


class UNetModel(nn.Module):
    def __init__(self, in_channels, model_channels, out_channels, use_fp16=False):
        super().__init__()
        self.model_channels = model_channels
        self.dtype = torch.float16 if use_fp16 else torch.float32
        self.time_embed = nn.Sequential(nn.Linear(model_channels, model_channels * 2), nn.SiLU(),
                                        nn.Linear(model_channels * 2, model_channels))
        self.input_blocks = nn.Sequential(nn.Conv2d(in_channels, model_channels, 3, padding=1), nn.SiLU(),
                                          nn.Conv2d(model_channels, model_channels, 3, padding=1))
        self.out = nn.Sequential(nn.GroupNorm(4, model_channels), nn.SiLU(),
                                 zero_module(nn.Conv2d(model_channels, out_channels, 3, padding=1)))

    def convert_to_fp16(self):
        self.time_embed.half()
        self.input_blocks.half()
        self.out.half()

    def forward(self, x, timesteps):
        emb = self.time_embed(timestep_embedding(timesteps, self.model_channels).type(self.dtype))
        h = self.input_blocks(x.type(self.dtype)) + emb[:, :, None, None]
        return self.out(h).type(x.dtype)
