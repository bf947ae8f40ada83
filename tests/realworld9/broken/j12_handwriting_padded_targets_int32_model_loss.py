"""Full-page handwriting recognition: the collate function pads the target character sequences into an np.full(..., dtype=np.int32) matrix, and the loss is computed inside the model's forward with nn.CrossEntropyLoss
source: https://github.com/tobiasvanderwerff/full-page-handwriting-recognition/issues/4
reported-error: RuntimeError: expected scalar type Long but found Int (in models.py forward: loss = self.loss_fn(...); the maintainer suspects an explicit cast to Long is needed)
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Int at line 51
root-cause: line 32
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

PAD, VOCAB = 0, 40


class IAMLines(Dataset):
    def __init__(self, n=24, seed=0):
        rng = np.random.default_rng(seed)
        self.imgs = [rng.random((1, 32, 128), dtype=np.float32) for _ in range(n)]
        self.targets = [rng.integers(1, VOCAB, rng.integers(5, 12)).tolist() for _ in range(n)]

    def __len__(self):
        return len(self.imgs)

    def __getitem__(self, i):
        return self.imgs[i], self.targets[i]


def pad_collate(batch):
    imgs, targets = zip(*batch)
    max_len = max(len(t) for t in targets)
    padded = np.full((len(targets), max_len), PAD, dtype=np.int32)  # root-cause
    for i, t in enumerate(targets):
        padded[i, : len(t)] = t
    return torch.from_numpy(np.stack(imgs)), torch.from_numpy(padded)


class FullPageHTREncoderDecoder(nn.Module):
    def __init__(self, d=32):
        super().__init__()
        self.encoder = nn.Sequential(nn.Conv2d(1, d, 3, stride=2, padding=1), nn.ReLU(), nn.AdaptiveAvgPool2d((1, 16)))
        self.embed = nn.Embedding(VOCAB, d)
        self.decoder = nn.GRU(d, d, batch_first=True)
        self.clf = nn.Linear(d, VOCAB)
        self.loss_fn = nn.CrossEntropyLoss(ignore_index=PAD)

    def forward(self, imgs, targets):
        memory = self.encoder(imgs).flatten(2).mean(-1).unsqueeze(0)
        h, _ = self.decoder(self.embed(targets), memory)
        logits = self.clf(h)
        loss = self.loss_fn(logits.transpose(1, 2), targets)  # fails-here
        return logits, loss


def main():
    model = FullPageHTREncoderDecoder()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-4)
    for imgs, targets in DataLoader(IAMLines(), batch_size=8, collate_fn=pad_collate):
        _, loss = model(imgs, targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("loss", loss.item())


if __name__ == "__main__":
    main()
