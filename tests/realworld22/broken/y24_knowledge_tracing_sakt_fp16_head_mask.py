"""Knowledge tracing with a self-attentive model (SAKT-style) trained under NVIDIA apex O2-style mixed precision, i.e. the model itself cast to half: the attention hides future interactions with attn_scores_head.masked_fill(head_mask == 0, -1e10), and in float16 that value cannot be represented
source: https://github.com/NVIDIA/apex/issues/1105
reported-error: RuntimeError: value cannot be converted to type at::Half without overflow: -1e+10 (attn_scores_head = attn_scores_head.masked_fill(head_mask == 0, -1e10) in a transformer attention mask under mixed precision)
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 36
root-cause: line 54
expect: DG018
"""
import math

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- models/sakt.py
class SAKT(nn.Module):
    def __init__(self, n_skills=20, dim=32, heads=4):
        super().__init__()
        self.interaction_emb = nn.Embedding(2 * n_skills, dim)
        self.exercise_emb = nn.Embedding(n_skills, dim)
        self.q, self.k, self.v = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.heads, self.dim = heads, dim
        self.out = nn.Linear(dim, 1)

    def forward(self, interactions, exercises):
        b, t = exercises.shape
        x, e = self.interaction_emb(interactions), self.exercise_emb(exercises)
        d = self.dim // self.heads
        q = self.q(e).view(b, t, self.heads, d).transpose(1, 2)
        k = self.k(x).view(b, t, self.heads, d).transpose(1, 2)
        v = self.v(x).view(b, t, self.heads, d).transpose(1, 2)
        head_mask = torch.tril(torch.ones(t, t, dtype=torch.long))
        attn_scores_head = q @ k.transpose(-1, -2) / math.sqrt(d)
        attn_scores_head = attn_scores_head.masked_fill(head_mask == 0, -1e10)  # fails-here
        ctx = (attn_scores_head.softmax(-1) @ v).transpose(1, 2).reshape(b, t, -1)
        return self.out(ctx).squeeze(-1)


# ---- data.py
def load_responses(n_students=16, seq_len=12, n_skills=20, seed=0):
    rng = np.random.default_rng(seed)
    df = pd.DataFrame({"student": np.repeat(np.arange(n_students), seq_len),
                       "skill": rng.integers(0, n_skills, n_students * seq_len),
                       "correct": rng.integers(0, 2, n_students * seq_len)})
    skills = torch.from_numpy(df["skill"].to_numpy().reshape(n_students, seq_len))
    correct = torch.from_numpy(df["correct"].to_numpy().reshape(n_students, seq_len))
    return skills, correct


def amp_initialize(model, opt_level="O2"):
    if opt_level in ("O2", "O3"):
        model = model.half()  # root-cause
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    skills, correct = load_responses()
    model = amp_initialize(SAKT())
    model.eval()
    interactions = skills[:, :-1] + 20 * correct[:, :-1]
    with torch.no_grad():
        logits = model(interactions, skills[:, 1:])
        loss = F.binary_cross_entropy_with_logits(logits.float(), correct[:, 1:].float())
    print(f"next-answer BCE {loss.item():.4f}")
