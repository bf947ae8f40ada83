"""Vision-language chat model attention (InternLM/lmdeploy-served model code path): the query is upcast to float32 for the rotary embedding, the score matrix is computed from the half-precision key/query pair, and the mask value is taken from torch.finfo(query_layer.dtype).min, the float32 minimum, which does not fit into the half scores
source: https://github.com/InternLM/lmdeploy/issues/3152
reported-error: attention_scores = attention_scores.masked_fill(~(attention_mask), torch.finfo(query_layer.dtype).min) RuntimeError: value cannot be converted to type at::Half without overflow
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 41
root-cause: line 40
expect: DG018
"""
import math

import torch
import torch.nn as nn

config = {"hidden_size": 32, "num_heads": 4, "torch_dtype": torch.float16, "max_len": 10}


# ---- modeling/rotary.py
def apply_rotary(x):
    x = x.float()
    half = x.shape[-1] // 2
    pos = torch.arange(x.shape[-2], dtype=torch.float32)[:, None]
    freq = 1.0 / (10000 ** (torch.arange(half, dtype=torch.float32) / half))
    cos, sin = torch.cos(pos * freq), torch.sin(pos * freq)
    return torch.cat([x[..., :half] * cos - x[..., half:] * sin, x[..., :half] * sin + x[..., half:] * cos], -1)


# ---- modeling/attention.py
class SelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.qkv = nn.Linear(hidden, 3 * hidden)
        self.dense = nn.Linear(hidden, hidden)

    def forward(self, hidden_states, attention_mask):
        b, t, _ = hidden_states.shape
        q, k, v = self.qkv(hidden_states).view(b, t, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        query_layer = apply_rotary(q)
        key_layer = apply_rotary(k).to(v.dtype)
        attention_scores = torch.matmul(query_layer.to(v.dtype), key_layer.transpose(-1, -2)) / math.sqrt(self.head_dim)
        mask_value = torch.finfo(query_layer.dtype).min  # root-cause
        attention_scores = attention_scores.masked_fill(~attention_mask, mask_value)  # fails-here
        probs = torch.softmax(attention_scores.float(), dim=-1).to(v.dtype)
        return self.dense((probs @ v).transpose(1, 2).reshape(b, t, -1))


def build_model():
    model = nn.ModuleDict({"embed": nn.Embedding(64, config["hidden_size"]),
                           "attn": SelfAttention(config["hidden_size"], config["num_heads"]),
                           "head": nn.Linear(config["hidden_size"], 64)})
    return model.to(config["torch_dtype"]).eval()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = build_model()
    ids = torch.randint(0, 64, (2, config["max_len"]))
    causal = torch.tril(torch.ones(config["max_len"], config["max_len"], dtype=torch.bool))
    with torch.no_grad():
        h = model["embed"](ids)
        logits = model["head"](model["attn"](h, causal))
    print("next token", logits[:, -1].argmax(-1).tolist())
