"""Soft-prompt optimisation against a text encoder loaded in float16: the prompt is cut from the model's embedding output, so it is float16 too, and plain Adam (eps=1e-8) updates it
source: https://github.com/matanbt/TROPT/pull/8
reported-error: silent: losses=[0.0089569091796875, nan, nan, nan]; the optimised prompt becomes +-inf (Adam state and eps in fp16)
outcome: ok (silent: "step 0 loss" is finite, then "step 1 loss nan" and nan afterwards; the Adam update applied at line 35 divides by sqrt(v)+eps = 0 in float16)
root-cause: line 27
expect: DG012
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyEncoder(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.layer = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))

    def encode_embeds(self, embeds):
        return F.normalize(self.layer(embeds).mean(dim=1), dim=-1)


class SoftPromptOptimizer:
    def __init__(self, model, n_prompt_tokens=4, lr=1e-3, init_token_id=5):
        self.model = model
        init_ids = torch.full((1, n_prompt_tokens), init_token_id)
        self.soft_prompt = model.embeddings(init_ids).detach().clone().requires_grad_(True)  # root-cause
        self.optimizer = torch.optim.Adam([self.soft_prompt], lr=lr)

    def step(self, passage_emb):
        self.optimizer.zero_grad()
        sim = (self.model.encode_embeds(self.soft_prompt) * passage_emb).sum()
        loss = (1 - sim) * 1e-2
        loss.backward()
        self.optimizer.step()  # fails-here
        return loss.item()


torch.manual_seed(0)
model = TinyEncoder().to(torch.float16)
for p in model.parameters():
    p.requires_grad_(False)
passage_emb = F.normalize(torch.randn(1, 32), dim=-1).to(torch.float16)
opt = SoftPromptOptimizer(model)
for step in range(4):
    print(f"step {step} loss {opt.step(passage_emb)}")
print("prompt finite:", bool(torch.isfinite(opt.soft_prompt).all()))
