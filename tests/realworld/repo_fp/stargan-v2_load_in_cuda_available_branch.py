"""StarGAN v2 loads its pretrained FAN and LPIPS weights without map_location only in the branch where CUDA is available

source: https://github.com/clovaai/stargan-v2/blob/875b70a150609e8a678ed8482562e7074cdce7e5/core/wing.py#L217
and https://github.com/clovaai/stargan-v2/blob/875b70a150609e8a678ed8482562e7074cdce7e5/metrics/lpips.py#L64
false-alarm: DG010 at line 34 and at line 65: each bare `torch.load(...)` sits in the
`if torch.cuda.is_available():` branch, and its `else:` loads the same file with
`map_location=torch.device('cpu')`. A CPU-only machine takes the else branch, so a CUDA-tagged checkpoint never
reaches the bare load; where the bare load runs, CUDA is there to restore the tensors on. (The repo's own
core/checkpoint.py#L41 uses the same branch and is not reported.) This reduction runs on the CPU (exit 0).
"""
# Reduction: FAN keeps its first conv only and LPIPS a single 1x1 conv; stand-ins for the downloaded files
# (wing.ckpt, lpips_weights.ckpt) are written into a temporary folder, from the GPU where there is one. Files
# with CUDA-tagged tensors (emulated on torch 2.13+cpu by patching torch.serialization.location_tag during
# write_stand_in_weights) also load here on the CPU, through the else branches. The original LPIPS also keeps an
# ImageNet mean/std that it puts on CUDA with `.cuda()`; it is dropped here, so the script runs on a CPU-only machine.
import os
import tempfile

import torch
import torch.nn as nn


class FAN(nn.Module):
    def __init__(self, num_landmarks=98, fname_pretrained=None):
        super(FAN, self).__init__()
        self.conv1 = nn.Conv2d(3, 8, 7, 2, 3)
        self.l0 = nn.Conv2d(8, num_landmarks + 1, 1, 1, 0)

        if fname_pretrained is not None:
            self.load_pretrained_weights(fname_pretrained)

    def load_pretrained_weights(self, fname):
        if torch.cuda.is_available():
            checkpoint = torch.load(fname)
        else:
            checkpoint = torch.load(fname, map_location=torch.device('cpu'))
        model_weights = self.state_dict()
        model_weights.update({k: v for k, v in checkpoint['state_dict'].items()
                              if k in model_weights})
        self.load_state_dict(model_weights)

    def forward(self, x):
        return self.l0(torch.relu(self.conv1(x)))


class FaceAligner():
    def __init__(self, fname_wing):
        self.device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
        self.fan = FAN(fname_pretrained=fname_wing).to(self.device).eval()

    def align(self, imgs):
        imgs = imgs.to(self.device)
        return self.fan(imgs)


class LPIPS(nn.Module):
    def __init__(self, fname):
        super().__init__()
        self.lpips_weights = nn.ModuleList([nn.Conv2d(3, 1, 1, 1, 0, bias=False)])
        self._load_lpips_weights(fname)

    def _load_lpips_weights(self, fname):
        own_state_dict = self.state_dict()
        if torch.cuda.is_available():
            state_dict = torch.load(fname)
        else:
            state_dict = torch.load(fname,
                                    map_location=torch.device('cpu'))
        for name, param in state_dict.items():
            if name in own_state_dict:
                own_state_dict[name].copy_(param)

    def forward(self, x, y):
        return torch.mean(self.lpips_weights[0]((x - y) ** 2))


@torch.no_grad()
def calculate_lpips_given_images(group_of_images, fname):
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    lpips = LPIPS(fname).eval().to(device)
    lpips_values = []
    for i in range(len(group_of_images) - 1):
        for j in range(i + 1, len(group_of_images)):
            lpips_values.append(lpips(group_of_images[i].to(device), group_of_images[j].to(device)))
    return torch.mean(torch.stack(lpips_values, dim=0)).item()


def write_stand_in_weights(folder):
    """Stands in for the downloaded wing.ckpt and lpips_weights.ckpt, saved from a GPU where there is one."""
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    wing_path = os.path.join(folder, 'wing.ckpt')
    lpips_path = os.path.join(folder, 'lpips_weights.ckpt')
    torch.save({'state_dict': FAN().to(device).state_dict()}, wing_path)
    conv = nn.Conv2d(3, 1, 1, 1, 0, bias=False).to(device)
    torch.save({'lpips_weights.0.weight': conv.weight.detach()}, lpips_path)
    return wing_path, lpips_path


if __name__ == '__main__':
    wing_path, lpips_path = write_stand_in_weights(tempfile.mkdtemp())
    aligner = FaceAligner(wing_path)
    print('heatmaps', tuple(aligner.align(torch.randn(2, 3, 32, 32)).shape))
    print('lpips', calculate_lpips_given_images([torch.randn(2, 3, 16, 16) for _ in range(3)], lpips_path))
