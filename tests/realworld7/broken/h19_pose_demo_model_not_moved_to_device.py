"""Hourglass pose-estimation demo run with --device cuda: the image batch is sent to the device but the network built from the checkpoint never is
source: https://github.com/yuanyuanli85/Fast_Human_Pose_Estimation_Pytorch/issues/7
reported-error: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same
outcome: cuda-only: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.FloatTensor) should be the same (not run on a GPU here; the exact wording varies with the torch version) at line 54; on CPU: ok
root-cause: line 50
expect: DG009
"""
import argparse

import numpy as np
import torch
import torch.nn as nn


class Residual(nn.Module):
    def __init__(self, ch):
        super().__init__()
        self.body = nn.Sequential(nn.BatchNorm2d(ch), nn.ReLU(), nn.Conv2d(ch, ch, 3, padding=1))

    def forward(self, x):
        return x + self.body(x)


class HourglassNet(nn.Module):
    def __init__(self, num_stacks=2, num_blocks=1, num_classes=16, ch=32, mobile=True):
        super().__init__()
        self.pre = nn.Sequential(nn.Conv2d(3, ch, 7, stride=2, padding=3), nn.ReLU())
        self.stacks = nn.ModuleList(nn.Sequential(*[Residual(ch) for _ in range(num_blocks)]) for _ in range(num_stacks))
        self.heads = nn.ModuleList(nn.Conv2d(ch, num_classes, 1) for _ in range(num_stacks))

    def forward(self, x):
        x = self.pre(x)
        out = []
        for stack, head in zip(self.stacks, self.heads):
            x = stack(x)
            out.append(head(x))
        return out


def hg(**kwargs):
    return HourglassNet(num_stacks=kwargs["num_stacks"], num_blocks=kwargs["num_blocks"], num_classes=kwargs["num_classes"], mobile=kwargs["mobile"])


def load_image(in_res):
    img = np.random.default_rng(0).random((in_res, in_res, 3)).astype(np.float32)
    return torch.from_numpy(img.transpose(2, 0, 1))


def main(args):
    model = hg(num_stacks=args.stacks, num_blocks=args.blocks, num_classes=16, mobile=args.mobile)  # root-cause
    model.eval()
    inp = load_image(args.in_res).unsqueeze(0).to(args.device)
    with torch.no_grad():
        out = model(inp)  # fails-here
    heatmap = out[-1][0].cpu().numpy()
    joints = [np.unravel_index(h.argmax(), h.shape) for h in heatmap]
    print("predicted joints:", joints[:4])


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="MPII demo")
    parser.add_argument("-a", "--arch", default="hg")
    parser.add_argument("-s", "--stacks", default=2, type=int)
    parser.add_argument("-b", "--blocks", default=1, type=int)
    parser.add_argument("--in_res", default=64, type=int)
    parser.add_argument("--mobile", default=True, type=bool)
    parser.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu", type=str)
    main(parser.parse_args())
