"""The NCRF++-style BiLSTM-CRF NER tagger of bq05 (jiesutd/NCRFpp #152) with the fix of commit 105a53a: batchify builds the padding mask with .bool() and the CRF's Viterbi decoder reverses it with (1 - mask.long()).bool(), so masked_select, masked_scatter_ and masked_fill_ get bool masks and the tagger trains and decodes; the float ones written into the bool mask, the mask.long() sums giving sentence lengths and pack_padded_sequence over NumPy lengths are kept
source: https://github.com/jiesutd/NCRFpp/issues/152
reported-error: (none filed; the fixed situation of bq05)
outcome: ok
root-cause: -
expect: none
"""
import random

import torch
import torch.nn as nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

random.seed(0)
torch.manual_seed(0)
START_TAG = -2
STOP_TAG = -1


def log_sum_exp(vec, m_size):
    _, idx = torch.max(vec, 1)
    max_score = torch.gather(vec, 1, idx.view(-1, 1, m_size)).view(-1, 1, m_size)
    return max_score.view(-1, m_size) + torch.log(torch.sum(torch.exp(vec - max_score.expand_as(vec)), 1)).view(-1, m_size)


class CRF(nn.Module):
    def __init__(self, tagset_size):
        super().__init__()
        self.tagset_size = tagset_size
        init_transitions = torch.zeros(self.tagset_size + 2, self.tagset_size + 2)
        init_transitions[:, START_TAG] = -10000.0
        init_transitions[STOP_TAG, :] = -10000.0
        init_transitions[:, 0] = -10000.0
        init_transitions[0, :] = -10000.0
        self.transitions = nn.Parameter(init_transitions)

    def _calculate_PZ(self, feats, mask):
        batch_size, seq_len, tag_size = feats.size(0), feats.size(1), feats.size(2)
        mask = mask.transpose(1, 0).contiguous()
        ins_num = seq_len * batch_size
        feats = feats.transpose(1, 0).contiguous().view(ins_num, 1, tag_size).expand(ins_num, tag_size, tag_size)
        scores = feats + self.transitions.view(1, tag_size, tag_size).expand(ins_num, tag_size, tag_size)
        scores = scores.view(seq_len, batch_size, tag_size, tag_size)
        seq_iter = enumerate(scores)
        _, inivalues = next(seq_iter)
        partition = inivalues[:, START_TAG, :].clone().view(batch_size, tag_size, 1)
        for idx, cur_values in seq_iter:
            cur_values = cur_values + partition.contiguous().view(batch_size, tag_size, 1).expand(batch_size, tag_size, tag_size)
            cur_partition = log_sum_exp(cur_values, tag_size)
            mask_idx = mask[idx, :].view(batch_size, 1).expand(batch_size, tag_size)
            masked_cur_partition = cur_partition.masked_select(mask_idx)
            mask_idx = mask_idx.contiguous().view(batch_size, tag_size, 1)
            partition.masked_scatter_(mask_idx, masked_cur_partition)
        cur_values = self.transitions.view(1, tag_size, tag_size).expand(batch_size, tag_size, tag_size) + partition.contiguous().view(batch_size, tag_size, 1).expand(batch_size, tag_size, tag_size)
        cur_partition = log_sum_exp(cur_values, tag_size)
        return cur_partition[:, STOP_TAG].sum(), scores

    def _viterbi_decode(self, feats, mask):
        batch_size, seq_len, tag_size = feats.size(0), feats.size(1), feats.size(2)
        length_mask = torch.sum(mask.long(), dim=1).view(batch_size, 1).long()
        mask = mask.transpose(1, 0).contiguous()
        ins_num = seq_len * batch_size
        feats = feats.transpose(1, 0).contiguous().view(ins_num, 1, tag_size).expand(ins_num, tag_size, tag_size)
        scores = feats + self.transitions.view(1, tag_size, tag_size).expand(ins_num, tag_size, tag_size)
        scores = scores.view(seq_len, batch_size, tag_size, tag_size)
        seq_iter = enumerate(scores)
        back_points, partition_history = [], []
        mask = (1 - mask.long()).bool()
        _, inivalues = next(seq_iter)
        partition = inivalues[:, START_TAG, :].clone().view(batch_size, tag_size)
        partition_history.append(partition)
        for idx, cur_values in seq_iter:
            cur_values = cur_values + partition.contiguous().view(batch_size, tag_size, 1).expand(batch_size, tag_size, tag_size)
            partition, cur_bp = torch.max(cur_values, 1)
            partition_history.append(partition)
            cur_bp.masked_fill_(mask[idx].view(batch_size, 1).expand(batch_size, tag_size), 0)
            back_points.append(cur_bp)
        partition_history = torch.cat(partition_history, 0).view(seq_len, batch_size, -1).transpose(1, 0).contiguous()
        last_position = length_mask.view(batch_size, 1, 1).expand(batch_size, 1, tag_size) - 1
        last_partition = torch.gather(partition_history, 1, last_position).view(batch_size, tag_size, 1)
        last_values = last_partition.expand(batch_size, tag_size, tag_size) + self.transitions.view(1, tag_size, tag_size).expand(batch_size, tag_size, tag_size)
        _, last_bp = torch.max(last_values, 1)
        back_points.append(torch.zeros(batch_size, tag_size).long())
        back_points = torch.cat(back_points).view(seq_len, batch_size, tag_size)
        pointer = last_bp[:, STOP_TAG]
        insert_last = pointer.contiguous().view(batch_size, 1, 1).expand(batch_size, 1, tag_size)
        back_points = back_points.transpose(1, 0).contiguous()
        back_points.scatter_(1, last_position, insert_last)
        back_points = back_points.transpose(1, 0).contiguous()
        decode_idx = torch.LongTensor(seq_len, batch_size)
        decode_idx[-1] = pointer.detach()
        for idx in range(len(back_points) - 2, -1, -1):
            pointer = torch.gather(back_points[idx], 1, pointer.contiguous().view(batch_size, 1))
            decode_idx[idx] = pointer.detach().view(batch_size)
        return None, decode_idx.transpose(1, 0)

    def _score_sentence(self, scores, mask, tags):
        batch_size, seq_len, tag_size = scores.size(1), scores.size(0), scores.size(2)
        new_tags = torch.LongTensor(batch_size, seq_len)
        for idx in range(seq_len):
            if idx == 0:
                new_tags[:, 0] = (tag_size - 2) * tag_size + tags[:, 0]
            else:
                new_tags[:, idx] = tags[:, idx - 1] * tag_size + tags[:, idx]
        end_transition = self.transitions[:, STOP_TAG].contiguous().view(1, tag_size).expand(batch_size, tag_size)
        length_mask = torch.sum(mask.long(), dim=1).view(batch_size, 1).long()
        end_ids = torch.gather(tags, 1, length_mask - 1)
        end_energy = torch.gather(end_transition, 1, end_ids)
        new_tags = new_tags.transpose(1, 0).contiguous().view(seq_len, batch_size, 1)
        tg_energy = torch.gather(scores.view(seq_len, batch_size, -1), 2, new_tags).view(seq_len, batch_size)
        tg_energy = tg_energy.masked_select(mask.transpose(1, 0))
        return tg_energy.sum() + end_energy.sum()

    def neg_log_likelihood_loss(self, feats, mask, tags):
        forward_score, scores = self._calculate_PZ(feats, mask)
        gold_score = self._score_sentence(scores, mask, tags)
        return forward_score - gold_score


