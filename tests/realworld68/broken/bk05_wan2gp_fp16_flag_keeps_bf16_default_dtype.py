"""A Wan2GP-style text-to-video run started with --fp16 on a bf16-capable GPU: load_models picks default_dtype from the GPU generation only (bfloat16 for compute capability 8+), so --fp16 swaps in the fp16 quantized transformer file while the pipeline still runs in bfloat16; the quantized linears keep their float16 weights and the first one refuses the bfloat16 text context
source: https://github.com/deepbeepmeep/Wan2GP/issues/158
reported-error: "Forcing FP16 using --FP16 causes RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Half" (fixed in wgp.py by 480645c8: default_dtype = torch.float16 if args.fp16 else torch.bfloat16 on GPUs with major >= 8)
outcome: RuntimeError: self and mat2 must have the same dtype, but got BFloat16 and Half at line 63
root-cause: line 115
expect: DG004
"""
import argparse
import math
import os
import tempfile

import torch
import torch.nn as nn

torch.manual_seed(0)
parser = argparse.ArgumentParser()
parser.add_argument("--fp16", action="store_true", default=True, help="For using fp16 transformer model")
parser.add_argument("--steps", type=int, default=4)
args = parser.parse_args([])


def get_device_capability():
    """torch.cuda.get_device_capability() of the reporter's card (bf16-capable, compute capability 8.6)."""
    return 8, 6


def sinusoidal_embedding_1d(dim, position):
    half = dim // 2
    position = position.type(torch.float64)
    sinusoid = torch.outer(position, torch.pow(10000, -torch.arange(half).to(position).div(half)))
    return torch.cat([torch.cos(sinusoid), torch.sin(sinusoid)], dim=1)


class WanBlock(nn.Module):
    def __init__(self, dim, heads=4):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.self_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.norm2 = nn.LayerNorm(dim)
        self.cross_attn = nn.MultiheadAttention(dim, heads, batch_first=True)
        self.ffn = nn.Sequential(nn.Linear(dim, 2 * dim), nn.GELU(approximate="tanh"), nn.Linear(2 * dim, dim))

    def forward(self, x, e, context):
        y = self.norm1(x) * (1 + e)
        x = x + self.self_attn(y, y, y, need_weights=False)[0]
        x = x + self.cross_attn(self.norm2(x), context, context, need_weights=False)[0]
        return x + self.ffn(x)


class WanModel(nn.Module):
    def __init__(self, dim=32, text_dim=24, freq_dim=16, in_dim=4, num_layers=2):
        super().__init__()
        self.freq_dim = freq_dim
        self.patch_embedding = nn.Linear(in_dim, dim)
        self.text_embedding = nn.Sequential(nn.Linear(text_dim, dim), nn.GELU(approximate="tanh"), nn.Linear(dim, dim))
        self.time_embedding = nn.Sequential(nn.Linear(freq_dim, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.blocks = nn.ModuleList([WanBlock(dim) for _ in range(num_layers)])
        self.head = nn.Linear(dim, in_dim)

    def forward(self, x, t, context):
        e = self.time_embedding(sinusoidal_embedding_1d(self.freq_dim, t).to(self.time_embedding[0].weight.dtype))
        context = self.text_embedding(context)  # fails-here
        x = self.patch_embedding(x)
        for block in self.blocks:
            x = block(x, e[:, None], context)
        return self.head(x)


QUANTIZED = ("text_embedding", "patch_embedding", "blocks", "head")


def save_quanto_file(model, path, scale_dtype):
    """quanto int8 file: int8 weights of the linear layers with per-row scales of the file's float type."""
    sd = {}
    for k, v in model.state_dict().items():
        if k.startswith(QUANTIZED) and k.endswith("weight") and v.dim() == 2:
            scale = v.abs().amax(1, keepdim=True) / 127
            sd[k + "._data"] = torch.round(v / scale).to(torch.int8)
            sd[k + "._scale"] = scale.to(scale_dtype)
        else:
            sd[k] = v.to(scale_dtype)
    torch.save(sd, path)


def offload_profile(model, path, convertWeightsFloatTo):
    """mmgp-style loading: quantized weights are dequantized in their scale's dtype, other floats converted."""
    sd = torch.load(path)
    for name, p in model.named_parameters():
        if name + "._data" in sd:
            p.data = sd[name + "._data"].to(sd[name + "._scale"].dtype) * sd[name + "._scale"]
        else:
            p.data = sd[name].to(convertWeightsFloatTo)
    return model


class WanT2V:
    def __init__(self, model_filename, dtype):
        self.dtype = dtype
        self.model = offload_profile(WanModel().eval(), model_filename, convertWeightsFloatTo=dtype)
        self.text_encoder = nn.Embedding(100, 24)  # umt5 stand-in, kept in float32 like the text encoder file

    @torch.no_grad()
    def generate(self, prompt_ids, frames=4, tokens=6, sampling_steps=4):
        context = self.text_encoder(prompt_ids)[None].to(self.dtype)
        latents = torch.randn(1, frames * tokens, 4, dtype=torch.float32)
        for i, t in enumerate(torch.linspace(999, 0, sampling_steps)):
            noise_pred = self.model(latents.to(self.dtype), t[None], context)
            latents = latents - noise_pred.float() / sampling_steps
        return latents


def load_models(model_filename):
    major, minor = get_device_capability()
    default_dtype = torch.float16 if major < 8 else torch.bfloat16  # root-cause
    if default_dtype == torch.float16 or args.fp16:  # root-cause-alt
        print("Switching to f16 model as GPU architecture doesn't support bf16")
        if "quanto" in model_filename:
            model_filename = model_filename.replace("quanto_int8", "quanto_fp16_int8")
    wan_model = WanT2V(model_filename, dtype=default_dtype)
    return wan_model


ckpts = tempfile.mkdtemp()
reference = WanModel()
save_quanto_file(reference, os.path.join(ckpts, "wan2.1_text2video_1.3B_quanto_int8.pt"), torch.bfloat16)
save_quanto_file(reference, os.path.join(ckpts, "wan2.1_text2video_1.3B_quanto_fp16_int8.pt"), torch.float16)
wan_model = load_models(os.path.join(ckpts, "wan2.1_text2video_1.3B_quanto_int8.pt"))
video = wan_model.generate(torch.tensor([5, 17, 42, 8]), sampling_steps=args.steps)
print("latents", tuple(video.shape), video.dtype, float(video.std()))
