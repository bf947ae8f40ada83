"""Hyperspectral classifier (DeepHyperX-style): the model is sent to the GPU, but the sliding-window patches built in test() from the NumPy image are never moved
source: https://github.com/nshaud/DeepHyperX/issues/54
reported-error: RuntimeError: expected tensor for argument #1 'input' to have the same device as tensor for argument #2 'weight'
outcome: cuda-only: NotImplementedError: Could not run 'aten::slow_conv3d_forward' with arguments from the 'CUDA' backend (a CPU input to a CUDA Conv3d, torch 2.11 on an H200; the reporter's torch worded it: expected tensor for argument #1 'input' to have the same device as tensor for argument #2 'weight') at line 24; on CPU: ok
root-cause: line 52
expect: DG009
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class HamidaEtAl(nn.Module):
    def __init__(self, input_channels, n_classes, patch_size=5):
        super().__init__()
        self.conv1 = nn.Conv3d(1, 8, (3, 3, 3), padding=1)
        self.pool = nn.AdaptiveAvgPool3d(1)
        self.fc = nn.Linear(8, n_classes)

    def forward(self, x):
        x = F.relu(self.conv1(x))  # fails-here
        return self.fc(self.pool(x).flatten(1))


def sliding_window(img, patch_size, step=4):
    h, w = img.shape[:2]
    for x in range(0, h - patch_size + 1, step):
        for y in range(0, w - patch_size + 1, step):
            yield img[x:x + patch_size, y:y + patch_size], x, y


def train(net, data, target, device, epochs=2):
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    for e in range(epochs):
        data_d, target_d = data.to(device), target.to(device)
        loss = F.cross_entropy(net(data_d), target_d)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print("epoch", e, loss.item())


def test(net, img, hyperparams):
    patch_size = hyperparams["patch_size"]
    probs = np.zeros(img.shape[:2] + (hyperparams["n_classes"],))
    net.eval()
    with torch.no_grad():
        for patch, x, y in sliding_window(img, patch_size):
            data = torch.from_numpy(patch.transpose(2, 0, 1)[None, None].astype("float32"))  # root-cause
            output = net(data)
            probs[x:x + patch_size, y:y + patch_size] += output.cpu().numpy()[0]
    return probs


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cuda", type=int, default=0)
    parser.add_argument("--patch_size", type=int, default=7)
    args = parser.parse_args()
    device = torch.device(f"cuda:{args.cuda}" if torch.cuda.is_available() else "cpu")
    img = np.random.rand(24, 24, 10)
    hyperparams = {"patch_size": args.patch_size, "n_classes": 4, "device": device}
    net = HamidaEtAl(10, 4, args.patch_size).to(device)
    train(net, torch.rand(8, 1, 10, 7, 7), torch.randint(0, 4, (8,)), device)
    prediction = test(net, img, hyperparams)
    print(prediction.argmax(-1)[:2])
