"""The tiny bfloat16 Llama full fine-tuning of bm03 with the fix of PR #25421: LlamaRMSNorm multiplies by its (float32) weight first and downcasts the product to the input dtype, so the float32 norms kept by the qlora-style step hand bfloat16 activations to the bfloat16 projections and the loss goes down; the float32 norm modules, the .float() logits and the float32 inv_freq buffer are kept
source: https://github.com/huggingface/transformers/pull/25421
reported-error: (none filed; the fixed situation of bm03)
outcome: ok
root-cause: -
expect: none
"""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, HIDDEN, HEADS, LAYERS, INTER = 96, 64, 4, 2, 128


class LlamaRMSNorm(nn.Module):
    def __init__(self, hidden_size, eps=1e-6):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden_size))
        self.variance_epsilon = eps

    def forward(self, hidden_states):
        input_dtype = hidden_states.dtype
        hidden_states = hidden_states.to(torch.float32)
        variance = hidden_states.pow(2).mean(-1, keepdim=True)
        hidden_states = hidden_states * torch.rsqrt(variance + self.variance_epsilon)
        return (self.weight * hidden_states).to(input_dtype)


def rotate_half(x):
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


class LlamaAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.head_dim = HIDDEN // HEADS
        self.q_proj = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.k_proj = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.v_proj = nn.Linear(HIDDEN, HIDDEN, bias=False)
        self.o_proj = nn.Linear(HIDDEN, HIDDEN, bias=False)
        inv_freq = 1.0 / (10000 ** (torch.arange(0, self.head_dim, 2).float() / self.head_dim))
        self.register_buffer("inv_freq", inv_freq, persistent=False)

    def forward(self, hidden_states):
        bsz, q_len, _ = hidden_states.shape
        q = self.q_proj(hidden_states).view(bsz, q_len, HEADS, self.head_dim).transpose(1, 2)
        k = self.k_proj(hidden_states).view(bsz, q_len, HEADS, self.head_dim).transpose(1, 2)
        v = self.v_proj(hidden_states).view(bsz, q_len, HEADS, self.head_dim).transpose(1, 2)
        t = torch.arange(q_len, dtype=self.inv_freq.dtype)
        emb = torch.cat([torch.outer(t, self.inv_freq)] * 2, dim=-1)
        cos, sin = emb.cos().to(q.dtype), emb.sin().to(q.dtype)
        q, k = q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin
        attn = (q @ k.transpose(2, 3)) / math.sqrt(self.head_dim)
        causal = torch.full((q_len, q_len), torch.finfo(attn.dtype).min, dtype=attn.dtype).triu(1)
        attn = F.softmax((attn + causal).float(), dim=-1).to(q.dtype)
        out = (attn @ v).transpose(1, 2).reshape(bsz, q_len, HIDDEN)
        return self.o_proj(out)


class LlamaMLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.gate_proj = nn.Linear(HIDDEN, INTER, bias=False)
        self.up_proj = nn.Linear(HIDDEN, INTER, bias=False)
        self.down_proj = nn.Linear(INTER, HIDDEN, bias=False)

    def forward(self, x):
        return self.down_proj(F.silu(self.gate_proj(x)) * self.up_proj(x))


class LlamaDecoderLayer(nn.Module):
    def __init__(self):
        super().__init__()
        self.self_attn, self.mlp = LlamaAttention(), LlamaMLP()
        self.input_layernorm, self.post_attention_layernorm = LlamaRMSNorm(HIDDEN), LlamaRMSNorm(HIDDEN)

    def forward(self, hidden_states):
        hidden_states = hidden_states + self.self_attn(self.input_layernorm(hidden_states))
        return hidden_states + self.mlp(self.post_attention_layernorm(hidden_states))


class LlamaForCausalLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed_tokens = nn.Embedding(VOCAB, HIDDEN)
        self.layers = nn.ModuleList([LlamaDecoderLayer() for _ in range(LAYERS)])
        self.norm = LlamaRMSNorm(HIDDEN)
        self.lm_head = nn.Linear(HIDDEN, VOCAB, bias=False)

    def forward(self, input_ids, labels=None):
        hidden_states = self.embed_tokens(input_ids)
        for layer in self.layers:
            hidden_states = layer(hidden_states)
        logits = self.lm_head(self.norm(hidden_states)).float()
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits[:, :-1].reshape(-1, VOCAB), labels[:, 1:].reshape(-1))
        return loss, logits


model = LlamaForCausalLM().to(torch.bfloat16)  # torch_dtype=torch.bfloat16
# qlora.py-style stability step: keep the norms in float32 while everything else trains in bfloat16
for name, module in model.named_modules():
    if "norm" in name:
        module.to(torch.float32)

data = torch.randint(0, VOCAB, (64, 24))
data[:, 1::2] = (data[:, 0::2] * 7 + 3) % VOCAB  # learnable pattern: every odd token follows from the previous one
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-3)
model.train()
for step in range(40):
    batch = data[(step * 8) % 64 : (step * 8) % 64 + 8]
    loss, _ = model(batch, labels=batch)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 10 == 0:
        print(f"step {step}: loss {loss.item():.3f}")
print(f"final loss {loss.item():.3f}")
