"""GLIDE fine-tuning with use_fp16: the text-conditioned diffusion model is converted to float16 and trained with a plain AdamW at the default eps=1e-8
source: https://github.com/afiaka87/glide-finetune/pull/6
reported-error: silent: in half precision nan values appear after the first iteration (Adam breaks in float16; the PR sets eps=1e-4)
outcome: ok (silent: "step 0 loss" is finite, then "step 1 loss nan" and nan afterwards; AdamW's eps=1e-8 is 0 in float16, so the first optimizer.step at line 59 turns the token-embedding rows that got no gradient into 0/0)
root-cause: line 36
expect: DG012
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class Text2ImUNet(nn.Module):
    def __init__(self, n_vocab=64, text_ctx=8, width=32, ch=8):
        super().__init__()
        self.token_embedding = nn.Embedding(n_vocab, width)
        self.positional_embedding = nn.Parameter(torch.randn(text_ctx, width) * 0.01)
        self.transformer = nn.TransformerEncoderLayer(width, 4, 64, batch_first=True, dropout=0.0)
        self.time_embed = nn.Sequential(nn.Linear(1, width), nn.SiLU(), nn.Linear(width, ch))
        self.cond_proj = nn.Linear(width, ch)
        self.inp = nn.Conv2d(3, ch, 3, padding=1)
        self.out = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, x, t, tokens):
        xf = self.transformer(self.token_embedding(tokens) + self.positional_embedding)
        emb = self.time_embed(t[:, None].to(x.dtype)) + self.cond_proj(xf[:, -1])
        h = F.silu(self.inp(x) + emb[:, :, None, None])
        return self.out(h)


def load_model(use_fp16=False):
    glide_model = Text2ImUNet()
    if use_fp16:
        glide_model = glide_model.half()  # root-cause
    return glide_model


def train_step(glide_model, batch, num_timesteps=1000):
    tokens, reals = batch
    timesteps = torch.randint(0, num_timesteps - 1, (reals.shape[0],))
    noise = torch.randn_like(reals)
    alpha = (1 - timesteps.float() / num_timesteps).to(reals.dtype)[:, None, None, None]
    x_t = alpha.sqrt() * reals + (1 - alpha).sqrt() * noise
    epsilon = glide_model(x_t, timesteps, tokens)
    return F.mse_loss(epsilon, noise)


def run_glide_finetune_epoch(glide_model, optimizer, steps, use_fp16):
    dtype = torch.float16 if use_fp16 else torch.float32
    g = torch.Generator().manual_seed(0)
    for train_idx in range(steps):
        tokens = torch.randint(0, 20, (4, 8), generator=g)
        reals = (torch.rand(4, 3, 16, 16, generator=g) * 2 - 1).to(dtype)
        loss = train_step(glide_model, (tokens, reals))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
        print(f"step {train_idx} loss {loss.item():.4f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--learning_rate", type=float, default=1e-4)
    parser.add_argument("--adam_weight_decay", type=float, default=0.0)
    parser.add_argument("--use_fp16", type=bool, default=True)
    parser.add_argument("--steps", type=int, default=4)
    args = parser.parse_args()
    torch.manual_seed(0)
    glide_model = load_model(use_fp16=args.use_fp16)
    optimizer = torch.optim.AdamW([x for x in glide_model.parameters() if x.requires_grad],
                                  lr=args.learning_rate, weight_decay=args.adam_weight_decay)
    run_glide_finetune_epoch(glide_model, optimizer, args.steps, args.use_fp16)
