"""The nanoGPT-style shakespeare_char run of bh05 with the device taken from what the machine has: device = 'cuda' if torch.cuda.is_available() else 'cpu', so device_type is 'cpu', get_batch takes its plain .to(device) branch, the autocast context is a nullcontext and the model trains on the CPU; the pin_memory branch (reached only when device_type is 'cuda'), the uint16 memmap cast to int64, the fused-AdamW switch and the GradScaler that disables itself without CUDA stay
source: https://github.com/karpathy/nanoGPT/issues/281
reported-error: (none; the fixed situation of bh05)
outcome: ok
root-cause: -
expect: none
"""
import math  # noqa: F401
import warnings
import os
import tempfile
from contextlib import nullcontext
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.nn import functional as F


@dataclass
class GPTConfig:
    block_size: int = 64
    vocab_size: int = 65
    n_layer: int = 2
    n_head: int = 2
    n_embd: int = 32
    dropout: float = 0.0
    bias: bool = True


class CausalSelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.c_attn = nn.Linear(config.n_embd, 3 * config.n_embd, bias=config.bias)
        self.c_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.n_head, self.n_embd, self.dropout = config.n_head, config.n_embd, config.dropout

    def forward(self, x):
        B, T, C = x.size()
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.dropout if self.training else 0, is_causal=True)
        return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))


class Block(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.ln_1, self.ln_2 = nn.LayerNorm(config.n_embd), nn.LayerNorm(config.n_embd)
        self.attn = CausalSelfAttention(config)
        self.mlp = nn.Sequential(nn.Linear(config.n_embd, 4 * config.n_embd), nn.GELU(), nn.Linear(4 * config.n_embd, config.n_embd))

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.transformer = nn.ModuleDict(dict(
            wte=nn.Embedding(config.vocab_size, config.n_embd), wpe=nn.Embedding(config.block_size, config.n_embd),
            h=nn.ModuleList([Block(config) for _ in range(config.n_layer)]), ln_f=nn.LayerNorm(config.n_embd)))
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.transformer.wte.weight = self.lm_head.weight

    def forward(self, idx, targets=None):
        b, t = idx.size()
        pos = torch.arange(0, t, dtype=torch.long, device=idx.device)
        x = self.transformer.wte(idx) + self.transformer.wpe(pos)
        for block in self.transformer.h:
            x = block(x)
        logits = self.lm_head(self.transformer.ln_f(x))
        loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), ignore_index=-1)
        return logits, loss

    def configure_optimizers(self, weight_decay, learning_rate, betas, device_type):
        params = [p for p in self.parameters() if p.requires_grad]
        groups = [{'params': [p for p in params if p.dim() >= 2], 'weight_decay': weight_decay},
                  {'params': [p for p in params if p.dim() < 2], 'weight_decay': 0.0}]
        use_fused = device_type == 'cuda'
        return torch.optim.AdamW(groups, lr=learning_rate, betas=betas, **({'fused': True} if use_fused else {}))


# default config values designed to train a gpt2 (124M) on OpenWebText
dataset = 'openwebtext'
gradient_accumulation_steps = 5 * 8
batch_size = 12
block_size = 1024
learning_rate = 6e-4
max_iters = 600000
weight_decay = 1e-1
beta1, beta2 = 0.9, 0.95
grad_clip = 1.0
# system
device = 'cuda' if torch.cuda.is_available() else 'cpu'
dtype = 'bfloat16' if torch.cuda.is_bf16_supported() else 'float16'
# config/train_shakespeare_char.py (the configurator's overrides; it does not set device)
dataset, gradient_accumulation_steps, batch_size, block_size = 'shakespeare_char', 1, 16, 64
learning_rate, max_iters, beta2 = 1e-3, 30, 0.99

torch.manual_seed(1337)
device_type = 'cuda' if 'cuda' in device else 'cpu'  # for later use in torch.autocast
ptdtype = {'float32': torch.float32, 'bfloat16': torch.bfloat16, 'float16': torch.float16}[dtype]
ctx = nullcontext() if device_type == 'cpu' else torch.amp.autocast(device_type=device_type, dtype=ptdtype)

# data/shakespeare_char/prepare.py writes train.bin as uint16 token ids (synthetic text here)
data_dir = os.path.join(tempfile.mkdtemp(), dataset)
os.makedirs(data_dir)
text = "".join(np.random.default_rng(0).choice(list("first citizen: before we proceed any further, hear me speak.\n"), 20000))
chars = sorted(set(text))
np.array([chars.index(c) for c in text], dtype=np.uint16).tofile(os.path.join(data_dir, 'train.bin'))
train_data = np.memmap(os.path.join(data_dir, 'train.bin'), dtype=np.uint16, mode='r')


def get_batch(split):
    data = train_data
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([torch.from_numpy((data[i:i + block_size]).astype(np.int64)) for i in ix])
    y = torch.stack([torch.from_numpy((data[i + 1:i + 1 + block_size]).astype(np.int64)) for i in ix])
    if device_type == 'cuda':
        # pin arrays x,y, which allows us to move them to GPU asynchronously (non_blocking=True)
        x, y = x.pin_memory().to(device, non_blocking=True), y.pin_memory().to(device, non_blocking=True)
    else:
        x, y = x.to(device), y.to(device)
    return x, y


model = GPT(GPTConfig(block_size=block_size, vocab_size=len(chars)))
model.to(device)
with warnings.catch_warnings():
    warnings.simplefilter('ignore')  # deprecation / 'CUDA is not available. Disabling.'
    scaler = torch.cuda.amp.GradScaler(enabled=(dtype == 'float16'))
optimizer = model.configure_optimizers(weight_decay, learning_rate, (beta1, beta2), device_type)

X, Y = get_batch('train')
for iter_num in range(max_iters):
    for micro_step in range(gradient_accumulation_steps):
        with ctx:
            logits, loss = model(X, Y)
            loss = loss / gradient_accumulation_steps
        X, Y = get_batch('train')
        scaler.scale(loss).backward()
    if grad_clip != 0.0:
        scaler.unscale_(optimizer)
        torch.nn.utils.clip_grad_norm_(model.parameters(), grad_clip)
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    if iter_num % 10 == 0:
        print(f"iter {iter_num}: loss {loss.item() * gradient_accumulation_steps:.4f}")
