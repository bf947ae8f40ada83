"""Semantic segmentation head trained from panoptic ids: the model keeps an id-to-train-class lookup table as a register_buffer built with dtype=torch.int32, and the target produced by indexing that buffer with the panoptic map is int32 when it reaches nn.CrossEntropyLoss(ignore_index=255)
source: https://github.com/celantur/panoptic_segm_demo/issues/1
reported-error: expected scalar type Long but found Int
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 39
root-cause: line 18
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn

ID_TO_TRAIN = {0: 255, 7: 0, 8: 1, 11: 2, 21: 3, 24: 4, 26: 5}


class SemSegHead(nn.Module):
    def __init__(self, n_classes=6):
        super().__init__()
        lut = torch.full((34,), 255, dtype=torch.int32)  # root-cause
        for k, v in ID_TO_TRAIN.items():
            lut[k] = v
        self.register_buffer("id_to_train", lut)
        self.net = nn.Sequential(nn.Conv2d(3, 16, 3, padding=1), nn.ReLU(), nn.Conv2d(16, n_classes, 1))

    def targets(self, panoptic_ids):
        return self.id_to_train[panoptic_ids // 1000]

    def forward(self, images):
        return self.net(images)


class SegTrainer:
    def __init__(self, model):
        self.model = model
        self.criterion = nn.CrossEntropyLoss(ignore_index=255)
        self.opt = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)

    def step(self, images, panoptic):
        logits = self.model(images)
        loss = self.criterion(logits, self.model.targets(panoptic))  # fails-here
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


rng = np.random.default_rng(0)
images = torch.from_numpy(rng.random((2, 3, 32, 32), dtype=np.float32))
ids = np.array(list(ID_TO_TRAIN))
panoptic = torch.from_numpy(rng.choice(ids, (2, 32, 32)) * 1000 + rng.integers(0, 50, (2, 32, 32)))
trainer = SegTrainer(SemSegHead())
for it in range(3):
    print("loss", trainer.step(images, panoptic))
