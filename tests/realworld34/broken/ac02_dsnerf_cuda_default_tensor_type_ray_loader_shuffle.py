"""Depth-supervised NeRF training (DSNeRF run_nerf.py layout: RayDataset over the precomputed rays, iter(DataLoader(RayDataset(rays_rgb), shuffle=True)) for colour rays and depth rays, next(raysRGB_iter).to(device) per step, torch.set_default_tensor_type('torch.cuda.FloatTensor') before train()): the global CUDA default makes RandomSampler's randperm run on CUDA with a CPU generator; on a CPU-only install the same call already raises TypeError
source: https://github.com/dunbar12138/DSNeRF/issues/3
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (run_nerf.py line 866, batch = next(raysRGB_iter).to(device), from sampler.py torch.randperm(n, generator=generator); pytorch 1.10.2)
outcome: TypeError: type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled. at line 97 (on a CUDA machine this line passes and the first next(raysRGB_iter) (line 79) raises RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'; not run on a GPU for this set)
root-cause: line 97
expect: DG003
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class RayDataset(Dataset):
    def __init__(self, ray_data):
        super(RayDataset, self).__init__()
        self.rayData = ray_data
        self.length = ray_data.shape[0]

    def __len__(self):
        return self.length

    def __getitem__(self, index):
        return torch.Tensor(self.rayData[index])


class NeRF(nn.Module):
    def __init__(self, D=4, W=64, input_ch=3):
        super(NeRF, self).__init__()
        self.pts_linears = nn.ModuleList([nn.Linear(input_ch, W)] + [nn.Linear(W, W) for _ in range(D - 1)])
        self.output_linear = nn.Linear(W, 4)

    def forward(self, x):
        h = x
        for layer in self.pts_linears:
            h = F.relu(layer(h))
        return self.output_linear(h)


def render(rays_o, rays_d, model, N_samples=16):
    z_vals = torch.linspace(2., 6., N_samples, device=rays_o.device).expand(rays_o.shape[0], N_samples)
    pts = rays_o[..., None, :] + rays_d[..., None, :] * z_vals[..., :, None]
    raw = model(pts)
    alpha = 1. - torch.exp(-F.relu(raw[..., 3]) * 0.25)
    weights = alpha * torch.cumprod(torch.cat([torch.ones_like(alpha[:, :1]), 1. - alpha + 1e-10], -1), -1)[:, :-1]
    rgb_map = torch.sum(weights[..., None] * torch.sigmoid(raw[..., :3]), -2)
    depth_map = torch.sum(weights * z_vals, -1)
    return rgb_map, depth_map


def config_parser():
    parser = argparse.ArgumentParser()
    parser.add_argument("--N_rgb", type=int, default=512)
    parser.add_argument("--N_depth", type=int, default=128)
    parser.add_argument("--N_iters", type=int, default=10)
    parser.add_argument("--depth_lambda", type=float, default=0.1)
    parser.add_argument("--lrate", type=float, default=5e-4)
    return parser


def train():
    args = config_parser().parse_args([])
    rng = np.random.default_rng(0)
    rays_rgb = rng.random((4096, 3, 3)).astype(np.float32)    # [N, ro+rd+rgb, 3]
    rays_depth = rng.random((2048, 3, 3)).astype(np.float32)  # [N, ro+rd+(depth,weight,0), 3]
    model = NeRF().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=args.lrate, betas=(0.9, 0.999))

    raysRGB_iter = iter(DataLoader(RayDataset(rays_rgb), batch_size=args.N_rgb, shuffle=True, num_workers=0))
    raysDepth_iter = iter(DataLoader(RayDataset(rays_depth), batch_size=args.N_depth, shuffle=True, num_workers=0))

    for i in range(args.N_iters):
        try:
            batch = next(raysRGB_iter).to(device)
        except StopIteration:
            raysRGB_iter = iter(DataLoader(RayDataset(rays_rgb), batch_size=args.N_rgb, shuffle=True, num_workers=0))
            batch = next(raysRGB_iter).to(device)
        batch_rays, target_s = batch[:, :2].transpose(0, 1), batch[:, 2]
        batch_depth = next(raysDepth_iter).to(device)
        rgb, _ = render(batch_rays[0], batch_rays[1], model)
        _, depth = render(batch_depth[:, 0], batch_depth[:, 1], model)
        img_loss = torch.mean((rgb - target_s) ** 2)
        depth_loss = torch.mean(((depth - batch_depth[:, 2, 0]) ** 2) * batch_depth[:, 2, 1])
        loss = img_loss + args.depth_lambda * depth_loss
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"[TRAIN] Iter: {i} Loss: {loss.item():.5f}")


if __name__ == '__main__':
    torch.set_default_tensor_type('torch.cuda.FloatTensor')  # root-cause  # fails-here
    train()
