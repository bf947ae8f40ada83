"""VAE fine-tuning that loads the released float16 checkpoints into float32 modules (load_state_dict copies them into the float32 parameters), runs the forward under fp16 autocast with torch.amp.GradScaler and AdamW over the float32 weights, and keeps a float32 EMA copy
source: https://github.com/microsoft/TRELLIS/issues/162
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import copy

import torch
import torch.nn as nn


def make_vae():
    return nn.ModuleDict({"encoder": nn.Sequential(nn.Linear(32, 64), nn.SiLU(), nn.Linear(64, 16)),
                          "decoder": nn.Sequential(nn.Linear(8, 64), nn.SiLU(), nn.Linear(64, 32))})


def release_checkpoint():
    torch.manual_seed(0)
    return {k: v.half() for k, v in make_vae().state_dict().items()}


class Trainer:
    def __init__(self, lr=1e-4):
        self.vae = make_vae()
        self.vae.load_state_dict(release_checkpoint())
        self.ema = copy.deepcopy(self.vae).requires_grad_(False)
        self.opt = torch.optim.AdamW(self.vae.parameters(), lr=lr)
        self.scaler = torch.amp.GradScaler("cpu")

    def train_step(self, feats):
        with torch.autocast("cpu", dtype=torch.float16):
            mean, logvar = self.vae["encoder"](feats).chunk(2, dim=-1)
            z = mean + torch.randn_like(mean) * (0.5 * logvar).exp()
            recon = self.vae["decoder"](z)
        loss = (recon.float() - feats).pow(2).mean()
        self.opt.zero_grad()
        self.scaler.scale(loss).backward()
        self.scaler.step(self.opt)
        self.scaler.update()
        with torch.no_grad():
            for e, p in zip(self.ema.parameters(), self.vae.parameters()):
                e.lerp_(p, 0.01)
        return loss.item()


if __name__ == "__main__":
    trainer = Trainer()
    for step in range(4):
        loss = trainer.train_step(0.01 * torch.randn(16, 32))
        finite = all(bool(torch.isfinite(p).all()) for p in trainer.vae.parameters())
        print(f"step {step}: loss {loss:.6f}, params finite {finite}, dtype {next(trainer.vae.parameters()).dtype}")
