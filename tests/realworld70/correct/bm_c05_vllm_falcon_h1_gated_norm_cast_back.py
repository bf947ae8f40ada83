"""The vLLM-style bfloat16 generation with the tiny Falcon-H1-like model of bm05 (mamba_rms_norm=False) with the fix of PR #18500: Mixer2RMSNormGated's no-RMS-norm path returns x.to(input_dtype), so out_proj gets bfloat16 hidden states and greedy decoding runs; the float32 upcast of the gate inside the norm and the .float() logits before argmax are kept
source: https://github.com/vllm-project/vllm/pull/18500
reported-error: (none filed; the fixed situation of bm05)
outcome: ok
root-cause: -
expect: none
"""

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
CONFIG = dict(vocab_size=128, hidden_size=64, mamba_d_ssm=64, mamba_n_groups=1, mamba_rms_norm=False,
              num_attention_heads=4, num_hidden_layers=2, rms_norm_eps=1e-5, dtype=torch.bfloat16)


class Mixer2RMSNormGated(nn.Module):
    def __init__(self, full_hidden_size, full_n_groups, use_rms_norm=True, eps=1e-6):
        super().__init__()
        self.tp_size = 1
        self.full_hidden_size = full_hidden_size
        self.group_size = full_hidden_size // full_n_groups
        self.n_groups = full_hidden_size // self.group_size
        self.variance_epsilon = eps
        self.use_rms_norm = use_rms_norm
        if self.use_rms_norm:
            self.weight = nn.Parameter(torch.ones(full_hidden_size))
        else:
            # Avoid checkpoint mismatch by skipping unused parameter
            self.register_parameter("weight", None)

    def forward_native(self, x, gate):
        input_dtype = x.dtype
        x = x * nn.functional.silu(gate.to(torch.float32))
        if not self.use_rms_norm:
            return x.to(input_dtype)
        variance = x.pow(2).mean(-1, keepdim=True)
        x = x * torch.rsqrt(variance + self.variance_epsilon)
        return self.weight * x.to(input_dtype)

    def forward(self, x, gate):
        return self.forward_native(x, gate)  # CPU: the CustomOp dispatches to forward_native


class MambaMixer2(nn.Module):
    def __init__(self, hidden_size, intermediate_size, n_groups, use_rms_norm, eps):
        super().__init__()
        self.in_proj = nn.Linear(hidden_size, 2 * intermediate_size, bias=False)
        self.A_log = nn.Parameter(torch.log(torch.linspace(0.5, 4.0, intermediate_size)))
        self.dt_bias = nn.Parameter(torch.zeros(intermediate_size))
        self.norm = Mixer2RMSNormGated(intermediate_size, n_groups, use_rms_norm=use_rms_norm, eps=eps)
        self.out_proj = nn.Linear(intermediate_size, hidden_size, bias=False)

    def forward(self, hidden_states):
        gate, x = self.in_proj(hidden_states).chunk(2, dim=-1)
        # selective-scan stand-in: h_t = a * h_{t-1} + dt * x_t, with a = exp(-softplus(dt) * exp(A_log))
        dt = F.softplus(self.dt_bias)
        a = torch.exp(-dt * torch.exp(self.A_log))
        h = torch.zeros_like(x[:, 0])
        ys = []
        for t in range(x.shape[1]):
            h = a * h + dt * x[:, t]
            ys.append(h)
        y = torch.stack(ys, dim=1)
        hidden_states = self.norm(y, gate)
        return self.out_proj(hidden_states)


class Attention(nn.Module):
    def __init__(self, hidden_size, heads):
        super().__init__()
        self.heads, self.head_dim = heads, hidden_size // heads
        self.qkv_proj = nn.Linear(hidden_size, 3 * hidden_size, bias=False)
        self.o_proj = nn.Linear(hidden_size, hidden_size, bias=False)

    def forward(self, x):
        b, s, d = x.shape
        q, k, v = self.qkv_proj(x).view(b, s, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.o_proj(out.transpose(1, 2).reshape(b, s, d))


class RMSNorm(nn.Module):
    def __init__(self, hidden_size, eps):
        super().__init__()
        self.weight, self.eps = nn.Parameter(torch.ones(hidden_size)), eps

    def forward(self, x):
        xf = x.float()
        return (self.weight * (xf * torch.rsqrt(xf.pow(2).mean(-1, keepdim=True) + self.eps))).to(x.dtype)


class FalconH1DecoderLayer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        h = cfg["hidden_size"]
        self.input_layernorm = RMSNorm(h, cfg["rms_norm_eps"])
        self.mamba = MambaMixer2(h, cfg["mamba_d_ssm"], cfg["mamba_n_groups"], cfg["mamba_rms_norm"], cfg["rms_norm_eps"])
        self.self_attn = Attention(h, cfg["num_attention_heads"])
        self.pre_ff_layernorm = RMSNorm(h, cfg["rms_norm_eps"])
        self.feed_forward = nn.Sequential(nn.Linear(h, 2 * h, bias=False), nn.SiLU(), nn.Linear(2 * h, h, bias=False))

    def forward(self, hidden_states):
        normed = self.input_layernorm(hidden_states)
        hidden_states = hidden_states + self.mamba(normed) + self.self_attn(normed)  # parallel hybrid
        return hidden_states + self.feed_forward(self.pre_ff_layernorm(hidden_states))


class FalconH1ForCausalLM(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed_tokens = nn.Embedding(cfg["vocab_size"], cfg["hidden_size"])
        self.layers = nn.ModuleList([FalconH1DecoderLayer(cfg) for _ in range(cfg["num_hidden_layers"])])
        self.final_layernorm = RMSNorm(cfg["hidden_size"], cfg["rms_norm_eps"])
        self.lm_head = nn.Linear(cfg["hidden_size"], cfg["vocab_size"], bias=False)

    def forward(self, input_ids):
        hidden_states = self.embed_tokens(input_ids)
        for layer in self.layers:
            hidden_states = layer(hidden_states)
        return self.lm_head(self.final_layernorm(hidden_states))


# LLM(model="tiiuae/Falcon-H1-0.5B-Base", dtype="bfloat16"): build, load weights, cast to the model dtype
model = FalconH1ForCausalLM(CONFIG).to(CONFIG["dtype"]).eval()
prompts = torch.randint(0, CONFIG["vocab_size"], (3, 10))
with torch.inference_mode():
    tokens = prompts
    for _ in range(6):
        logits = model(tokens)[:, -1].float()
        tokens = torch.cat([tokens, logits.argmax(-1, keepdim=True)], dim=1)
for row in tokens.tolist():
    print("generated:", row[10:])
