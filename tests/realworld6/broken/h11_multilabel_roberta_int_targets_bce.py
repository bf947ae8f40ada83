"""Multi-label text classifier trained with a custom loop (HF-style model with problem_type="multi_label_classification") where the label matrix is kept as int64 for the torchmetrics-style metrics and also passed to BCEWithLogitsLoss
source: https://github.com/Lightning-AI/torchmetrics/issues/1367
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long (from binary_cross_entropy_with_logits)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 36
root-cause: line 36
expect: DG007
"""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


@dataclass
class Config:
    vocab_size: int = 500
    hidden_size: int = 32
    num_labels: int = 5
    problem_type: str = "multi_label_classification"


class TinySequenceClassifier(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embeddings = nn.EmbeddingBag(config.vocab_size, config.hidden_size)
        self.classifier = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, input_ids, labels=None):
        logits = self.classifier(torch.tanh(self.embeddings(input_ids)))
        loss = None
        if labels is not None and self.config.problem_type == "multi_label_classification":
            loss_fct = nn.BCEWithLogitsLoss()
            loss = loss_fct(logits, labels)  # root-cause # fails-here
        return {"loss": loss, "logits": logits}


class TagDataset(Dataset):
    def __init__(self, n=64, seq_len=12, num_labels=5, seed=0):
        rng = np.random.default_rng(seed)
        self.input_ids = rng.integers(0, 500, (n, seq_len))
        self.labels = (rng.random((n, num_labels)) > 0.7).astype(np.int64)

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, i):
        return {"input_ids": torch.tensor(self.input_ids[i]), "labels": torch.tensor(self.labels[i])}


def multilabel_accuracy(preds, target):
    if target.is_floating_point():
        raise ValueError("The `target` has to be an integer tensor.")
    return ((preds > 0).long() == target).float().mean()


def main():
    config = Config()
    model = TinySequenceClassifier(config)
    loader = DataLoader(TagDataset(num_labels=config.num_labels), batch_size=16, shuffle=True)
    optimizer = torch.optim.AdamW(model.parameters(), lr=5e-4)
    for step, batch in enumerate(loader):
        out = model(**batch)
        out["loss"].backward()
        optimizer.step()
        optimizer.zero_grad()
        print(step, out["loss"].item(), multilabel_accuracy(out["logits"], batch["labels"]).item())


if __name__ == "__main__":
    main()
