"""ESPCN-style super-resolution inference script (pytorch/examples super_resolve.py layout): --cuda defaults to True when a GPU is present and moves the restored network to the GPU, but the Y-channel input tensor built from the image is never moved, so on a GPU machine the first convolution gets a CPU input with CUDA weights
source: https://github.com/pytorch/examples/issues/599
reported-error: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same (super_resolve.py line 29, out = model(input))
outcome: cuda-only: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same (the Y-channel input stays on the CPU while the network is on cuda; wording varies with the torch version; not run on a GPU for this set) at line 27; on CPU: ok
root-cause: line 52
expect: DG009
"""
import argparse
import io

import numpy as np
import torch
import torch.nn as nn


# ---- model.py
class Net(nn.Module):
    def __init__(self, upscale_factor):
        super().__init__()
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 32, 5, padding=2)
        self.conv2 = nn.Conv2d(32, 16, 3, padding=1)
        self.conv3 = nn.Conv2d(16, upscale_factor ** 2, 3, padding=1)
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)

    def forward(self, x):
        x = self.relu(self.conv1(x))  # fails-here
        x = self.relu(self.conv2(x))
        return self.pixel_shuffle(self.conv3(x))


# ---- super_resolve.py
def rgb_to_y(img):
    return (0.299 * img[..., 0] + 0.587 * img[..., 1] + 0.114 * img[..., 2]).astype(np.float32) / 255.0


def main(argv):
    parser = argparse.ArgumentParser(description="PyTorch Super Res Example")
    parser.add_argument("--upscale_factor", type=int, default=3)
    parser.add_argument("--cuda", action="store_true", default=torch.cuda.is_available())
    opt = parser.parse_args(argv)

    trained = io.BytesIO()
    torch.save(Net(opt.upscale_factor).state_dict(), trained)
    trained.seek(0)
    model = Net(opt.upscale_factor)
    model.load_state_dict(torch.load(trained))
    if opt.cuda:
        model = model.cuda()

    img = np.random.default_rng(0).integers(0, 256, size=(24, 24, 3)).astype(np.uint8)
    input = torch.from_numpy(rgb_to_y(img)).view(1, 1, 24, 24)  # root-cause
    with torch.no_grad():
        out = model(input)
    out_y = out.cpu().clamp(0, 1)[0, 0].numpy()
    print("output image", out_y.shape, f"mean {out_y.mean():.3f}")


if __name__ == "__main__":
    main([])
