"""The SASRec-style recommender of be02 (pytorch/pytorch #147209) with a bool padding mask: src_key_padding_mask = (seq == PAD) blocks the padded keys, so one history scores the same whether it is padded to 20 or to 50 items and the training (train-mode) and serving (eval fast path) scores agree; a float keep-mask still zeroes the padded embeddings arithmetically, which is a correct use of a float mask, and the int64 id sequences come through torch.from_numpy
source: https://github.com/pytorch/pytorch/issues/147209
reported-error: (none filed; the fixed situation of be02)
outcome: ok
root-cause: -
expect: none
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
        keep = (seq != PAD).float()
        h = h * keep.unsqueeze(-1)
        pad_mask = seq == PAD
        h = self.encoder(h, src_key_padding_mask=pad_mask)
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
