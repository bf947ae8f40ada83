"""SamLynnEvans Transformer: nopeak mask moved to opt.device but the batch src/trg stay on the CPU when the masks are built
source: https://github.com/SamLynnEvans/Transformer/issues/27
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cpu and cuda:0! at line 34 (CPU trg_mask & cuda np_mask); on CPU: ok
root-cause: line 78 (alt 77)
expect: DG009
"""
import argparse
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.autograd import Variable


# --- Batch.py ----------------------------------------------------------------------------
def nopeak_mask(size, opt):
    np_mask = np.triu(np.ones((1, size, size)), k=1).astype('uint8')
    np_mask = Variable(torch.from_numpy(np_mask) == 0)
    np_mask = np_mask.to(opt.device)
    return np_mask


def create_masks(src, trg, opt):
    src_mask = (src != opt.src_pad).unsqueeze(-2)
    if trg is not None:
        trg_mask = (trg != opt.trg_pad).unsqueeze(-2)
        size = trg.size(1)  # get seq_len for matrix
        np_mask = nopeak_mask(size, opt)
        if trg.is_cuda:
            np_mask = np_mask.cuda()
        trg_mask = trg_mask & np_mask  # fails-here
    else:
        trg_mask = None
    return src_mask, trg_mask


# --- Models.py (shrunk) ------------------------------------------------------------------
class Transformer(nn.Module):
    def __init__(self, src_vocab, trg_vocab, d_model=32, heads=2):
        super().__init__()
        self.src_embed = nn.Embedding(src_vocab, d_model)
        self.trg_embed = nn.Embedding(trg_vocab, d_model)
        self.cross = nn.MultiheadAttention(d_model, heads, batch_first=True)
        self.self_attn = nn.MultiheadAttention(d_model, heads, batch_first=True)
        self.out = nn.Linear(d_model, trg_vocab)

    def forward(self, src, trg, src_mask, trg_mask):
        e = self.src_embed(src)
        d = self.trg_embed(trg)
        d, _ = self.self_attn(d, d, d, attn_mask=~trg_mask[0])
        d, _ = self.cross(d, e, e, key_padding_mask=~src_mask[:, 0])
        return self.out(d)


class Batch:
    def __init__(self, src, trg):
        self.src, self.trg = src, trg


def make_iterator(n_batches, batch_size, src_vocab, trg_vocab):
    for _ in range(n_batches):
        # torchtext batches are (seq_len, batch) and come out on the CPU
        yield Batch(torch.randint(2, src_vocab, (7, batch_size)), torch.randint(2, trg_vocab, (9, batch_size)))


# --- train.py ----------------------------------------------------------------------------
def train_model(model, opt):
    print("training model...")
    model.train()
    start = time.time()
    for epoch in range(opt.epochs):
        total_loss = 0
        for i, batch in enumerate(make_iterator(4, opt.batchsize, opt.src_vocab, opt.trg_vocab)):
            src = batch.src.transpose(0, 1)  # root-cause-alt
            trg = batch.trg.transpose(0, 1)  # root-cause
            trg_input = trg[:, :-1]
            src_mask, trg_mask = create_masks(src, trg_input, opt)
            preds = model(src, trg_input, src_mask, trg_mask)
            ys = trg[:, 1:].contiguous().view(-1)
            opt.optimizer.zero_grad()
            loss = F.cross_entropy(preds.view(-1, preds.size(-1)), ys, ignore_index=opt.trg_pad)
            loss.backward()
            opt.optimizer.step()
            total_loss += loss.item()
        print("%dm: epoch %d loss = %.3f" % ((time.time() - start) // 60, epoch + 1, total_loss / 4))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('-no_cuda', action='store_true')
    parser.add_argument('-epochs', type=int, default=2)
    parser.add_argument('-batchsize', type=int, default=4)
    parser.add_argument('-lr', type=int, default=0.0001)
    opt = parser.parse_args([])
    opt.device = 'cuda' if (not opt.no_cuda and torch.cuda.is_available()) else 'cpu'
    opt.src_vocab, opt.trg_vocab = 30, 40
    opt.src_pad, opt.trg_pad = 1, 1

    model = Transformer(opt.src_vocab, opt.trg_vocab)
    if opt.device == 'cuda':
        model = model.cuda()
    opt.optimizer = torch.optim.Adam(model.parameters(), lr=opt.lr, betas=(0.9, 0.98), eps=1e-9)
    train_model(model, opt)


if __name__ == "__main__":
    main()
