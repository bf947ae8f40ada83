"""Pose-estimation trainer fed by a DALI-style decoding pipeline: the decoder yields HWC uint8 images, the iterator wrapper only permutes them to NCHW, and the batch reaches the HRNet stem convolution as a ByteTensor
source: https://github.com/NVIDIA/DALI/issues/2460
reported-error: RuntimeError: Input type (torch.cuda.ByteTensor) and weight type (torch.cuda.FloatTensor) should be the same.
outcome: RuntimeError: Input type (unsigned char) and bias type (float) should be the same at line 45
root-cause: line 33
expect: DG005
"""
import numpy as np
import torch
import torch.nn as nn


class HybridTrainPipe:
    """Stands in for an nvidia.dali Pipeline with ops.ImageDecoder(output_type=types.RGB)."""

    def __init__(self, batch_size, size=64, num_joints=4, seed=0):
        self.batch_size, self.size, self.num_joints = batch_size, size, num_joints
        self.rng = np.random.default_rng(seed)

    def run(self):
        images = self.rng.integers(0, 256, size=(self.batch_size, self.size, self.size, 3), dtype=np.uint8)
        heatmaps = self.rng.random((self.batch_size, self.num_joints, self.size // 4, self.size // 4)).astype(np.float32)
        return images, heatmaps


class DALIGenericIterator:
    def __init__(self, pipe, steps):
        self.pipe, self.steps = pipe, steps

    def __iter__(self):
        for _ in range(self.steps):
            images, heatmaps = self.pipe.run()
            data = torch.from_numpy(images).permute(0, 3, 1, 2).contiguous()  # root-cause
            yield [{"data": data, "label": torch.from_numpy(heatmaps)}]


class PoseHigherResolutionNet(nn.Module):
    def __init__(self, num_joints=4):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, stride=2, padding=1)
        self.conv2 = nn.Conv2d(16, 16, 3, stride=2, padding=1)
        self.final = nn.Conv2d(16, num_joints, 1)

    def forward(self, x):
        x = torch.relu(self.conv1(x))  # fails-here
        return self.final(torch.relu(self.conv2(x)))


def do_train(model, train_loader, loss_factory, optimizer, epoch):
    model.train()
    for i, batch in enumerate(train_loader):
        images, heatmaps = batch[0]["data"], batch[0]["label"]
        outputs = model(images)
        loss = loss_factory(outputs, heatmaps)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.4f}")


def main_worker():
    model = PoseHigherResolutionNet()
    train_loader = DALIGenericIterator(HybridTrainPipe(batch_size=4), steps=3)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for epoch in range(2):
        do_train(model, train_loader, nn.MSELoss(), optimizer, epoch)


if __name__ == "__main__":
    main_worker()
