"""Character-level CTC recogniser whose collate builds the lengths with torch.tensor (int64) and keeps the concatenated targets as int32, which nn.CTCLoss accepts
source: https://github.com/pytorch/pytorch/issues/92606
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

VOCAB = "_ abcdefghijklmnopqrstuvwxyz'"


class SyntheticSpeech(Dataset):
    def __init__(self, n=32, n_mels=40, seed=0):
        rng = np.random.default_rng(seed)
        words = ["yes", "no", "left", "right", "stop go", "up down"]
        self.items = []
        for _ in range(n):
            text = words[rng.integers(len(words))]
            frames = 12 * len(text) + int(rng.integers(0, 10))
            self.items.append((rng.standard_normal((frames, n_mels)).astype(np.float32), text))

    def __len__(self):
        return len(self.items)

    def __getitem__(self, i):
        feats, text = self.items[i]
        return torch.from_numpy(feats), torch.tensor([VOCAB.index(c) for c in text])


def pad_collate(batch):
    feats, targets = zip(*batch)
    input_lengths = torch.tensor([f.shape[0] for f in feats])
    target_lengths = torch.tensor([t.numel() for t in targets])
    feats = nn.utils.rnn.pad_sequence(feats, batch_first=True)
    return feats, torch.cat(targets).int(), input_lengths, target_lengths


class SpeechRecognizer(nn.Module):
    def __init__(self, n_mels=40, hidden=64):
        super().__init__()
        self.conv = nn.Conv1d(n_mels, hidden, 5, padding=2)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True, bidirectional=True)
        self.out = nn.Linear(2 * hidden, len(VOCAB))

    def forward(self, x):
        h = torch.relu(self.conv(x.transpose(1, 2))).transpose(1, 2)
        h, _ = self.rnn(h)
        return self.out(h).log_softmax(-1)


def train_epoch(model, loader, opt, ctc):
    for feats, targets, input_lengths, target_lengths in loader:
        log_probs = model(feats).transpose(0, 1)
        loss = ctc(log_probs, targets, input_lengths, target_lengths)
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    loader = DataLoader(SyntheticSpeech(), batch_size=8, shuffle=True, collate_fn=pad_collate)
    model = SpeechRecognizer()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    print("ctc loss", train_epoch(model, loader, opt, nn.CTCLoss(blank=0, zero_infinity=True)))
