"""BasicSR StyleGAN2 inference: torch.load of a `params_ema` checkpoint that BasicSR always writes with CPU tensors
source: https://github.com/xinntao/BasicSR/blob/d21eac885b6de90a7adef7cc59e937dbdbb200b1/inference/inference_stylegan2.py#L63
false-alarm: DG010 at line 88: StyleGAN2Model.save calls BaseModel.save_network([net_g, net_g_ema], 'net_g', param_key=['params', 'params_ema']), which stores param.cpu() for every tensor (line 42 here), so the file holds only CPU storages and loads on a CPU-only machine without map_location
"""
# Reduction: StyleGAN2Generator is replaced by a small MLP generator, the EMA update and save_network
# are kept, and the image writing by a print. Training runs on the GPU when one is present.
import argparse
import copy
import os
import tempfile

import torch
from torch import nn


class StyleGAN2Generator(nn.Module):

    def __init__(self, out_size, num_style_feat=16, num_mlp=2):
        super(StyleGAN2Generator, self).__init__()
        layers = []
        for _ in range(num_mlp):
            layers += [nn.Linear(num_style_feat, num_style_feat), nn.LeakyReLU(0.2)]
        self.style_mlp = nn.Sequential(*layers)
        self.to_rgb = nn.Linear(num_style_feat, 3 * out_size * out_size)
        self.out_size = out_size

    def forward(self, styles):
        out = self.to_rgb(self.style_mlp(styles[0]))
        return out.view(-1, 3, self.out_size, self.out_size), None


def save_network(models_dir, net, net_label, current_iter, param_key='params'):
    save_path = os.path.join(models_dir, f'{net_label}_{current_iter}.pth')
    net = net if isinstance(net, list) else [net]
    param_key = param_key if isinstance(param_key, list) else [param_key]
    save_dict = {}
    for net_, param_key_ in zip(net, param_key):
        state_dict = net_.state_dict()
        for key, param in state_dict.items():
            if key.startswith('module.'):  # remove unnecessary 'module.'
                key = key[7:]
            state_dict[key] = param.cpu()
        save_dict[param_key_] = state_dict
    torch.save(save_dict, save_path)
    return save_path


def train(models_dir, size, latent):
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    net_g = StyleGAN2Generator(size, latent).to(device)
    net_g_ema = copy.deepcopy(net_g).eval()
    optimizer_g = torch.optim.Adam(net_g.parameters(), lr=2e-3, betas=(0., 0.99))
    for _ in range(2):
        fake_img, _ = net_g([torch.randn(2, latent, device=device)])
        l_g = nn.functional.softplus(-fake_img.mean())
        optimizer_g.zero_grad()
        l_g.backward()
        optimizer_g.step()
        with torch.no_grad():
            for p_ema, p in zip(net_g_ema.parameters(), net_g.parameters()):
                p_ema.mul_(0.999).add_(p, alpha=0.001)
    return save_network(models_dir, [net_g, net_g_ema], 'net_g', 2, param_key=['params', 'params_ema'])


def generate(args, g_ema, device):
    with torch.no_grad():
        g_ema.eval()
        sample_z = torch.randn(args.sample, args.latent, device=device)
        sample, _ = g_ema([sample_z])
        print('sample', tuple(sample.shape))


if __name__ == '__main__':
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')

    parser = argparse.ArgumentParser()
    parser.add_argument('--size', type=int, default=8)
    parser.add_argument('--sample', type=int, default=1)
    parser.add_argument('--ckpt', type=str, default=None)
    args = parser.parse_args()
    args.latent = 16

    with tempfile.TemporaryDirectory() as tmp:
        if args.ckpt is None:
            args.ckpt = train(tmp, args.size, args.latent)

        g_ema = StyleGAN2Generator(args.size, args.latent).to(device)
        checkpoint = torch.load(args.ckpt)['params_ema']

        g_ema.load_state_dict(checkpoint)
        generate(args, g_ema, device)
