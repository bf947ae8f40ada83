"""SCNN lane-detection demo modified for the GPU: the reporter moved the network with net.to(device) but the preprocessing helper still returns a CPU tensor built with torch.from_numpy, and net(x) runs on it
source: https://github.com/harryhan618/SCNN_Pytorch/issues/29
reported-error: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same (seg_pred, exist_pred = net(x)[:2])
outcome: cuda-only: RuntimeError: Input type (torch.FloatTensor) and weight type (torch.cuda.FloatTensor) should be the same (CPU image tensor into the CUDA backbone; exact wording varies with the torch version) at line 23; on CPU: ok
root-cause: line 29
expect: DG009
"""
import argparse

import numpy as np
import torch
import torch.nn as nn


class SCNN(nn.Module):
    def __init__(self, input_size=(288, 80)):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2, padding=1), nn.ReLU(), nn.Conv2d(8, 8, 3, stride=2, padding=1))
        self.seg = nn.Conv2d(8, 5, 1)
        self.exist = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 4), nn.Sigmoid())

    def forward(self, img):
        f = self.backbone(img)  # fails-here
        return self.seg(f), self.exist(f)


def preprocess(img, mean=(0.3598, 0.3653, 0.3662), std=(0.2573, 0.2663, 0.2756)):
    img = (img.astype(np.float32) / 255.0 - np.array(mean, dtype=np.float32)) / np.array(std, dtype=np.float32)
    return torch.from_numpy(img.transpose(2, 0, 1)).unsqueeze(0)  # root-cause


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--input", default="demo_frame")
    args = parser.parse_args([])
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    net = SCNN().to(device)
    net.eval()
    frame = np.random.default_rng(0).integers(0, 256, (80, 288, 3), dtype=np.uint8)
    x = preprocess(frame)
    with torch.no_grad():
        seg_pred, exist_pred = net(x)[:2]
    coord_mask = seg_pred[0].argmax(0).cpu().numpy()
    print(args.input, "lanes present:", (exist_pred[0] > 0.5).tolist(), "mask", coord_mask.shape)


if __name__ == "__main__":
    main()
