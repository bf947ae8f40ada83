"""The UniLM-style beam search of be04 (YunwenTechnology/Unilm #30) with integer back-pointers: back_ptrs = torch.div(k_ids, K, rounding_mode="floor") keeps them int64, so select_beam_items gathers the beam states and the best beam is traced back; the long first-step pointers from torch.zeros(..., dtype=torch.long) and the float beam masks from torch.eq(...).float() are kept
source: https://github.com/YunwenTechnology/Unilm/issues/30
reported-error: (none filed; the fixed situation of be04)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
VOCAB, PAD, CLS, SEP = 60, 0, 1, 2


class TinySeq2Seq(nn.Module):
    """Stand-in for the UniLM encoder/decoder: a GRU encoder and a GRU-cell decoder over shared token embeddings."""

    def __init__(self, vocab=VOCAB, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim, padding_idx=PAD)
        self.enc = nn.GRU(dim, dim, batch_first=True)
        self.cell = nn.GRUCell(dim, dim)
        self.out = nn.Linear(dim, vocab)

    def encode(self, src):
        return self.enc(self.emb(src))[1][0]

    def step(self, token, state):
        state = self.cell(self.emb(token), state)
        return F.log_softmax(self.out(state), dim=-1), state


class BertForSeq2SeqDecoder:
    def __init__(self, model, beam_size=4, max_len=12, eos_id=SEP):
        self.model, self.beam_size, self.max_len, self.eos_id = model, beam_size, max_len, eos_id

    def beam_search(self, src):
        K, batch_size = self.beam_size, src.size(0)
        state = self.model.encode(src)
        curr_ids = torch.full((batch_size,), CLS, dtype=torch.long)
        total_scores, beam_masks, step_ids, step_back_ptrs = [], [], [], []

        def first_expand(x):
            return x.unsqueeze(1).repeat(1, K, *([1] * (x.dim() - 1))).reshape(batch_size * K, *x.shape[1:])

        def select_beam_items(x, ids):
            x_shape = list(x.size())
            x = torch.reshape(x, [batch_size, K] + x_shape[1:])
            ids = torch.reshape(ids, list(ids.size()) + [1] * (len(x_shape) - 1)).expand([batch_size, K] + x_shape[1:])
            y = torch.gather(x, 1, ids)
            return torch.reshape(y, x_shape)

        for _ in range(self.max_len):
            log_scores, state = self.model.step(curr_ids, state)
            log_scores = torch.reshape(log_scores, [batch_size, -1, VOCAB])
            kk_scores, kk_ids = torch.topk(log_scores, k=K)
            if len(total_scores) == 0:
                k_ids = torch.reshape(kk_ids, [batch_size, K])
                back_ptrs = torch.zeros(batch_size, K, dtype=torch.long)
                k_scores = torch.reshape(kk_scores, [batch_size, K])
            else:
                last_eos = torch.reshape(beam_masks[-1], [batch_size * K, 1, 1])
                last_seq_scores = torch.reshape(total_scores[-1], [batch_size * K, 1, 1])
                kk_scores = torch.reshape(kk_scores, [batch_size * K, 1, K]) + last_eos * (-10000.0) + last_seq_scores
                kk_scores = torch.reshape(kk_scores, [batch_size, K * K])
                k_scores, k_ids = torch.topk(kk_scores, k=K)
                back_ptrs = torch.div(k_ids, K, rounding_mode="floor")
                kk_ids = torch.reshape(kk_ids, [batch_size, K * K])
                k_ids = torch.gather(kk_ids, 1, k_ids)
            step_back_ptrs.append(back_ptrs)
            step_ids.append(k_ids)
            beam_masks.append(torch.eq(k_ids, self.eos_id).float())
            total_scores.append(k_scores)
            if len(total_scores) == 1:
                state = first_expand(state)
            else:
                state = select_beam_items(state, back_ptrs)
            curr_ids = torch.reshape(k_ids, [batch_size * K])
            if beam_masks[-1].all():
                break

        # trace the best beam back through the pointers
        best = total_scores[-1].argmax(dim=1)
        tokens = []
        for ids, ptrs in zip(reversed(step_ids), reversed(step_back_ptrs)):
            tokens.append(ids.gather(1, best.unsqueeze(1)).squeeze(1))
            best = ptrs.gather(1, best.unsqueeze(1)).squeeze(1)
        return torch.stack(tokens[::-1], dim=1)


# teach the toy model to copy the source (a stand-in for fine-tuning on the news summaries)
model = TinySeq2Seq()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for it in range(60):
    src = torch.randint(3, VOCAB, (32, 6))
    state = model.encode(src)
    inp = torch.cat([torch.full((32, 1), CLS), src], dim=1)
    tgt = torch.cat([src, torch.full((32, 1), SEP)], dim=1)
    loss = 0.0
    for t in range(inp.size(1)):
        logp, state = model.step(inp[:, t], state)
        loss = loss + F.nll_loss(logp, tgt[:, t])
    opt.zero_grad()
    (loss / inp.size(1)).backward()
    opt.step()
print(f"train loss {loss.item() / 7:.3f}")

decoder = BertForSeq2SeqDecoder(model.eval(), beam_size=4)
with torch.no_grad():
    src = torch.randint(3, VOCAB, (3, 6))
    out = decoder.beam_search(src)
print("source: ", src.tolist())
print("decoded:", out.tolist())
