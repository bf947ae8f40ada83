"""nanoGPT/bark-style checkpoint storing best_val_loss as a Python float, loaded with the weights_only default
source: https://github.com/suno-ai/bark/pull/653
reported-error: none (this is the fix given in the report thread)
outcome: ok
root-cause: none
expect: none
"""
import os
import tempfile
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class GPTConfig:
    block_size: int = 32
    vocab_size: int = 64
    n_layer: int = 1
    n_embd: int = 32


class GPT(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)

    def forward(self, idx):
        return self.lm_head(self.wte(idx))


out_dir = tempfile.mkdtemp()
model_args = dict(block_size=32, vocab_size=64, n_layer=1, n_embd=32)
model = GPT(GPTConfig(**model_args))
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)

# nanoGPT-style training loop that produced the released checkpoint
best_val_loss = 1e9
for iter_num in range(20):
    x = torch.randint(0, 64, (8, 32))
    loss = F.cross_entropy(model(x).view(-1, 64), torch.roll(x, -1, 1).view(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if iter_num % 10 == 0:
        losses = np.array([loss.item(), loss.item() * 1.01])
        val_loss = losses.mean()
        if val_loss < best_val_loss:
            best_val_loss = val_loss
            checkpoint = {
                'model': model.state_dict(),
                'model_args': model_args,
                'iter_num': iter_num,
                'best_val_loss': float(best_val_loss),
            }
            torch.save(checkpoint, os.path.join(out_dir, 'ckpt.pt'))


def _load_model(ckpt_path, device, model_type="text"):
    checkpoint = torch.load(ckpt_path, map_location=device)
    model_args = checkpoint["model_args"]
    model = GPT(GPTConfig(**model_args))
    model.load_state_dict(checkpoint["model"])
    val_loss = checkpoint["best_val_loss"]
    print(f"model loaded: {round(val_loss, 3)} loss")
    model.eval()
    model.to(device)
    return model


device = "cuda" if torch.cuda.is_available() else "cpu"
_load_model(os.path.join(out_dir, 'ckpt.pt'), device)
