"""Multimodal NMT on Multi30k-like data, MNMT/OpenNMT-py style (re-typed NMTImgWModel: global image features projected into two extra source 'words', an RNN encoder, a decoder with Luong GlobalAttention, and TrainerMultimodal feeding (src, lengths, tgt, img_feats) from hdf5-like feature arrays): GlobalAttention masks the padded source positions with align.masked_fill_(1 - mask, -inf), but sequence_mask builds the mask with .lt(), a bool tensor, so the subtraction is refused at the first training batch
source: https://github.com/Eurus-Holmes/MNMT/issues/4
reported-error: "RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead." (see OpenNMT-py issue 1524); fix: change align.masked_fill_(1 - mask, -float('inf')) to align.masked_fill_(~mask, -float('inf'))
outcome: RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead. at line 36
root-cause: line 36
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)
SRC_VOCAB, TGT_VOCAB, PAD, BOS, EOS = 120, 100, 1, 2, 3
EMB, HID, IMG_DIM = 32, 64, 512


def sequence_mask(lengths, max_len=None):
    """Creates a boolean mask from sequence lengths."""
    batch_size = lengths.numel()
    max_len = max_len or lengths.max()
    return torch.arange(0, max_len).type_as(lengths).repeat(batch_size, 1).lt(lengths.unsqueeze(1))


class GlobalAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.linear_in = nn.Linear(dim, dim, bias=False)
        self.linear_out = nn.Linear(dim * 2, dim, bias=False)

    def forward(self, input, context, context_lengths):
        batch, sourceL, dim = context.size()
        align = torch.bmm(self.linear_in(input), context.transpose(1, 2))  # (batch, tgt_len, src_len), "general"
        mask = sequence_mask(context_lengths, max_len=sourceL).unsqueeze(1)  # Make it broadcastable.
        align.masked_fill_(1 - mask, -float("inf"))  # root-cause  # fails-here
        align_vectors = F.softmax(align, -1)
        c = torch.bmm(align_vectors, context)
        attn_h = torch.tanh(self.linear_out(torch.cat([c, input], 2)))
        return attn_h, align_vectors


class NMTImgWModel(nn.Module):
    """'imgw': the projected image features are used as the first and the last source words."""

    def __init__(self):
        super().__init__()
        self.src_emb = nn.Embedding(SRC_VOCAB, EMB, padding_idx=PAD)
        self.tgt_emb = nn.Embedding(TGT_VOCAB, EMB, padding_idx=PAD)
        self.img_to_emb = nn.Sequential(nn.Linear(IMG_DIM, EMB), nn.Tanh(), nn.Linear(EMB, EMB))
        self.encoder = nn.GRU(EMB, HID, batch_first=True)
        self.decoder = nn.GRU(EMB, HID, batch_first=True)
        self.attn = GlobalAttention(HID)
        self.generator = nn.Sequential(nn.Linear(HID, TGT_VOCAB), nn.LogSoftmax(dim=-1))

    def forward(self, src, tgt, lengths, img_feats):
        img_word = self.img_to_emb(img_feats).unsqueeze(1)
        emb = torch.cat([img_word, self.src_emb(src), img_word], dim=1)
        lengths = lengths + 2
        memory_bank, enc_final = self.encoder(emb)
        dec_out, _ = self.decoder(self.tgt_emb(tgt[:, :-1]), enc_final)
        attn_h, attns = self.attn(dec_out, memory_bank, lengths)
        return self.generator(attn_h), attns


class TrainerMultimodal:
    def __init__(self, model, optim, train_img_feats):
        self.model, self.optim, self.train_img_feats = model, optim, train_img_feats

    def train(self, batches, epoch):
        self.model.train()
        total, n_words = 0.0, 0
        for idxs, src, lengths, tgt in batches:
            # load image features for this minibatch into a pytorch Variable
            img_feats = torch.from_numpy(self.train_img_feats[idxs])
            log_probs, _ = self.model(src, tgt, lengths, img_feats)
            gold = tgt[:, 1:]
            loss = F.nll_loss(log_probs.reshape(-1, TGT_VOCAB), gold.reshape(-1), ignore_index=PAD, reduction="sum")
            self.optim.zero_grad()
            (loss / (gold != PAD).sum()).backward()
            self.optim.step()
            total, n_words = total + loss.item(), n_words + (gold != PAD).sum().item()
        print("Epoch %d, train ppl %.2f" % (epoch, np.exp(total / n_words)))


def make_batches(n=96, batch_size=16):
    """Length-sorted Multi30k-like minibatches (torchtext's sort_within_batch), with the sentence indices."""
    pairs = []
    for _ in range(n):
        s_len, t_len = int(rng.integers(5, 13)), int(rng.integers(5, 13))
        pairs.append((rng.integers(4, SRC_VOCAB, s_len), rng.integers(4, TGT_VOCAB, t_len)))
    batches = []
    for b in range(0, n, batch_size):
        idxs = np.arange(b, min(b + batch_size, n))
        idxs = idxs[np.argsort([-len(pairs[i][0]) for i in idxs])]
        s_max = max(len(pairs[i][0]) for i in idxs)
        t_max = max(len(pairs[i][1]) for i in idxs) + 2
        src = torch.full((len(idxs), s_max), PAD, dtype=torch.long)
        tgt = torch.full((len(idxs), t_max), PAD, dtype=torch.long)
        for row, i in enumerate(idxs):
            s, t = pairs[i]
            src[row, : len(s)] = torch.from_numpy(s)
            tgt[row, : len(t) + 2] = torch.from_numpy(np.concatenate([[BOS], t, [EOS]]))
        lengths = torch.tensor([len(pairs[i][0]) for i in idxs])
        batches.append((idxs, src, lengths, tgt))
    return batches


# global image features as written by extract_image_features.py (float32 'global_feats' in the hdf5 file)
train_img_feats = rng.standard_normal((96, IMG_DIM)).astype(np.float32)
model = NMTImgWModel()
trainer = TrainerMultimodal(model, torch.optim.Adam(model.parameters(), lr=2e-3), train_img_feats)
batches = make_batches()
for epoch in range(1, 4):
    trainer.train(batches, epoch)
