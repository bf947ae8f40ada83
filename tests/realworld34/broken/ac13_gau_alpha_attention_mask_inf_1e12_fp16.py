"""GAU-alpha sentence classification fine-tuned in mixed precision (GAU-alpha-pytorch layer.py layout: module constant INF, attention_normalize with softmax_plus, ScaleOffset, GatedAttentionUnit masking the scores with a.masked_fill(attention_mask == 0, -INF), GAULayer with Norm; a tnews-style classifier trained under float16 autocast with a GradScaler): INF = 1e12 cannot be written into the float16 attention scores that autocast's einsum produces
source: https://github.com/JunnYu/GAU-alpha-pytorch/issues/1
reported-error: (title "半精度overflow") during half-precision training, layer.py#L140 a.masked_fill(attention_mask == 0, -INF) reports an overflow (exact message not quoted in the thread); RoFormer masks with -10000; fixed upstream with INF = 1e4
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 69
root-cause: line 13
expect: DG018
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

INF = 1e12  # root-cause


def attention_normalize(a, l, dim=-1, method="softmax"):
    if method == "softmax":
        return torch.softmax(a, dim=dim)
    elif method == "squared_relu":
        return torch.relu(a) ** 2 / l
    elif method == "softmax_plus":
        return torch.softmax(a * torch.log(l) / np.log(512), dim=dim)
    return a


class ScaleOffset(nn.Module):
    def __init__(self, hidden_size=768, scale=True, offset=True):
        super().__init__()
        self.scale, self.offset = scale, offset
        if self.scale:
            self.weight = nn.Parameter(torch.ones(hidden_size))
        if self.offset:
            self.bias = nn.Parameter(torch.zeros(hidden_size))

    def forward(self, inputs):
        if self.scale:
            inputs = inputs * self.weight
        if self.offset:
            inputs = inputs + self.bias
        return inputs


class Norm(nn.Module):
    def __init__(self, eps=1e-12):
        super().__init__()
        self.eps = eps

    def forward(self, x):
        variance = torch.mean(torch.square(x), dim=-1, keepdim=True)
        return x / torch.sqrt(variance + self.eps)


class GatedAttentionUnit(nn.Module):
    def __init__(self, hidden_size=64, intermediate_size=128, attention_key_size=32, normalization="softmax_plus"):
        super().__init__()
        self.intermediate_size, self.attention_key_size = intermediate_size, attention_key_size
        self.normalization = normalization
        self.i_dense = nn.Linear(hidden_size, 2 * intermediate_size + attention_key_size, bias=False)
        self.o_dense = nn.Linear(intermediate_size, hidden_size, bias=False)
        self.q_scaleoffset = ScaleOffset(attention_key_size, offset=False)
        self.k_scaleoffset = ScaleOffset(attention_key_size, offset=False)

    def forward(self, hidden_states, attention_mask=None):
        x = self.i_dense(hidden_states)
        u, v, qk = torch.split(F.silu(x), [self.intermediate_size, self.intermediate_size, self.attention_key_size], dim=-1)
        q, k = self.q_scaleoffset(qk), self.k_scaleoffset(qk)
        a = torch.einsum("bmd,bnd->bmn", q, k) / self.attention_key_size ** 0.5
        if attention_mask is not None:
            a = a.masked_fill(attention_mask == 0, -INF)  # fails-here
            l = attention_mask.sum(-1, keepdim=True)
        else:
            l = torch.ones_like(a) * x.shape[1]
        A = attention_normalize(a, l, dim=-1, method=self.normalization)
        return self.o_dense(u * torch.einsum("bmn,bnd->bmd", A, v))


class GAULayer(nn.Module):
    def __init__(self, hidden_size=64):
        super().__init__()
        self.gau = GatedAttentionUnit(hidden_size)
        self.norm = Norm()

    def forward(self, hidden_states, attention_mask=None):
        return self.norm(hidden_states + F.dropout(self.gau(hidden_states, attention_mask), 0.1, self.training))


class GAUAlphaForSequenceClassification(nn.Module):
    def __init__(self, vocab_size=1000, hidden_size=64, num_layers=2, num_labels=15):
        super().__init__()
        self.embeddings = nn.Embedding(vocab_size, hidden_size)
        self.encoder = nn.ModuleList([GAULayer(hidden_size) for _ in range(num_layers)])
        self.classifier = nn.Linear(hidden_size, num_labels)

    def forward(self, input_ids, attention_mask, labels=None):
        h = self.embeddings(input_ids)
        mask = attention_mask[:, None, :]  # [batch, 1, seq] broadcast over the query positions
        for layer in self.encoder:
            h = layer(h, mask)
        logits = self.classifier(h[:, 0])
        return F.cross_entropy(logits, labels), logits


if __name__ == "__main__":
    torch.manual_seed(42)
    model = GAUAlphaForSequenceClassification()
    optimizer = torch.optim.AdamW(model.parameters(), lr=2e-5)
    scaler = torch.amp.GradScaler("cpu")
    lengths = torch.randint(8, 33, (16,))
    input_ids = torch.randint(1, 1000, (16, 32))
    attention_mask = (torch.arange(32)[None, :] < lengths[:, None]).long()
    labels = torch.randint(0, 15, (16,))
    for step in range(0, 16, 4):
        with torch.autocast("cpu", dtype=torch.float16):  # --fp16
            loss, _ = model(input_ids[step:step + 4], attention_mask[step:step + 4], labels[step:step + 4])
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(f"step {step // 4} loss {loss.item():.4f}")
