"""BertSum extractive summarizer (-encoder transformer): the data loader's masks were made integer (.long()) to get past the bool-subtraction error, so the inter-sentence TransformerInterEncoder hands `1 - mask` (an int64 tensor) to MultiHeadedAttention, whose scores.masked_fill(mask, -1e18) refuses a Long mask
source: https://github.com/nlpyang/BertSum/issues/130
reported-error: encoder.py line 97 `x = self.transformer_inter[i](i, x, x, 1 - mask)` -> encoder.py line 68 `context = self.self_attn(...)` -> RuntimeError: expected mask dtype to be Bool but got Long
outcome: RuntimeError: masked_fill_ only supports boolean masks, but got mask with dtype long int at line 86
root-cause: line 147
expect: DG004
"""
import math
import random

import torch
import torch.nn as nn

torch.manual_seed(0)
random.seed(0)
VOCAB, HIDDEN, CLS_ID, SEP_ID = 120, 32, 101, 102


class Batch(object):
    """models/data_loader.py Batch (re-typed); the masks made integer to avoid `1 - bool`."""

    def _pad(self, data, pad_id, width=-1):
        if width == -1:
            width = max(len(d) for d in data)
        return [d + [pad_id] * (width - len(d)) for d in data]

    def __init__(self, data, device=None):
        self.batch_size = len(data)
        pre_src = [x[0] for x in data]
        pre_labels = [x[1] for x in data]
        pre_segs = [x[2] for x in data]
        pre_clss = [x[3] for x in data]
        src = torch.tensor(self._pad(pre_src, 0))
        labels = torch.tensor(self._pad(pre_labels, 0))
        segs = torch.tensor(self._pad(pre_segs, 0))
        mask = 1 - (src == 0).long()
        clss = torch.tensor(self._pad(pre_clss, -1))
        mask_cls = 1 - (clss == -1).long()  # root-cause-alt
        clss[clss == -1] = 0
        self.src, self.labels, self.segs, self.mask = src.to(device), labels.to(device), segs.to(device), mask.to(device)
        self.clss, self.mask_cls = clss.to(device), mask_cls.to(device)


class Bert(nn.Module):
    """Stand-in for the pretrained BertModel: token + segment + position embeddings, one encoder layer."""

    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(VOCAB + 10, HIDDEN)
        self.seg = nn.Embedding(2, HIDDEN)
        self.pos = nn.Embedding(512, HIDDEN)
        self.layer = nn.TransformerEncoderLayer(HIDDEN, 4, 64, dropout=0.0, batch_first=True)

    def forward(self, x, segs, mask):
        pos = torch.arange(x.size(1)).unsqueeze(0)
        h = self.tok(x) + self.seg(segs) + self.pos(pos)
        return self.layer(h, src_key_padding_mask=(mask == 0))


class MultiHeadedAttention(nn.Module):
    def __init__(self, head_count, model_dim, dropout=0.1):
        super().__init__()
        self.dim_per_head = model_dim // head_count
        self.head_count = head_count
        self.linear_keys = nn.Linear(model_dim, model_dim)
        self.linear_values = nn.Linear(model_dim, model_dim)
        self.linear_query = nn.Linear(model_dim, model_dim)
        self.softmax = nn.Softmax(dim=-1)
        self.dropout = nn.Dropout(dropout)
        self.final_linear = nn.Linear(model_dim, model_dim)

    def forward(self, key, value, query, mask=None):
        batch_size = key.size(0)

        def shape(x):
            return x.view(batch_size, -1, self.head_count, self.dim_per_head).transpose(1, 2)

        def unshape(x):
            return x.transpose(1, 2).contiguous().view(batch_size, -1, self.head_count * self.dim_per_head)

        key, value = shape(self.linear_keys(key)), shape(self.linear_values(value))
        query = shape(self.linear_query(query)) / math.sqrt(self.dim_per_head)
        scores = torch.matmul(query, key.transpose(2, 3))
        if mask is not None:
            mask = mask.unsqueeze(1).expand_as(scores)
            scores = scores.masked_fill(mask, -1e18)  # fails-here
        drop_attn = self.dropout(self.softmax(scores))
        return self.final_linear(unshape(torch.matmul(drop_attn, value)))


class PositionwiseFeedForward(nn.Module):
    def __init__(self, d_model, d_ff, dropout=0.1):
        super().__init__()
        self.w_1, self.w_2 = nn.Linear(d_model, d_ff), nn.Linear(d_ff, d_model)
        self.layer_norm = nn.LayerNorm(d_model, eps=1e-6)
        self.dropout_1, self.dropout_2 = nn.Dropout(dropout), nn.Dropout(dropout)

    def forward(self, x):
        inter = self.dropout_1(torch.relu(self.w_1(self.layer_norm(x))))
        return self.dropout_2(self.w_2(inter)) + x


