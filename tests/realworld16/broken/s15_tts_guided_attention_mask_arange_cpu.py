"""Tacotron-style guided-attention loss: _make_ga_mask() builds its grid with torch.meshgrid(torch.arange(olen), torch.arange(ilen)) on the CPU while ilen/olen come from CUDA length tensors, and the Gaussian penalty mixes both devices
source: https://github.com/mozilla/TTS/issues/473
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the arange grid stays on the CPU; not run on a GPU here) at line 27; on CPU: ok
root-cause: line 26
expect: DG009
"""
import torch
import torch.nn as nn


class GuidedAttentionLoss(nn.Module):
    def __init__(self, sigma=0.4):
        super().__init__()
        self.sigma = sigma

    def _make_ga_masks(self, ilens, olens):
        B = len(ilens)
        masks = torch.zeros(B, int(olens.max()), int(ilens.max()), device=ilens.device)
        for i, (ilen, olen) in enumerate(zip(ilens, olens)):
            masks[i, :olen, :ilen] = self._make_ga_mask(ilen, olen, self.sigma)
        return masks

    @staticmethod
    def _make_ga_mask(ilen, olen, sigma):
        grid_x, grid_y = torch.meshgrid(torch.arange(int(olen)), torch.arange(int(ilen)), indexing="ij")  # root-cause
        return 1.0 - torch.exp(-((grid_y / ilen - grid_x / olen) ** 2) / (2 * (sigma ** 2)))  # fails-here

    def forward(self, att_ws, ilens, olens):
        masks = self._make_ga_masks(ilens, olens)
        return (att_ws * masks).mean()


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
ilens = torch.tensor([12, 9, 7], device=device)
olens = torch.tensor([30, 25, 20], device=device)
att_ws = torch.softmax(torch.randn(3, 30, 12, device=device, requires_grad=True), dim=-1)
loss = GuidedAttentionLoss()(att_ws, ilens, olens)
loss.backward()
print("ga loss", round(loss.item(), 4))
