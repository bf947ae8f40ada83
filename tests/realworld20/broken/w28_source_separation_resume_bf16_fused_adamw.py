"""Music source-separation trainer (Demucs-like waveform U-Net) resumed from a checkpoint with fused AdamW: resume() restores the model and optimizer state in float32, and only then does the --bf16 option cast the model to bfloat16, so the fused kernel gets bfloat16 params/grads with float32 exp_avg/exp_avg_sq
source: https://github.com/pytorch/pytorch/issues/110758
reported-error: Fused AdamW RuntimeError: params, grads, exp_avgs, and exp_avg_sqs must have same dtype, device, and layout
outcome: RuntimeError: expected scalar type BFloat16 but found Float at line 41
root-cause: line 55
expect: DG015
"""
import argparse
import io

import torch
import torch.nn as nn


class WaveUNet(nn.Module):
    def __init__(self, sources=2, ch=16):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(1, ch, 8, stride=4, padding=2), nn.GELU(), nn.Conv1d(ch, 2 * ch, 8, stride=4, padding=2), nn.GELU())
        self.dec = nn.Sequential(nn.ConvTranspose1d(2 * ch, ch, 8, stride=4, padding=2), nn.GELU(), nn.ConvTranspose1d(ch, sources, 8, stride=4, padding=2))

    def forward(self, mix):
        return self.dec(self.enc(mix))


class Solver:
    def __init__(self, args):
        self.model = WaveUNet()
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=3e-4, fused=True)
        self.args = args

    def batch(self, n=4, length=4096):
        sources = torch.randn(n, 2, length)
        return sources.sum(1, keepdim=True), sources

    def train_step(self):
        dtype = next(self.model.parameters()).dtype
        mix, sources = self.batch()
        loss = nn.functional.l1_loss(self.model(mix.to(dtype)).float(), sources)
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()  # fails-here
        return loss.item()

    def checkpoint(self):
        buf = io.BytesIO()
        torch.save({"state": self.model.state_dict(), "optimizer": self.optimizer.state_dict()}, buf)
        buf.seek(0)
        return buf

    def resume(self, buf):
        pkg = torch.load(buf)
        self.model.load_state_dict(pkg["state"])
        self.optimizer.load_state_dict(pkg["optimizer"])
        if self.args.bf16:
            self.model.to(torch.bfloat16)  # root-cause


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bf16", action="store_true", default=True)
    args = p.parse_args([])
    torch.manual_seed(0)
    first = Solver(args)
    first.train_step()
    solver = Solver(args)
    solver.resume(first.checkpoint())
    for epoch in range(2):
        print(f"epoch {epoch}: l1 {solver.train_step():.4f}")


if __name__ == "__main__":
    main()
