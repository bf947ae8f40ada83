"""YOLACT-style train.py: unconditional torch.cuda.FloatTensor default with a shuffling DataLoader
source: https://github.com/dbolya/yolact/issues/727
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu'
outcome: TypeError: type torch.cuda.FloatTensor not available. Torch not compiled with CUDA enabled. at line 22; on a GPU machine: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' at line 55
root-cause: line 22
expect: DG003
"""
import argparse

import torch
import torch.nn as nn
import torch.optim as optim
import torch.utils.data as data

parser = argparse.ArgumentParser(description='Yolact Training Script')
parser.add_argument('--batch_size', default=4, type=int)
parser.add_argument('--num_workers', default=0, type=int)
parser.add_argument('--lr', default=1e-3, type=float)
parser.add_argument('--max_iter', default=2, type=int)
args = parser.parse_args()

torch.set_default_tensor_type('torch.cuda.FloatTensor')  # root-cause


class COCODetection(data.Dataset):
    def __init__(self, n=12):
        self.ids = list(range(n))

    def __getitem__(self, index):
        return torch.rand(3, 64, 64), torch.tensor([index % 2])

    def __len__(self):
        return len(self.ids)


class Yolact(nn.Module):
    def __init__(self):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.head = nn.Linear(8, 2)

    def forward(self, x):
        return self.head(self.backbone(x))


def train():
    dataset = COCODetection()
    net = Yolact()
    net.train()
    optimizer = optim.SGD(net.parameters(), lr=args.lr, momentum=0.9)
    data_loader = data.DataLoader(dataset, args.batch_size,  # root-cause-alt
                                  num_workers=args.num_workers,
                                  shuffle=True, pin_memory=True)
    for epoch in range(args.max_iter):
        for datum in data_loader:  # fails-here
            images, labels = datum
            images = images.cuda()
            labels = labels.cuda().squeeze(1)
            loss = nn.functional.cross_entropy(net(images), labels)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(epoch, loss.item())


if __name__ == '__main__':
    train()
