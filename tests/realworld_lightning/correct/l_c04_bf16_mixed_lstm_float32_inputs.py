"""Linear + LSTM classifier trained with Trainer(precision="bf16-mixed"): the inputs stay float32 and the LSTM keeps float32 weights, and autocast picks the compute dtype per op, so no manual casts are needed
source: https://github.com/Lightning-AI/pytorch-lightning/issues/2239
reported-error: none (under mixed precision the float32 inputs and float32 LSTM weights are expected, not a bug)
outcome: ok
root-cause: -
expect: none
"""
import lightning.pytorch as pl
import torch
from torch.nn import functional as F
from torch.utils.data import DataLoader, TensorDataset


class LitClassifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.l0 = torch.nn.Linear(28 * 28, 32)
        self.l1 = torch.nn.LSTM(32, 10, bidirectional=True)
        self.out = torch.nn.Linear(20, 10)

    def forward(self, x):
        x1 = self.l0(x.view(x.size(0), -1))
        h = self.l1(x1.view(x1.size(0), 1, -1))[0]
        return self.out(torch.relu(h.squeeze(1)))

    def training_step(self, batch, batch_nb):
        x, y = batch
        loss = F.cross_entropy(self(x), y)
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=0.02)


if __name__ == "__main__":
    ds = TensorDataset(torch.rand(64, 1, 28, 28), torch.randint(0, 10, (64,)))
    trainer = pl.Trainer(max_epochs=1, limit_train_batches=2, logger=False, enable_checkpointing=False,
                         enable_progress_bar=False, enable_model_summary=False, accelerator="cpu", precision="bf16-mixed")
    trainer.fit(LitClassifier(), DataLoader(ds, batch_size=16, shuffle=True))