class SeqLabel(nn.Module):
    def __init__(self, vocab_size, label_size, emb_dim=32, hidden_dim=48):
        super().__init__()
        self.word_embedding = nn.Embedding(vocab_size, emb_dim, padding_idx=0)
        self.lstm = nn.LSTM(emb_dim, hidden_dim // 2, num_layers=1, batch_first=True, bidirectional=True)
        self.droplstm = nn.Dropout(0.3)
        self.hidden2tag = nn.Linear(hidden_dim, label_size + 2)
        self.crf = CRF(label_size)

    def word_hidden(self, word_inputs, word_seq_lengths):
        packed_words = pack_padded_sequence(self.word_embedding(word_inputs), word_seq_lengths.cpu().numpy(), batch_first=True)
        lstm_out, _ = self.lstm(packed_words, None)
        lstm_out, _ = pad_packed_sequence(lstm_out, batch_first=True)
        return self.hidden2tag(self.droplstm(lstm_out))

    def calculate_loss(self, word_inputs, word_seq_lengths, batch_label, mask):
        outs = self.word_hidden(word_inputs, word_seq_lengths)
        total_loss = self.crf.neg_log_likelihood_loss(outs, mask, batch_label)
        _, tag_seq = self.crf._viterbi_decode(outs, mask)
        return total_loss / word_inputs.size(0), tag_seq


def batchify_sequence_labeling_with_label(input_batch_list, if_train=True):
    batch_size = len(input_batch_list)
    words = [sent[0] for sent in input_batch_list]
    labels = [sent[1] for sent in input_batch_list]
    word_seq_lengths = torch.LongTensor(list(map(len, words)))
    max_seq_len = word_seq_lengths.max().item()
    word_seq_tensor = torch.zeros((batch_size, max_seq_len), requires_grad=if_train).long()
    label_seq_tensor = torch.zeros((batch_size, max_seq_len), requires_grad=if_train).long()
    mask = torch.zeros((batch_size, max_seq_len), requires_grad=if_train).bool()
    for idx, (seq, label, seqlen) in enumerate(zip(words, labels, word_seq_lengths)):
        seqlen = seqlen.item()
        word_seq_tensor[idx, :seqlen] = torch.LongTensor(seq)
        label_seq_tensor[idx, :seqlen] = torch.LongTensor(label)
        mask[idx, :seqlen] = torch.Tensor([1] * seqlen)
    word_seq_lengths, word_perm_idx = word_seq_lengths.sort(0, descending=True)
    return word_seq_tensor[word_perm_idx], word_seq_lengths, label_seq_tensor[word_perm_idx], mask[word_perm_idx]


# synthetic BIO data: label alphabet index 0 is reserved (padding), then O, B-PER, I-PER, B-LOC, I-LOC
label_alphabet = {"<pad>": 0, "O": 1, "B-PER": 2, "I-PER": 3, "B-LOC": 4, "I-LOC": 5}
names, places, others = list(range(2, 12)), list(range(12, 22)), list(range(22, 80))
instances = []
for _ in range(96):
    words, labels = [], []
    for _ in range(random.randint(4, 12)):
        r = random.random()
        if r < 0.15:
            words += [random.choice(names), random.choice(names)]
            labels += [2, 3]
        elif r < 0.3:
            words += [random.choice(places)]
            labels += [4]
        else:
            words += [random.choice(others)]
            labels += [1]
    instances.append([words, labels])

model = SeqLabel(vocab_size=80, label_size=len(label_alphabet))
optimizer = torch.optim.SGD(model.parameters(), lr=0.015, momentum=0.9)
batch_size = 16
for epoch in range(3):
    random.shuffle(instances)
    model.train()
    total_loss, right, whole = 0.0, 0, 0
    for start in range(0, len(instances), batch_size):
        batch_word, batch_wordlen, batch_label, mask = batchify_sequence_labeling_with_label(instances[start:start + batch_size])
        loss, tag_seq = model.calculate_loss(batch_word, batch_wordlen, batch_label, mask)
        right += (tag_seq == batch_label).masked_select(mask.bool()).sum().item()
        whole += mask.sum().item()
        total_loss += loss.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {total_loss:.2f} token acc {right / whole:.3f}")
