"""ChatGLM3-base SFT (chatglm3-base-tuning style): the data collator pads the multi-turn conversations and builds attention_mask with input_ids.ne(pad_token_id), a bool tensor; ChatGLM's get_masks (re-typed, with its rotary position embedding model around it) does `full_attention_mask -= padding_mask.unsqueeze(-1) - 1`, which torch refuses for a bool padding mask
source: https://github.com/minghaochen/chatglm3-base-tuning/issues/1
reported-error: RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead. (maintainer: change modeling_chatglm line 691 to `full_attention_mask -= padding_mask.unsqueeze(-1).int() - 1`)
outcome: RuntimeError: Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert a mask, use the `~` or `logical_not()` operator instead. at line 140
root-cause: line 59
expect: DG004
"""
import math
import random
from dataclasses import dataclass
from typing import Dict, Sequence

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

torch.manual_seed(0)
random.seed(0)
PAD_ID, EOS_ID, VOCAB = 0, 2, 300
GMASK, SOP, USER, ASSISTANT = 290, 291, 292, 293


class ChatDataset(Dataset):
    """Conversations turned into input_ids / labels (only assistant turns are learned), as chat_data_module.preprocess."""

    def __init__(self, n=24):
        self.input_ids, self.labels = [], []
        for _ in range(n):
            ids, labels = [GMASK, SOP], [-100, -100]
            for _turn in range(random.randint(1, 3)):
                q = [random.randint(3, 280) for _ in range(random.randint(2, 6))]
                a = [random.randint(3, 280) for _ in range(random.randint(2, 6))] + [EOS_ID]
                ids += [USER] + q + [ASSISTANT]
                labels += [-100] * (len(q) + 2)
                ids += a
                labels += a
            self.input_ids.append(torch.LongTensor(ids))
            self.labels.append(torch.LongTensor(labels))

    def __len__(self):
        return len(self.input_ids)

    def __getitem__(self, i) -> Dict[str, torch.Tensor]:
        return dict(input_ids=self.input_ids[i], labels=self.labels[i])


@dataclass
class DataCollatorForChatDataset(object):
    pad_token_id: int = PAD_ID

    def __call__(self, instances: Sequence[Dict]) -> Dict[str, torch.Tensor]:
        input_ids, labels = tuple([instance[key] for instance in instances] for key in ("input_ids", "labels"))
        input_ids = torch.nn.utils.rnn.pad_sequence(input_ids, batch_first=True, padding_value=self.pad_token_id)
        labels = torch.nn.utils.rnn.pad_sequence(labels, batch_first=True, padding_value=-100)
        return dict(
            input_ids=input_ids,
            labels=labels,
            attention_mask=input_ids.ne(self.pad_token_id),  # root-cause
        )


