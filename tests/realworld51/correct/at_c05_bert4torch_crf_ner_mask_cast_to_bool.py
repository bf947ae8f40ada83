"""BERT+CRF named-entity recognition on People's Daily style character sequences with bert4torch (Tongjilibo/bert4torch #10 as in at05) with the CRF of the repository after the report (commits 5e2f066/e6dc26e): _forward_alg casts the mask with mask_idx.bool() before masked_select and masked_scatter_, and _score_sentence selects with mask.transpose(1, 0).bool(), so the example's int64 attention_mask = token_ids.gt(0).long() is accepted; the int64 mask is still summed into int64 lengths and inverted with (1 - mask.long()).bool() in the Viterbi decoding
source: https://github.com/Tongjilibo/bert4torch/issues/10
reported-error: (none filed; the fixed situation of at05)
outcome: ok
root-cause: -
expect: none
"""
import random

import numpy as np
import torch
import torch.nn as nn
import torch.optim as optim

maxlen, batch_size = 48, 16
categories = ['O', 'B-LOC', 'I-LOC', 'B-PER', 'I-PER', 'B-ORG', 'I-ORG']
categories_label2id = {k: i for i, k in enumerate(categories)}
device = 'cuda' if torch.cuda.is_available() else 'cpu'
seed = 42
random.seed(seed)
np.random.seed(seed)
torch.manual_seed(seed)
PAD, CLS, SEP, VOCAB = 0, 101, 102, 2000
CHARS = {'LOC': range(200, 400), 'PER': range(400, 600), 'ORG': range(600, 800), 'O': range(800, VOCAB)}


def synthetic_sentence():
    """Token ids and BIO label ids for one sentence, as collate_fn builds them from the corpus."""
    token_ids, labels = [CLS], [0]
    while len(token_ids) < random.randint(12, maxlen - 6):
        kind = random.choice(['O', 'O', 'LOC', 'PER', 'ORG'])
        n = 1 if kind == 'O' else random.randint(2, 4)
        token_ids += random.sample(CHARS[kind], n)
        labels += [0] * n if kind == 'O' else [categories_label2id['B-' + kind]] + [categories_label2id['I-' + kind]] * (n - 1)
    return token_ids + [SEP], labels + [0]


def sequence_padding(inputs, value=0):
    length = max(len(x) for x in inputs)
    return np.array([np.concatenate([x, [value] * (length - len(x))]) for x in inputs])


def collate_fn(batch):
    batch_token_ids = torch.tensor(sequence_padding([b[0] for b in batch]), dtype=torch.long, device=device)
    batch_labels = torch.tensor(sequence_padding([b[1] for b in batch]), dtype=torch.long, device=device)
    return batch_token_ids, batch_labels


