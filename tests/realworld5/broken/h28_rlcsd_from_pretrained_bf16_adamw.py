"""RL fine-tuning loop where the policy is loaded with torch_dtype=torch.bfloat16 and optimised in place by a regular AdamW with a 1e-6 learning rate (no fp32 master weights)
source: https://github.com/THU-BPM/RLCSD/issues/2
reported-error: silent: question whether this is pure bf16 training without fp32 master weights (the model is loaded with torch_dtype=torch.bfloat16 and optimised with regular AdamW)
outcome: ok (silent: after 20 AdamW steps at lr=1e-6 only 0.4% of the bfloat16 lm_head weights changed (100% in float32); the updates applied at line 48 round away)
root-cause: line 38
expect: DG013
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=128, dim=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.block = nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim), nn.GELU())
        self.lm_head = nn.Linear(dim, vocab, bias=False)

    @classmethod
    def from_pretrained(cls, path, torch_dtype=torch.float32):
        torch.manual_seed(0)
        return cls().to(torch_dtype)

    def forward(self, ids):
        h = self.embed(ids)
        return self.lm_head(h + self.block(h))


def rollout_logprobs(model, ids):
    logits = model(ids[:, :-1]).float()
    return torch.gather(F.log_softmax(logits, -1), -1, ids[:, 1:].unsqueeze(-1)).squeeze(-1)


def main(cfg):
    train_model = TinyCausalLM.from_pretrained(cfg.model_path, torch_dtype=torch.bfloat16)  # root-cause
    optimizer = torch.optim.AdamW(train_model.parameters(), lr=cfg.lr, weight_decay=0.0)
    before = train_model.lm_head.weight.detach().clone()
    for step in range(cfg.steps):
        ids = torch.randint(0, 128, (4, 16))
        rewards = torch.randn(4, 1)
        logp = rollout_logprobs(train_model, ids)
        loss = -(rewards * logp).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    moved = (train_model.lm_head.weight != before).float().mean().item()
    print(f"loss {loss.item():.4f}; fraction of lm_head weights changed after {cfg.steps} steps: {moved:.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--model_path", default="Qwen/tiny")
    parser.add_argument("--lr", type=float, default=1e-6)
    parser.add_argument("--steps", type=int, default=20)
    main(parser.parse_args())
