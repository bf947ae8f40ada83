"""YOLACT-style train.py: with --cuda the script makes torch.cuda.FloatTensor the default tensor type, then iterates a shuffling DataLoader with the default detection_collate
source: https://github.com/dbolya/yolact/issues/664
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler calls torch.randperm with its CPU generator while the default tensor type is CUDA) at line 69; on CPU: ok
root-cause: line 28
expect: DG003
"""
import argparse

import numpy as np
import torch
import torch.nn as nn
import torch.utils.data as data


def str2bool(v):
    return v.lower() in ("yes", "true", "t", "1")


parser = argparse.ArgumentParser(description="Yolact Training Script")
parser.add_argument("--batch_size", default=4, type=int)
parser.add_argument("--num_workers", default=0, type=int)
parser.add_argument("--cuda", default=torch.cuda.is_available(), type=str2bool)
parser.add_argument("--lr", "--learning_rate", default=1e-3, type=float)
args = parser.parse_args()

if args.cuda:
    torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause
else:
    torch.set_default_tensor_type("torch.FloatTensor")


class COCODetection(data.Dataset):
    def __init__(self, n=16, size=32):
        rng = np.random.default_rng(0)
        self.images = rng.random((n, 3, size, size)).astype(np.float32)
        self.targets = [rng.random((2, 5)).astype(np.float32) for _ in range(n)]

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        return torch.from_numpy(self.images[index]), torch.from_numpy(self.targets[index])


def detection_collate(batch):
    imgs, targets = zip(*batch)
    return torch.stack(imgs, 0), list(targets)


class Yolact(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(8, num_classes)

    def forward(self, x):
        return self.head(self.backbone(x))


def train():
    dataset = COCODetection()
    net = Yolact()
    if args.cuda:
        net = net.cuda()
    optimizer = torch.optim.SGD(net.parameters(), lr=args.lr, momentum=0.9)
    data_loader = data.DataLoader(dataset, args.batch_size, num_workers=args.num_workers, shuffle=True, collate_fn=detection_collate, pin_memory=False)
    for epoch in range(2):
        for datum in data_loader:  # fails-here
            images, targets = datum
            if args.cuda:
                images = images.cuda()
            labels = torch.stack([t[:, 4].mul(4).long()[0] for t in targets]).to(images.device)
            loss = nn.functional.cross_entropy(net(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
