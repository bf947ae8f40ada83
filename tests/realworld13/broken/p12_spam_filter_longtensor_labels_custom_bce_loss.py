"""Bag-of-words spam filter: the SmsDataset returns labels built with torch.LongTensor, and a custom LabelSmoothedBCE loss class calls F.binary_cross_entropy on sigmoid outputs with those Long targets
source: https://github.com/pytorch/pytorch/issues/3320
reported-error: TypeError: is_same_size received an invalid combination of arguments - got (torch.FloatTensor), but expected (torch.LongTensor other) (binary_cross_entropy with a LongTensor target)
outcome: RuntimeError: Found dtype Long but expected Float at line 46
root-cause: line 37
expect: DG007
"""
import re

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

MESSAGES = [
    ("WIN a FREE prize now, call 0800", 1), ("are we still on for lunch", 0),
    ("URGENT your account won cash claim now", 1), ("see you at the station at 6", 0),
    ("free entry in a weekly draw txt WIN", 1), ("can you pick up milk on the way", 0),
    ("you have been selected for a prize", 1), ("running late, start without me", 0),
] * 4


class SmsDataset(Dataset):
    def __init__(self, messages):
        words = sorted({w for text, _ in messages for w in re.findall(r"\w+", text.lower())})
        self.vocab = {w: i for i, w in enumerate(words)}
        self.messages = messages

    def __len__(self):
        return len(self.messages)

    def __getitem__(self, i):
        text, label = self.messages[i]
        bow = torch.zeros(len(self.vocab))
        for w in re.findall(r"\w+", text.lower()):
            bow[self.vocab[w]] += 1
        return bow, torch.LongTensor([label])  # root-cause


class LabelSmoothedBCE(nn.Module):
    def __init__(self, smoothing=0.0):
        super().__init__()
        self.smoothing = smoothing

    def forward(self, probs, target):
        loss = F.binary_cross_entropy(probs, target)  # fails-here
        return (1 - self.smoothing) * loss + self.smoothing * 0.5


dataset = SmsDataset(MESSAGES)
model = nn.Sequential(nn.Linear(len(dataset.vocab), 1), nn.Sigmoid())
criterion = LabelSmoothedBCE()
opt = torch.optim.SGD(model.parameters(), lr=0.5)
for epoch in range(3):
    for bow, label in DataLoader(dataset, batch_size=8, shuffle=True):
        loss = criterion(model(bow), label)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(f"epoch {epoch}: {loss.item():.4f}")
