"""LightningModule for a small retrieval model: training_step computes the encoder embeddings inside a manual torch.autocast("cpu", dtype=torch.bfloat16) block (to mimic bf16 mixed precision) and applies the float32 projection head after leaving the block
source: https://github.com/mosaicml/llm-foundry/issues/333
reported-error: RuntimeError: expected scalar type BFloat16 but found Float
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 31
root-cause: line 29
expect: DG017
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

    def training_step(self, batch, batch_idx):
        query, doc = batch
        with torch.autocast("cpu", dtype=torch.bfloat16):
            q_emb = self.encoder(query)  # root-cause
            d_emb = self.encoder(doc)
        q = F.normalize(self.projection(q_emb), dim=-1)  # fails-here
        d = F.normalize(self.projection(d_emb), dim=-1)
        logits = q @ d.T / 0.05
        loss = F.cross_entropy(logits.float(), torch.arange(len(q)))
        self.log("train_loss", loss)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


queries, docs = torch.randn(64, 32), torch.randn(64, 32)
loader = DataLoader(TensorDataset(queries, docs), batch_size=16, shuffle=True)
trainer = L.Trainer(max_steps=2, accelerator="cpu", logger=False, enable_checkpointing=False,
                    enable_progress_bar=False, enable_model_summary=False)
trainer.fit(RetrievalModule(), loader)