class RotaryEmbedding(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.dim = dim

    def forward(self, seq_len, dtype):
        theta = 1.0 / (10000 ** (torch.arange(0, self.dim, 2, dtype=torch.float) / self.dim))
        seq_idx = torch.arange(seq_len, dtype=torch.float)
        idx_theta = torch.outer(seq_idx, theta).float()
        return torch.stack([torch.cos(idx_theta), torch.sin(idx_theta)], dim=-1).to(dtype)


def apply_rotary_pos_emb(x, rope_cache):
    # x: [b, np, sq, hn]; rotary on the first half of each head, as ChatGLM
    sq, rot_dim = x.size(2), rope_cache.shape[-2] * 2
    x, x_pass = x[..., :rot_dim], x[..., rot_dim:]
    rope_cache = rope_cache[:, :, :sq]
    xshaped = x.reshape(*x.shape[:-1], rot_dim // 2, 2)
    x_out2 = torch.stack([xshaped[..., 0] * rope_cache[..., 0] - xshaped[..., 1] * rope_cache[..., 1],
                          xshaped[..., 1] * rope_cache[..., 0] + xshaped[..., 0] * rope_cache[..., 1]], -1)
    return torch.cat((x_out2.flatten(3), x_pass), dim=-1)


class SelfAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads, self.head_dim = heads, hidden // heads
        self.query_key_value = nn.Linear(hidden, 3 * hidden)
        self.dense = nn.Linear(hidden, hidden)

    def forward(self, h, attention_mask, rotary_pos_emb):
        b, s, _ = h.shape
        q, k, v = self.query_key_value(h).view(b, s, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k = apply_rotary_pos_emb(q, rotary_pos_emb), apply_rotary_pos_emb(k, rotary_pos_emb)
        scores = q @ k.transpose(-1, -2) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(attention_mask, float("-inf"))
        ctx = F.softmax(scores, dim=-1) @ v
        return self.dense(ctx.transpose(1, 2).reshape(b, s, -1))


class GLMBlock(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(hidden)
        self.self_attention = SelfAttention(hidden, heads)
        self.post_attention_layernorm = nn.LayerNorm(hidden)
        self.mlp = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.SiLU(), nn.Linear(4 * hidden, hidden))

    def forward(self, h, attention_mask, rotary_pos_emb):
        h = h + self.self_attention(self.input_layernorm(h), attention_mask, rotary_pos_emb)
        return h + self.mlp(self.post_attention_layernorm(h))


class ChatGLMForConditionalGeneration(nn.Module):
    """modeling_chatglm.py (re-typed, tiny): embedding, rotary cache, GLM blocks, output layer."""

    def __init__(self, hidden=64, heads=4, layers=2):
        super().__init__()
        self.embedding = nn.Embedding(VOCAB, hidden)
        self.rotary_pos_emb = RotaryEmbedding(hidden // heads // 2)
        self.layers = nn.ModuleList([GLMBlock(hidden, heads) for _ in range(layers)])
        self.final_layernorm = nn.LayerNorm(hidden)
        self.output_layer = nn.Linear(hidden, VOCAB, bias=False)

    def get_masks(self, input_ids, past_key_values, padding_mask=None):
        batch_size, seq_length = input_ids.shape
        full_attention_mask = torch.ones(batch_size, seq_length, seq_length, device=input_ids.device)
        full_attention_mask.tril_()
        past_length = 0
        if past_key_values:
            past_length = past_key_values[0][0].shape[0]
        if past_length:
            full_attention_mask = torch.cat((torch.ones(batch_size, seq_length, past_length,
                                                        device=input_ids.device), full_attention_mask), dim=-1)
        if padding_mask is not None:
            full_attention_mask = full_attention_mask * padding_mask.unsqueeze(1)
        if not past_length and padding_mask is not None:
            full_attention_mask -= padding_mask.unsqueeze(-1) - 1  # root-cause-alt  # fails-here
        full_attention_mask = (full_attention_mask < 0.5).bool()
        full_attention_mask.unsqueeze_(1)
        return full_attention_mask

    def forward(self, input_ids, attention_mask=None, labels=None, past_key_values=None):
        batch_size, seq_length = input_ids.shape
        full_attention_mask = None
        if (attention_mask is not None and not attention_mask.all()) or (past_key_values and seq_length != 1):
            full_attention_mask = self.get_masks(input_ids, past_key_values, padding_mask=attention_mask)
        if full_attention_mask is None:
            full_attention_mask = ~torch.ones(seq_length, seq_length, dtype=torch.bool).tril()[None, None]
        rotary_pos_emb = self.rotary_pos_emb(seq_length, dtype=torch.float32)[None, None]
        h = self.embedding(input_ids)
        for layer in self.layers:
            h = layer(h, full_attention_mask, rotary_pos_emb)
        lm_logits = self.output_layer(self.final_layernorm(h))
        shift_logits = lm_logits[..., :-1, :].contiguous()
        shift_labels = labels[..., 1:].contiguous()
        return F.cross_entropy(shift_logits.view(-1, VOCAB), shift_labels.view(-1), ignore_index=-100)


loader = DataLoader(ChatDataset(), batch_size=4, shuffle=True, collate_fn=DataCollatorForChatDataset())
model = ChatGLMForConditionalGeneration()
optim = torch.optim.AdamW(model.parameters(), lr=1e-3)
for step, batch in enumerate(loader):
    loss = model(**batch)
    optim.zero_grad()
    loss.backward()
    optim.step()
    print(f"step {step} loss {loss.item():.4f}")