class PositionalEncoding(nn.Module):
    def __init__(self, dropout, dim, max_len=5000):
        pe = torch.zeros(max_len, dim)
        position = torch.arange(0, max_len).unsqueeze(1)
        div_term = torch.exp((torch.arange(0, dim, 2, dtype=torch.float) * -(math.log(10000.0) / dim)))
        pe[:, 0::2] = torch.sin(position.float() * div_term)
        pe[:, 1::2] = torch.cos(position.float() * div_term)
        super().__init__()
        self.register_buffer("pe", pe.unsqueeze(0))
        self.dropout = nn.Dropout(p=dropout)


class TransformerEncoderLayer(nn.Module):
    def __init__(self, d_model, heads, d_ff, dropout):
        super().__init__()
        self.self_attn = MultiHeadedAttention(heads, d_model, dropout=dropout)
        self.feed_forward = PositionwiseFeedForward(d_model, d_ff, dropout)
        self.layer_norm = nn.LayerNorm(d_model, eps=1e-6)
        self.dropout = nn.Dropout(dropout)

    def forward(self, iter, query, inputs, mask):
        input_norm = self.layer_norm(inputs) if iter != 0 else inputs
        mask = mask.unsqueeze(1)
        context = self.self_attn(input_norm, input_norm, input_norm, mask=mask)
        return self.feed_forward(self.dropout(context) + inputs)


class TransformerInterEncoder(nn.Module):
    def __init__(self, d_model, d_ff, heads, dropout, num_inter_layers=2):
        super().__init__()
        self.num_inter_layers = num_inter_layers
        self.pos_emb = PositionalEncoding(dropout, d_model)
        self.transformer_inter = nn.ModuleList(
            [TransformerEncoderLayer(d_model, heads, d_ff, dropout) for _ in range(num_inter_layers)])
        self.layer_norm = nn.LayerNorm(d_model, eps=1e-6)
        self.wo = nn.Linear(d_model, 1, bias=True)
        self.sigmoid = nn.Sigmoid()

    def forward(self, top_vecs, mask):
        n_sents = top_vecs.size(1)
        pos_emb = self.pos_emb.pe[:, :n_sents]
        x = top_vecs * mask[:, :, None].float()
        x = x + pos_emb
        for i in range(self.num_inter_layers):
            x = self.transformer_inter[i](i, x, x, 1 - mask)  # root-cause
        x = self.layer_norm(x)
        sent_scores = self.sigmoid(self.wo(x))
        return sent_scores.squeeze(-1) * mask.float()


class Summarizer(nn.Module):
    def __init__(self):
        super().__init__()
        self.bert = Bert()
        self.encoder = TransformerInterEncoder(HIDDEN, 64, 4, 0.1, num_inter_layers=2)

    def forward(self, x, segs, clss, mask, mask_cls):
        top_vec = self.bert(x, segs, mask)
        sents_vec = top_vec[torch.arange(top_vec.size(0)).unsqueeze(1), clss]
        sents_vec = sents_vec * mask_cls[:, :, None].float()
        return self.encoder(sents_vec, mask_cls).squeeze(-1), mask_cls


def make_example():
    """[CLS] sent [SEP] [CLS] sent [SEP] ... with alternating segment ids and oracle labels."""
    src, segs, clss, labels = [], [], [], []
    for k in range(random.randint(2, 5)):
        clss.append(len(src))
        sent = [CLS_ID] + [random.randint(1, VOCAB - 1) for _ in range(random.randint(3, 8))] + [SEP_ID]
        src += sent
        segs += [k % 2] * len(sent)
        labels.append(int(random.random() < 0.4))
    return src, labels, segs, clss


model = Summarizer()
loss_fn = nn.BCELoss(reduction="none")
optim = torch.optim.Adam(model.parameters(), lr=2e-3)
for step in range(4):
    batch = Batch([make_example() for _ in range(6)])
    sent_scores, mask = model(batch.src, batch.segs, batch.clss, batch.mask, batch.mask_cls)
    loss = loss_fn(sent_scores, batch.labels.float())
    loss = (loss * mask.float()).sum()
    optim.zero_grad()
    (loss / loss.numel()).backward()
    optim.step()
    print(f"step {step} loss {loss.item():.4f}")
