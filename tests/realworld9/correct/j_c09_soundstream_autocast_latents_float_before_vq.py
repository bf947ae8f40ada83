"""SoundStream-style codec whose encoder still runs under torch.autocast (bfloat16 on CPU), but the training step converts the latents back with .float() before the float32 residual vector quantizer and decoder that run outside the block
source: https://github.com/pytorch/pytorch/issues/79085
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn


class ResidualVQ(nn.Module):
    def __init__(self, dim=16, codebook_size=64, num_quantizers=4):
        super().__init__()
        self.project_in = nn.Linear(dim, dim)
        self.codebooks = nn.Parameter(torch.randn(num_quantizers, codebook_size, dim))

    def forward(self, z):
        z = self.project_in(z.transpose(1, 2))
        residual, quantized = z, torch.zeros_like(z)
        for cb in self.codebooks:
            q = cb[torch.cdist(residual, cb.expand(residual.shape[0], -1, -1)).argmin(-1)]
            quantized = quantized + q
            residual = residual - q.detach()
        return (z + (quantized - z).detach()).transpose(1, 2), ((quantized.detach() - z) ** 2).mean()


class SoundStreamXL(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv1d(1, 32, 7, stride=4, padding=3), nn.ELU(), nn.Conv1d(32, 16, 3, padding=1))
        self.quantizer = ResidualVQ()
        self.decoder = nn.Sequential(nn.ConvTranspose1d(16, 32, 4, stride=4), nn.ELU(), nn.Conv1d(32, 1, 7, padding=3))


def training_step(model, encoder_input):
    with torch.autocast("cpu", dtype=torch.bfloat16):
        latents = model.encoder(encoder_input)
    quantized, cb_loss = model.quantizer(latents.float())
    return ((model.decoder(quantized) - encoder_input) ** 2).mean() + cb_loss


torch.manual_seed(0)
model = SoundStreamXL()
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss = training_step(model, torch.randn(4, 1, 1024))
loss.backward()
opt.step()
print("loss", loss.item(), loss.dtype)
