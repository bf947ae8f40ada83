"""The TensorRT-Edge-LLM-style export of bf03 (NVIDIA/TensorRT-Edge-LLM #144) with the behaviour the issue expects: _set_tensor converts a floating checkpoint tensor to the dtype the destination parameter or buffer declares, so the float32 RMSNorm weights of the fine-tuned checkpoint become float16 and the FP16 export forward runs; the bf16 -> fp16 cast, the mixed bf16/fp32 checkpoint and the direct parameter assignment are kept
source: https://github.com/NVIDIA/TensorRT-Edge-LLM/issues/144
reported-error: (none filed; the fixed situation of bf03)
outcome: ok
root-cause: -
expect: none
"""
import json
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
WORK = tempfile.mkdtemp()
CONFIG = {"vocab_size": 128, "hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
          "num_attention_heads": 4, "rms_norm_eps": 1e-6}


class RMSNorm(nn.Module):
    def __init__(self, dim, eps):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x):
        return self.weight * (x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps))


class Attention(nn.Module):
    def __init__(self, c):
        super().__init__()
        h = c["hidden_size"]
        self.n_heads = c["num_attention_heads"]
        self.q_proj, self.k_proj = nn.Linear(h, h, bias=False), nn.Linear(h, h, bias=False)
        self.v_proj, self.o_proj = nn.Linear(h, h, bias=False), nn.Linear(h, h, bias=False)

    def forward(self, x):
        b, t, h = x.shape
        q, k, v = (p(x).view(b, t, self.n_heads, -1).transpose(1, 2) for p in (self.q_proj, self.k_proj, self.v_proj))
        att = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(att.transpose(1, 2).reshape(b, t, h))


class MLP(nn.Module):
    def __init__(self, c):
        super().__init__()
        h, i = c["hidden_size"], c["intermediate_size"]
        self.gate_proj, self.up_proj = nn.Linear(h, i, bias=False), nn.Linear(h, i, bias=False)
        self.down_proj = nn.Linear(i, h, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class DecoderLayer(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.input_layernorm = RMSNorm(c["hidden_size"], c["rms_norm_eps"])
        self.self_attn = Attention(c)
        self.post_attention_layernorm = RMSNorm(c["hidden_size"], c["rms_norm_eps"])
        self.mlp = MLP(c)

    def forward(self, x):
        x = x + self.self_attn(self.input_layernorm(x))
        return x + self.mlp(self.post_attention_layernorm(x))


class Backbone(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.embed_tokens = nn.Embedding(c["vocab_size"], c["hidden_size"])
        self.layers = nn.ModuleList(DecoderLayer(c) for _ in range(c["num_hidden_layers"]))
        self.norm = RMSNorm(c["hidden_size"], c["rms_norm_eps"])


class CausalLM(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.config = c
        self.model = Backbone(c)
        self.lm_head = nn.Linear(c["hidden_size"], c["vocab_size"], bias=False)

    def forward(self, input_ids):
        x = self.model.embed_tokens(input_ids)
        for layer in self.model.layers:
            x = layer(x)
        return self.lm_head(self.model.norm(x))


# --- the fine-tuned checkpoint: projections in bf16, norms kept in fp32 (as the trainer saved them) ---
ckpt_dir = os.path.join(WORK, "finetuned")
os.makedirs(ckpt_dir)
trained = CausalLM(CONFIG)
state = {k: (v.to(torch.float32) if "norm" in k else v.to(torch.bfloat16)) for k, v in trained.state_dict().items()}
torch.save(state, os.path.join(ckpt_dir, "pytorch_model.bin"))
with open(os.path.join(ckpt_dir, "config.json"), "w") as f:
    json.dump(CONFIG, f)


# --- tensorrt_edgellm/checkpoint/loader.py ---
def _build_shard_map(model_dir):
    bin_single_path = os.path.join(model_dir, "pytorch_model.bin")
    meta = torch.load(bin_single_path, map_location="meta", weights_only=True)
    return {key: bin_single_path for key in meta.keys()}


def _navigate(model, parts):
    module = model
    for part in parts[:-1]:
        module = module[int(part)] if part.isdigit() else getattr(module, part)
    return module, parts[-1]


def _set_tensor(model, key, tensor):
    try:
        module, attr = _navigate(model, key.split("."))
    except (AttributeError, IndexError, TypeError):
        return False
    if tensor.dtype == torch.bfloat16:
        tensor = tensor.to(torch.float16)
    declared = module._parameters.get(attr) if attr in module._parameters else module._buffers.get(attr)
    if declared is not None and declared.is_floating_point() and tensor.is_floating_point():
        tensor = tensor.to(declared.dtype)
    if attr in module._buffers:
        module._buffers[attr] = tensor
        return True
    if attr in module._parameters:
        module._parameters[attr] = nn.Parameter(tensor, requires_grad=False)
        return True
    return False


def load_weights(model, model_dir, device="cpu"):
    shard_map = _build_shard_map(model_dir)
    path_to_keys = {}
    for key, path in shard_map.items():
        path_to_keys.setdefault(path, []).append(key)
    loaded = skipped = 0
    for shard_path, keys in path_to_keys.items():
        bin_state = torch.load(shard_path, map_location=device, weights_only=True)
        for key in keys:
            if _set_tensor(model, key, bin_state[key]):
                loaded += 1
            else:
                skipped += 1
    print(f"Loaded {loaded} tensors, skipped {skipped} from {model_dir}")


# --- export: the pipeline assumes FP16 weights and activations ---
with open(os.path.join(ckpt_dir, "config.json")) as f:
    config = json.load(f)
model = CausalLM(config).to(torch.float16).eval()
load_weights(model, ckpt_dir)
print("dtypes after load:", sorted({str(p.dtype) for p in model.parameters()}))
sample_ids = torch.randint(0, config["vocab_size"], (1, 16))
with torch.no_grad():
    logits = model(sample_ids)
print("export sample logits", logits.dtype, tuple(logits.shape))
