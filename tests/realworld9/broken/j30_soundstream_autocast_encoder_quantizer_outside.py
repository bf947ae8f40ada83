"""SoundStream-style codec: the training step runs only the encoder under torch.autocast (bfloat16 on CPU here), stores its output, and the residual vector quantizer and decoder run after the with block in float32, receiving the bfloat16 latents
source: https://github.com/pytorch/pytorch/issues/79085
reported-error: type mismatch errors in an autocast-enabled region: part of the model is converted to float16 by autocast but the ResidualVQ part is not
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: c10::BFloat16 != float at line 28
root-cause: line 50
expect: DG017
"""
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, n_io_channels=1, latent_dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Conv1d(n_io_channels, 32, 7, stride=4, padding=3), nn.ELU(), nn.Conv1d(32, latent_dim, 3, padding=1))

    def forward(self, x):
        return self.net(x)


class ResidualVQ(nn.Module):
    def __init__(self, dim=16, codebook_size=64, num_quantizers=4):
        super().__init__()
        self.project_in = nn.Linear(dim, dim)
        self.codebooks = nn.Parameter(torch.randn(num_quantizers, codebook_size, dim))

    def forward(self, z):
        z = self.project_in(z.transpose(1, 2))  # fails-here
        residual, quantized, indices = z, torch.zeros_like(z), []
        for cb in self.codebooks:
            idx = torch.cdist(residual, cb.expand(residual.shape[0], -1, -1)).argmin(-1)
            q = cb[idx]
            quantized = quantized + q
            residual = residual - q.detach()
            indices.append(idx)
        commit = ((quantized.detach() - z) ** 2).mean()
        return (z + (quantized - z).detach()).transpose(1, 2), torch.stack(indices, -1), commit


class SoundStreamXL(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.quantizer = ResidualVQ()
        self.decoder = nn.Sequential(nn.ConvTranspose1d(16, 32, 4, stride=4), nn.ELU(), nn.Conv1d(32, 1, 7, padding=3))


def training_step(model, encoder_input, use_amp=True):
    with torch.autocast("cpu", dtype=torch.bfloat16, enabled=use_amp):
        latents = model.encoder(encoder_input)  # root-cause
    quantized, indices, cb_loss = model.quantizer(latents)
    preds = model.decoder(quantized)
    return ((preds - encoder_input) ** 2).mean() + cb_loss


if __name__ == "__main__":
    torch.manual_seed(0)
    model = SoundStreamXL()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    audio = torch.randn(4, 1, 1024)
    loss = training_step(model, audio)
    loss.backward()
    opt.step()
    print("loss", loss.item())
