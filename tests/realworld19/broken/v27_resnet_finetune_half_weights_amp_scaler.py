"""Fine-tuning a small pretrained classifier with AMP to save memory: load_pretrained() also converts the whole network with .half() ("the weights are fp16 on the hub anyway"), the optimizer is built over those float16 parameters, and GradScaler.step() refuses to unscale their float16 gradients
source: https://taourl.com/read-2464122.html
reported-error: Fine-tuning a Pretrained Model with Quantization and AMP: Scaler Error Attempting to Unscale FP16 Gradients
outcome: ValueError: Attempting to unscale FP16 gradients. at line 55
root-cause: line 41
expect: DG014
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class BasicBlock(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1, bias=False)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1, bias=False)

    def forward(self, x):
        return F.relu(x + self.conv2(F.relu(self.conv1(x))))


class ResNetTiny(nn.Module):
    def __init__(self, num_classes=10, width=16):
        super().__init__()
        self.stem = nn.Conv2d(3, width, 3, padding=1)
        self.layer1 = BasicBlock(width)
        self.fc = nn.Linear(width, num_classes)

    def forward(self, x):
        x = self.layer1(F.relu(self.stem(x)))
        return self.fc(x.mean((2, 3)))


def load_pretrained(num_classes):
    model = ResNetTiny(num_classes=1000)
    model.fc = nn.Linear(model.fc.in_features, num_classes)
    return model.half()  # root-cause


def train(model, loader, device, epochs=1, lr=1e-3):
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    scaler = torch.amp.GradScaler(device.type)
    for epoch in range(epochs):
        for inputs, targets in loader:
            inputs, targets = inputs.to(device), targets.to(device)
            optimizer.zero_grad()
            with torch.autocast(device.type, dtype=torch.float16):
                outputs = model(inputs.half())
                loss = F.cross_entropy(outputs.float(), targets)
            scaler.scale(loss).backward()
            scaler.step(optimizer)  # fails-here
            scaler.update()
        print("epoch", epoch, "loss", loss.item())


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--num-classes", type=int, default=10)
    args = parser.parse_args([])
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    rng = np.random.default_rng(0)
    x = torch.from_numpy(rng.random((32, 3, 16, 16)).astype(np.float32))
    y = torch.from_numpy(rng.integers(0, args.num_classes, 32))
    loader = [(x[i:i + 8], y[i:i + 8]) for i in range(0, 32, 8)]
    model = load_pretrained(args.num_classes).to(device)
    train(model, loader, device)


if __name__ == "__main__":
    main()
