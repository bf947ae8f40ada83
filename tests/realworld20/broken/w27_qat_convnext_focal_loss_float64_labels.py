"""Quantization-aware fine-tuning of a small ConvNeXt-like classifier with a Lightning-style module: the labels come from a pandas annotation table as float64 and the module's focal loss picks the true-class probability with torch.gather, which needs an int64 index
source: https://github.com/pytorch/pytorch/issues/104265
reported-error: RuntimeError: Failed running call_module self_loss_fn(...): gather(): Expected dtype int64 for index, but got torch.float64 (quantization aware training of a convnext_small)
outcome: RuntimeError: gather(): Expected dtype int32/int64 for index at line 26
root-cause: line 48
expect: DG006
"""
import warnings

import numpy as np
import pandas as pd
import torch
import torch.ao.quantization as tq
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

warnings.filterwarnings("ignore")


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0):
        super().__init__()
        self.gamma = gamma

    def forward(self, logits, target):
        logp = logits.log_softmax(-1).gather(1, target[:, None]).squeeze(1)  # fails-here
        return (-(1 - logp.exp()) ** self.gamma * logp).mean()


class ConvNextSmallQAT(nn.Module):
    def __init__(self, num_classes):
        super().__init__()
        self.quant, self.dequant = tq.QuantStub(), tq.DeQuantStub()
        self.stem = nn.Sequential(nn.Conv2d(3, 16, 4, stride=4), nn.ReLU())
        self.block = nn.Sequential(nn.Conv2d(16, 16, 7, padding=3, groups=16), nn.Conv2d(16, 64, 1), nn.ReLU(), nn.Conv2d(64, 16, 1))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.classifier = nn.Linear(16, num_classes)

    def forward(self, x):
        x = self.stem(self.quant(x))
        x = self.pool(x + self.block(x)).flatten(1)
        return self.dequant(self.classifier(x))


class ExperimentExecutor:
    def __init__(self, annotations, num_classes=5):
        images = torch.rand(len(annotations), 3, 32, 32)
        labels = torch.from_numpy(annotations["label"].to_numpy())  # root-cause
        self.loader = DataLoader(TensorDataset(images, labels), batch_size=16, shuffle=True)
        model = ConvNextSmallQAT(num_classes).train()
        model.qconfig = tq.get_default_qat_qconfig("fbgemm")
        self.model = tq.prepare_qat(model)
        self.loss_fn = FocalLoss()
        self.opt = torch.optim.AdamW(self.model.parameters(), lr=1e-3)

    def training_step(self, batch):
        x, y = batch
        loss = self.loss_fn(self.model(x), y)
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()

    def run(self, epochs=1):
        for epoch in range(epochs):
            losses = [self.training_step(b) for b in self.loader]
            print(f"epoch {epoch}: focal loss {np.mean(losses):.4f}")


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    ann = pd.DataFrame({"path": [f"img_{i}.png" for i in range(64)], "label": rng.integers(0, 5, 64).astype(float)})
    ExperimentExecutor(ann).run()
