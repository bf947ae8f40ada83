"""Sentence-similarity fine-tuning: gold scores from pandas (numpy float64) collated with torch.tensor keep float64 into the MSE-based loss
source: https://github.com/huggingface/sentence-transformers/issues/770
reported-error: RuntimeError: Found dtype Double but expected Float
outcome: ok (silent: the MSELoss is computed in float64 because the target batch is float64; no error)
root-cause: line 58
expect: DG008
"""
import numpy as np
import pandas as pd
import torch
from torch import nn
from torch.utils.data import DataLoader


class InputExample:
    def __init__(self, texts, label=0):
        self.texts = texts
        self.label = label


class TinyEncoder(nn.Module):
    def __init__(self, vocab=500, dim=32):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab, dim)

    def forward(self, token_ids):
        return self.emb(token_ids)


def tokenize(sentence, maxlen=8):
    ids = [hash(w) % 500 for w in sentence.split()][:maxlen]
    return ids + [0] * (maxlen - len(ids))


def smart_batching_collate(batch):
    texts_a = torch.tensor([tokenize(ex.texts[0]) for ex in batch])
    texts_b = torch.tensor([tokenize(ex.texts[1]) for ex in batch])
    labels = torch.tensor([ex.label for ex in batch])
    return texts_a, texts_b, labels


class CosineSimilarityLoss(nn.Module):
    def __init__(self, model):
        super().__init__()
        self.model = model
        self.loss_fct = nn.MSELoss()

    def forward(self, a, b, labels):
        output = torch.cosine_similarity(self.model(a), self.model(b))
        return self.loss_fct(output, labels.view(-1))


df = pd.DataFrame({
    "sentence1": ["a man is playing", "a woman is cooking", "the cat sleeps", "kids play outside"] * 4,
    "sentence2": ["a man plays guitar", "someone is cooking", "a dog barks", "children play in a park"] * 4,
    "score": [4.2, 3.8, 0.4, 4.6] * 4,
})
scores = df["score"].values / 5.0  # root-cause
train_examples = [InputExample(texts=[s1, s2], label=score)
                  for s1, s2, score in zip(df["sentence1"], df["sentence2"], scores)]
train_dataloader = DataLoader(train_examples, shuffle=True, batch_size=4, collate_fn=smart_batching_collate)

model = TinyEncoder()
train_loss = CosineSimilarityLoss(model)
optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
for epoch in range(2):
    for a, b, labels in train_dataloader:
        optimizer.zero_grad()
        loss_value = train_loss(a, b, labels)
        loss_value.backward()
        optimizer.step()
    print(epoch, loss_value.dtype)
