"""SSD train.py: with --cuda the script installs torch.cuda.FloatTensor as the default tensor type, then iterates a shuffling DataLoader with batch_iterator = iter(data_loader)
source: https://github.com/amdegroot/ssd.pytorch/issues/561
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm allocates on cuda with a CPU generator) at line 81; on CPU: ok
root-cause: line 30
expect: DG003
"""
import argparse

import torch
import torch.nn as nn
import torch.optim as optim
import torch.utils.data as data


def str2bool(v):
    return v.lower() in ("yes", "true", "t", "1")


parser = argparse.ArgumentParser(description="Single Shot MultiBox Detector Training With Pytorch")
parser.add_argument("--batch_size", default=4, type=int)
parser.add_argument("--num_workers", default=0, type=int)
parser.add_argument("--cuda", default=True, type=str2bool)
parser.add_argument("--lr", "--learning-rate", default=1e-3, type=float)
parser.add_argument("--max_iter", default=6, type=int)
args = parser.parse_args()

if torch.cuda.is_available():
    if args.cuda:
        torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause
    if not args.cuda:
        print("WARNING: It looks like you have a CUDA device, but aren't using CUDA.")
        torch.set_default_tensor_type("torch.FloatTensor")
else:
    torch.set_default_tensor_type("torch.FloatTensor")


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
    targets, imgs = [], []
    for sample in batch:
        imgs.append(sample[0])
        targets.append(torch.FloatTensor(sample[1]))
    return torch.stack(imgs, 0), targets


class SSD(nn.Module):
    def __init__(self, num_classes=5):
        super().__init__()
        self.vgg = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(16, 32, 3, padding=1), nn.ReLU())
        self.loc = nn.Conv2d(32, 4, 3, padding=1)
        self.conf = nn.Conv2d(32, num_classes, 3, padding=1)

    def forward(self, x):
        s = self.vgg(x)
        return self.loc(s).mean((2, 3)), self.conf(s).mean((2, 3))


def train():
    dataset = VOCDetection()
    net = SSD()
    if args.cuda and torch.cuda.is_available():
        net = net.cuda()
    optimizer = optim.SGD(net.parameters(), lr=args.lr, momentum=0.9, weight_decay=5e-4)
    data_loader = data.DataLoader(dataset, args.batch_size, num_workers=args.num_workers, shuffle=True, collate_fn=detection_collate)
    batch_iterator = iter(data_loader)
    for iteration in range(args.max_iter):
        try:
            images, targets = next(batch_iterator)  # fails-here
        except StopIteration:
            batch_iterator = iter(data_loader)
            images, targets = next(batch_iterator)
        if args.cuda and torch.cuda.is_available():
            images = images.cuda()
            targets = [ann.cuda() for ann in targets]
        loc, conf = net(images)
        loss_l = nn.functional.smooth_l1_loss(loc, torch.stack([t[0, :4] for t in targets]))
        loss_c = nn.functional.cross_entropy(conf, torch.stack([t[0, 4] for t in targets]).long())
        loss = loss_l + loss_c
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"iter {iteration} || Loss: {loss.item():.4f}")


if __name__ == "__main__":
    train()
