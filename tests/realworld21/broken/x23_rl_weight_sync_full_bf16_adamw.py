"""RL fine-tuning loop that ships weight deltas from the trainer to a rollout worker: to halve memory the policy is kept entirely in bfloat16 and optimised with plain AdamW at a small learning rate, so most per-step updates are below half a bf16 ULP of the weight and round back to the same value; the delta sync reports that only a minority of weights ever changed
source: https://aminedirohf-delta-weight-sync-bf16-ulp.static.hf.space/index.html
reported-error: bf16 has 7 mantissa bits: when the Adam update is smaller than the spacing around |w|, the post-step weight rounds back to the same value (delta weight sync, bf16 ULP)
outcome: ok (silent: after 30 AdamW steps applied at line 54 only a minority of the bfloat16 weights changed at all, printed as "weights changed: N/M" with N < M/2)
root-cause: line 25
expect: DG013
"""
import argparse

import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self, obs=32, hidden=128, actions=6):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(obs, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, actions))

    def forward(self, obs):
        return torch.distributions.Categorical(logits=self.net(obs).float())


def build_policy(dtype):
    policy = Policy()
    return policy.to(dtype)  # root-cause


def delta_sync(before, model):
    changed = total = 0
    for name, p in model.named_parameters():
        changed += int((p.detach() != before[name]).sum())
        total += p.numel()
    return changed, total


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--dtype", default="bf16", choices=["bf16", "fp32"])
    ap.add_argument("--lr", type=float, default=1e-5)
    args = ap.parse_args(argv)
    dtype = torch.bfloat16 if args.dtype == "bf16" else torch.float32
    torch.manual_seed(0)
    policy = build_policy(dtype)
    optimizer = torch.optim.AdamW(policy.parameters(), lr=args.lr, weight_decay=0.0)
    before = {n: p.detach().clone() for n, p in policy.named_parameters()}
    for step in range(30):
        obs = torch.randn(64, 32).to(dtype)
        dist = policy(obs)
        actions = dist.sample()
        advantages = torch.randn(64)
        loss = -(dist.log_prob(actions) * advantages).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    changed, total = delta_sync(before, policy)
    print(f"weights changed: {changed}/{total}")


if __name__ == "__main__":
    main([])
