"""MTCNN-style P-Net training: image_tools.convert_image_to_tensor turns the HWC uint8 crop into a normalised array with image.astype(np.float) (float64, i.e. builtin float), and the Conv2d network gets Double input many calls later in train_step
source: https://github.com/wujiyang/MTCNN_TRAIN/pull/4
reported-error: image.astype(np.float): the default of np.float is np.float64 (RuntimeError: Input type (double) and bias type (float) should be the same)
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 32
root-cause: line 15
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


# ---- image_tools.py
def convert_image_to_tensor(image):
    image = image.astype(float)  # root-cause
    image = (image - 127.5) * 0.0078125
    return torch.from_numpy(image.transpose(2, 0, 1))


# ---- models.py
class PNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(3, 10, 3), nn.PReLU(10), nn.MaxPool2d(2, 2),
            nn.Conv2d(10, 16, 3), nn.PReLU(16), nn.Conv2d(16, 32, 3), nn.PReLU(32),
        )
        self.cls = nn.Conv2d(32, 1, 1)
        self.box = nn.Conv2d(32, 4, 1)

    def forward(self, x):
        h = self.body(x)  # fails-here
        return torch.sigmoid(self.cls(h)), self.box(h)


# ---- train.py
def load_batch(rng, n=16):
    crops = rng.integers(0, 256, size=(n, 12, 12, 3), dtype=np.uint8)
    labels = rng.integers(0, 2, size=n).astype(np.float32)
    boxes = rng.normal(scale=0.1, size=(n, 4)).astype(np.float32)
    imgs = torch.stack([convert_image_to_tensor(c) for c in crops])
    return imgs, torch.from_numpy(labels), torch.from_numpy(boxes)


def train_step(model, batch, opt):
    imgs, labels, boxes = batch
    cls, box = model(imgs)
    loss = nn.functional.binary_cross_entropy(cls.view(-1), labels) + 0.5 * nn.functional.mse_loss(box.view(-1, 4), boxes)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.item()


rng = np.random.default_rng(0)
pnet = PNet()
optimizer = torch.optim.Adam(pnet.parameters(), lr=1e-3)
for it in range(3):
    print("iter", it, "loss", train_step(pnet, load_batch(rng), optimizer))
