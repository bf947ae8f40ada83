"""Hugging-Face-like fine-tuning loop in pure torch: the classifier is configured with num_labels=1 for a binary task, so its forward takes the single-logit branch and computes BCEWithLogitsLoss; the collate function still builds integer class labels as torch.long
source: https://openillumi.com/en/en-bert-finetuning-long-float-error-fix/
reported-error: RuntimeError: Found dtype Long but expected Float (binary classification fine-tune with num_labels=1)
outcome: RuntimeError: result type Float can't be cast to the desired output type Long at line 40
root-cause: line 55
expect: DG007
"""
from dataclasses import dataclass

import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader


@dataclass
class ClassifierConfig:
    vocab_size: int = 50
    hidden_size: int = 32
    num_labels: int = 1
    max_len: int = 16


class MiniBertForSequenceClassification(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.config = config
        self.embeddings = nn.Embedding(config.vocab_size, config.hidden_size)
        self.pos = nn.Parameter(torch.zeros(config.max_len, config.hidden_size))
        layer = nn.TransformerEncoderLayer(config.hidden_size, 4, 64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.classifier = nn.Linear(config.hidden_size, config.num_labels)

    def forward(self, input_ids, labels=None):
        h = self.encoder(self.embeddings(input_ids) + self.pos[: input_ids.shape[1]])
        logits = self.classifier(h[:, 0])
        loss = None
        if labels is not None:
            if self.config.num_labels == 1:
                loss = nn.BCEWithLogitsLoss()(logits.squeeze(-1), labels)  # fails-here
            else:
                loss = nn.CrossEntropyLoss()(logits, labels)
        return loss, logits


def make_examples(n=64, seed=0):
    rng = np.random.default_rng(seed)
    ids = rng.integers(2, 50, (n, 16))
    labels = (ids[:, 1:4].mean(1) > 25).astype(int)
    return [{"input_ids": ids[i].tolist(), "label": int(labels[i])} for i in range(n)]


def collate(batch):
    return {"input_ids": torch.tensor([b["input_ids"] for b in batch]),
            "labels": torch.tensor([b["label"] for b in batch], dtype=torch.long)}  # root-cause


class Trainer:
    def __init__(self, model, train_dataset, lr=3e-4, batch_size=16):
        self.model = model
        self.loader = DataLoader(train_dataset, batch_size=batch_size, shuffle=True, collate_fn=collate)
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=lr)

    def train(self, epochs=2):
        for epoch in range(epochs):
            for batch in self.loader:
                loss, _ = self.model(**batch)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    model = MiniBertForSequenceClassification(ClassifierConfig())
    Trainer(model, make_examples()).train()
