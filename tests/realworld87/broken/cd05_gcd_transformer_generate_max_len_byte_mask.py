"""A facebookresearch/GCD-style seq2seq transformer that learns the greatest common divisor of two integers written as base-10 digit tokens (re-typed: the arithmetic env's PositionalInts encoding and vocabulary, TransformerModel encoder/decoder with get_masks and multi-head attention, Trainer.enc_dec_step with pred_mask, Evaluator.enc_dec_step generating for invalid predictions): when a greedy generation reaches max_len without <eos>, TransformerModel.generate closes it with generated[-1].masked_fill_(unfinished_sents.byte(), eos_index), which current PyTorch refuses
source: https://github.com/facebookresearch/GCD/issues/1
reported-error: "Transformer implementation uses masked fill incorrectly": decoder.generate(...) in evaluator.py enc_dec_step -> model/transformer.py generate: generated[-1].masked_fill_(unfinished_sents.byte(), self.eos_index) RuntimeError: masked_fill only supports boolean masks, but got dtype Byte (reached when generation runs to max_len)
outcome: RuntimeError: masked_fill_ only supports boolean masks, but got mask with dtype unsigned char at line 208
root-cause: line 208
expect: DG004
"""
import math
import random
from types import SimpleNamespace

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

random.seed(0)
np.random.seed(0)
torch.manual_seed(0)

# ---- envs/arithmetic.py + encoders.PositionalInts (base 10 here) ----
SPECIAL_WORDS = ["<eos>", "<pad>", "<sep>", "(", ")"]


class PositionalInts:
    def __init__(self, base):
        self.base = base
        self.symbols = ["+", "-"] + [str(i) for i in range(base)]

    def encode(self, value):
        if value != 0:
            prefix, w = [], abs(value)
            while w > 0:
                prefix.append(str(w % self.base))
                w = w // self.base
            prefix = prefix[::-1]
        else:
            prefix = ["0"]
        return (["+"] if value >= 0 else ["-"]) + prefix


