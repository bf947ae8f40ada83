"""NeRF training script (nerf-pytorch run_nerf.py layout: configargparse options, get_embedder/NeRF/create_nerf, batched random rays, run at the bottom under __main__ after torch.set_default_tensor_type('torch.cuda.FloatTensor')): on a CPU-only PyTorch install the deprecated global CUDA tensor type cannot even be set, so the script dies before train() although every tensor already goes through `device`
source: https://github.com/yenchenlin/nerf-pytorch/issues/48
reported-error: TypeError: type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled. (run_nerf.py line 876, `python run_nerf.py --config configs/lego.txt`)
outcome: TypeError: type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled. at line 96
root-cause: line 96
expect: DG002
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
np.random.seed(0)


# ---- run_nerf_helpers.py
img2mse = lambda x, y: torch.mean((x - y) ** 2)


class Embedder:
    def __init__(self, multires):
        self.freq_bands = 2. ** torch.linspace(0., multires - 1, steps=multires)
        self.out_dim = 3 + 3 * 2 * multires

    def embed(self, inputs):
        outs = [inputs]
        for freq in self.freq_bands:
            outs += [torch.sin(inputs * freq), torch.cos(inputs * freq)]
        return torch.cat(outs, -1)


class NeRF(nn.Module):
    def __init__(self, D=4, W=64, input_ch=3, output_ch=4):
        super(NeRF, self).__init__()
        self.pts_linears = nn.ModuleList([nn.Linear(input_ch, W)] + [nn.Linear(W, W) for _ in range(D - 1)])
        self.output_linear = nn.Linear(W, output_ch)

    def forward(self, x):
        h = x
        for layer in self.pts_linears:
            h = F.relu(layer(h))
        return self.output_linear(h)


# ---- run_nerf.py
def create_nerf(args):
    embedder = Embedder(args.multires)
    model = NeRF(D=args.netdepth, W=args.netwidth, input_ch=embedder.out_dim).to(device)
    optimizer = torch.optim.Adam(params=model.parameters(), lr=args.lrate, betas=(0.9, 0.999))
    return embedder, model, optimizer


def render_rays(rays_o, rays_d, embedder, model, N_samples):
    t_vals = torch.linspace(2., 6., steps=N_samples, device=device)
    pts = rays_o[..., None, :] + rays_d[..., None, :] * t_vals[..., :, None]
    raw = model(embedder.embed(pts))
    rgb, sigma = torch.sigmoid(raw[..., :3]), F.relu(raw[..., 3])
    weights = 1. - torch.exp(-sigma * (6. - 2.) / N_samples)
    return torch.sum(weights[..., None] * rgb, -2)


def config_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", type=str, default="configs/lego.txt")
    parser.add_argument("--netdepth", type=int, default=4)
    parser.add_argument("--netwidth", type=int, default=64)
    parser.add_argument("--N_rand", type=int, default=256)
    parser.add_argument("--N_samples", type=int, default=16)
    parser.add_argument("--lrate", type=float, default=5e-4)
    parser.add_argument("--multires", type=int, default=6)
    parser.add_argument("--N_iters", type=int, default=20)
    return parser


def train():
    args = config_parser().parse_args([])
    embedder, model, optimizer = create_nerf(args)
    rays_rgb = np.random.rand(4096, 3, 3).astype(np.float32)  # [N, ro+rd+rgb, 3], stand-in for the lego views
    rays_rgb = torch.Tensor(rays_rgb).to(device)
    for i in range(args.N_iters):
        batch = rays_rgb[torch.randint(0, rays_rgb.shape[0], (args.N_rand,), device=device)]
        rays_o, rays_d, target_s = batch[:, 0], batch[:, 1], batch[:, 2]
        rgb = render_rays(rays_o, rays_d, embedder, model, args.N_samples)
        optimizer.zero_grad()
        loss = img2mse(rgb, target_s)
        loss.backward()
        optimizer.step()
        if i % 10 == 0:
            print(f"[TRAIN] Iter: {i} Loss: {loss.item():.5f}")


if __name__ == '__main__':
    torch.set_default_tensor_type('torch.cuda.FloatTensor')  # root-cause  # fails-here

    train()
