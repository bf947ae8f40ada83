"""Attention-is-all-you-need seq2seq tutorial model (pytorch-seq2seq notebook 6 layout) moved to 16-bit precision: the MultiHeadAttentionLayer masks the energy with a mask_fill default of -1e10, and under float16 autocast the energy from torch.matmul is half, which cannot hold -1e10
source: https://github.com/bentrevett/pytorch-seq2seq/issues/191
reported-error: energy = energy.masked_fill(mask == 0, -1e10): -1e10 can't be converted to half precision (GPU + 16-bit precision; the reporter switched to -float('inf') and later to -1e4)
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 31
root-cause: line 15
expect: DG018
"""
import torch
import torch.nn as nn

CONFIG = {"precision": 16, "hid_dim": 32, "n_heads": 4, "pf_dim": 64, "vocab": 50, "max_len": 20, "lr": 5e-4}


class MultiHeadAttentionLayer(nn.Module):
    def __init__(self, hid_dim, n_heads, dropout, mask_fill=-1e10):  # root-cause
        super().__init__()
        self.hid_dim, self.n_heads, self.head_dim = hid_dim, n_heads, hid_dim // n_heads
        self.fc_q, self.fc_k, self.fc_v = nn.Linear(hid_dim, hid_dim), nn.Linear(hid_dim, hid_dim), nn.Linear(hid_dim, hid_dim)
        self.fc_o = nn.Linear(hid_dim, hid_dim)
        self.dropout = nn.Dropout(dropout)
        self.scale = self.head_dim ** 0.5
        self.mask_fill = mask_fill

    def forward(self, query, key, value, mask=None):
        b = query.shape[0]
        Q = self.fc_q(query).view(b, -1, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        K = self.fc_k(key).view(b, -1, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        V = self.fc_v(value).view(b, -1, self.n_heads, self.head_dim).permute(0, 2, 1, 3)
        energy = torch.matmul(Q, K.permute(0, 1, 3, 2)) / self.scale
        if mask is not None:
            energy = energy.masked_fill(mask == 0, self.mask_fill)  # fails-here
        attention = torch.softmax(energy, dim=-1)
        x = torch.matmul(self.dropout(attention), V).permute(0, 2, 1, 3).contiguous().view(b, -1, self.hid_dim)
        return self.fc_o(x), attention


class EncoderLayer(nn.Module):
    def __init__(self, hid_dim, n_heads, pf_dim, dropout=0.1):
        super().__init__()
        self.self_attention = MultiHeadAttentionLayer(hid_dim, n_heads, dropout)
        self.norm1, self.norm2 = nn.LayerNorm(hid_dim), nn.LayerNorm(hid_dim)
        self.ff = nn.Sequential(nn.Linear(hid_dim, pf_dim), nn.ReLU(), nn.Linear(pf_dim, hid_dim))

    def forward(self, src, src_mask):
        _src, _ = self.self_attention(src, src, src, src_mask)
        src = self.norm1(src + _src)
        return self.norm2(src + self.ff(src))


class Seq2SeqEncoderClassifier(nn.Module):
    def __init__(self, cfg, src_pad_idx=0):
        super().__init__()
        self.tok_embedding = nn.Embedding(cfg["vocab"], cfg["hid_dim"])
        self.pos_embedding = nn.Embedding(cfg["max_len"], cfg["hid_dim"])
        self.layers = nn.ModuleList([EncoderLayer(cfg["hid_dim"], cfg["n_heads"], cfg["pf_dim"]) for _ in range(2)])
        self.fc_out = nn.Linear(cfg["hid_dim"], cfg["vocab"])
        self.src_pad_idx = src_pad_idx

    def make_src_mask(self, src):
        return (src != self.src_pad_idx).unsqueeze(1).unsqueeze(2)

    def forward(self, src):
        pos = torch.arange(0, src.shape[1]).unsqueeze(0).repeat(src.shape[0], 1)
        x = self.tok_embedding(src) * (self.tok_embedding.embedding_dim ** 0.5) + self.pos_embedding(pos)
        mask = self.make_src_mask(src)
        for layer in self.layers:
            x = layer(x, mask)
        return self.fc_out(x)


def train_step(model, optimizer, src, trg, cfg):
    use_fp16 = cfg["precision"] == 16
    with torch.autocast("cpu", dtype=torch.float16, enabled=use_fp16):
        output = model(src)
        loss = nn.functional.cross_entropy(output.reshape(-1, cfg["vocab"]), trg.reshape(-1), ignore_index=0)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Seq2SeqEncoderClassifier(CONFIG)
    optimizer = torch.optim.Adam(model.parameters(), lr=CONFIG["lr"])
    src = torch.randint(1, CONFIG["vocab"], (8, 12))
    src[:, 9:] = 0
    print("loss", train_step(model, optimizer, src, src.roll(1, 1), CONFIG))
