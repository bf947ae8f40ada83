"""Self-supervised denoising test script: the tif stack is normalised in numpy (float64), cut into overlapping 3D patches by a test Dataset and fed to the trained Conv3d network
source: https://github.com/cabooster/SRDTrans/issues/16
reported-error: RuntimeError: Input type (double) and bias type (float) should be the same
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 58
root-cause: line 22
expect: DG004
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def read_tif_stack(shape=(16, 32, 32), seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(100, 4000, size=shape).astype(np.uint16)


def normalize_stack(noise_im, scale_factor=1):
    noise_im = noise_im.astype(np.float64) / scale_factor  # root-cause
    return (noise_im - noise_im.mean()) / noise_im.std()


class testset(Dataset):
    def __init__(self, name_list, coordinate_list, noise_img):
        self.name_list = name_list
        self.coordinate_list = coordinate_list
        self.noise_img = noise_img

    def __len__(self):
        return len(self.name_list)

    def __getitem__(self, index):
        c = self.coordinate_list[self.name_list[index]]
        patch = self.noise_img[c["init_s"] : c["end_s"], c["init_h"] : c["end_h"], c["init_w"] : c["end_w"]]
        return torch.from_numpy(np.expand_dims(patch, 0)), c


def test_preprocess(noise_img, patch_t=8, patch_xy=16, gap=8):
    names, coords = [], {}
    for z in range(0, noise_img.shape[0] - patch_t + 1, patch_t):
        for y in range(0, noise_img.shape[1] - patch_xy + 1, gap):
            for x in range(0, noise_img.shape[2] - patch_xy + 1, gap):
                name = f"{z}_{y}_{x}"
                names.append(name)
                coords[name] = {"init_s": z, "end_s": z + patch_t, "init_h": y, "end_h": y + patch_xy, "init_w": x, "end_w": x + patch_xy}
    return names, coords


class SRDTrans(nn.Module):
    def __init__(self, base=8):
        super().__init__()
        self.net = nn.Sequential(nn.Conv3d(1, base, 3, padding=1), nn.ReLU(), nn.Conv3d(base, 1, 3, padding=1))

    def forward(self, x):
        return self.net(x)  # fails-here


def test(opt):
    model = SRDTrans()
    model.eval()
    noise_img = normalize_stack(read_tif_stack(), opt.scale_factor)
    name_list, coordinate_list = test_preprocess(noise_img)
    loader = DataLoader(testset(name_list, coordinate_list, noise_img), batch_size=opt.batch_size, shuffle=False)
    denoised = np.zeros_like(noise_img, dtype=np.float32)
    with torch.no_grad():
        for noise_patch, coords in loader:
            out = model(noise_patch).cpu().numpy()
            for i in range(out.shape[0]):
                s, h, w = int(coords["init_s"][i]), int(coords["init_h"][i]), int(coords["init_w"][i])
                denoised[s : s + out.shape[2], h : h + out.shape[3], w : w + out.shape[4]] = out[i, 0]
    print("denoised stack", denoised.shape, float(denoised.std()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", type=int, default=2)
    parser.add_argument("--scale_factor", type=int, default=1)
    test(parser.parse_args())
