"""Point-view fusion net: after training, validation converts the CUDA predictions with .numpy()
source: https://github.com/iMoonLab/PVRNet/issues/3
reported-error: TypeError: can't convert CUDA tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first.
outcome: cuda-only: TypeError: can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host memory first. at line 35; on CPU: ok
root-cause: line 35
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


class PVRNet(nn.Module):
    def __init__(self, n_classes=4):
        super().__init__()
        self.point_branch = nn.Sequential(nn.Linear(3, 16), nn.ReLU())
        self.view_branch = nn.Sequential(nn.Conv2d(3, 8, 3, stride=2), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten())
        self.fc = nn.Linear(16 + 8, n_classes)

    def forward(self, pc, views):
        p = self.point_branch(pc).max(dim=1)[0]
        v = self.view_branch(views)
        return self.fc(torch.cat([p, v], dim=1))


def validate(val_loader, net, device):
    net.eval()
    all_preds, all_lbls = [], []
    with torch.no_grad():
        for pcs, views, lbls in val_loader:
            pcs, views = pcs.to(device), views.to(device)
            preds = net(pcs, views)
            _, preds = torch.max(preds, 1)
            all_preds.append(preds.numpy())  # root-cause # fails-here
            all_lbls.append(lbls.numpy())
    all_preds = np.concatenate(all_preds)
    all_lbls = np.concatenate(all_lbls)
    return np.mean(all_preds == all_lbls)


def train(train_loader, net, criterion, optimizer, device):
    net.train()
    for pcs, views, lbls in train_loader:
        pcs, views, lbls = pcs.to(device), views.to(device), lbls.to(device)
        loss = criterion(net(pcs, views), lbls)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
    ds = TensorDataset(torch.randn(24, 64, 3), torch.rand(24, 3, 32, 32), torch.randint(0, 4, (24,)))
    train_loader = DataLoader(ds, batch_size=8, shuffle=True)
    val_loader = DataLoader(ds, batch_size=8)
    net = PVRNet().to(device)
    optimizer = torch.optim.SGD(net.parameters(), lr=0.01, momentum=0.9)
    criterion = nn.CrossEntropyLoss()
    for epoch in range(2):
        print('epoch', epoch, 'loss', train(train_loader, net, criterion, optimizer, device))
    print('val acc', validate(val_loader, net, device))


if __name__ == '__main__':
    main()
