"""A SASRec-style next-item recommender (item-id sequences left-padded with 0, a TransformerEncoder over item embeddings) builds its padding mask as (seq == PAD).float(); a float src_key_padding_mask is added to the attention scores (+1 on padded keys) instead of masking them, so during training the same history scores differently depending on how much padding it got (and differently from the eval fast path, which turns the mask into a bool one), silently
source: https://github.com/pytorch/pytorch/issues/147209
reported-error: "Passing src_key_padding_mask as bool vs float causes different outputs from nn.TransformerEncoderLayer" (closed as expected behaviour: a float mask is added to the attention weights, only a bool mask blocks the padded positions)
outcome: ok (silent: the float padding mask (seq == PAD).float() passed as src_key_padding_mask at line 31 is added to the attention scores, so one history padded to 20 and to 50 items gets different next-item scores, printed in training mode as "max |score(pad 20) - score(pad 50)|" well above float32 noise; the eval-mode fast path treats the mask as bool, so training and serving scores also disagree)
root-cause: line 30
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
rng = np.random.default_rng(0)
PAD, N_ITEMS, MAX_LEN = 0, 300, 50


class SASRec(nn.Module):
    def __init__(self, n_items, dim=32, heads=2, layers=2, max_len=MAX_LEN):
        super().__init__()
        self.item_emb = nn.Embedding(n_items + 1, dim, padding_idx=PAD)
        self.pos_emb = nn.Embedding(max_len, dim)
        layer = nn.TransformerEncoderLayer(dim, heads, 2 * dim, dropout=0.0, batch_first=True)
        self.encoder = nn.TransformerEncoder(layer, layers)
        self.norm = nn.LayerNorm(dim)

    def forward(self, seq):
        positions = torch.arange(seq.size(1) - 1, -1, -1).unsqueeze(0)  # counted back from the newest item
        h = self.item_emb(seq) + self.pos_emb(positions)
        pad_mask = (seq == PAD).float()  # root-cause
        h = self.encoder(h, src_key_padding_mask=pad_mask)  # fails-here
        return self.norm(h[:, -1])

    def scores(self, seq):
        return self(seq) @ self.item_emb.weight[1:].T


def left_pad(history, length):
    out = np.full(length, PAD, dtype=np.int64)
    out[-len(history):] = history[-length:]
    return out


# synthetic sessions: users walk through item "chains" with some noise
histories = []
for _ in range(400):
    start, n = rng.integers(1, N_ITEMS - 30), rng.integers(4, 20)
    histories.append(np.clip(start + np.arange(n) + rng.integers(-1, 2, n), 1, N_ITEMS))

model = SASRec(N_ITEMS)
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for epoch in range(3):
    total = 0.0
    for i in range(0, len(histories), 32):
        batch = histories[i:i + 32]
        seqs = torch.from_numpy(np.stack([left_pad(h[:-1], MAX_LEN) for h in batch]))
        targets = torch.tensor([int(h[-1]) - 1 for h in batch])
        loss = F.cross_entropy(model.scores(seqs), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(f"epoch {epoch}: loss {total:.2f}")

# the same user history in a batch of short sessions (padded to 20) and of long ones (padded to 50):
# the training loop's view (train mode, dropout 0) and the serving view (eval mode, nested-tensor fast path)
history = histories[0][:-1]
short_seq = torch.from_numpy(left_pad(history, 20)).unsqueeze(0)
long_seq = torch.from_numpy(left_pad(history, MAX_LEN)).unsqueeze(0)
with torch.no_grad():
    short, long = model.scores(short_seq), model.scores(long_seq)
    model.eval()
    served = model.scores(long_seq)
diff = (short - long).abs().max().item()
skew = (long - served).abs().max().item()
print(f"history of {len(history)} items, training view: max |score(pad 20) - score(pad 50)| = {diff:.4f}")
print(f"training view vs serving view of the pad-50 batch: max |score difference| = {skew:.4f}")
print("top-5 (pad 20):", short.topk(5).indices.add(1).tolist(), " top-5 (pad 50):", long.topk(5).indices.add(1).tolist())
