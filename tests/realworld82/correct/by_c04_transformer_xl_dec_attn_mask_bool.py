"""The Transformer-XL LM of by04 (kimiyoung/transformer-xl #115) with the fix given in the thread: MemTransformerLM._forward builds the causal mask with .bool() instead of .byte(), so RelPartialLearnableMultiHeadAttn's masked_fill accepts it and the model trains over consecutive segments with memory; the float `torch.ger` positional embedding of a float arange and the masked_fill in float32 of a score tensor are kept
source: https://github.com/kimiyoung/transformer-xl/issues/115
reported-error: (none filed; the fixed situation of by04)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
N_TOKEN, N_LAYER, N_HEAD, D_MODEL, D_HEAD, D_INNER = 200, 2, 2, 32, 16, 64
TGT_LEN, MEM_LEN, BSZ = 12, 12, 4


class PositionalEmbedding(nn.Module):
    def __init__(self, demb):
        super().__init__()
        self.demb = demb
        inv_freq = 1 / (10000 ** (torch.arange(0.0, demb, 2.0) / demb))
        self.register_buffer("inv_freq", inv_freq)

    def forward(self, pos_seq):
        sinusoid_inp = torch.ger(pos_seq, self.inv_freq)
        pos_emb = torch.cat([sinusoid_inp.sin(), sinusoid_inp.cos()], dim=-1)
        return pos_emb[:, None, :]


class PositionwiseFF(nn.Module):
    def __init__(self, d_model, d_inner, dropout):
        super().__init__()
        self.CoreNet = nn.Sequential(nn.Linear(d_model, d_inner), nn.ReLU(inplace=True), nn.Dropout(dropout),
                                     nn.Linear(d_inner, d_model), nn.Dropout(dropout))
        self.layer_norm = nn.LayerNorm(d_model)

    def forward(self, inp):
        return self.layer_norm(inp + self.CoreNet(inp))


class RelPartialLearnableMultiHeadAttn(nn.Module):
    def __init__(self, n_head, d_model, d_head, dropout, dropatt=0.0):
        super().__init__()
        self.n_head, self.d_model, self.d_head = n_head, d_model, d_head
        self.qkv_net = nn.Linear(d_model, 3 * n_head * d_head, bias=False)
        self.r_net = nn.Linear(d_model, n_head * d_head, bias=False)
        self.drop, self.dropatt = nn.Dropout(dropout), nn.Dropout(dropatt)
        self.o_net = nn.Linear(n_head * d_head, d_model, bias=False)
        self.layer_norm = nn.LayerNorm(d_model)
        self.scale = 1 / (d_head ** 0.5)

    def _rel_shift(self, x):
        zero_pad = torch.zeros((x.size(0), 1, *x.size()[2:]), device=x.device, dtype=x.dtype)
        x_padded = torch.cat([zero_pad, x], dim=1)
        x_padded = x_padded.view(x.size(1) + 1, x.size(0), *x.size()[2:])
        return x_padded[1:].view_as(x)

    def forward(self, w, r, r_w_bias, r_r_bias, attn_mask=None, mems=None):
        qlen, rlen, bsz = w.size(0), r.size(0), w.size(1)
        if mems is not None:
            w_heads = self.qkv_net(torch.cat([mems, w], 0))
            r_head_k = self.r_net(r)
            w_head_q, w_head_k, w_head_v = torch.chunk(w_heads, 3, dim=-1)
            w_head_q = w_head_q[-qlen:]
        else:
            w_heads = self.qkv_net(w)
            r_head_k = self.r_net(r)
            w_head_q, w_head_k, w_head_v = torch.chunk(w_heads, 3, dim=-1)
        klen = w_head_k.size(0)
        w_head_q = w_head_q.view(qlen, bsz, self.n_head, self.d_head)
        w_head_k = w_head_k.view(klen, bsz, self.n_head, self.d_head)
        w_head_v = w_head_v.view(klen, bsz, self.n_head, self.d_head)
        r_head_k = r_head_k.view(rlen, self.n_head, self.d_head)

        AC = torch.einsum("ibnd,jbnd->ijbn", (w_head_q + r_w_bias, w_head_k))
        BD = self._rel_shift(torch.einsum("ibnd,jnd->ijbn", (w_head_q + r_r_bias, r_head_k)))
        attn_score = AC + BD
        attn_score.mul_(self.scale)
        if attn_mask is not None and attn_mask.any().item():
            if attn_mask.dim() == 2:
                attn_score = attn_score.float().masked_fill(attn_mask[None, :, :, None], -float("inf")).type_as(attn_score)
            elif attn_mask.dim() == 3:
                attn_score = attn_score.float().masked_fill(attn_mask[:, :, :, None], -float("inf")).type_as(attn_score)
        attn_prob = self.dropatt(F.softmax(attn_score, dim=1))
        attn_vec = torch.einsum("ijbn,jbnd->ibnd", (attn_prob, w_head_v))
        attn_vec = attn_vec.contiguous().view(attn_vec.size(0), attn_vec.size(1), self.n_head * self.d_head)
        return self.layer_norm(w + self.drop(self.o_net(attn_vec)))


class RelPartialLearnableDecoderLayer(nn.Module):
    def __init__(self, n_head, d_model, d_head, d_inner, dropout):
        super().__init__()
        self.dec_attn = RelPartialLearnableMultiHeadAttn(n_head, d_model, d_head, dropout)
        self.pos_ff = PositionwiseFF(d_model, d_inner, dropout)

    def forward(self, dec_inp, r, r_w_bias, r_r_bias, dec_attn_mask=None, mems=None):
        output = self.dec_attn(dec_inp, r, r_w_bias, r_r_bias, attn_mask=dec_attn_mask, mems=mems)
        return self.pos_ff(output)


class MemTransformerLM(nn.Module):
    def __init__(self, dropout=0.1):
        super().__init__()
        self.word_emb = nn.Embedding(N_TOKEN, D_MODEL)
        self.drop = nn.Dropout(dropout)
        self.mem_len = MEM_LEN
        self.layers = nn.ModuleList(
            [RelPartialLearnableDecoderLayer(N_HEAD, D_MODEL, D_HEAD, D_INNER, dropout) for _ in range(N_LAYER)])
        self.pos_emb = PositionalEmbedding(D_MODEL)
        self.r_w_bias = nn.Parameter(torch.zeros(N_HEAD, D_HEAD))
        self.r_r_bias = nn.Parameter(torch.zeros(N_HEAD, D_HEAD))
        self.out_layer = nn.Linear(D_MODEL, N_TOKEN)

    def init_mems(self):
        return [torch.empty(0) for _ in range(N_LAYER + 1)]

    def _update_mems(self, hids, mems, qlen, mlen):
        with torch.no_grad():
            end_idx = mlen + qlen
            beg_idx = max(0, end_idx - self.mem_len)
            return [torch.cat([mems[i], hids[i]], dim=0)[beg_idx:end_idx].detach() for i in range(len(hids))]

    def _forward(self, dec_inp, mems=None):
        qlen, bsz = dec_inp.size()
        word_emb = self.word_emb(dec_inp)
        mlen = mems[0].size(0) if mems is not None else 0
        klen = mlen + qlen
        dec_attn_mask = torch.triu(word_emb.new_ones(qlen, klen), diagonal=1 + mlen).bool()[:, :, None]

        hids = []
        pos_seq = torch.arange(klen - 1, -1, -1.0, device=word_emb.device, dtype=word_emb.dtype)
        pos_emb = self.drop(self.pos_emb(pos_seq))
        core_out = self.drop(word_emb)
        hids.append(core_out)
        for i, layer in enumerate(self.layers):
            mems_i = None if mems is None or mems[i].numel() == 0 else mems[i]
            core_out = layer(core_out, pos_emb, self.r_w_bias, self.r_r_bias, dec_attn_mask=dec_attn_mask, mems=mems_i)
            hids.append(core_out)
        core_out = self.drop(core_out)
        new_mems = self._update_mems(hids, mems if mlen else [h.new_empty(0, bsz, D_MODEL) for h in hids], qlen, mlen)
        return core_out, new_mems

    def forward(self, data, target, *mems):
        if not mems:
            mems = None
        hidden, new_mems = self._forward(data, mems=mems)
        logits = self.out_layer(hidden[-target.size(0):])
        loss = F.cross_entropy(logits.view(-1, N_TOKEN), target.reshape(-1), reduction="none").view(target.size(0), -1)
        return [loss] + new_mems


# LMOrderedIterator-style batches: one long synthetic corpus, (tgt_len, bsz) windows
corpus = torch.randint(0, N_TOKEN, (BSZ * (TGT_LEN * 6 + 1),)).view(BSZ, -1).t().contiguous()
model = MemTransformerLM()
optimizer = torch.optim.Adam(model.parameters(), lr=2.5e-4)
mems = tuple()
for batch, i in enumerate(range(0, corpus.size(0) - 1, TGT_LEN)):
    data, target = corpus[i:i + TGT_LEN], corpus[i + 1:i + 1 + TGT_LEN]
    if data.size(0) != target.size(0):
        break
    ret = model(data, target, *mems)
    loss, mems = ret[0].float().mean(), ret[1:]
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"batch {batch} loss {loss.item():.4f}")
