"""The ast0414/pointer-networks-pytorch-style integer-sorting pointer network of bq02 (ast0414/pointer-networks-pytorch #1) with the fix of PR #2: masked_max turns its float padding mask into a bool mask ((1.0 - mask).bool()), so masked_fill accepts it and greedy pointer decoding and training run; the float sub-mask handed to masked_log_softmax (added as (mask + 1e-45).log()), the bool*bool mask product and masked_select with a bool mask are kept
source: https://github.com/ast0414/pointer-networks-pytorch/issues/1
reported-error: (none filed; the fixed situation of bq02)
outcome: ok
root-cause: -
expect: none
"""
import itertools

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.optim import Adam
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(1)


class IntegerSortDataset(Dataset):
    def __init__(self, num_samples=256, low=0, high=100, min_len=5, max_len=10, seed=1):
        self.prng = np.random.RandomState(seed=seed)
        self.input_dim = high
        self.seqs = [self.prng.choice(np.arange(low, high), size=self.prng.randint(min_len, max_len + 1)).tolist() for _ in range(num_samples)]
        self.labels = [sorted(range(len(seq)), key=seq.__getitem__) for seq in self.seqs]

    def __getitem__(self, index):
        seq = self.seqs[index]
        data = torch.zeros(len(seq), self.input_dim)
        data[torch.arange(len(seq)), torch.tensor(seq)] = 1.0
        return data, len(seq), self.labels[index]

    def __len__(self):
        return len(self.seqs)


def seq_collate_fn(batch):
    batch_size = len(batch)
    sorted_seqs, sorted_lengths, sorted_labels = zip(*sorted(batch, key=lambda x: x[1], reverse=True))
    seq_tensor = nn.utils.rnn.pad_sequence(sorted_seqs, batch_first=True)
    length_tensor = torch.LongTensor(sorted_lengths)
    padded_labels = list(zip(*(itertools.zip_longest(*sorted_labels, fillvalue=-1))))
    label_tensor = torch.LongTensor(padded_labels).view(batch_size, -1)
    return seq_tensor, length_tensor, label_tensor


def masked_log_softmax(vector, mask, dim=-1):
    if mask is not None:
        mask = mask.float()
        while mask.dim() < vector.dim():
            mask = mask.unsqueeze(1)
        vector = vector + (mask + 1e-45).log()
    return F.log_softmax(vector, dim=dim)


def masked_max(vector, mask, dim, keepdim=False, min_val=-1e7):
    one_minus_mask = (1.0 - mask).bool()
    replaced_vector = vector.masked_fill(one_minus_mask, min_val)
    max_value, max_index = replaced_vector.max(dim=dim, keepdim=keepdim)
    return max_value, max_index


class Encoder(nn.Module):
    def __init__(self, embedding_dim, hidden_size):
        super().__init__()
        self.rnn = nn.LSTM(embedding_dim, hidden_size, batch_first=True, bidirectional=True)

    def forward(self, embedded_inputs, input_lengths):
        packed = nn.utils.rnn.pack_padded_sequence(embedded_inputs, input_lengths.cpu(), batch_first=True)
        outputs, hidden = self.rnn(packed)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(outputs, batch_first=True)
        return outputs, hidden


class Attention(nn.Module):
    def __init__(self, hidden_size):
        super().__init__()
        self.W1 = nn.Linear(hidden_size, hidden_size, bias=False)
        self.W2 = nn.Linear(hidden_size, hidden_size, bias=False)
        self.vt = nn.Linear(hidden_size, 1, bias=False)

    def forward(self, decoder_state, encoder_outputs, mask):
        u_i = self.vt(torch.tanh(self.W1(encoder_outputs) + self.W2(decoder_state).unsqueeze(1))).squeeze(-1)
        return masked_log_softmax(u_i, mask, dim=-1)


class PointerNet(nn.Module):
    def __init__(self, input_dim, embedding_dim, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.embedding = nn.Linear(input_dim, embedding_dim, bias=False)
        self.encoder = Encoder(embedding_dim, hidden_size)
        self.decoding_rnn = nn.LSTMCell(hidden_size, hidden_size)
        self.attn = Attention(hidden_size)

    def forward(self, input_seq, input_lengths):
        batch_size, max_seq_len = input_seq.size(0), input_seq.size(1)
        encoder_outputs, (h_n, c_n) = self.encoder(self.embedding(input_seq), input_lengths)
        encoder_outputs = encoder_outputs[:, :, :self.hidden_size] + encoder_outputs[:, :, self.hidden_size:]
        h_n = h_n.view(1, 2, batch_size, self.hidden_size)
        c_n = c_n.view(1, 2, batch_size, self.hidden_size)
        decoder_input = encoder_outputs.new_zeros(torch.Size((batch_size, self.hidden_size)))
        decoder_hidden = (h_n[-1, 0], c_n[-1, 0])
        range_tensor = torch.arange(max_seq_len, device=input_lengths.device, dtype=input_lengths.dtype).expand(batch_size, max_seq_len, max_seq_len)
        each_len_tensor = input_lengths.view(-1, 1, 1).expand(batch_size, max_seq_len, max_seq_len)
        row_mask_tensor = range_tensor < each_len_tensor
        mask_tensor = row_mask_tensor * row_mask_tensor.transpose(1, 2)
        pointer_log_scores, pointer_argmaxs = [], []
        for i in range(max_seq_len):
            sub_mask = mask_tensor[:, i, :].float()
            h_i, c_i = self.decoding_rnn(decoder_input, decoder_hidden)
            decoder_hidden = (h_i, c_i)
            log_pointer_score = self.attn(h_i, encoder_outputs, sub_mask)
            pointer_log_scores.append(log_pointer_score)
            _, masked_argmax = masked_max(log_pointer_score, sub_mask, dim=1, keepdim=True)
            pointer_argmaxs.append(masked_argmax)
            index_tensor = masked_argmax.unsqueeze(-1).expand(batch_size, 1, self.hidden_size)
            decoder_input = torch.gather(encoder_outputs, dim=1, index=index_tensor).squeeze(1)
        return torch.stack(pointer_log_scores, 1), torch.cat(pointer_argmaxs, 1), mask_tensor


def masked_accuracy(output, target, mask):
    with torch.no_grad():
        return torch.masked_select(output, mask).eq(torch.masked_select(target, mask)).float().mean()


device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
train_set = IntegerSortDataset(num_samples=256, seed=1)
train_loader = DataLoader(train_set, batch_size=32, shuffle=True, collate_fn=seq_collate_fn)
model = PointerNet(input_dim=100, embedding_dim=8, hidden_size=8).to(device)
optimizer = Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
for epoch in range(2):
    model.train()
    for batch_idx, (seq, length, target) in enumerate(train_loader):
        seq, length, target = seq.to(device), length.to(device), target.to(device)
        optimizer.zero_grad()
        log_pointer_score, argmax_pointer, mask = model(seq, length)
        loss = F.nll_loss(log_pointer_score.view(-1, log_pointer_score.size(-1)), target.view(-1), ignore_index=-1)
        loss.backward()
        optimizer.step()
    acc = masked_accuracy(argmax_pointer, target, mask[:, 0, :])
    print(f"epoch {epoch} loss {loss.item():.4f} accuracy {acc.item():.3f}")
