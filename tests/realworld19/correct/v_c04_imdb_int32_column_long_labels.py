"""Sentiment fine-tuning loop on a review table whose 'sentiment' column is int32: the Dataset converts the column with .long() when it builds the label tensor, so cross-entropy receives int64 class indices
source: https://github.com/rasbt/machine-learning-book/issues/192
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset


def load_reviews(n=96, seed=0):
    rng = np.random.default_rng(seed)
    pos = ["great", "loved", "wonderful", "fun"]
    neg = ["boring", "awful", "waste", "bad"]
    rows = []
    for _ in range(n):
        s = int(rng.integers(0, 2))
        words = rng.choice(pos if s else neg, 5).tolist() + rng.choice(["movie", "plot", "acting"], 3).tolist()
        rows.append((" ".join(words), s))
    df = pd.DataFrame(rows, columns=["review", "sentiment"])
    return df.astype({"sentiment": "int32"})


class SimpleTokenizer:
    def __init__(self, texts, max_length=12):
        words = sorted({w for t in texts for w in t.split()})
        self.vocab = {"[PAD]": 0, "[CLS]": 1, **{w: i + 2 for i, w in enumerate(words)}}
        self.max_length = max_length

    def __call__(self, text):
        ids = [1] + [self.vocab.get(w, 0) for w in text.split()][: self.max_length - 1]
        mask = [1] * len(ids) + [0] * (self.max_length - len(ids))
        return ids + [0] * (self.max_length - len(ids)), mask


class IMDBDataset(Dataset):
    def __init__(self, df, tokenizer):
        enc = [tokenizer(t) for t in df["review"]]
        self.input_ids = torch.tensor([e[0] for e in enc])
        self.attention_mask = torch.tensor([e[1] for e in enc])
        self.labels = torch.from_numpy(df["sentiment"].values).long()

    def __len__(self):
        return len(self.labels)

    def __getitem__(self, i):
        return {"input_ids": self.input_ids[i], "attention_mask": self.attention_mask[i], "labels": self.labels[i]}


class TinyForSequenceClassification(nn.Module):
    def __init__(self, vocab_size, dim=32, num_labels=2):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        layer = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, 2)
        self.classifier = nn.Linear(dim, num_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.encoder(self.embed(input_ids), src_key_padding_mask=attention_mask == 0)
        logits = self.classifier(h[:, 0])
        loss = None
        if labels is not None:
            loss = nn.functional.cross_entropy(logits, labels)
        return {"loss": loss, "logits": logits}


if __name__ == "__main__":
    df = load_reviews()
    tok = SimpleTokenizer(df["review"])
    train_loader = DataLoader(IMDBDataset(df, tok), batch_size=16, shuffle=True)
    model = TinyForSequenceClassification(len(tok.vocab))
    optim = torch.optim.Adam(model.parameters(), lr=5e-4)
    for epoch in range(2):
        model.train()
        for batch_idx, batch in enumerate(train_loader):
            outputs = model(batch["input_ids"], attention_mask=batch["attention_mask"], labels=batch["labels"])
            loss, logits = outputs["loss"], outputs["logits"]
            optim.zero_grad()
            loss.backward()
            optim.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")
