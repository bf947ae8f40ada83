"""Sign-language pose VQ model whose training_step runs encoder and quantizer projection inside the bfloat16 autocast block and casts the quantized latent with .float() before the float32 decoder outside it
source: https://github.com/Lightning-AI/pytorch-lightning/issues/19980
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
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

    def quantize(self, z):
        d = (z.unsqueeze(-2) - self.codebook.weight).pow(2).sum(-1)
        q = self.codebook(d.argmin(-1))
        return z + (q - z).detach(), (q - z.detach()).pow(2).mean()


model = PoseVQ()
opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
for _ in range(3):
    poses = torch.randn(4, 30, 25, 3)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        z = model.pre_quant(model.encoder(model.inp(poses.flatten(2))))
    zq, commit = model.quantize(z.float())
    loss = nn.functional.mse_loss(model.out(zq).view_as(poses), poses) + 0.25 * commit
    opt.zero_grad()
    loss.backward()
    opt.step()
print("loss", loss.item())
