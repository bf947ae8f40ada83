"""LiDAR range-image segmentation whose learning-map LUT stays np.int32 (as in the parser) but the projected labels are converted with .long() before they reach NLLLoss
source: https://github.com/PRBonn/lidar-bonnetal/issues/100
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

ARCH = {"sensor": {"img_prop": {"height": 16, "width": 64}}, "train": {"lr": 0.01, "epochs": 2}}
DATA = {"learning_map": {0: 0, 10: 1, 40: 2, 50: 3, 70: 4}}


# ---- common/laserscan.py + dataset/kitti/parser.py
class SemanticKitti:
    def __init__(self, n_scans=4, seed=0):
        self.rng = np.random.default_rng(seed)
        self.n = n_scans
        maxkey = max(DATA["learning_map"].keys())
        self.remap_lut = np.zeros((maxkey + 100), dtype=np.int32)
        for k, v in DATA["learning_map"].items():
            self.remap_lut[k] = v

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        H, W = ARCH["sensor"]["img_prop"]["height"], ARCH["sensor"]["img_prop"]["width"]
        proj_range = self.rng.random((H, W)).astype(np.float32) * 50
        proj_xyz = self.rng.normal(size=(3, H, W)).astype(np.float32)
        raw = self.rng.choice(list(DATA["learning_map"].keys()), size=(H, W))
        proj_labels = torch.from_numpy(self.remap_lut[raw]).long()
        proj = torch.cat([torch.from_numpy(proj_range).unsqueeze(0), torch.from_numpy(proj_xyz)])
        return proj, proj_labels


# ---- tasks/semantic/modules/segmentator.py
class Segmentator(nn.Module):
    def __init__(self, nclasses=5):
        super().__init__()
        self.backbone = nn.Sequential(nn.Conv2d(4, 16, 3, padding=1), nn.BatchNorm2d(16), nn.LeakyReLU(0.1))
        self.head = nn.Conv2d(16, nclasses, 1)

    def forward(self, x):
        return F.softmax(self.head(self.backbone(x)), dim=1)


# ---- tasks/semantic/modules/trainer.py
class Trainer:
    def __init__(self):
        self.parser = SemanticKitti()
        self.model = Segmentator(len(set(DATA["learning_map"].values())))
        self.criterion = nn.NLLLoss()
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=ARCH["train"]["lr"], momentum=0.9)

    def train_epoch(self, loader):
        for in_vol, proj_labels in loader:
            output = self.model(in_vol)
            loss = self.criterion(torch.log(output.clamp(min=1e-8)), proj_labels)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        return loss.item()

    def train(self):
        loader = torch.utils.data.DataLoader(self.parser, batch_size=2, shuffle=True)
        for epoch in range(ARCH["train"]["epochs"]):
            print("epoch", epoch, "loss", self.train_epoch(loader))


if __name__ == "__main__":
    torch.manual_seed(0)
    Trainer().train()
