"""A small causal language model on nn.MultiheadAttention enforces causality with attn_mask = torch.tril(torch.ones(L, L)), a multiplicative 0/1 mask; a float attn_mask is added to the scores, so every future position gets +0 instead of -inf, nothing is masked, and the model learns to copy the next token (loss near 0, outputs at position 0 depend on the last token)
source: https://github.com/pytorch/pytorch/issues/21518
reported-error: (silent) "attn_mask = torch.tril(torch.ones((8,8))) ... to enforce causality, but the returned attention weights suggest" the future positions are attended; `attn_mask` in nn.MultiheadAttention is additive (-inf masks values), not the standard multiplicative mask (0 masks values)
outcome: ok (silent: the float 0/1 mask is added to the scores, so no future position is masked; on random tokens the next-token loss falls to about 0.34 against a chance level of 2.77 by step 299, and changing only the last token moves the outputs at position 0: "future-token leak at position 0: 0.092746")
root-cause: line 37
expect: DG004
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, SEQ, D_MODEL, HEADS = 16, 8, 32, 2


class CausalBlock(nn.Module):
    def __init__(self):
        super().__init__()
        self.mha = nn.MultiheadAttention(D_MODEL, HEADS)  # (L, N, E) inputs, as in the thread
        self.ln1, self.ln2 = nn.LayerNorm(D_MODEL), nn.LayerNorm(D_MODEL)
        self.ff = nn.Sequential(nn.Linear(D_MODEL, 4 * D_MODEL), nn.GELU(), nn.Linear(4 * D_MODEL, D_MODEL))

    def forward(self, x, attn_mask):
        h = self.ln1(x)
        a, _ = self.mha(h, h, h, attn_mask=attn_mask)
        x = x + a
        return x + self.ff(self.ln2(x))


class TinyLM(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB, D_MODEL)
        self.pos = nn.Embedding(SEQ, D_MODEL)
        self.blocks = nn.ModuleList([CausalBlock() for _ in range(2)])
        self.head = nn.Linear(D_MODEL, VOCAB)
        attn_mask = torch.tril(torch.ones((SEQ, SEQ)))  # root-cause
        self.register_buffer("attn_mask", attn_mask)

    def forward(self, idx):  # idx: (L, N) token ids
        x = self.tok(idx) + self.pos(torch.arange(idx.size(0)))[:, None, :]
        for blk in self.blocks:
            x = blk(x, self.attn_mask)
        return self.head(x)


def batch(n=32):
    seq = torch.randint(0, VOCAB, (SEQ + 1, n))  # random tokens: the next one cannot be predicted from the past
    return seq[:-1], seq[1:]


model = TinyLM()
opt = torch.optim.Adam(model.parameters(), lr=3e-3)
for step in range(300):
    inp, tgt = batch()
    loss = F.cross_entropy(model(inp).reshape(-1, VOCAB), tgt.reshape(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 100 == 0 or step == 299:
        print(f"step {step} next-token loss {loss.item():.4f} (chance level {torch.log(torch.tensor(float(VOCAB))).item():.4f})")

model.eval()
with torch.no_grad():
    inp, _ = batch(4)
    changed = inp.clone()
    changed[-1] = (changed[-1] + 1) % VOCAB  # change only the last token
    leak = (model(inp)[0] - model(changed)[0]).abs().max().item()
print(f"future-token leak at position 0: {leak:.6f}")
