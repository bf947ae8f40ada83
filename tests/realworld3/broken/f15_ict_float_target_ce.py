"""ICT transformer: pixel cluster tokens stored as float and reused as cross_entropy targets
source: https://github.com/raywzy/ICT/issues/24
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #2 'target'
outcome: RuntimeError: expected target dtype to be Long or Byte, but got Float at line 51
root-cause: line 32
expect: DG006
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset


class ImageDataset(Dataset):
    """grayscale images quantized to a palette of `n_embd` clusters (one token per pixel)"""

    def __init__(self, clusters, n=16, size=8):
        rng = np.random.default_rng(0)
        self.clusters = clusters
        self.pts = rng.random((n, size * size))          # grayscale values in [0, 1]
        self.masks = (rng.random((n, size * size)) > 0.5)

    def __len__(self):
        return len(self.pts)

    def __getitem__(self, idx):
        x = self.pts[idx][:, None]
        # each pixel in x is assigned to its nearest cluster center
        d = ((x - self.clusters[None, :]) ** 2)
        x = np.argmin(d, axis=1)
        x = torch.tensor(x, dtype=torch.float)  # root-cause
        msk = torch.tensor(self.masks[idx], dtype=torch.float)
        return x, msk


class GPT(nn.Module):
    def __init__(self, vocab_size=16, n_embd=32, block_size=64):
        super().__init__()
        self.tok_emb = nn.Embedding(vocab_size, n_embd)
        self.pos_emb = nn.Parameter(torch.zeros(1, block_size, n_embd))
        self.blocks = nn.TransformerEncoder(nn.TransformerEncoderLayer(n_embd, 4, 64, batch_first=True), 1)
        self.head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx, targets=None, masks=None):
        token_embeddings = self.tok_emb(idx.long())
        x = token_embeddings + self.pos_emb[:, :idx.size(1)]
        logits = self.head(self.blocks(x))
        loss = None
        if targets is not None:
            loss = F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1), reduction='none')  # fails-here
            masks = masks.view(-1)
            loss = (loss * masks).sum() / masks.sum()
        return logits, loss


C = np.linspace(0, 1, 16)
loader = DataLoader(ImageDataset(C), batch_size=4, shuffle=True)
model = GPT()
optimizer = torch.optim.AdamW(model.parameters(), lr=3e-4)
for it, (x, y) in enumerate(loader):
    logits, loss = model(x, x, y)
    model.zero_grad()
    loss.backward()
    optimizer.step()
    print(it, loss.item())
