import torch
import torch.nn as nn

from taming.util import load_state


class VectorQuantizer(nn.Module):
    def __init__(self, n_e, e_dim, beta=0.25):
        super().__init__()
        self.beta = beta
        self.embedding = nn.Embedding(n_e, e_dim)
        self.embedding.weight.data.uniform_(-1.0 / n_e, 1.0 / n_e)

    def forward(self, z):
        z_flat = z.permute(0, 2, 3, 1).reshape(-1, z.shape[1])
        idx = torch.cdist(z_flat, self.embedding.weight).argmin(1)
        z_q = self.embedding(idx).view(z.shape[0], z.shape[2], z.shape[3], -1).permute(0, 3, 1, 2)
        loss = self.beta * ((z_q.detach() - z) ** 2).mean() + ((z_q - z.detach()) ** 2).mean()
        return z + (z_q - z).detach(), loss


class VQModel(nn.Module):
    def __init__(self, embed_dim, n_embed, ch, ckpt_path=None, ignore_keys=()):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(3, ch, 3, 2, 1), nn.SiLU(), nn.Conv2d(ch, ch, 3, 1, 1))
        self.decoder = nn.Sequential(nn.ConvTranspose2d(ch, ch, 4, 2, 1), nn.SiLU(), nn.Conv2d(ch, 3, 3, 1, 1))
        self.quantize = VectorQuantizer(n_embed, embed_dim)
        self.quant_conv = nn.Conv2d(ch, embed_dim, 1)
        self.post_quant_conv = nn.Conv2d(embed_dim, ch, 1)
        if ckpt_path is not None:
            self.init_from_ckpt(ckpt_path, ignore_keys=ignore_keys)

    def init_from_ckpt(self, path, ignore_keys=()):
        sd = load_state(path)["state_dict"]  # root-cause
        for k in list(sd.keys()):
            for ik in ignore_keys:
                if k.startswith(ik):
                    print("Deleting key {} from state_dict.".format(k))
                    del sd[k]
        self.load_state_dict(sd, strict=False)
        print(f"Restored from {path}")

    def forward(self, x):
        quant, qloss = self.quantize(self.quant_conv(self.encoder(x)))
        return self.decoder(self.post_quant_conv(quant)), qloss
