"""Continued pre-training of LLaMA weights in bfloat16 (Megatron-DeepSpeed-Llama style: argparse --bf16/--lr/--load, the checkpoint loaded into a LLaMA stack, the model cast with .to(torch.bfloat16) for --bf16, then a plain AdamW over those parameters): with no float32 master copy, each AdamW update of about lr is far below half the bfloat16 spacing of the pretrained weights and rounds away
source: https://github.com/genggui001/Megatron-DeepSpeed-Llama/issues/7
reported-error: (no exception) bf16 continued training of LLaMA weights misbehaves: loss 2 before the first update, 10 after it, then it falls as slowly as from a random init; weights differ a lot before/after the first update (maintainer: "checked, no problem, check the learning rate")
outcome: ok (silent: the optimizer.step() at line 88 leaves most bfloat16 weights bit-identical (every RMSNorm weight and all but the smallest matrix entries), printed as "after 5 AdamW steps: 0.142 of weights changed" (1.000 with float32 weights); the loss barely moves)
root-cause: line 77
expect: DG013
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return self.weight * x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)


class LlamaLayer(nn.Module):
    def __init__(self, hidden, ffn):
        super().__init__()
        self.input_layernorm = RMSNorm(hidden)
        self.qkv = nn.Linear(hidden, 3 * hidden, bias=False)
        self.o_proj = nn.Linear(hidden, hidden, bias=False)
        self.post_attention_layernorm = RMSNorm(hidden)
        self.gate_up = nn.Linear(hidden, 2 * ffn, bias=False)
        self.down = nn.Linear(ffn, hidden, bias=False)

    def forward(self, x):
        q, k, v = self.qkv(self.input_layernorm(x)).chunk(3, dim=-1)
        x = x + self.o_proj(F.scaled_dot_product_attention(q, k, v, is_causal=True))
        gate, up = self.gate_up(self.post_attention_layernorm(x)).chunk(2, dim=-1)
        return x + self.down(F.silu(gate) * up)


class LlamaModel(nn.Module):
    def __init__(self, vocab, hidden, ffn, layers):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([LlamaLayer(hidden, ffn) for _ in range(layers)])
        self.norm = RMSNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, tokens):
        h = self.embed_tokens(tokens)
        for layer in self.layers:
            h = layer(h)
        return self.lm_head(self.norm(h))


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bf16", action="store_true")
    parser.add_argument("--lr", type=float, default=1e-5)
    parser.add_argument("--weight-decay", type=float, default=0.1)
    parser.add_argument("--adam-beta2", type=float, default=0.95)
    parser.add_argument("--train-iters", type=int, default=5)
    parser.add_argument("--micro-batch-size", type=int, default=4)
    parser.add_argument("--seq-length", type=int, default=32)
    return parser.parse_args(["--bf16"])


if __name__ == "__main__":
    args = get_args()
    torch.manual_seed(1234)
    model = LlamaModel(vocab=256, hidden=64, ffn=172, layers=2)
    for p in model.parameters():  # "--load llama-7b": pretrained-scale weights
        if p.dim() > 1:
            nn.init.normal_(p, std=0.02)
    if args.bf16:
        model = model.to(torch.bfloat16)  # root-cause
    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, betas=(0.9, args.adam_beta2),
                                  weight_decay=args.weight_decay)
    before = [p.detach().clone() for p in model.parameters()]
    data = torch.randint(0, 256, (64, args.seq_length + 1))
    for iteration in range(args.train_iters):
        batch = data[iteration * args.micro_batch_size:(iteration + 1) * args.micro_batch_size]
        logits = model(batch[:, :-1])
        loss = F.cross_entropy(logits.float().flatten(0, 1), batch[:, 1:].flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
        print(f"iteration {iteration + 1} lm_loss {loss.item():.6f}")
    changed = sum((p != b).sum().item() for p, b in zip(model.parameters(), before))
    total = sum(p.numel() for p in model.parameters())
    print(f"after {args.train_iters} AdamW steps: {changed / total:.3f} of weights changed")
