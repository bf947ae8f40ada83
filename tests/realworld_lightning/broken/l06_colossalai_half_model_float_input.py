"""Image model trained with Lightning whose network is cast to float16 when the module is built (as the ColossalAI fp16 strategy does to the parameters), while the DataLoader still yields float32 images
source: https://github.com/Lightning-Universe/lightning-ColossalAI/issues/25
reported-error: RuntimeError: Input type (torch.cuda.FloatTensor) and weight type (torch.cuda.HalfTensor) should be the same
outcome: RuntimeError: Input type (float) and bias type (c10::Half) should be the same at line 29
root-cause: line 26
expect: DG004
"""
import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


def make_net(n_classes=5):
    return nn.Sequential(
        nn.Conv2d(3, 8, 3, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, n_classes)
    )


class LitClassifier(L.LightningModule):
    def __init__(self, fp16_params=True):
        super().__init__()
        self.net = make_net()
        if fp16_params:
            self.net = self.net.half()  # root-cause

    def forward(self, x):
        return self.net(x)  # fails-here

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = F.cross_entropy(self(x).float(), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=1e-3, eps=1e-4)


if __name__ == "__main__":
    images = torch.rand(32, 3, 16, 16)
    labels = torch.randint(0, 5, (32,))
    loader = DataLoader(TensorDataset(images, labels), batch_size=8, shuffle=True)
    trainer = L.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                        enable_progress_bar=False, enable_model_summary=False, accelerator="cpu")
    trainer.fit(LitClassifier(), loader)
