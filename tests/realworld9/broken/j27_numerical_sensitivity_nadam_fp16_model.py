"""Memory-saving experiment from the numerical-sensitivity write-up: the whole regression network is converted with .half() and trained with torch.optim.NAdam at its default eps=1e-8 (0 in float16); the run prints finite losses at first, then the parameters turn inf/NaN
source: https://www.abhik.ai/articles/numerical-sensitivity
reported-error: NaN loss after enabling FP16 training with NAdam (eps underflows in float16, sqrt(v) + eps becomes 0)
outcome: ok (silent: after the NAdam step at line 38 the float16 parameters become non-finite, printed as "step N: loss ..., non-finite params K" with K above 0 and the loss turning nan)
root-cause: line 25
expect: DG012
"""
import torch
import torch.nn as nn


class Config:
    hidden = 64
    lr = 1e-3
    steps = 6
    dtype = torch.float16


def make_model(cfg):
    model = nn.Sequential(nn.Linear(16, cfg.hidden), nn.Tanh(), nn.Linear(cfg.hidden, 1))
    return model.to(cfg.dtype)


def make_optimizer(cfg, model):
    return torch.optim.NAdam(model.parameters(), lr=cfg.lr)  # root-cause


def main(cfg=Config()):
    torch.manual_seed(0)
    model = make_model(cfg)
    optimizer = make_optimizer(cfg, model)
    x = torch.randn(64, 16).to(cfg.dtype)
    y = (x[:, :1] * 1e-3).to(cfg.dtype)
    for step in range(cfg.steps):
        loss = ((model(x) - y) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
        bad = sum(int((~torch.isfinite(p)).sum()) for p in model.parameters())
        print(f"step {step}: loss {loss.item():.6f}, non-finite params {bad}")


if __name__ == "__main__":
    main()
