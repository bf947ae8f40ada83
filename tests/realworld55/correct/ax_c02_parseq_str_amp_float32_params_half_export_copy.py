"""Scene-text recognition training in the style of baudm/parseq's train.py (PARSeq #78 as in ax02) as the maintainer answered: precision=16 already is automatic mixed precision, so the model keeps its float32 parameters (no model.to(dtype=torch.half)); the forward runs under float16 autocast, the GradScaler unscales float32 gradients before clipping, and only a deep copy of the trained model is cast to float16 for export and half-precision inference
source: https://github.com/baudm/parseq/issues/78
reported-error: (none filed; the fixed situation of ax02)
outcome: ok
root-cause: -
expect: none
"""
import copy
import math
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
out_dir = tempfile.mkdtemp()
device = torch.device("cpu")

CHARSET = "0123456789abcdefghijklmnopqrstuvwxyz"
EOS, BOS, PAD = 0, len(CHARSET) + 1, len(CHARSET) + 2
MAX_LEN, IMG_H, IMG_W = 7, 32, 128


# ---- strhub/models/parseq: ViT encoder + a transformer decoder (left-to-right permutation only)
class PARSeq(nn.Module):
    def __init__(self, embed_dim=64, enc_depth=2, dec_depth=1, heads=4, patch=(4, 8)):
        super().__init__()
        self.patch_embed = nn.Conv2d(3, embed_dim, kernel_size=patch, stride=patch)
        n_patches = (IMG_H // patch[0]) * (IMG_W // patch[1])
        self.enc_pos = nn.Parameter(0.02 * torch.randn(1, n_patches, embed_dim))
        enc_layer = nn.TransformerEncoderLayer(embed_dim, heads, 4 * embed_dim, 0.1, batch_first=True, norm_first=True)
        self.encoder = nn.TransformerEncoder(enc_layer, enc_depth, enable_nested_tensor=False)
        self.text_embed = nn.Embedding(len(CHARSET) + 3, embed_dim)
        self.pos_queries = nn.Parameter(0.02 * torch.randn(1, MAX_LEN + 1, embed_dim))
        dec_layer = nn.TransformerDecoderLayer(embed_dim, heads, 4 * embed_dim, 0.1, batch_first=True, norm_first=True)
        self.decoder = nn.TransformerDecoder(dec_layer, dec_depth)
        self.head = nn.Linear(embed_dim, len(CHARSET) + 1)      # no BOS/PAD in the output space

    def forward(self, images, tgt_in):
        memory = self.encoder(self.patch_embed(images).flatten(2).transpose(1, 2) + self.enc_pos)
        L = tgt_in.shape[1]
        causal = torch.triu(torch.ones(L, L, dtype=torch.bool), diagonal=1)
        query = self.text_embed(tgt_in) * math.sqrt(self.text_embed.embedding_dim) + self.pos_queries[:, :L]
        return self.head(self.decoder(query, memory, tgt_mask=causal, tgt_key_padding_mask=tgt_in == PAD))


# ---- strhub/models/base.py CrossEntropySystem, reduced
class CrossEntropySystem(nn.Module):
    def __init__(self, lr=7e-4, weight_decay=0.0, batch_size=16, max_steps=20):
        super().__init__()
        self.model = PARSeq()
        self.lr, self.weight_decay, self.batch_size, self.max_steps = lr, weight_decay, batch_size, max_steps

    def configure_optimizers(self):
        lr = self.lr * math.sqrt(1) * self.batch_size / 256.    # lr scaled by devices and batch size
        optim = torch.optim.AdamW(self.parameters(), lr, weight_decay=self.weight_decay)
        sched = torch.optim.lr_scheduler.OneCycleLR(optim, lr, self.max_steps, pct_start=0.075, cycle_momentum=False)
        return optim, sched

    def training_step(self, batch):
        images, labels = batch
        tgt = torch.full((len(labels), MAX_LEN + 2), PAD, dtype=torch.long)
        tgt[:, 0] = BOS
        for i, s in enumerate(labels):
            ids = [CHARSET.index(c) + 1 for c in s] + [EOS]
            tgt[i, 1:1 + len(ids)] = torch.tensor(ids)
        tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
        logits = self.model(images, tgt_in)
        return F.cross_entropy(logits.flatten(end_dim=1), tgt_out.flatten(), ignore_index=PAD)


# ---- synthetic "word crops": one fixed random glyph per character, placed left to right, plus noise
GLYPHS = torch.rand(len(CHARSET), 3, IMG_H, 12) > 0.6


def make_batch(n):
    images = 0.1 * torch.randn(n, 3, IMG_H, IMG_W)
    labels = []
    for i in range(n):
        s = "".join(np.random.choice(list(CHARSET), np.random.randint(3, MAX_LEN + 1)))
        for j, c in enumerate(s):
            images[i, :, :, 8 + 16 * j: 20 + 16 * j] += GLYPHS[CHARSET.index(c)].float()
        labels.append(s)
    return (images - 0.5) / 0.5, labels


# ---- pytorch_lightning's precision=16 plugin (MixedPrecisionPlugin) and fit loop, reduced
class MixedPrecisionPlugin:
    def __init__(self, device_type):
        self.device_type = device_type
        self.scaler = torch.amp.GradScaler(device_type)

    def forward_context(self):
        return torch.autocast(self.device_type, dtype=torch.float16)

    def optimizer_step(self, optimizer, closure, gradient_clip_val):
        loss = closure()
        self.scaler.unscale_(optimizer)
        params = [p for g in optimizer.param_groups for p in g["params"]]
        torch.nn.utils.clip_grad_norm_(params, gradient_clip_val)
        self.scaler.step(optimizer)
        self.scaler.update()
        return loss


class Trainer:
    def __init__(self, max_steps, precision=16, gradient_clip_val=20):
        self.max_steps, self.gradient_clip_val = max_steps, gradient_clip_val
        self.precision_plugin = MixedPrecisionPlugin(device.type) if precision == 16 else None

    def fit(self, system):
        optim, sched = system.configure_optimizers()
        for step in range(self.max_steps):
            batch = make_batch(system.batch_size)

            def closure():
                optim.zero_grad()
                with self.precision_plugin.forward_context():
                    loss = system.training_step(batch)
                self.precision_plugin.scaler.scale(loss).backward()
                return loss
            loss = self.precision_plugin.optimizer_step(optim, closure, self.gradient_clip_val)
            sched.step()
            if step % 10 == 0:
                print(f"step {step} loss {loss.item():.4f}")


# ---- train.py: config.trainer.precision = 16, gradient_clip_val = 20
model = CrossEntropySystem(max_steps=20)
trainer = Trainer(max_steps=20, precision=16, gradient_clip_val=20)
trainer.fit(model)
torch.save(model.state_dict(), os.path.join(out_dir, "parseq_last.ckpt"))

# export: a float16 copy of the trained recogniser, greedy decoding in half precision
export = copy.deepcopy(model.model).half().eval()
images, labels = make_batch(1)
with torch.no_grad():
    tgt_in = torch.full((1, 1), BOS, dtype=torch.long)
    for _ in range(4):
        logits = export(images.half(), tgt_in)
        tgt_in = torch.cat([tgt_in, logits[:, -1].argmax(-1, keepdim=True)], 1)
print("export dtype", next(export.parameters()).dtype, "| first prediction ids", tgt_in[0, 1:].tolist(), "| label", labels[0])
torch.save(export.state_dict(), os.path.join(out_dir, "parseq_fp16.pt"))
