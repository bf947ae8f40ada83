"""Large-hole image inpainting with MAT's generate_image.py (stylegan2-ada-pytorch layout: --network/--dpath/--mpath/--resolution/--truncation-psi/--noise-mode/--outdir options, legacy.load_network_pkl(f)['G_ema'], a fresh Generator filled by copy_params_and_buffers, one inpainted output per image/mask pair), here picking its device with torch.cuda.is_available(): the released network pickle holds CUDA tensors and is loaded without map_location, so a machine without a GPU stops at the load
source: https://github.com/fenglinglwb/MAT/issues/11
reported-error: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. (python generate_image.py --network pretrained/CelebA-HQ.pkl --dpath test_sets/CelebA-HQ/images --mpath test_sets/CelebA-HQ/masks --outdir samples; maintainer: "Please check whether the GPU is available.")
outcome: RuntimeError: Attempting to deserialize object on a CUDA device but torch.cuda.is_available() is False. If you are running on a CPU-only machine, please use torch.load with map_location=torch.device('cpu') to map your storages to the CPU. at line 46
root-cause: line 46
expect: DG010
"""
import argparse
import glob
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.serialization as serialization


# ---- networks/mat.py (toy-size Generator: image + mask + latent -> inpainted image)
class Generator(nn.Module):
    def __init__(self, z_dim=512, c_dim=0, w_dim=512, img_resolution=512, img_channels=3):
        super().__init__()
        self.z_dim, self.c_dim, self.img_resolution = z_dim, c_dim, img_resolution
        self.mapping = nn.Sequential(nn.Linear(z_dim, w_dim), nn.LeakyReLU(0.2))
        self.synthesis = nn.Sequential(nn.Conv2d(img_channels + 1, 16, 3, padding=1), nn.LeakyReLU(0.2),
                                       nn.Conv2d(16, img_channels, 3, padding=1))
        self.style = nn.Linear(w_dim, 16)

    def forward(self, img, mask, z, c, truncation_psi=1, noise_mode='const'):
        ws = self.mapping(z) * truncation_psi
        x = self.synthesis[0](torch.cat([mask - 0.5, img * mask], dim=1))
        x = self.synthesis[1](x * (1 + self.style(ws)[:, :, None, None]))
        return img * mask + torch.tanh(self.synthesis[2](x)) * (1 - mask)


# ---- torch_utils/misc.py + legacy.py
def copy_params_and_buffers(src_module, dst_module, require_all=False):
    src_tensors = dict(src_module.named_parameters()) | dict(src_module.named_buffers())
    for name, tensor in list(dst_module.named_parameters()) + list(dst_module.named_buffers()):
        assert (name in src_tensors) or (not require_all)
        if name in src_tensors:
            tensor.copy_(src_tensors[name].detach()).requires_grad_(tensor.requires_grad)


def load_network_pkl(f):
    data = torch.load(f, weights_only=False)  # root-cause  # fails-here
    assert isinstance(data['G_ema'], torch.nn.Module)
    return data


def make_release(root):
    """The authors' CelebA-HQ.pkl: whole networks pickled from a CUDA training run; synthetic test set."""
    network_pkl = os.path.join(root, "CelebA-HQ.pkl")
    original = serialization.location_tag
    serialization.location_tag = lambda storage: "cuda:0"
    try:
        torch.save({"G_ema": Generator(img_resolution=64).eval(), "augment_pipe": None}, network_pkl)
    finally:
        serialization.location_tag = original
    rng = np.random.default_rng(240)
    for sub in ("images", "masks"):
        os.makedirs(os.path.join(root, sub))
    for i in range(3):
        np.save(os.path.join(root, "images", f"{i:05d}.npy"), rng.integers(0, 256, (64, 64, 3), dtype=np.uint8))
        np.save(os.path.join(root, "masks", f"{i:05d}.npy"), (rng.random((64, 64)) > 0.3).astype(np.uint8))
    return network_pkl


# ---- generate_image.py
def generate_images(network_pkl, dpath, mpath, resolution, truncation_psi, noise_mode, outdir):
    seed = 240
    img_list = sorted(glob.glob(dpath + '/*.npy'))
    mask_list = sorted(glob.glob(mpath + '/*.npy'))
    print(f'Loading networks from: {network_pkl}')
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    with open(network_pkl, 'rb') as f:
        G_saved = load_network_pkl(f)['G_ema'].to(device).eval().requires_grad_(False)
    net_res = 512 if resolution > 512 else resolution
    G = Generator(z_dim=512, c_dim=0, w_dim=512, img_resolution=net_res, img_channels=3).to(device).eval().requires_grad_(False)
    copy_params_and_buffers(G_saved, G, require_all=True)
    os.makedirs(outdir, exist_ok=True)
    label = torch.zeros([1, G.c_dim], device=device)
    with torch.no_grad():
        for i, (ipath, mpath_i) in enumerate(zip(img_list, mask_list)):
            image = torch.from_numpy(np.load(ipath).transpose(2, 0, 1)).float().to(device) / 127.5 - 1
            mask = torch.from_numpy(np.load(mpath_i)).float().to(device)[None]
            z = torch.from_numpy(np.random.RandomState(seed).randn(1, G.z_dim)).float().to(device)
            output = G(image[None], mask[None], z, label, truncation_psi=truncation_psi, noise_mode=noise_mode)
            output = (output.permute(0, 2, 3, 1) * 127.5 + 127.5).round().clamp(0, 255).to(torch.uint8)
            np.save(os.path.join(outdir, os.path.basename(ipath)), output[0].cpu().numpy())
            print(f'Prcessing: {os.path.basename(ipath)}')


if __name__ == "__main__":
    root = tempfile.mkdtemp()
    network_pkl = make_release(root)
    parser = argparse.ArgumentParser()
    parser.add_argument('--network', dest='network_pkl', required=True)
    parser.add_argument('--dpath', required=True)
    parser.add_argument('--mpath', default=None)
    parser.add_argument('--resolution', type=int, default=512)
    parser.add_argument('--truncation-psi', dest='truncation_psi', type=float, default=1)
    parser.add_argument('--noise-mode', dest='noise_mode', choices=['const', 'random', 'none'], default='const')
    parser.add_argument('--outdir', required=True)
    args = parser.parse_args(['--network', network_pkl, '--dpath', os.path.join(root, 'images'),
                              '--mpath', os.path.join(root, 'masks'), '--resolution', '64',
                              '--outdir', os.path.join(root, 'samples')])
    generate_images(**vars(args))
