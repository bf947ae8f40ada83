"""3D positional encoding (Summer) built in forward() with torch.zeros and no device, added to CUDA patch embeddings
source: https://github.com/tatp22/multidim-positional-encoding/issues/33
reported-error: the positional encoding is on device 'cpu' while the patch embedding is on 'cuda:0', so it can't be added in the Summer class
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! at line 54; on CPU: ok
root-cause: line 37
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn


def get_emb(sin_inp):
    emb = torch.stack((sin_inp.sin(), sin_inp.cos()), dim=-1)
    return torch.flatten(emb, -2, -1)


class PositionalEncoding3D(nn.Module):
    def __init__(self, channels):
        super(PositionalEncoding3D, self).__init__()
        self.org_channels = channels
        channels = int(np.ceil(channels / 6) * 2)
        if channels % 2:
            channels += 1
        self.channels = channels
        inv_freq = 1.0 / (10000 ** (torch.arange(0, channels, 2).float() / channels))
        self.register_buffer("inv_freq", inv_freq)

    def forward(self, tensor):
        batch_size, x, y, z, orig_ch = tensor.shape
        pos_x = torch.arange(x, device=tensor.device, dtype=self.inv_freq.dtype)
        pos_y = torch.arange(y, device=tensor.device, dtype=self.inv_freq.dtype)
        pos_z = torch.arange(z, device=tensor.device, dtype=self.inv_freq.dtype)
        emb_x = get_emb(torch.einsum("i,j->ij", pos_x, self.inv_freq)).unsqueeze(1).unsqueeze(1)
        emb_y = get_emb(torch.einsum("i,j->ij", pos_y, self.inv_freq)).unsqueeze(1)
        emb_z = get_emb(torch.einsum("i,j->ij", pos_z, self.inv_freq))
        emb = torch.zeros((x, y, z, self.channels * 3), dtype=tensor.dtype)  # root-cause
        emb[:, :, :, : self.channels] = emb_x
        emb[:, :, :, self.channels: 2 * self.channels] = emb_y
        emb[:, :, :, 2 * self.channels:] = emb_z
        return emb[None, :, :, :, :orig_ch].repeat(batch_size, 1, 1, 1, 1)


class Summer(nn.Module):
    def __init__(self, penc):
        """
        :param model: The type of positional encoding to run the summer on.
        """
        super(Summer, self).__init__()
        self.penc = penc

    def forward(self, tensor):
        penc = self.penc(tensor)
        return tensor + penc  # fails-here


class PatchEmbed3D(nn.Module):
    def __init__(self, in_ch=1, embed_dim=12, patch=2):
        super().__init__()
        self.proj = nn.Conv3d(in_ch, embed_dim, patch, stride=patch)
        self.pos = Summer(PositionalEncoding3D(embed_dim))
        self.head = nn.Linear(embed_dim, 2)

    def forward(self, x):
        p = self.proj(x).permute(0, 2, 3, 4, 1)  # (B, X, Y, Z, C)
        p = self.pos(p)
        return self.head(p.mean(dim=(1, 2, 3)))


if __name__ == "__main__":
    device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")
    model = PatchEmbed3D().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        x = torch.randn(8, 1, 8, 8, 8).to(device)
        y = torch.randint(0, 2, (8,)).to(device)
        loss = nn.functional.cross_entropy(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(epoch, loss.item())
    model.eval()
    with torch.no_grad():  # testing with batch size 1
        print(model(torch.randn(1, 1, 8, 8, 8).to(device)).shape)
