"""Residue-level binding predictor (biotrainer-like): the Trainer computes pos_weight from the NumPy label frequencies and keeps it as a plain attribute; model and batches are moved to the device, but the functional BCE-with-logits call receives the CPU pos_weight
source: https://github.com/sacdallago/biotrainer/issues/67
reported-error: Class weights need to be sent to the device when use_class_weights=True (device mismatch in the loss)
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (pos_weight stays on the CPU; not run on a GPU here) at line 36; on CPU: ok
root-cause: line 32
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class ResidueCNN(nn.Module):
    def __init__(self, emb_dim=32, n_labels=4):
        super().__init__()
        self.conv = nn.Conv1d(emb_dim, 16, 5, padding=2)
        self.out = nn.Conv1d(16, n_labels, 1)

    def forward(self, emb):
        return self.out(torch.relu(self.conv(emb.transpose(1, 2)))).transpose(1, 2)


class Trainer:
    def __init__(self, model, label_matrix, device, use_class_weights=True):
        self.device = device
        self.model = model.to(device)
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.pos_weight = None
        if use_class_weights:
            pos = label_matrix.reshape(-1, label_matrix.shape[-1]).mean(0)
            self.pos_weight = torch.from_numpy(((1 - pos) / np.maximum(pos, 1e-3)).astype(np.float32))  # root-cause

    def step(self, emb, labels):
        logits = self.model(emb.to(self.device))
        loss = F.binary_cross_entropy_with_logits(logits, labels.to(self.device), pos_weight=self.pos_weight)  # fails-here
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return loss.item()


rng = np.random.default_rng(0)
embeddings = rng.normal(size=(20, 50, 32)).astype(np.float32)
labels = (rng.random((20, 50, 4)) < 0.1).astype(np.float32)
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
trainer = Trainer(ResidueCNN(), labels, device)
for i in range(0, 20, 5):
    print("loss", trainer.step(torch.from_numpy(embeddings[i:i + 5]), torch.from_numpy(labels[i:i + 5])))
