"""The EasyTPP-style AttNHP training of bh01 with the fix of commit f70df24: make_layer_mask moves its torch.eye diagonal mask to the attention mask's device, so the combined mask is built on whatever device the trainer config picked (cuda:0 when there is one, else the CPU); a shape-only dry run on the meta device checks the forward off the CPU, then the model trains on the CPU
source: https://github.com/ant-research/EasyTemporalPointProcess/issues/40
reported-error: -
outcome: ok
root-cause: -
expect: none
"""
import math
from types import SimpleNamespace

import numpy as np
import torch
from torch import nn

torch.manual_seed(0)
rng = np.random.default_rng(0)


def set_device(gpu=-1):
    # easy_tpp.utils.torch_utils.set_device, with a CPU fallback when no GPU is present
    if gpu >= 0 and torch.cuda.is_available():
        return torch.device("cuda:" + str(gpu))
    return torch.device("cpu")


def attention(query, key, value, mask=None, dropout=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask > 0, -1e9)
    p_attn = torch.softmax(scores, dim=-1)
    if dropout is not None:
        p_attn = dropout(p_attn)
    return torch.matmul(p_attn, value), p_attn


class MultiHeadAttention(nn.Module):
    def __init__(self, n_head, d_input, d_model, dropout=0.1):
        super().__init__()
        self.n_head, self.d_k = n_head, d_model // n_head
        self.linears = nn.ModuleList([nn.Linear(d_input, d_model) for _ in range(3)])
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value, mask):
        mask = mask.unsqueeze(1)
        nbatches = query.size(0)
        query, key, value = [lin(x).view(nbatches, -1, self.n_head, self.d_k).transpose(1, 2)
                             for lin, x in zip(self.linears, (query, key, value))]
        x, _ = attention(query, key, value, mask=mask, dropout=self.dropout)
        return x.transpose(1, 2).contiguous().view(nbatches, -1, self.n_head * self.d_k)


class AttNHP(nn.Module):
    """Attentive Neural Hawkes Process (re-typed from easy_tpp/model/torch_model/torch_attnhp.py and its base model)."""

    def __init__(self, cfg):
        super().__init__()
        self.num_event_types, self.d_model, self.d_time = cfg.num_event_types, cfg.hidden_size, cfg.time_emb_size
        self.n_layers, self.n_head = cfg.num_layers, cfg.num_heads
        self.loss_integral_num_sample_per_step = cfg.loss_integral_num_sample_per_step
        self.device = set_device(cfg.gpu)
        self.layer_type_emb = nn.Embedding(cfg.num_event_types + 1, self.d_model, padding_idx=cfg.num_event_types)
        self.div_term = torch.exp(torch.arange(0, self.d_time, 2) * -(math.log(10000.0) / self.d_time)).reshape(1, 1, -1)
        self.heads = nn.ModuleList([
            nn.ModuleList([MultiHeadAttention(1, self.d_model + self.d_time, self.d_model, cfg.dropout_rate)
                           for _ in range(self.n_layers)]) for _ in range(self.n_head)])
        self.norm = nn.LayerNorm(self.d_model)
        self.layer_intensity = nn.Sequential(nn.Linear(self.d_model * self.n_head, self.num_event_types), nn.Softplus())
        self.eps = torch.finfo(torch.float32).eps

    def compute_temporal_embedding(self, time):
        pe = torch.zeros(time.size(0), time.size(1), self.d_time).to(time)
        div_term = self.div_term.to(time)
        pe[..., 0::2] = torch.sin(time.unsqueeze(-1) * div_term)
        pe[..., 1::2] = torch.cos(time.unsqueeze(-1) * div_term)
        return pe

    def make_layer_mask(self, attention_mask):
        layer_mask = (torch.eye(attention_mask.size(1)) < 1).unsqueeze(0).expand_as(attention_mask).to(attention_mask.device)
        return layer_mask

    def make_combined_att_mask(self, attention_mask, layer_mask):
        combined_mask = torch.cat([attention_mask, layer_mask], dim=-1)
        contextual_mask = torch.cat([attention_mask, torch.ones_like(layer_mask)], dim=-1)
        return torch.cat([contextual_mask, combined_mask], dim=1)

    def forward(self, time_seqs, event_seqs, attention_mask, sample_times):
        time_emb = self.compute_temporal_embedding(time_seqs)
        type_emb = torch.tanh(self.layer_type_emb(event_seqs.long()))
        event_emb = torch.cat([type_emb, time_emb], dim=-1)
        layer_mask = self.make_layer_mask(attention_mask)
        sample_time_emb = self.compute_temporal_embedding(sample_times)
        combined_mask = self.make_combined_att_mask(attention_mask, layer_mask)
        seq_len, cur_layers = event_emb.size(1), []
        for head in self.heads:
            cur, ev = torch.zeros_like(type_emb), event_emb
            for enc in head:
                combined = torch.cat([ev, torch.cat([cur, sample_time_emb], dim=-1)], dim=1)
                out = enc(combined, combined, combined, combined_mask)
                cur = self.norm(torch.tanh(out[:, seq_len:, :]) + cur)
                ev = torch.cat([out[:, :seq_len, :], time_emb], dim=-1)
            cur_layers.append(cur)
        return torch.cat(cur_layers, dim=-1)

    def loglike_loss(self, batch):
        time_seqs, time_delta_seqs, type_seqs, non_pad_mask, attention_mask, type_mask = batch
        enc_out = self.forward(time_seqs[:, :-1], type_seqs[:, :-1], attention_mask[:, 1:, :-1], time_seqs[:, 1:])
        lambda_at_event = self.layer_intensity(enc_out)
        ratios = torch.linspace(0.0, 1.0, self.loss_integral_num_sample_per_step, device=self.device)[None, None, :]
        sample_times = time_delta_seqs[:, 1:, None] * ratios + time_seqs[:, :-1].unsqueeze(-1)
        n = sample_times.size(-1)
        b, s = type_seqs[:, :-1].shape
        states = self.forward(time_seqs[:, :-1].repeat(n, 1), type_seqs[:, :-1].repeat(n, 1),
                              attention_mask[:, 1:, :-1].repeat(n, 1, 1), sample_times.permute(2, 0, 1).reshape(n * b, s))
        lambdas_samples = self.layer_intensity(states).reshape(n, b, s, -1).permute(1, 2, 0, 3)
        seq_mask = non_pad_mask[:, 1:]
        event_lambdas = torch.sum(lambda_at_event * type_mask[:, 1:], dim=-1) + self.eps
        event_ll = torch.log(event_lambdas.masked_fill(~seq_mask, 1.0))
        non_event_ll = lambdas_samples.sum(dim=-1).mean(dim=-1) * time_delta_seqs[:, 1:] * seq_mask
        return -(event_ll - non_event_ll).sum(), int(seq_mask.sum())


