"""Training a ParlAI-style seq2seq dialogue model (LSTM encoder, LSTM decoder with 'general' attention before the RNN) with --fp16 true (facebookresearch/ParlAI PR #2536): TorchGeneratorAgent halves the model (self.model = self.model.half()) and an apex-style FP16 optimizer keeps float32 master weights, but AttentionLayer still masks the padded encoder positions with attn_w_premask.masked_fill_(~attn_mask, -NEAR_INF), where parlai.utils.torch.NEAR_INF = 1e20 is far beyond float16's 65504
source: https://github.com/facebookresearch/ParlAI/pull/2536
reported-error: "Tried `--fp16 true` with `-m seq2seq` and noticed an error"; the PR replaces -NEAR_INF with neginf(attn_w_premask.dtype) (-65504 for float16) in AttentionLayer and in OutputLayer's padding mask
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 55
root-cause: line 55
expect: DG018
"""
import os
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
np.random.seed(0)
out_dir = tempfile.mkdtemp()

# ---- parlai/utils/torch.py
NEAR_INF = 1e20  # root-cause-alt
NEAR_INF_FP16 = 65504


def neginf(dtype):
    return -NEAR_INF_FP16 if dtype is torch.float16 else -NEAR_INF


# ---- parlai/agents/seq2seq/modules.py, reduced to the parts this model uses
class RNNEncoder(nn.Module):
    def __init__(self, num_features, emb, hsz, padding_idx=0):
        super().__init__()
        self.lt = nn.Embedding(num_features, emb, padding_idx=padding_idx)
        self.rnn = nn.LSTM(emb, hsz, num_layers=2, batch_first=True)

    def forward(self, xs):
        attn_mask = xs.ne(0)
        enc_out, hidden = self.rnn(self.lt(xs))
        return enc_out, hidden, attn_mask


class AttentionLayer(nn.Module):
    def __init__(self, hsz, emb):
        super().__init__()
        self.attn = nn.Linear(hsz, hsz, bias=False)               # attn_type 'general'
        self.attn_combine = nn.Linear(hsz + emb, emb, bias=False)

    def forward(self, xes, hidden, attn_params):
        last_hidden = hidden[0][-1]                                # LSTM: use h, last layer
        enc_out, attn_mask = attn_params
        hid = self.attn(last_hidden.unsqueeze(1))
        attn_w_premask = torch.bmm(hid, enc_out.transpose(1, 2)).squeeze(1)
        if attn_mask is not None:
            # remove activation from NULL symbols
            attn_w_premask.masked_fill_((~attn_mask), -NEAR_INF)  # root-cause # fails-here
        attn_weights = F.softmax(attn_w_premask, dim=1)
        attn_applied = torch.bmm(attn_weights.unsqueeze(1), enc_out)
        merged = torch.cat((xes.squeeze(1), attn_applied.squeeze(1)), 1)
        return torch.tanh(self.attn_combine(merged).unsqueeze(1)), attn_weights


class RNNDecoder(nn.Module):
    def __init__(self, num_features, emb, hsz, padding_idx=0):
        super().__init__()
        self.lt = nn.Embedding(num_features, emb, padding_idx=padding_idx)
        self.rnn = nn.LSTM(emb, hsz, num_layers=2, batch_first=True)
        self.attention = AttentionLayer(hsz, emb)

    def forward(self, xs, encoder_output):
        enc_state, enc_hidden, attn_mask = encoder_output
        hidden = tuple(h.contiguous() for h in enc_hidden)
        xes = self.lt(xs)
        new_xes = []                                               # attn_time 'pre': one step at a time
        for i in range(xs.size(1)):
            nx, _ = self.attention(xes[:, i:i + 1], hidden, (enc_state, attn_mask))
            new_xes.append(nx)
        output, _ = self.rnn(torch.cat(new_xes, 1), hidden)
        return output


class OutputLayer(nn.Module):
    def __init__(self, num_features, hsz, padding_idx=0):
        super().__init__()
        self.e2s = nn.Linear(hsz, num_features)
        self.padding_idx = padding_idx

    def forward(self, input):
        scores = self.e2s(input)
        if self.padding_idx >= 0:
            scores[:, :, self.padding_idx] = -NEAR_INF
        return scores


class Seq2seq(nn.Module):
    def __init__(self, num_features, emb=64, hsz=64, start_idx=1):
        super().__init__()
        self.START_IDX = start_idx
        self.encoder = RNNEncoder(num_features, emb, hsz)
        self.decoder = RNNDecoder(num_features, emb, hsz)
        self.output = OutputLayer(num_features, hsz)

    def forward(self, xs, ys):
        starts = torch.full((len(ys), 1), self.START_IDX, dtype=torch.long)
        inputs = torch.cat([starts, ys[:, :-1]], 1)               # teacher forcing
        return self.output(self.decoder(inputs, self.encoder(xs)))


# ---- parlai/utils/fp16.py: apex-style optimizer wrapper (float32 master weights, dynamic loss scale)
class FP16Optimizer:
    def __init__(self, params, lr, init_scale=2. ** 16):
        self.fp16_params = [p for p in params if p.requires_grad]
        self.fp32_params = [p.detach().float().requires_grad_() for p in self.fp16_params]
        self.optimizer = torch.optim.Adam(self.fp32_params, lr=lr)
        self.loss_scale = init_scale

    def backward(self, loss):
        (loss.float() * self.loss_scale).backward()

    def step(self, clip=0.1):
        grads = [p.grad.float() / self.loss_scale for p in self.fp16_params]
        norm = torch.norm(torch.stack([g.norm() for g in grads]))
        if not torch.isfinite(norm):
            self.loss_scale /= 2.
            return
        for m, g in zip(self.fp32_params, grads):
            m.grad = g * min(1., clip / (norm.item() + 1e-6))
        self.optimizer.step()
        with torch.no_grad():
            for p, m in zip(self.fp16_params, self.fp32_params):
                p.copy_(m)

    def zero_grad(self):
        for p in self.fp16_params:
            p.grad = None


# ---- toy "reverse the utterance" task, padded with NULL=0 (dict: 0 null, 1 start, 2 end, 3.. words)
VOCAB = 40


def batchify(n):
    xs = torch.zeros(n, 12, dtype=torch.long)
    ys = torch.zeros(n, 13, dtype=torch.long)
    for i in range(n):
        words = np.random.randint(3, VOCAB, np.random.randint(4, 12))
        xs[i, :len(words)] = torch.from_numpy(words)
        ys[i, :len(words) + 1] = torch.from_numpy(np.append(words[::-1], 2))
    return xs, ys


# ---- TorchGeneratorAgent with --fp16 true
opt = {"fp16": True, "learningrate": 1e-3, "batchsize": 32, "gradient_clip": 0.1}
model = Seq2seq(VOCAB)
if opt["fp16"]:
    model = model.half()
optimizer = FP16Optimizer(model.parameters(), lr=opt["learningrate"])
for step in range(60):
    xs, ys = batchify(opt["batchsize"])
    optimizer.zero_grad()
    scores = model(xs, ys)
    # FP16SafeCrossEntropy: the log-softmax in float32
    loss = F.nll_loss(F.log_softmax(scores, -1, dtype=torch.float32).flatten(0, 1), ys.flatten(), ignore_index=0)
    optimizer.backward(loss)
    optimizer.step(clip=opt["gradient_clip"])
    if step % 20 == 0:
        print(f"step {step} loss {loss.item():.4f} loss_scale {optimizer.loss_scale}")
torch.save(model.state_dict(), os.path.join(out_dir, "seq2seq.fp16.pt"))
