"""Handwritten math expression recognition with a BTTR-style model (Green-Wood/BTTR #17 as in at01) with the mask fixed: LitBTTR.beam_search builds the padding mask of the single image as a bool tensor (torch.zeros_like(img, dtype=torch.bool), the dtype of the collate function's training masks), so the subsampled mask reaches the decoder's memory_key_padding_mask as bool; the ~mask cumsum positional encoding, the bool causal mask built with fill_value=1, the tgt == PAD padding mask and the int64 beam hypotheses stay as they are
source: https://github.com/Green-Wood/BTTR/issues/17
reported-error: (none filed; the fixed situation of at01)
outcome: ok
root-cause: -
expect: none
"""
import math
import os
import tempfile

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(7)
out_dir = tempfile.mkdtemp()
VOCAB = ["<pad>", "<sos>", "<eos>", "x", "y", "2", "+", "-", "=", "\\frac", "{", "}", "^", "\\sqrt"]
PAD_IDX, SOS_IDX, EOS_IDX = 0, 1, 2
vocab_size = len(VOCAB)
GLYPHS = torch.rand(vocab_size, 16, 10) > 0.55  # one stroke pattern per symbol


def render(tokens):
    """A formula image: the symbols' glyphs side by side with some ink noise (1 x 16 x 10*len)."""
    img = torch.cat([GLYPHS[t].float() for t in tokens], dim=1)
    return (img + 0.1 * torch.randn_like(img)).clamp(0, 1).unsqueeze(0)


def collate_fn(samples):
    heights = [s[0].size(1) for s in samples]
    widths = [s[0].size(2) for s in samples]
    x = torch.zeros(len(samples), 1, max(heights), max(widths))
    x_mask = torch.ones(len(samples), max(heights), max(widths), dtype=torch.bool)
    for idx, (img, _) in enumerate(samples):
        x[idx, :, : heights[idx], : widths[idx]] = img
        x_mask[idx, : heights[idx], : widths[idx]] = 0
    return x, x_mask, [s[1] for s in samples]


class DenseNet(nn.Module):
    def __init__(self, growth_rate=8):
        super().__init__()
        c = 2 * growth_rate
        self.conv1 = nn.Conv2d(1, c, kernel_size=7, padding=3, stride=2, bias=False)
        self.dense1 = nn.Sequential(nn.BatchNorm2d(c), nn.ReLU(), nn.Conv2d(c, c, 3, padding=1, bias=False))
        self.trans1 = nn.Sequential(nn.BatchNorm2d(c), nn.ReLU(), nn.Conv2d(c, 2 * c, 1, bias=False))
        self.out_channels = 2 * c

    def forward(self, x, x_mask):
        out = self.conv1(x)
        out_mask = x_mask[:, 0::2, 0::2]
        out = F.max_pool2d(F.relu(out), 2, ceil_mode=True)
        out_mask = out_mask[:, 0::2, 0::2]
        out = self.trans1(out + self.dense1(out))
        out = F.avg_pool2d(out, 2, ceil_mode=True)
        out_mask = out_mask[:, 0::2, 0::2]
        return out, out_mask


class ImgPosEnc(nn.Module):
    def __init__(self, d_model, temperature=10000.0):
        super().__init__()
        self.half_d_model, self.temperature, self.scale = d_model // 2, temperature, 2 * math.pi

    def forward(self, x, mask):
        not_mask = ~mask
        y_embed = not_mask.cumsum(1, dtype=torch.float32)
        x_embed = not_mask.cumsum(2, dtype=torch.float32)
        y_embed = y_embed / (y_embed[:, -1:, :] + 1e-6) * self.scale
        x_embed = x_embed / (x_embed[:, :, -1:] + 1e-6) * self.scale
        dim_t = torch.arange(self.half_d_model, dtype=torch.float)
        inv_feq = 1.0 / (self.temperature ** (dim_t / self.half_d_model))
        pos_x = torch.einsum("bhw,d->bhwd", x_embed, inv_feq)
        pos_y = torch.einsum("bhw,d->bhwd", y_embed, inv_feq)
        pos_x = torch.stack((pos_x[..., 0::2].sin(), pos_x[..., 1::2].cos()), dim=4).flatten(3)
        pos_y = torch.stack((pos_y[..., 0::2].sin(), pos_y[..., 1::2].cos()), dim=4).flatten(3)
        return x + torch.cat((pos_x, pos_y), dim=3)


