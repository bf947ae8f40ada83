"""Binary sentiment classifier written as a Lightning-style module in plain torch: the Dataset wraps 0/1 labels in torch.LongTensor and training_step feeds them to nn.BCELoss
source: https://github.com/pytorch/pytorch/issues/2220
reported-error: TypeError: FloatBCECriterion_updateOutput received an invalid combination of arguments - got (int, torch.FloatTensor, torch.LongTensor, torch.FloatTensor, bool, NoneType)
outcome: RuntimeError: Found dtype Long but expected Float at line 49
root-cause: line 34
expect: DG007
"""
import random

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

POS = ["good", "great", "fun", "love", "nice"]
NEG = ["bad", "boring", "awful", "hate", "dull"]
VOCAB = {w: i + 1 for i, w in enumerate(POS + NEG + ["the", "movie", "was", "a"])}


class ReviewDataset(Dataset):
    def __init__(self, n=64, max_len=6, seed=0):
        random.seed(seed)
        self.items = []
        for _ in range(n):
            label = random.randint(0, 1)
            words = ["the", "movie", "was"] + random.sample(POS if label else NEG, 2)
            ids = [VOCAB[w] for w in words][:max_len]
            self.items.append((ids + [0] * (max_len - len(ids)), label))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        ids, label = self.items[i]
        return torch.LongTensor(ids), torch.LongTensor([label])  # root-cause


class SentimentModule(nn.Module):
    def __init__(self, vocab_size=len(VOCAB) + 1, dim=16):
        super().__init__()
        self.emb = nn.EmbeddingBag(vocab_size, dim, mode="mean")
        self.head = nn.Linear(dim, 1)
        self.loss_fn = nn.BCELoss()

    def forward(self, ids):
        return torch.sigmoid(self.head(self.emb(ids)))

    def training_step(self, batch, batch_idx):
        ids, y = batch
        return self.loss_fn(self(ids), y)  # fails-here

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.5)


def fit(module, loader, max_epochs=2):
    opt = module.configure_optimizers()
    for epoch in range(max_epochs):
        for batch_idx, batch in enumerate(loader):
            loss = module.training_step(batch, batch_idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch} train_loss {loss.item():.4f}")


fit(SentimentModule(), DataLoader(ReviewDataset(), batch_size=16, shuffle=True))
