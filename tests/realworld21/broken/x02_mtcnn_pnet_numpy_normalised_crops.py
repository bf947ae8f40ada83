"""MTCNN face detector, P-Net training stage: the image reader normalises the uint8 12x12 crops with (img - 127.5) / 128 in NumPy, which yields float64, and the batch is handed to the float32 P-Net with torch.from_numpy
source: https://github.com/wujiyang/MTCNN_TRAIN/issues/3
reported-error: RuntimeError: Input type (torch.cuda.DoubleTensor) and weight type (torch.cuda.FloatTensor) should be the same (python train_net/train_p_net.py)
outcome: RuntimeError: Input type (double) and bias type (float) should be the same at line 46
root-cause: line 15
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


# ---- tools/image_tools.py
def convert_image_to_tensor(images):
    images = (images - 127.5) / 128  # root-cause
    return torch.from_numpy(images.transpose(0, 3, 1, 2).copy())


# ---- tools/image_reader.py
class TrainImageReader:
    def __init__(self, n=96, batch_size=16, seed=0):
        rng = np.random.default_rng(seed)
        self.images = rng.integers(0, 256, size=(n, 12, 12, 3), dtype=np.uint8)
        self.labels = rng.integers(0, 2, size=n)
        self.bboxes = rng.uniform(-0.2, 0.2, size=(n, 4)).astype(np.float32)
        self.batch_size = batch_size

    def __iter__(self):
        for i in range(0, len(self.images), self.batch_size):
            sl = slice(i, i + self.batch_size)
            yield self.images[sl], self.labels[sl], self.bboxes[sl]


# ---- core/models.py
class PNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.pre_layer = nn.Sequential(
            nn.Conv2d(3, 10, 3), nn.PReLU(), nn.MaxPool2d(2, 2),
            nn.Conv2d(10, 16, 3), nn.PReLU(), nn.Conv2d(16, 32, 3), nn.PReLU(),
        )
        self.conv4_1 = nn.Conv2d(32, 1, 1)
        self.conv4_2 = nn.Conv2d(32, 4, 1)

    def forward(self, x):
        x = self.pre_layer(x)  # fails-here
        return torch.sigmoid(self.conv4_1(x)), self.conv4_2(x)


# ---- train_net/train_p_net.py
def train_p_net(epochs=2, lr=1e-3):
    net = PNet()
    optimizer = torch.optim.Adam(net.parameters(), lr=lr)
    cls_loss, box_loss = nn.BCELoss(), nn.MSELoss()
    for epoch in range(epochs):
        for images, labels, bboxes in TrainImageReader():
            im_tensor = convert_image_to_tensor(images)
            cls_pred, box_pred = net(im_tensor)
            loss = cls_loss(cls_pred.flatten(), torch.from_numpy(labels).float())
            loss = loss + 0.5 * box_loss(box_pred.flatten(1), torch.from_numpy(bboxes))
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    train_p_net()
