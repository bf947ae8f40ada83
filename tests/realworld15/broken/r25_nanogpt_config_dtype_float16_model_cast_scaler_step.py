"""nanoGPT-style training loop driven by a config dict with dtype='float16': the GradScaler is enabled for float16 as in the upstream change, but setup_model() also casts the model itself to ptdtype instead of relying on autocast; scaler.step after the gradient-accumulation micro-steps meets float16 gradients
source: https://github.com/karpathy/nanoGPT/pull/87
reported-error: Use GradScaler only if dtype is float16 (the scaler is meant for float32 parameters under float16 autocast)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 51
root-cause: line 34
expect: DG014
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

config = {"dtype": "float16", "n_embd": 32, "vocab_size": 64, "block_size": 16, "batch_size": 4,
          "gradient_accumulation_steps": 2, "learning_rate": 6e-4, "max_iters": 2, "grad_clip": 0.0}
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[config["dtype"]]


class TinyGPT(nn.Module):
    def __init__(self, vocab_size, n_embd, block_size):
        super().__init__()
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx, targets):
        pos = torch.arange(idx.size(1))
        x = self.wte(idx) + self.wpe(pos)
        logits = self.lm_head(x + self.mlp(x))
        return logits, F.cross_entropy(logits.float().view(-1, logits.size(-1)), targets.reshape(-1))


def setup_model(cfg):
    model = TinyGPT(cfg["vocab_size"], cfg["n_embd"], cfg["block_size"])
    return model.to(ptdtype)  # root-cause


def get_batch(cfg):
    data = torch.randint(0, cfg["vocab_size"], (cfg["batch_size"], cfg["block_size"] + 1))
    return data[:, :-1], data[:, 1:]


model = setup_model(config)
optimizer = torch.optim.AdamW(model.parameters(), lr=config["learning_rate"], eps=1e-4)
scaler = torch.amp.GradScaler("cpu", enabled=(config["dtype"] == "float16"))
for it in range(config["max_iters"]):
    for micro_step in range(config["gradient_accumulation_steps"]):
        X, Y = get_batch(config)
        logits, loss = model(X, Y)
        loss = loss / config["gradient_accumulation_steps"]
        scaler.scale(loss).backward()
    scaler.step(optimizer)  # fails-here
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    print(f"iter {it}: loss {loss.item() * config['gradient_accumulation_steps']:.4f}")
