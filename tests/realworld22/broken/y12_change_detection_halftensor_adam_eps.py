"""Remote-sensing change detection (ChangeFormer-style siamese encoder with a difference decoder) trained fully in half precision to fit 1024x1024 tiles: the trainer casts the network to float16 and keeps torch.optim.Adam with its default eps=1e-8, which is 0 in float16, so parameters whose squared gradients underflow get divided by zero and the generator loss turns NaN
source: https://github.com/wgcban/ChangeFormer/issues/91
reported-error: After setting HalfTensor in order to train 1024*1024 images, the G_loss of the model is nan (the NaN comes from Adam with half precision; torch.cuda.amp autocast + GradScaler fixes it but is slower)
outcome: ok (silent: after the first Adam steps the float16 weights and the loss become NaN, printed as "epoch N G_loss nan")
root-cause: line 40
expect: DG012
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- models/ChangeFormer.py
class SiameseEncoder(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, ch, 3, stride=2, padding=1), nn.ReLU())

    def forward(self, x):
        return self.stem(x)


class ChangeNet(nn.Module):
    def __init__(self, ch=16):
        super().__init__()
        self.encoder = SiameseEncoder(ch)
        self.decoder = nn.Sequential(nn.Conv2d(ch, ch, 3, padding=1), nn.ReLU(), nn.Conv2d(ch, 2, 1))

    def forward(self, img_a, img_b):
        diff = torch.abs(self.encoder(img_a) - self.encoder(img_b))
        return F.interpolate(self.decoder(diff), scale_factor=2, mode="nearest")


# ---- models/trainer.py
class CDTrainer:
    def __init__(self, lr=1e-4, half=True):
        self.net_G = ChangeNet()
        if half:
            self.net_G = self.net_G.half()
        self.optimizer_G = torch.optim.Adam(self.net_G.parameters(), lr=lr, betas=(0.9, 0.999))  # root-cause
        self.half = half

    def _batch(self, seed, size=32):
        g = torch.Generator().manual_seed(seed)
        a = torch.rand(2, 3, size, size, generator=g)
        b = a.clone()
        b[:, :, 8:20, 8:20] = torch.rand(2, 3, 12, 12, generator=g)
        label = torch.zeros(2, size, size, dtype=torch.long)
        label[:, 8:20, 8:20] = 1
        if self.half:
            a, b = a.half(), b.half()
        return a, b, label

    def train(self, epochs=4, steps=5):
        for epoch in range(epochs):
            for step in range(steps):
                a, b, label = self._batch(epoch * steps + step)
                pred = self.net_G(a, b)
                G_loss = F.cross_entropy(pred.float(), label)
                self.optimizer_G.zero_grad()
                G_loss.backward()
                self.optimizer_G.step()  # fails-here
            print(f"epoch {epoch} G_loss {G_loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    CDTrainer().train()
