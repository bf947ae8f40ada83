"""BraTS 3D segmentation: the utils one-hot helper for the dice loss allocates torch.zeros(...) without a device, so on a GPU the scatter of the CUDA label volume into the CPU tensor fails inside the loss
source: https://github.com/cv-lee/BraTs/pull/10
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (fixed in utils.py)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! (scatter_ of the CUDA labels into the CPU one-hot tensor; exact wording varies with the torch version) at line 16; on CPU: ok
root-cause: line 15
expect: DG009
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


def to_one_hot(labels, n_classes):
    shape = (labels.shape[0], n_classes) + tuple(labels.shape[1:])
    one_hot = torch.zeros(shape)  # root-cause
    return one_hot.scatter_(1, labels.unsqueeze(1), 1.0)  # fails-here


def dice_loss(logits, labels, eps=1e-5):
    probs = F.softmax(logits, dim=1)
    target = to_one_hot(labels, logits.shape[1])
    inter = (probs * target).sum(dim=(2, 3, 4))
    union = probs.sum(dim=(2, 3, 4)) + target.sum(dim=(2, 3, 4))
    return 1 - ((2 * inter + eps) / (union + eps)).mean()


class UNet3DTiny(nn.Module):
    def __init__(self, in_ch=4, n_classes=4):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv3d(in_ch, 8, 3, padding=1), nn.ReLU())
        self.out = nn.Conv3d(8, n_classes, 1)

    def forward(self, x):
        return self.out(self.enc(x))


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = UNet3DTiny().to(device)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(2):
        vol = torch.randn(2, 4, 16, 16, 16, device=device)
        seg = torch.randint(0, 4, (2, 16, 16, 16), device=device)
        loss = dice_loss(model(vol), seg)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())


if __name__ == "__main__":
    main()
