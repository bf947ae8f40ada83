"""YOLACT-style train.py run in Colab on a custom config: the trainer sets torch.cuda.FloatTensor as the default tensor type when CUDA is used and then loops over a shuffled DataLoader
source: https://github.com/pytorch/pytorch/issues/62152
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (yolact train.py in Google Colab, torch 1.9.0)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (raised inside RandomSampler.__iter__ on the first iteration) at line 72; on CPU: ok
root-cause: line 92
expect: DG003
"""
import argparse
import math

import torch
import torch.nn as nn
import torch.utils.data as data


class Config:
    def __init__(self, **kw):
        self.__dict__.update(kw)


CustomConfig = Config(name="custom", num_classes=4, max_size=32, lr=1e-3, momentum=0.9, decay=5e-4, max_iter=8)


class COCODetection(data.Dataset):
    def __init__(self, cfg, n=20):
        self.cfg = cfg
        self.n = n

    def __len__(self):
        return self.n

    def pull_item(self, index):
        g = torch.Generator().manual_seed(index)
        img = torch.rand(3, self.cfg.max_size, self.cfg.max_size, generator=g)
        masks = (torch.rand(1, self.cfg.max_size, self.cfg.max_size, generator=g) > 0.5).float()
        return img, masks, index % self.cfg.num_classes

    def __getitem__(self, index):
        return self.pull_item(index)


class Yolact(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.proto = nn.Conv2d(8, 1, 1)
        self.cls = nn.Linear(8, cfg.num_classes)

    def forward(self, x):
        f = self.backbone(x)
        return self.proto(f), self.cls(f.mean((2, 3)))


class NetLoss(nn.Module):
    def forward(self, preds, masks, labels):
        proto, logits = preds
        return nn.functional.binary_cross_entropy_with_logits(proto, masks) + nn.functional.cross_entropy(logits, labels)


def train(args, cfg):
    dataset = COCODetection(cfg)
    yolact_net = Yolact(cfg)
    net = NetLoss()
    if args.cuda:
        yolact_net = yolact_net.cuda()
    optimizer = torch.optim.SGD(yolact_net.parameters(), lr=cfg.lr, momentum=cfg.momentum, weight_decay=cfg.decay)
    data_loader = data.DataLoader(dataset, args.batch_size, num_workers=args.num_workers, shuffle=True)
    epoch_size = len(dataset) // args.batch_size
    num_epochs = math.ceil(cfg.max_iter / epoch_size)
    iteration = 0
    for epoch in range(num_epochs):
        for datum in data_loader:  # fails-here
            images, masks, labels = datum
            if args.cuda:
                images, masks, labels = images.cuda(), masks.cuda(), labels.cuda()
            loss = net(yolact_net(images), masks, labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
            iteration += 1
            print(f"[{epoch:3d}] {iteration:7d} || T: {loss.item():.3f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Yolact Training Script")
    parser.add_argument("--batch_size", default=4, type=int)
    parser.add_argument("--num_workers", default=0, type=int)
    parser.add_argument("--cuda", default=torch.cuda.is_available(), type=bool)
    parser.add_argument("--config", default="CustomConfig")
    args = parser.parse_args()
    if args.cuda:
        torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause
    train(args, CustomConfig)
