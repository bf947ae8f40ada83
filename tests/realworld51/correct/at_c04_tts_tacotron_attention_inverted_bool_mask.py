"""Training a small Tacotron text-to-speech model in the style of mozilla/TTS as forked in Edresson/TTS with the fix of PR #1 (as in at04): the location-sensitive AttentionRNNCell masks the padded encoder steps with alignment.masked_fill_(~mask, -inf), inverting the bool mask of sequence_mask(text_lengths) instead of subtracting it from 1; L1LossMasked still turns the same kind of bool mask into a float multiplier with .float(), and the stop targets are built from a bool comparison cast with .float()
source: https://github.com/Edresson/TTS/pull/1
reported-error: (none filed; the fixed situation of at04)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile

import numpy as np
import torch
from torch import nn
from torch.nn import functional

torch.manual_seed(1)
rng = np.random.default_rng(1)
out_dir = tempfile.mkdtemp()
use_cuda = torch.cuda.is_available()
NUM_CHARS, EMBED, MEL_DIM, R = 40, 64, 20, 2  # r frames predicted per decoder step


def sequence_mask(sequence_length, max_len=None):
    if max_len is None:
        max_len = sequence_length.data.max()
    batch_size = sequence_length.size(0)
    seq_range = torch.arange(0, max_len).long()
    seq_range_expand = seq_range.unsqueeze(0).expand(batch_size, max_len)
    if sequence_length.is_cuda:
        seq_range_expand = seq_range_expand.cuda()
    seq_length_expand = sequence_length.unsqueeze(1).expand_as(seq_range_expand)
    return seq_range_expand < seq_length_expand


class LocationSensitiveAttention(nn.Module):
    def __init__(self, annot_dim, query_dim, attn_dim, kernel_size=31, filters=32):
        super().__init__()
        padding = [(kernel_size - 1) // 2, (kernel_size - 1) // 2]
        self.loc_conv = nn.Sequential(nn.ConstantPad1d(padding, 0), nn.Conv1d(2, filters, kernel_size, bias=False))
        self.loc_linear = nn.Linear(filters, attn_dim, bias=True)
        self.query_layer = nn.Linear(query_dim, attn_dim, bias=True)
        self.annot_layer = nn.Linear(annot_dim, attn_dim, bias=True)
        self.v = nn.Linear(attn_dim, 1, bias=False)
        self.processed_annots = None

    def reset(self):
        self.processed_annots = None

    def forward(self, annot, query, loc):
        query = query.unsqueeze(1)
        processed_loc = self.loc_linear(self.loc_conv(loc).transpose(1, 2))
        processed_query = self.query_layer(query)
        if self.processed_annots is None:
            self.processed_annots = self.annot_layer(annot)
        alignment = self.v(torch.tanh(processed_query + self.processed_annots + processed_loc))
        return alignment.squeeze(-1)  # (batch, max_time)


class AttentionRNNCell(nn.Module):
    def __init__(self, out_dim, rnn_dim, annot_dim, memory_dim):
        super().__init__()
        self.rnn_cell = nn.GRUCell(annot_dim + memory_dim, rnn_dim)
        self.alignment_model = LocationSensitiveAttention(annot_dim, rnn_dim, out_dim)

    def forward(self, memory, context, rnn_state, annots, atten, mask, t):
        if t == 0:
            self.alignment_model.reset()
        rnn_output = self.rnn_cell(torch.cat((memory, context), -1), rnn_state)
        alignment = self.alignment_model(annots, rnn_output, atten)
        if mask is not None:
            mask = mask.view(memory.size(0), -1)
            alignment.masked_fill_(~mask, -float("inf"))
        alignment = torch.sigmoid(alignment) / torch.sigmoid(alignment).sum(dim=1).unsqueeze(1)
        context = torch.bmm(alignment.unsqueeze(1), annots).squeeze(1)
        return rnn_output, context, alignment


class Tacotron(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(NUM_CHARS, EMBED, padding_idx=0)
        self.encoder_prenet = nn.Sequential(nn.Linear(EMBED, EMBED), nn.ReLU(), nn.Dropout(0.5))
        self.encoder_rnn = nn.GRU(EMBED, EMBED // 2, batch_first=True, bidirectional=True)
        self.decoder_prenet = nn.Sequential(nn.Linear(MEL_DIM * R, 64), nn.ReLU(), nn.Dropout(0.5))
        self.attention_rnn = AttentionRNNCell(out_dim=64, rnn_dim=64, annot_dim=EMBED, memory_dim=64)
        self.decoder_rnn = nn.GRUCell(64 + EMBED, 64)
        self.proj_to_mel = nn.Linear(64, MEL_DIM * R)
        self.stopnet = nn.Linear(64 + MEL_DIM * R, 1)
        self.postnet = nn.Sequential(nn.Conv1d(MEL_DIM, 64, 5, padding=2), nn.Tanh(), nn.Conv1d(64, MEL_DIM, 5, padding=2))

    def forward(self, characters, mel_specs, mask):
        b = characters.size(0)
        annots, _ = self.encoder_rnn(self.encoder_prenet(self.embedding(characters)))
        t_enc = annots.size(1)
        memory = mel_specs.view(b, mel_specs.size(1) // R, -1)
        frame = torch.zeros(b, MEL_DIM * R)
        attn_state, dec_state = torch.zeros(b, 64), torch.zeros(b, 64)
        context, attn_cum = torch.zeros(b, EMBED), torch.zeros(b, t_enc)
        attention = torch.zeros(b, t_enc)
        outputs, alignments, stops = [], [], []
        for t in range(memory.size(1)):
            atten_cat = torch.cat((attention.unsqueeze(1), attn_cum.unsqueeze(1)), dim=1)
            attn_state, context, attention = self.attention_rnn(self.decoder_prenet(frame), context, attn_state,
                                                                annots, atten_cat, mask, t)
            attn_cum = attn_cum + attention
            dec_state = self.decoder_rnn(torch.cat((attn_state, context), -1), dec_state)
            out = self.proj_to_mel(dec_state)
            stops.append(torch.sigmoid(self.stopnet(torch.cat((dec_state, out), -1))))
            outputs.append(out)
            alignments.append(attention)
            frame = memory[:, t]  # teacher forcing
        mel_out = torch.stack(outputs, 1).view(b, -1, MEL_DIM)
        post = mel_out + self.postnet(mel_out.transpose(1, 2)).transpose(1, 2)
        return mel_out, post, torch.stack(alignments, 1), torch.cat(stops, 1)


class L1LossMasked(nn.Module):
    def forward(self, input, target, length):
        mask = sequence_mask(sequence_length=length, max_len=target.size(1)).unsqueeze(2).float()
        mask = mask.expand_as(input)
        loss = functional.l1_loss(input * mask, target * mask, reduction="sum")
        return loss / mask.sum()


def synthetic_batch(batch_size=8):
    """Character ids and log-mel frames (padded to a multiple of r), as TTSDataset.collate_fn returns them."""
    text_lengths = torch.from_numpy(rng.integers(8, 24, batch_size)).sort(descending=True).values
    mel_lengths = (text_lengths * 3 // R) * R
    text = torch.zeros(batch_size, int(text_lengths.max()), dtype=torch.long)
    mel = torch.zeros(batch_size, int(mel_lengths.max()), MEL_DIM)
    for i in range(batch_size):
        chars = torch.from_numpy(rng.integers(1, NUM_CHARS, int(text_lengths[i])))
        text[i, : len(chars)] = chars
        frames = torch.sin(chars.float().repeat_interleave(3)[: int(mel_lengths[i])].unsqueeze(1) * torch.linspace(0.1, 2, MEL_DIM))
        mel[i, : frames.size(0)] = frames
    stop_targets = (torch.arange(mel.size(1)).unsqueeze(0) >= (mel_lengths.unsqueeze(1) - 1)).float()
    return text, text_lengths, mel, mel_lengths, stop_targets


model = Tacotron()
criterion, criterion_st = L1LossMasked(), nn.BCELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=0)
for num_iter in range(20):
    text_input, text_lengths, mel_input, mel_lengths, stop_targets = synthetic_batch()
    stop_targets = stop_targets.view(text_input.shape[0], stop_targets.size(1) // R, -1)
    stop_targets = (stop_targets.sum(2) > 0.0).float()
    optimizer.zero_grad()
    mask = sequence_mask(text_lengths)  # compute mask for padding
    mel_output, linear_output, alignments, stop_tokens = model(text_input, mel_input, mask)
    stop_loss = criterion_st(stop_tokens, stop_targets)
    mel_loss = criterion(mel_output, mel_input, mel_lengths)
    postnet_loss = criterion(linear_output, mel_input, mel_lengths)
    loss = mel_loss + postnet_loss + stop_loss
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    if num_iter % 5 == 0:
        print(f"   | > Step:{num_iter}  TotalLoss:{loss.item():.5f}  MelLoss:{mel_loss.item():.5f}  StopLoss:{stop_loss.item():.5f}")
torch.save({"model": model.state_dict(), "step": num_iter}, os.path.join(out_dir, "checkpoint_20.pth.tar"))
