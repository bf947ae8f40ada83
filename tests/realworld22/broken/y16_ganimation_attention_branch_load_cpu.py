"""GANimation-style facial expression animation on a CPU-only laptop: the generator weights are loaded with map_location='cpu' as the README suggests, but the helper that restores the separately saved attention/colour-mask branch still calls torch.load without map_location, so the GPU-trained checkpoint keeps asking for CUDA
source: https://github.com/vipermu/ganimation/issues/13
reported-error: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False ... Even after changing the map_location to 'cpu' the problem still persists and ask for a GPU.
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 48
root-cause: line 48
expect: DG010
"""
import os
import tempfile

import torch
import torch.nn as nn
import torch.serialization as serialization

CKPT_DIR = tempfile.mkdtemp()


# ---- models/generator.py
class Generator(nn.Module):
    def __init__(self, n_aus=17, ch=16):
        super().__init__()
        self.body = nn.Sequential(nn.Conv2d(3 + n_aus, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU())
        self.color = nn.Conv2d(ch, 3, 3, padding=1)

    def forward(self, img, aus):
        au_map = aus[:, :, None, None].expand(-1, -1, img.shape[2], img.shape[3])
        return self.body(torch.cat([img, au_map], 1))


class AttentionBranch(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.conv = nn.Conv2d(ch, 1, 3, padding=1)

    def forward(self, feats):
        return torch.sigmoid(self.conv(feats))


# ---- utils/checkpoints.py
def load_generator(path):
    g = Generator()
    g.load_state_dict(torch.load(path, map_location="cpu"))
    return g


def load_attention(path):
    a = AttentionBranch()
    a.load_state_dict(torch.load(path))  # root-cause  # fails-here
    return a


def publish_gpu_checkpoints():
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save(Generator().state_dict(), os.path.join(CKPT_DIR, "eric_andre_G.pth"))
        torch.save(AttentionBranch().state_dict(), os.path.join(CKPT_DIR, "eric_andre_A.pth"))
    finally:
        serialization.location_tag = original


# ---- animate.py
def animate(img, au_sequence):
    G = load_generator(os.path.join(CKPT_DIR, "eric_andre_G.pth")).eval()
    A = load_attention(os.path.join(CKPT_DIR, "eric_andre_A.pth")).eval()
    frames = []
    with torch.no_grad():
        for aus in au_sequence:
            feats = G(img, aus)
            mask = A(feats)
            frames.append(mask * img + (1 - mask) * torch.tanh(G.color(feats)))
    return torch.stack(frames, 1)


if __name__ == "__main__":
    torch.manual_seed(0)
    publish_gpu_checkpoints()
    face = torch.rand(1, 3, 32, 32)
    aus = [torch.rand(1, 17) * t / 4 for t in range(5)]
    video = animate(face, aus)
    print("animation frames:", tuple(video.shape))
