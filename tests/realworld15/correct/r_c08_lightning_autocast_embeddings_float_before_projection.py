"""LightningModule for a retrieval model whose training_step runs the encoder under torch.autocast("cpu", dtype=torch.bfloat16) and converts the embeddings with .float() before the float32 projection head outside the block
source: https://github.com/mosaicml/llm-foundry/issues/333
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import warnings

import lightning as L
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

warnings.filterwarnings("ignore")


class RetrievalModule(L.LightningModule):
    def __init__(self, in_dim=32, emb_dim=48, proj_dim=16, lr=1e-3):
        super().__init__()
        self.save_hyperparameters()
        self.encoder = nn.Sequential(nn.Linear(in_dim, emb_dim), nn.ReLU(), nn.Linear(emb_dim, emb_dim))
        self.projection = nn.Linear(emb_dim, proj_dim)

    def encode(self, x):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            emb = self.encoder(x)
        return emb.float()

    def training_step(self, batch, batch_idx):
        query, doc = batch
        q = F.normalize(self.projection(self.encode(query)), dim=-1)
        d = F.normalize(self.projection(self.encode(doc)), dim=-1)
        loss = F.cross_entropy(q @ d.T / 0.05, torch.arange(len(q)))
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


loader = DataLoader(TensorDataset(torch.randn(64, 32), torch.randn(64, 32)), batch_size=16, shuffle=True)
trainer = L.Trainer(max_steps=2, accelerator="cpu", logger=False, enable_checkpointing=False,
                    enable_progress_bar=False, enable_model_summary=False)
trainer.fit(RetrievalModule(), loader)
print("trained steps", trainer.global_step)
