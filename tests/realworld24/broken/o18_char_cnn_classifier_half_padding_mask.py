"""Character-level CNN sequence classifier trained in float16 to fit longer documents: padding positions are masked with masked_fill(pad_mask, -1e15) before the attention-pooling softmax (the value used in float32 training), and the scores are half because the whole network was cast with .half()
source: https://github.com/NVIDIA/apex/issues/93
reported-error: How to use fp16 training with masked operations (masking with -1e20 in float32 trains fine; with float16 and -1e15 the loss scaling returns NaN; -1e15 is too large for fp16, the smallest value is -65504)
outcome: RuntimeError: value cannot be converted to type c10::Half without overflow at line 26
root-cause: line 34
expect: DG018
"""
import torch
import torch.nn as nn

args = {"fp16": True, "vocab": 64, "emb": 16, "channels": 32, "classes": 3}


class CharCNN(nn.Module):
    def __init__(self, a):
        super().__init__()
        self.emb = nn.Embedding(a["vocab"], a["emb"], padding_idx=0)
        self.conv = nn.Conv1d(a["emb"], a["channels"], 5, padding=2)
        self.att = nn.Linear(a["channels"], 1)
        self.out = nn.Linear(a["channels"], a["classes"])

    def forward(self, chars):
        pad_mask = chars.eq(0)
        h = torch.relu(self.conv(self.emb(chars).transpose(1, 2))).transpose(1, 2)
        scores = self.att(h).squeeze(-1)
        scores = scores.masked_fill(pad_mask, -1e15)  # fails-here
        weights = torch.softmax(scores, dim=-1)
        return self.out((weights.unsqueeze(-1) * h).sum(1))


def build_model(a):
    model = CharCNN(a)
    if a["fp16"]:
        model = model.half()  # root-cause
    return model


def make_batch(n=4, max_len=20):
    lengths = torch.randint(8, max_len, (n,))
    chars = torch.randint(1, args["vocab"], (n, max_len))
    chars[torch.arange(max_len)[None, :] >= lengths[:, None]] = 0
    return chars, torch.randint(0, args["classes"], (n,))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = build_model(args)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    chars, labels = make_batch()
    loss = nn.functional.cross_entropy(model(chars).float(), labels)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"loss {loss.item():.4f}")