class CRF(nn.Module):
    """bert4torch.layers.CRF with the .bool() casts of the repository (ported from the pytorch BERT NER code)."""

    def __init__(self, num_labels):
        super().__init__()
        self.START_TAG_IDX, self.END_TAG_IDX = -2, -1
        init_transitions = torch.zeros(num_labels + 2, num_labels + 2)
        init_transitions[:, self.START_TAG_IDX] = -10000.0
        init_transitions[self.END_TAG_IDX, :] = -10000.0
        self.transitions = nn.Parameter(init_transitions)

    def _forward_alg(self, feats, mask):
        bts, seq_len, tag_size = feats.size()
        ins_num = bts * seq_len
        mask = mask.transpose(1, 0).contiguous()  # [seq_len, bsz]
        feats = feats.transpose(1, 0).contiguous().view(ins_num, 1, tag_size).expand(ins_num, tag_size, tag_size)
        scores = feats + self.transitions.view(1, tag_size, tag_size).expand(ins_num, tag_size, tag_size)
        scores = scores.view(seq_len, bts, tag_size, tag_size)
        seq_iter = enumerate(scores)
        _, inivalues = next(seq_iter)
        partition = inivalues[:, self.START_TAG_IDX, :].clone().view(bts, tag_size, 1)
        for idx, cur_values in seq_iter:
            cur_values = cur_values + partition.contiguous().view(bts, tag_size, 1).expand(bts, tag_size, tag_size)
            cur_partition = self.log_sum_exp(cur_values, tag_size)
            mask_idx = mask[idx, :].view(bts, 1).expand(bts, tag_size)
            masked_cur_partition = cur_partition.masked_select(mask_idx.bool())
            if masked_cur_partition.dim() != 0:
                mask_idx = mask_idx.contiguous().view(bts, tag_size, 1)
                partition.masked_scatter_(mask_idx.bool(), masked_cur_partition)
        cur_values = self.transitions.view(1, tag_size, tag_size).expand(bts, tag_size, tag_size) + \
            partition.contiguous().view(bts, tag_size, 1).expand(bts, tag_size, tag_size)
        cur_partition = self.log_sum_exp(cur_values, tag_size)
        return cur_partition[:, self.END_TAG_IDX].sum(), scores

    def _score_sentence(self, scores, mask, tags):
        seq_len, btz, tag_size, _ = scores.size()
        new_tags = torch.empty(btz, seq_len, requires_grad=True).to(tags)
        for idx in range(seq_len):
            if idx == 0:
                new_tags[:, 0] = (tag_size - 2) * tag_size + tags[:, 0]
            else:
                new_tags[:, idx] = tags[:, idx - 1] * tag_size + tags[:, idx]
        new_tags = new_tags.transpose(1, 0).contiguous().view(seq_len, btz, 1)
        tg_energy = torch.gather(scores.view(seq_len, btz, -1), 2, new_tags).view(seq_len, btz)
        tg_energy = tg_energy.masked_select(mask.transpose(1, 0).bool())
        end_transition = self.transitions[:, self.END_TAG_IDX].contiguous().view(1, tag_size).expand(btz, tag_size)
        length_mask = torch.sum(mask, dim=1, keepdim=True).long()
        end_ids = torch.gather(tags, 1, length_mask - 1)
        end_energy = torch.gather(end_transition, 1, end_ids)
        return tg_energy.sum() + end_energy.sum()

    def neg_log_likelihood_loss(self, feats, mask, tags):
        forward_score, scores = self._forward_alg(feats, mask)
        gold_score = self._score_sentence(scores, mask, tags)
        return (forward_score - gold_score) / feats.size(0)

    def forward(self, feats, mask):
        """Viterbi decoding: [bts, seq_len] best label paths."""
        bts, seq_len, tag_size = feats.size()
        length_mask = torch.sum(mask, dim=1, keepdim=True).long()
        mask = (1 - mask.long()).bool().transpose(1, 0)
        scores = feats.transpose(1, 0).unsqueeze(2) + self.transitions.view(1, 1, tag_size, tag_size)
        partition = scores[0][:, self.START_TAG_IDX, :]
        history, back_points = [partition], []
        for idx in range(1, seq_len):
            partition, cur_bp = torch.max(scores[idx] + partition.unsqueeze(2), 1)
            cur_bp.masked_fill_(mask[idx].view(bts, 1).expand(bts, tag_size), 0)
            history.append(partition)
            back_points.append(cur_bp)
        history = torch.stack(history, 1)
        last = torch.gather(history, 1, (length_mask - 1).view(bts, 1, 1).expand(bts, 1, tag_size)).squeeze(1)
        pointer = torch.max(last.unsqueeze(2) + self.transitions.unsqueeze(0), 1)[1][:, self.END_TAG_IDX]
        path = torch.zeros(bts, seq_len, dtype=torch.long)
        for b in range(bts):
            p, end = pointer[b], int(length_mask[b]) - 1
            path[b, end] = p
            for idx in range(end - 1, -1, -1):
                p = back_points[idx][b, p]
                path[b, idx] = p
        return path

    @staticmethod
    def log_sum_exp(vec, m_size):
        _, idx = torch.max(vec, 1)
        max_score = torch.gather(vec, 1, idx.view(-1, 1, m_size)).view(-1, 1, m_size)
        return max_score.view(-1, m_size) + torch.log(torch.sum(torch.exp(vec - max_score.expand_as(vec)), 1)).view(-1, m_size)


class BaseModel(nn.Module):
    """bert4torch.models.BaseModel: compile() then fit() with train_step."""

    def compile(self, loss, optimizer):
        self.criterion, self.optimizer = loss, optimizer

    def fit(self, train_dataloader, epochs):
        for epoch in range(epochs):
            self.train()
            for train_X, train_y in train_dataloader:
                output = self.forward(train_X)
                loss = self.criterion(output, train_y)
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
            print(f"epoch {epoch + 1} loss {loss.item():.4f}")


class Model(BaseModel):
    def __init__(self, hidden=128):
        super().__init__()
        self.embeddings = nn.Embedding(VOCAB, hidden, padding_idx=PAD)
        self.position = nn.Embedding(maxlen, hidden)
        layer = nn.TransformerEncoderLayer(hidden, 4, 4 * hidden, dropout=0.1, batch_first=True)
        self.bert = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
        self.fc = nn.Linear(hidden, len(categories) + 2)  # includes START/END
        self.crf = CRF(len(categories))

    def forward(self, token_ids):
        h = self.embeddings(token_ids) + self.position(torch.arange(token_ids.size(1), device=token_ids.device))
        sequence_output = self.bert(h, src_key_padding_mask=token_ids.eq(PAD))  # [btz, seq_len, hdsz]
        emission_score = self.fc(sequence_output)  # [btz, seq_len, tag_size]
        attention_mask = token_ids.gt(0).long()
        return emission_score, attention_mask

    def predict(self, token_ids):
        self.eval()
        with torch.no_grad():
            emission_score, attention_mask = self.forward(token_ids)
            return self.crf(emission_score, attention_mask)


model = Model().to(device)


class Loss(nn.Module):
    def forward(self, outputs, labels):
        return model.crf.neg_log_likelihood_loss(*outputs, labels)


train_data = [synthetic_sentence() for _ in range(160)]
valid_data = [synthetic_sentence() for _ in range(32)]
train_dataloader = [collate_fn(train_data[i:i + batch_size]) for i in range(0, len(train_data), batch_size)]
model.compile(loss=Loss(), optimizer=optim.Adam(model.parameters(), lr=1e-3))
model.fit(train_dataloader, epochs=3)

X, Y, Z = 1e-10, 1e-10, 1e-10
for token_ids, label in [collate_fn(valid_data[i:i + batch_size]) for i in range(0, len(valid_data), batch_size)]:
    scores = model.predict(token_ids)
    attention_mask = label.gt(0)
    X += (scores.eq(label) * attention_mask).sum().item()
    Y += scores.gt(0).sum().item()
    Z += label.gt(0).sum().item()
print(f"[valid] token_level f1: {2 * X / (Y + Z):.5f}")
