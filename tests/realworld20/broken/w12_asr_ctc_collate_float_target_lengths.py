"""Character-level speech recogniser (conv frontend + BiGRU + CTC): the padding collate function builds input and target lengths with the legacy torch.Tensor(list) constructor, so the lengths are float32 and nn.CTCLoss rejects them
source: https://github.com/pytorch/pytorch/issues/92606
reported-error: RuntimeError: target_lengths must be integral (a float32 target_lengths passed to CTCLoss)
outcome: RuntimeError: target_lengths must be integral at line 58
root-cause: line 37
expect: DG006
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
    target_lengths = torch.Tensor([t.numel() for t in targets])  # root-cause
    feats = nn.utils.rnn.pad_sequence(feats, batch_first=True)
    return feats, torch.cat(targets), input_lengths, target_lengths


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
        loss = ctc(log_probs, targets, input_lengths, target_lengths)  # fails-here
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss.item()


if __name__ == "__main__":
    loader = DataLoader(SyntheticSpeech(), batch_size=8, shuffle=True, collate_fn=pad_collate)
    model = SpeechRecognizer()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    print("ctc loss", train_epoch(model, loader, opt, nn.CTCLoss(blank=0, zero_infinity=True)))
