"""Skeleton-detection trainer class whose constructor makes torch.cuda.FloatTensor the default tensor type when a GPU is present and whose train() pulls batches with next(iter(loader)) from a DataLoader(shuffle=True) over hand-made image/target pairs; on a GPU the RandomSampler's randperm lands on cuda with the sampler's CPU generator
source: https://github.com/sunsmarterjie/SDL-Skeleton/issues/9
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (at data, target = next(dataiter) in the trainer)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm allocates on cuda with a CPU generator) at line 52; on CPU: ok
root-cause: line 41
expect: DG003
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class SkeletonPairs(Dataset):
    def __init__(self, n=48, size=16):
        g = torch.Generator().manual_seed(1)
        self.images = torch.rand(n, 1, size, size, generator=g)
        self.targets = (self.images > 0.7).float()

    def __len__(self):
        return len(self.images)

    def __getitem__(self, i):
        return self.images[i], self.targets[i]


class SideOutputNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(1, 8, 3, padding=1)
        self.c2 = nn.Conv2d(8, 1, 1)

    def forward(self, x):
        return self.c2(F.relu(self.c1(x)))


class Trainer:
    def __init__(self, loader, iters=6):
        self.use_cuda = torch.cuda.is_available()
        if self.use_cuda:
            torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause
        self.device = torch.device("cuda" if self.use_cuda else "cpu")
        self.net = SideOutputNet().to(self.device)
        self.opt = torch.optim.SGD(self.net.parameters(), lr=0.1, momentum=0.9)
        self.loader = loader
        self.iters = iters

    def train(self):
        dataiter = iter(self.loader)
        for it in range(self.iters):
            try:
                data, target = next(dataiter)  # fails-here
            except StopIteration:
                dataiter = iter(self.loader)
                data, target = next(dataiter)
            out = self.net(data.to(self.device))
            loss = F.binary_cross_entropy_with_logits(out, target.to(self.device))
            self.opt.zero_grad()
            loss.backward()
            self.opt.step()
        return loss.item()


if __name__ == "__main__":
    loader = DataLoader(SkeletonPairs(), batch_size=8, shuffle=True)
    print(f"final loss {Trainer(loader).train():.4f}")
