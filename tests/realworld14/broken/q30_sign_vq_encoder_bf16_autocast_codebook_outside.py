"""Sign-language pose VQ model: the LightningModule-like training_step runs the transformer encoder under torch.autocast("cpu", dtype=torch.bfloat16) and then calls the float32 quantizer projection outside the with block, on the bfloat16 encoder output
source: https://github.com/Lightning-AI/pytorch-lightning/issues/19980
reported-error: autocast to float16/bfloat16 fails on transformer encoder (dtype mismatch after the autocast region)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 25
root-cause: line 38
expect: DG017
"""
import torch
import torch.nn as nn


class PoseVQ(nn.Module):
    def __init__(self, n_joints=25, dim=32, codebook=64):
        super().__init__()
        self.inp = nn.Linear(n_joints * 3, dim)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True), 2)
        self.pre_quant = nn.Linear(dim, dim)
        self.codebook = nn.Embedding(codebook, dim)
        self.out = nn.Linear(dim, n_joints * 3)

    def encode(self, poses):
        return self.encoder(self.inp(poses.flatten(2)))

    def quantize(self, z):
        z = self.pre_quant(z)  # fails-here
        d = (z.unsqueeze(-2) - self.codebook.weight).pow(2).sum(-1)
        q = self.codebook(d.argmin(-1))
        return z + (q - z).detach(), (q - z.detach()).pow(2).mean()


class LitPoseVQ:
    def __init__(self):
        self.model = PoseVQ()
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=3e-4)

    def training_step(self, poses):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            z = self.model.encode(poses)  # root-cause
        zq, commit = self.model.quantize(z)
        recon = self.model.out(zq).view_as(poses)
        return nn.functional.mse_loss(recon, poses) + 0.25 * commit

    def fit(self, batches):
        for poses in batches:
            loss = self.training_step(poses)
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return loss.item()


batches = (torch.randn(4, 30, 25, 3) for _ in range(3))
print("loss", LitPoseVQ().fit(batches))
