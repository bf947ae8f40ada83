"""Chinese text classification fine-tuning with a RoFormer-like encoder (Fengshenbang zhouwenwang layout) in fp16: the self-attention masks padded keys with attention_scores.masked_fill(attention_mask, -1e8), and with the encoder cast to float16 (the fp16 setting in the config) the scores are half precision, where -1e8 overflows
source: https://github.com/IDEA-CCNL/Fengshenbang-LM/issues/25
reported-error: RuntimeError: value cannot be converted to type at::Half without overflow: -1e+08 (roformer/modeling_roformer.py line 333, attention_scores = attention_scores.masked_fill(attention_mask, ...); BERT's -1e5-style value suggested)
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 38
root-cause: line 61
expect: DG018
"""
import math

import torch
import torch.nn as nn

CONFIG = {"vocab_size": 100, "hidden": 32, "heads": 4, "num_labels": 3, "fp16": True, "mask_value": -1e8}


# ---- roformer/modeling_roformer.py
def rotary(x):
    seq, dim = x.shape[-2], x.shape[-1]
    pos = torch.arange(seq, dtype=torch.float32).unsqueeze(1)
    inv = 10000 ** (-torch.arange(0, dim, 2, dtype=torch.float32) / dim)
    ang = (pos * inv).to(x.dtype)
    x1, x2 = x[..., 0::2], x[..., 1::2]
    return torch.cat([x1 * ang.cos() - x2 * ang.sin(), x1 * ang.sin() + x2 * ang.cos()], -1)


class RoFormerSelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.h, self.d = cfg["heads"], cfg["hidden"] // cfg["heads"]
        self.qkv = nn.Linear(cfg["hidden"], 3 * cfg["hidden"])
        self.mask_value = cfg["mask_value"]

    def forward(self, hidden, attention_mask):
        b, s, _ = hidden.shape
        q, k, v = self.qkv(hidden).view(b, s, 3, self.h, self.d).permute(2, 0, 3, 1, 4)
        q, k = rotary(q), rotary(k)
        attention_scores = q @ k.transpose(-1, -2) / math.sqrt(self.d)
        attention_scores = attention_scores.masked_fill(attention_mask, self.mask_value)  # fails-here
        probs = attention_scores.softmax(-1)
        return (probs @ v).transpose(1, 2).reshape(b, s, -1)


class RoFormerForSequenceClassification(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg["vocab_size"], cfg["hidden"])
        self.attn = RoFormerSelfAttention(cfg)
        self.cls = nn.Linear(cfg["hidden"], cfg["num_labels"])

    def forward(self, input_ids, pad_mask):
        attention_mask = ~pad_mask[:, None, None, :]
        h = self.emb(input_ids)
        h = h + self.attn(h, attention_mask)
        return self.cls(h[:, 0])


# ---- finetune_classification.py
def build_model(cfg):
    model = RoFormerForSequenceClassification(cfg)
    if cfg["fp16"]:
        model = model.to(torch.float16)  # root-cause
    return model


if __name__ == "__main__":
    torch.manual_seed(0)
    model = build_model(CONFIG).eval()
    input_ids = torch.randint(1, 100, (4, 10))
    pad_mask = torch.ones(4, 10, dtype=torch.bool)
    pad_mask[:, 7:] = False
    with torch.no_grad():
        logits = model(input_ids, pad_mask)
    print("predicted labels:", logits.argmax(-1).tolist())
