"""Structured-latent VAE fine-tuning Trainer that loads the released "_fp16" encoder/decoder checkpoints and keeps them in float16 with model.half() to match, then trains with torch.optim.AdamW(lr=1e-4) at the default eps=1e-8 (0 in float16); after the first optimizer step the parameters turn inf/NaN and every later loss is nan
source: https://github.com/microsoft/TRELLIS/issues/162
reported-error: nan in my own training scripts: after one network parameter update all the numbers became nan (fp16 pretrained encoder/decoder, AdamW lr=1e-4)
outcome: ok (silent: after the AdamW step at line 56 the float16 parameters become non-finite, printed as "step N: loss nan, non-finite params K" with K above 0)
root-cause: line 44
expect: DG012
"""
import torch
import torch.nn as nn


class SparseEncoder(nn.Module):
    def __init__(self, d=32, z=8):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d, 64), nn.SiLU(), nn.Linear(64, 2 * z))

    def forward(self, feats):
        mean, logvar = self.net(feats).chunk(2, dim=-1)
        return mean, logvar


class GaussianDecoder(nn.Module):
    def __init__(self, z=8, d=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(z, 64), nn.SiLU(), nn.Linear(64, d))

    def forward(self, z):
        return self.net(z)


def release_checkpoint():
    """Stand-in for the downloaded *_fp16 checkpoints: float16 state dicts."""
    torch.manual_seed(0)
    enc, dec = SparseEncoder(), GaussianDecoder()
    return ({k: v.half() for k, v in enc.state_dict().items()}, {k: v.half() for k, v in dec.state_dict().items()})


class Trainer:
    def __init__(self, lr=1.0e-4):
        enc_sd, dec_sd = release_checkpoint()
        self.encoder, self.decoder_gs = SparseEncoder().half(), GaussianDecoder().half()
        self.encoder.load_state_dict(enc_sd)
        self.decoder_gs.load_state_dict(dec_sd)
        self.optimizer = torch.optim.AdamW([  # root-cause
            {"params": self.encoder.parameters(), "lr": lr},
            {"params": self.decoder_gs.parameters(), "lr": lr},
        ])

    def train_step(self, feats):
        mean, logvar = self.encoder(feats)
        z = mean + torch.randn_like(mean) * (0.5 * logvar).exp()
        recon = self.decoder_gs(z)
        loss = (recon.float() - feats.float()).pow(2).mean() + 1e-3 * (mean.float() ** 2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()  # fails-here
        return loss.item()

    def non_finite(self):
        params = list(self.encoder.parameters()) + list(self.decoder_gs.parameters())
        return sum(int((~torch.isfinite(p)).sum()) for p in params)

    def fit(self, steps=4):
        for step in range(steps):
            feats = (0.01 * torch.randn(16, 32)).half()
            loss = self.train_step(feats)
            print(f"step {step}: loss {loss:.6f}, non-finite params {self.non_finite()}")


def main():
    Trainer().fit()


if __name__ == "__main__":
    main()
