"""Seq2seq Transformer translation training (SamLynnEvans/Transformer layout): opt.device is the integer 0 on a GPU machine, the batch iterator follows torchtext and keeps its batches on the CPU unless it is given a torch.device or string, while nopeak_mask moves the look-ahead mask to CUDA because opt.device == 0, so create_masks combines a CPU padding mask with a CUDA no-peek mask
source: https://github.com/SamLynnEvans/Transformer/issues/30
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (Batch.py line 26, create_masks, trg_mask = trg_mask & np_mask; preceded by "The `device` argument should be set by using `torch.device` or passing a string as an argument. This behavior will be deprecated soon and currently defaults to cpu.")
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (the look-ahead mask is moved to CUDA because opt.device == 0 while the batches stay on the CPU; wording varies with the torch version; not run on a GPU for this set) at line 31; on CPU: ok
root-cause: line 56
expect: DG009
"""
import argparse
import warnings

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- Batch.py
def nopeak_mask(size, opt):
    np_mask = np.triu(np.ones((1, size, size)), k=1).astype("uint8")
    np_mask = torch.from_numpy(np_mask) == 0
    if opt.device == 0:
        np_mask = np_mask.cuda()
    return np_mask


def create_masks(src, trg, opt):
    src_mask = (src != opt.src_pad).unsqueeze(-2)
    trg_mask = (trg != opt.trg_pad).unsqueeze(-2)
    size = trg.size(1)
    np_mask = nopeak_mask(size, opt)
    trg_mask = trg_mask & np_mask  # fails-here
    return src_mask, trg_mask


class MyIterator:
    """torchtext.data.BucketIterator stand-in: device must be a torch.device or a string."""

    def __init__(self, pairs, batch_size, device=None):
        if not isinstance(device, (torch.device, str)):
            warnings.warn("The `device` argument should be set by using `torch.device` or passing a string as an "
                          "argument. This behavior will be deprecated soon and currently defaults to cpu.")
            device = "cpu"
        self.pairs, self.batch_size, self.device = pairs, batch_size, torch.device(device)

    def __iter__(self):
        for i in range(0, len(self.pairs), self.batch_size):
            src, trg = zip(*self.pairs[i:i + self.batch_size])
            yield torch.stack(src).t().to(self.device), torch.stack(trg).t().to(self.device)


# ---- Process.py
def create_dataset(opt, n=32, seed=0):
    g = torch.Generator().manual_seed(seed)
    pairs = [(torch.randint(3, opt.src_vocab, (opt.max_strlen,), generator=g),
              torch.randint(3, opt.trg_vocab, (opt.max_strlen + 1,), generator=g)) for _ in range(n)]
    return MyIterator(pairs, batch_size=opt.batchsize, device=opt.device)  # root-cause


# ---- Models.py
class Transformer(nn.Module):
    def __init__(self, src_vocab, trg_vocab, d_model, heads):
        super().__init__()
        self.src_embed = nn.Embedding(src_vocab, d_model)
        self.trg_embed = nn.Embedding(trg_vocab, d_model)
        self.attn = nn.MultiheadAttention(d_model, heads, batch_first=True)
        self.out = nn.Linear(d_model, trg_vocab)

    def forward(self, src, trg, src_mask, trg_mask):
        e_outputs = self.src_embed(src)
        x = self.trg_embed(trg)
        attn_mask = ~trg_mask[0]
        x, _ = self.attn(x, x, x, attn_mask=attn_mask)
        memory = e_outputs.masked_fill(~src_mask.transpose(1, 2), 0.0).mean(1, keepdim=True)
        return self.out(x + memory)


# ---- train.py
def train_model(model, opt):
    model.train()
    for epoch in range(opt.epochs):
        total_loss = 0.0
        for src, trg in opt.train:
            src, trg = src.transpose(0, 1), trg.transpose(0, 1)
            trg_input = trg[:, :-1]
            src_mask, trg_mask = create_masks(src, trg_input, opt)
            preds = model(src, trg_input, src_mask, trg_mask)
            ys = trg[:, 1:].contiguous().view(-1)
            opt.optimizer.zero_grad()
            loss = F.cross_entropy(preds.view(-1, preds.size(-1)), ys, ignore_index=opt.trg_pad)
            loss.backward()
            opt.optimizer.step()
            total_loss += loss.item()
        print(f"epoch {epoch + 1} loss = {total_loss:.3f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("-no_cuda", action="store_true")
    parser.add_argument("-epochs", type=int, default=2)
    parser.add_argument("-d_model", type=int, default=32)
    parser.add_argument("-heads", type=int, default=4)
    parser.add_argument("-batchsize", type=int, default=8)
    parser.add_argument("-max_strlen", type=int, default=10)
    opt = parser.parse_args([])
    opt.device = 0 if opt.no_cuda is False and torch.cuda.is_available() else -1
    opt.src_vocab, opt.trg_vocab, opt.src_pad, opt.trg_pad = 50, 60, 1, 1
    opt.train = create_dataset(opt)
    model = Transformer(opt.src_vocab, opt.trg_vocab, opt.d_model, opt.heads)
    if opt.device == 0:
        model = model.cuda()
    opt.optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.98), eps=1e-9)
    train_model(model, opt)


if __name__ == "__main__":
    torch.manual_seed(0)
    main()
