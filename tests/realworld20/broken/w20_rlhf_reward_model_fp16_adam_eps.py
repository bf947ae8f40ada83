"""RLHF reward-model training on preference pairs: the language-model backbone is loaded "in torch.float16 to save memory" and trained with torch.optim.Adam's default eps=1e-8, which rounds to 0 in float16, so parameters whose gradient is zero (unused token rows) are updated with 0/0 and turn NaN after the first step
source: https://github.com/CambioML/pykoi/pull/69
reported-error: Fix the issue of parameters updated as nan during reward model training: the language model is loaded in torch.float16 and Adam adds epsilon to avoid a zero denominator; float16 rounds any number smaller than 6e-8 to 0
outcome: ok (silent: the Adam step applied at line 48 writes NaN into the float16 parameters; "step 0" has a finite loss, then "step 1: loss nan, nan params" with a positive count)
root-cause: line 41
expect: DG012
"""
import argparse

import torch
import torch.nn as nn


class RewardModel(nn.Module):
    def __init__(self, vocab=500, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True)
        self.value_head = nn.Linear(dim, 1)

    def forward(self, ids):
        h, _ = self.encoder(self.emb(ids))
        return self.value_head(h[:, -1]).squeeze(-1)


def load_reward_model(torch_dtype):
    model = RewardModel()
    return model.to(torch_dtype)


def preference_pairs(n=16, length=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    chosen = torch.randint(0, 100, (n, length), generator=g)
    rejected = torch.randint(100, 200, (n, length), generator=g)
    return chosen, rejected


class RewardTrainer:
    def __init__(self, model, lr):
        self.model = model
        self.optimizer = torch.optim.Adam(model.parameters(), lr=lr)  # root-cause

    def train_step(self, chosen, rejected):
        r_c, r_r = self.model(chosen), self.model(rejected)
        loss = -nn.functional.logsigmoid((r_c - r_r).float()).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()  # fails-here
        return loss.item()


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--lr", type=float, default=1e-4)
    args = p.parse_args([])
    torch.manual_seed(0)
    trainer = RewardTrainer(load_reward_model(torch.float16), args.lr)
    chosen, rejected = preference_pairs()
    for step in range(3):
        loss = trainer.train_step(chosen, rejected)
        bad = sum(int(torch.isnan(p).sum()) for p in trainer.model.parameters())
        print(f"step {step}: loss {loss:.4f}, nan params {bad}")


if __name__ == "__main__":
    main()