class BatchEncoding(dict):
    def to(self, device):
        return BatchEncoding({k: v.to(device) for k, v in self.items()})


def make_batch(seqs, num_types):
    """EventTokenizer-style padding: times, deltas, types, non-pad mask, causal attention mask, one-hot type mask."""
    max_len = max(len(t) for t, _ in seqs)
    times = torch.zeros(len(seqs), max_len)
    types = torch.full((len(seqs), max_len), num_types, dtype=torch.long)
    for i, (t, k) in enumerate(seqs):
        times[i, :len(t)] = torch.tensor(t, dtype=torch.float32)
        types[i, :len(k)] = torch.tensor(k)
    deltas = torch.cat([torch.zeros(len(seqs), 1), (times[:, 1:] - times[:, :-1]).clamp(min=0)], dim=1)
    non_pad = types != num_types
    attn = torch.triu(torch.ones(max_len, max_len, dtype=torch.bool), diagonal=1).unsqueeze(0).repeat(len(seqs), 1, 1)
    attn = attn | ~non_pad[:, None, :]
    type_mask = nn.functional.one_hot(types.clamp(max=num_types - 1), num_types).bool() & non_pad[..., None]
    return BatchEncoding(time_seqs=times, time_delta_seqs=deltas, type_seqs=types, batch_non_pad_mask=non_pad,
                         attention_mask=attn, type_mask=type_mask)


model_config = SimpleNamespace(num_event_types=4, hidden_size=16, time_emb_size=8, num_layers=2, num_heads=2,
                               dropout_rate=0.0, loss_integral_num_sample_per_step=5, gpu=0)
trainer_config = SimpleNamespace(gpu=0, max_epoch=3, batch_size=8, learning_rate=1e-3)

sequences = []
for _ in range(32):
    n = int(rng.integers(5, 12))
    sequences.append((np.cumsum(rng.exponential(0.5, n)).tolist(), rng.integers(0, 4, n).tolist()))

# shape-only dry run with the model and one batch on the meta device (a stand-in for a GPU)
probe = AttNHP(model_config).to("meta")
pb = [t.to("meta") for t in make_batch(sequences[:4], model_config.num_event_types).values()]
out = probe(pb[0][:, :-1], pb[2][:, :-1], pb[4][:, 1:, :-1], pb[0][:, 1:])
print("meta dry run:", tuple(out.shape), out.device)

model = AttNHP(model_config)
device = set_device(trainer_config.gpu)  # TorchModelWrapper
model.to(device)
optimizer = torch.optim.Adam(model.parameters(), lr=trainer_config.learning_rate)

for epoch in range(trainer_config.max_epoch):
    for i in range(0, len(sequences), trainer_config.batch_size):
        batch = make_batch(sequences[i:i + trainer_config.batch_size], model_config.num_event_types)
        batch = batch.to(device).values()
        loss, num_event = model.loglike_loss(list(batch))
        optimizer.zero_grad()
        (loss / num_event).backward()
        optimizer.step()
    print(f"epoch {epoch}: loglike/event {-loss.item() / num_event:.4f}")