class Encoder(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.model = DenseNet()
        self.feature_proj = nn.Conv2d(self.model.out_channels, d_model, kernel_size=1)
        self.pos_enc_2d = ImgPosEnc(d_model)

    def forward(self, img, img_mask):
        feature, mask = self.model(img, img_mask)
        feature = self.feature_proj(feature).permute(0, 2, 3, 1)  # b h w d
        feature = self.pos_enc_2d(feature, mask)
        return feature.flatten(1, 2), mask.flatten(1)  # [b, t, d], [b, t]


class Decoder(nn.Module):
    def __init__(self, d_model, nhead=4, num_layers=2):
        super().__init__()
        self.word_embed = nn.Embedding(vocab_size, d_model)
        pe = torch.zeros(64, d_model)
        pos = torch.arange(64, dtype=torch.float).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2], pe[:, 1::2] = torch.sin(pos * div), torch.cos(pos * div)
        self.register_buffer("pe", pe)
        layer = nn.TransformerDecoderLayer(d_model, nhead, dim_feedforward=4 * d_model, dropout=0.1)
        self.model = nn.TransformerDecoder(layer, num_layers, nn.LayerNorm(d_model))
        self.proj = nn.Linear(d_model, vocab_size)

    def forward(self, src, src_mask, tgt):
        length = tgt.size(1)
        tgt_mask = torch.full((length, length), fill_value=1, dtype=torch.bool).triu_(1)
        tgt_pad_mask = tgt == PAD_IDX
        tgt = self.word_embed(tgt) + self.pe[:length]
        out = self.model(tgt=tgt.transpose(0, 1), memory=src.transpose(0, 1), tgt_mask=tgt_mask,
                         tgt_key_padding_mask=tgt_pad_mask, memory_key_padding_mask=src_mask)
        return self.proj(out.transpose(0, 1))

    @torch.no_grad()
    def beam_search(self, src, mask, beam_size=3, max_len=12):
        hyps, scores, done = torch.full((1, 1), SOS_IDX, dtype=torch.long), torch.zeros(1), []
        for _ in range(max_len):
            b = hyps.size(0)
            log_p = F.log_softmax(self(src.expand(b, -1, -1), mask.expand(b, -1), hyps)[:, -1], dim=-1)
            cand = (scores.unsqueeze(1) + log_p).flatten()
            top_scores, top_pos = cand.topk(min(beam_size, cand.numel()))
            prev, word = top_pos // vocab_size, top_pos % vocab_size
            hyps = torch.cat([hyps[prev], word.unsqueeze(1)], dim=1)
            keep = word != EOS_IDX
            done += [(s.item(), h[1:-1].tolist()) for s, h, k in zip(top_scores, hyps, keep) if not k]
            hyps, scores = hyps[keep], top_scores[keep]
            if len(done) >= beam_size or hyps.size(0) == 0:
                break
        done += [(s.item(), h[1:].tolist()) for s, h in zip(scores, hyps)]
        return max(done, key=lambda d: d[0] / max(len(d[1]), 1))[1]


class LitBTTR(nn.Module):
    def __init__(self, d_model=64):
        super().__init__()
        self.encoder, self.decoder = Encoder(d_model), Decoder(d_model)

    def forward(self, img, img_mask, tgt):
        feature, mask = self.encoder(img, img_mask)
        return self.decoder(torch.cat((feature, feature)), torch.cat((mask, mask)), tgt)  # l2r and r2l halves

    def beam_search(self, img):
        """for inference, one image at a time: img [1, h, w]"""
        assert img.dim() == 3
        img_mask = torch.zeros_like(img, dtype=torch.bool)  # squeeze channel; True marks padding
        feature, mask = self.encoder(img.unsqueeze(0), img_mask)
        return " ".join(VOCAB[i] for i in self.decoder.beam_search(feature, mask))


def to_bi_tgt_out(seqs):
    l2r = [[SOS_IDX] + s + [EOS_IDX] for s in seqs]
    r2l = [[EOS_IDX] + s[::-1] + [SOS_IDX] for s in seqs]
    both = l2r + r2l
    full = torch.full((len(both), max(map(len, both))), PAD_IDX, dtype=torch.long)
    for i, s in enumerate(both):
        full[i, : len(s)] = torch.tensor(s)
    return full[:, :-1], full[:, 1:]


def random_formula():
    return torch.randint(3, vocab_size, (int(torch.randint(2, 7, (1,))),)).tolist()


train_set = [(render(f), f) for f in (random_formula() for _ in range(96))]
model = LitBTTR()
optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0, eps=1e-6, weight_decay=1e-4)
for epoch in range(3):
    model.train()
    perm = torch.randperm(len(train_set)).tolist()
    for i in range(0, len(perm), 8):
        imgs, mask, seqs = collate_fn([train_set[j] for j in perm[i:i + 8]])
        tgt, out = to_bi_tgt_out(seqs)
        logits = model(imgs, mask, tgt)
        loss = F.cross_entropy(logits.reshape(-1, vocab_size), out.reshape(-1), ignore_index=PAD_IDX)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} train_loss {loss.item():.4f}")
torch.save(model.state_dict(), os.path.join(out_dir, "bttr.pt"))

model.eval()
test_formula = random_formula()
img = render(test_formula)[0].unsqueeze(0)  # ToTensor()(PIL image): [1, h, w]
print("target:", " ".join(VOCAB[t] for t in test_formula))
print("predicted:", model.beam_search(img))
