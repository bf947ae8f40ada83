"""Small GPT pre-training with a NorMuon-style optimizer: the optimizer lazily allocates its momentum and per-row second-moment buffers with zeros_like(p) on the first step, while the model is still float32; after the warm-up phase the trainer switches the model to bfloat16 to save memory, so the float32 momentum_buffer.lerp_() now receives bfloat16 gradients (the report's second_momentum.lerp_() has the same float32-state/bf16-input shape)
source: https://github.com/zichongli5/NorMuon/issues/7
reported-error: RuntimeError: expected dtype float for end but got dtype c10::BFloat16 (second_momentum.lerp_(v_mean, 1 - beta2) with bf16 v_mean)
outcome: RuntimeError: expected dtype float for `end` but got dtype c10::BFloat16 at line 29
root-cause: line 57
expect: DG015
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- normuon.py
class NorMuon(torch.optim.Optimizer):
    def __init__(self, params, lr=0.02, momentum=0.95, beta2=0.95):
        super().__init__(params, dict(lr=lr, momentum=momentum, beta2=beta2))

    @torch.no_grad()
    def step(self):
        for group in self.param_groups:
            for p in group["params"]:
                if p.grad is None:
                    continue
                state = self.state[p]
                if not state:
                    state["momentum_buffer"] = torch.zeros_like(p)
                    state["second_momentum"] = torch.zeros_like(p[..., :1]) if p.ndim == 2 else torch.zeros_like(p)
                buf = state["momentum_buffer"]
                buf.lerp_(p.grad, 1 - group["momentum"])  # fails-here
                v_mean = (buf * buf).mean(dim=-1, keepdim=True) if p.ndim == 2 else buf * buf
                state["second_momentum"].lerp_(v_mean, 1 - group["beta2"])
                p.add_(buf / (state["second_momentum"].sqrt() + 1e-8), alpha=-group["lr"])


# ---- model.py
class TinyGPT(nn.Module):
    def __init__(self, vocab=64, dim=32, ctx=16):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(ctx, dim)
        self.block = nn.TransformerEncoderLayer(dim, 4, 64, batch_first=True)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.size(1)))
        mask = nn.Transformer.generate_square_subsequent_mask(idx.size(1))
        return self.lm_head(self.block(x, src_mask=mask, is_causal=True))


# ---- train.py
def train(warmup_steps=3, total_steps=6):
    torch.manual_seed(0)
    model = TinyGPT()
    optimizer = NorMuon(model.parameters(), lr=0.01)
    for step in range(total_steps):
        if step == warmup_steps:
            model = model.to(torch.bfloat16)  # root-cause
        idx = torch.randint(0, 64, (8, 17))
        logits = model(idx[:, :-1])
        loss = F.cross_entropy(logits.float().flatten(0, 1), idx[:, 1:].flatten())
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
