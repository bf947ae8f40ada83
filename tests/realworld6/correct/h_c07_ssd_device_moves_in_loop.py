"""SSD-style training loop without a global default tensor type: the network is moved with .to(device) and each batch is moved inside the loop, with an ordinary shuffling DataLoader
source: https://github.com/amdegroot/ssd.pytorch/issues/561
reported-error: none (fixed version: no torch.set_default_tensor_type('torch.cuda.FloatTensor'))
outcome: ok
root-cause: -
expect: none
"""
import argparse

import torch
import torch.nn as nn
import torch.utils.data as data


class VOCDetection(data.Dataset):
    def __init__(self, n=16, size=32):
        torch.manual_seed(0)
        self.images = torch.rand(n, 3, size, size)
        self.targets = [torch.tensor([[0.1, 0.1, 0.6, 0.7, float(i % 5)]]) for i in range(n)]

    def __len__(self):
        return len(self.images)

    def __getitem__(self, index):
        return self.images[index], self.targets[index]


def detection_collate(batch):
    return torch.stack([b[0] for b in batch], 0), [b[1] for b in batch]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", default=4, type=int)
    parser.add_argument("--cuda", default=True, type=bool)
    args = parser.parse_args()
    device = torch.device("cuda" if args.cuda and torch.cuda.is_available() else "cpu")
    net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 9)).to(device)
    optimizer = torch.optim.SGD(net.parameters(), lr=1e-3, momentum=0.9, weight_decay=5e-4)
    data_loader = data.DataLoader(VOCDetection(), args.batch_size, num_workers=0, shuffle=True, collate_fn=detection_collate)
    for iteration, (images, targets) in enumerate(data_loader):
        images = images.to(device)
        targets = [ann.to(device) for ann in targets]
        out = net(images)
        loss_l = nn.functional.smooth_l1_loss(out[:, :4], torch.stack([t[0, :4] for t in targets]))
        loss_c = nn.functional.cross_entropy(out[:, 4:], torch.stack([t[0, 4] for t in targets]).long())
        loss = loss_l + loss_c
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {iteration} || Loss: {loss.item():.4f}")