class ArithmeticEnvironment:
    TRAINING_TASKS = {"arithmetic"}

    def __init__(self, params):
        self.max_int = params.max_int
        self.input_encoder = PositionalInts(params.base)
        self.output_encoder = PositionalInts(params.base)
        self.words = SPECIAL_WORDS + sorted(list(set(self.input_encoder.symbols + self.output_encoder.symbols)))
        self.id2word = {i: s for i, s in enumerate(self.words)}
        self.word2id = {s: i for i, s in self.id2word.items()}
        self.n_words = params.n_words = len(self.words)
        self.eos_index = params.eos_index = 0
        self.pad_index = params.pad_index = 1

    def gen_expr(self, rng):
        g = rng.randint(1, 9)
        a, b = g * rng.randint(1, self.max_int // 10), g * rng.randint(1, self.max_int // 10)
        x = self.input_encoder.encode(a) + self.input_encoder.encode(b)
        y = self.output_encoder.encode(math.gcd(a, b))
        return x, y

    def batch_sequences(self, sequences):
        lengths = torch.LongTensor([len(s) + 2 for s in sequences])
        sent = torch.LongTensor(lengths.max().item(), lengths.size(0)).fill_(self.pad_index)
        sent[0] = self.eos_index
        for i, s in enumerate(sequences):
            sent[1:lengths[i] - 1, i].copy_(torch.LongTensor([self.word2id[w] for w in s]))
            sent[lengths[i] - 1, i] = self.eos_index
        return sent, lengths

    def get_batch(self, rng, bs):
        xs, ys = zip(*[self.gen_expr(rng) for _ in range(bs)])
        return self.batch_sequences(xs), self.batch_sequences(ys)


# ---- model/transformer.py ----
def get_masks(slen, lengths, causal):
    assert lengths.max().item() <= slen
    bs = lengths.size(0)
    alen = torch.arange(slen, dtype=torch.long, device=lengths.device)
    mask = alen < lengths[:, None]
    if causal:
        attn_mask = alen[None, None, :].repeat(bs, slen, 1) <= alen[None, :, None]
    else:
        attn_mask = mask
    return mask, attn_mask


class MultiHeadAttention(nn.Module):
    def __init__(self, n_heads, dim, dropout):
        super().__init__()
        self.dim, self.n_heads, self.dropout = dim, n_heads, dropout
        self.q_lin, self.k_lin, self.v_lin, self.out_lin = (nn.Linear(dim, dim) for _ in range(4))

    def forward(self, input, mask, kv=None):
        bs, qlen, dim = input.size()
        klen = qlen if kv is None else kv.size(1)
        dim_per_head = dim // self.n_heads
        mask_reshape = (bs, 1, qlen, klen) if mask.dim() == 3 else (bs, 1, 1, klen)

        def shape(x):
            return x.view(bs, -1, self.n_heads, dim_per_head).transpose(1, 2)

        def unshape(x):
            return x.transpose(1, 2).contiguous().view(bs, -1, self.n_heads * dim_per_head)

        q = shape(self.q_lin(input))
        src = input if kv is None else kv
        k, v = shape(self.k_lin(src)), shape(self.v_lin(src))
        q = q / math.sqrt(dim_per_head)
        scores = torch.matmul(q, k.transpose(2, 3))
        mask = (mask == 0).view(mask_reshape).expand_as(scores)
        scores.masked_fill_(mask, -float("inf"))
        weights = F.dropout(F.softmax(scores.float(), dim=-1).type_as(scores), p=self.dropout, training=self.training)
        return self.out_lin(unshape(torch.matmul(weights, v)))


class TransformerModel(nn.Module):
    def __init__(self, params, is_encoder, with_output):
        super().__init__()
        self.is_encoder, self.is_decoder, self.with_output = is_encoder, not is_encoder, with_output
        self.n_words, self.eos_index, self.pad_index = params.n_words, params.eos_index, params.pad_index
        self.dim = params.enc_emb_dim if is_encoder else params.dec_emb_dim
        self.n_heads, self.n_layers, self.dropout = params.n_heads, params.n_layers, params.dropout
        self.position_embeddings = nn.Embedding(params.max_position, self.dim)
        self.embeddings = nn.Embedding(self.n_words, self.dim, padding_idx=self.pad_index)
        self.layer_norm_emb = nn.LayerNorm(self.dim, eps=1e-12)
        self.attentions, self.layer_norm1 = nn.ModuleList(), nn.ModuleList()
        self.encoder_attn, self.layer_norm15 = nn.ModuleList(), nn.ModuleList()
        self.ffns, self.layer_norm2 = nn.ModuleList(), nn.ModuleList()
        for _ in range(self.n_layers):
            self.attentions.append(MultiHeadAttention(self.n_heads, self.dim, self.dropout))
            self.layer_norm1.append(nn.LayerNorm(self.dim, eps=1e-12))
            if self.is_decoder:
                self.encoder_attn.append(MultiHeadAttention(self.n_heads, self.dim, self.dropout))
                self.layer_norm15.append(nn.LayerNorm(self.dim, eps=1e-12))
            self.ffns.append(nn.Sequential(nn.Linear(self.dim, 4 * self.dim), nn.ReLU(), nn.Linear(4 * self.dim, self.dim)))
            self.layer_norm2.append(nn.LayerNorm(self.dim, eps=1e-12))
        if with_output:
            self.proj = nn.Linear(self.dim, params.n_words, bias=True)

    def forward(self, mode, **kwargs):
        if mode == "fwd":
            return self.fwd(**kwargs)
        if mode == "predict":
            return self.predict(**kwargs)
        raise Exception(f"Unknown mode: {mode}")

    def fwd(self, x, lengths, causal, src_enc=None, src_len=None, positions=None, use_cache=False):
        slen, bs = x.size()
        x = x.transpose(0, 1)
        mask, attn_mask = get_masks(slen, lengths, causal)
        if self.is_decoder and src_enc is not None:
            src_mask = torch.arange(src_len.max(), dtype=torch.long, device=lengths.device) < src_len[:, None]
        if positions is None:
            positions = torch.arange(slen).unsqueeze(0)
        else:
            positions = positions.transpose(0, 1)
        tensor = self.embeddings(x) + self.position_embeddings(positions).expand(bs, slen, self.dim)
        tensor = self.layer_norm_emb(tensor)
        tensor = F.dropout(tensor, p=self.dropout, training=self.training)
        tensor *= mask.unsqueeze(-1).to(tensor.dtype)
        for i in range(self.n_layers):
            attn = F.dropout(self.attentions[i](tensor, attn_mask), p=self.dropout, training=self.training)
            tensor = self.layer_norm1[i](tensor + attn)
            if self.is_decoder and src_enc is not None:
                attn = F.dropout(self.encoder_attn[i](tensor, src_mask, kv=src_enc), p=self.dropout, training=self.training)
                tensor = self.layer_norm15[i](tensor + attn)
            tensor = self.layer_norm2[i](tensor + self.ffns[i](tensor))
            tensor *= mask.unsqueeze(-1).to(tensor.dtype)
        return tensor.transpose(0, 1)

    def predict(self, tensor, pred_mask, y, get_scores):
        x = tensor[pred_mask.unsqueeze(-1).expand_as(tensor)].view(-1, self.dim)
        assert (y == self.pad_index).sum().item() == 0
        scores = self.proj(x).view(-1, self.n_words)
        loss = F.cross_entropy(scores.float(), y, reduction="mean")
        return scores, loss

    def generate(self, src_enc, src_len, max_len=200, sample_temperature=None):
        bs = len(src_len)
        generated = src_len.new(max_len, bs)
        generated.fill_(self.pad_index)
        generated[0].fill_(self.eos_index)
        cur_len = 1
        gen_len = src_len.clone().fill_(1)
        positions = torch.arange(max_len).unsqueeze(1).expand_as(generated)
        unfinished_sents = src_len.clone().fill_(1)
        while cur_len < max_len:
            # no incremental cache here: the full prefix is re-encoded and the last state kept
            tensor = self.forward("fwd", x=generated[:cur_len], lengths=gen_len, positions=positions[:cur_len],
                                  causal=True, src_enc=src_enc, src_len=src_len)
            tensor = tensor.data[-1, :, :]
            scores = self.proj(tensor)
            if sample_temperature is None:
                next_words = torch.topk(scores, 1)[1].squeeze(1)
            else:
                next_words = torch.multinomial(F.softmax(scores.float() / sample_temperature, dim=1), 1).squeeze(1)
            generated[cur_len] = next_words * unfinished_sents + self.pad_index * (1 - unfinished_sents)
            gen_len.add_(unfinished_sents)
            unfinished_sents.mul_(next_words.ne(self.eos_index).long())
            cur_len = cur_len + 1
            if unfinished_sents.max() == 0:
                break
        # add <EOS> to unfinished sentences
        if cur_len == max_len:
            generated[-1].masked_fill_(unfinished_sents.byte(), self.eos_index)  # root-cause  # fails-here
        assert (generated == self.eos_index).sum() == 2 * bs
        return generated[:cur_len], gen_len


# ---- trainer.py / evaluator.py ----
params = SimpleNamespace(base=10, max_int=99, enc_emb_dim=64, dec_emb_dim=64, n_heads=4, n_layers=1, dropout=0.0,
                         max_position=64, batch_size=32, max_output_len=3, epoch_size=40, lr=1e-3, eval_size=64)
env = ArithmeticEnvironment(params)
encoder = TransformerModel(params, is_encoder=True, with_output=False)
decoder = TransformerModel(params, is_encoder=False, with_output=True)
optimizer = torch.optim.Adam(list(encoder.parameters()) + list(decoder.parameters()), lr=params.lr)
rng = random.Random(0)


def trainer_enc_dec_step():
    (x1, len1), (x2, len2) = env.get_batch(rng, params.batch_size)
    alen = torch.arange(len2.max(), dtype=torch.long, device=len2.device)
    pred_mask = alen[:, None] < len2[None] - 1
    y = x2[1:].masked_select(pred_mask[:-1])
    encoder.train()
    decoder.train()
    encoded = encoder("fwd", x=x1, lengths=len1, causal=False)
    decoded = decoder("fwd", x=x2, lengths=len2, causal=True, src_enc=encoded.transpose(0, 1), src_len=len1)
    _, loss = decoder("predict", tensor=decoded, pred_mask=pred_mask, y=y, get_scores=False)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


@torch.no_grad()
def evaluator_enc_dec_step():
    max_beam_length = params.max_output_len + 2
    encoder.eval()
    decoder.eval()
    eval_rng = random.Random(1)
    (x1, len1), (x2, len2) = env.get_batch(eval_rng, params.eval_size)
    alen = torch.arange(len2.max(), dtype=torch.long)
    pred_mask = alen[:, None] < len2[None] - 1
    y = x2[1:].masked_select(pred_mask[:-1])
    encoded = encoder("fwd", x=x1, lengths=len1, causal=False)
    decoded = decoder("fwd", x=x2, lengths=len2, causal=True, src_enc=encoded.transpose(0, 1), src_len=len1)
    scores, loss = decoder("predict", tensor=decoded, pred_mask=pred_mask, y=y, get_scores=True)
    t = torch.zeros_like(pred_mask)
    t[pred_mask] += scores.max(1)[1] == y
    valid = (t.sum(0) == len2 - 1).long()
    invalid_idx = (1 - valid).nonzero().view(-1)
    print(f"Found {params.eval_size - len(invalid_idx)}/{params.eval_size} valid top-1 predictions. Generating solutions ...")
    generated, _ = decoder.generate(encoded.transpose(0, 1)[invalid_idx], len1[invalid_idx], max_len=max_beam_length)
    generated = generated.transpose(0, 1)
    solved = 0
    for i, idx in enumerate(invalid_idx.tolist()):
        hyp = [env.id2word[w] for w in generated[i][1:].tolist() if w not in (env.eos_index, env.pad_index)]
        ref = [env.id2word[w] for w in x2[1:len2[idx] - 1, idx].tolist()]
        solved += int(hyp == ref)
    return valid.sum().item() + solved


for epoch in range(2):
    losses = [trainer_enc_dec_step() for _ in range(params.epoch_size)]
    print(f"epoch {epoch}: train loss {np.mean(losses):.4f}")
    correct = evaluator_enc_dec_step()
    print(f"epoch {epoch}: valid accuracy {correct / params.eval_size:.3f}")
