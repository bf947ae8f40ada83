"""nanoGPT-style loop with float32 parameters and a torch.autocast("cpu", dtype=ptdtype) context; the GradScaler is constructed for every run but enabled only when the config dtype is float16, so with dtype="bfloat16" scale/step pass through
source: https://github.com/karpathy/nanoGPT/pull/87
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

config = {"dtype": "bfloat16", "n_embd": 32, "vocab_size": 64, "block_size": 16, "batch_size": 4,
          "gradient_accumulation_steps": 2, "learning_rate": 6e-4, "max_iters": 3}
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[config["dtype"]]
ctx = torch.autocast(device_type="cpu", dtype=ptdtype)


class TinyGPT(nn.Module):
    def __init__(self, vocab_size, n_embd, block_size):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab_size, n_embd), nn.Embedding(block_size, n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx, targets):
        x = self.wte(idx) + self.wpe(torch.arange(idx.size(1)))
        logits = self.lm_head(x + self.mlp(x))
        return logits, F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), targets.reshape(-1))


model = TinyGPT(config["vocab_size"], config["n_embd"], config["block_size"])
optimizer = torch.optim.AdamW(model.parameters(), lr=config["learning_rate"])
scaler = torch.amp.GradScaler("cpu", enabled=(config["dtype"] == "float16"))
for it in range(config["max_iters"]):
    for micro_step in range(config["gradient_accumulation_steps"]):
        data = torch.randint(0, config["vocab_size"], (config["batch_size"], config["block_size"] + 1))
        with ctx:
            logits, loss = model(data[:, :-1], data[:, 1:])
            loss = loss / config["gradient_accumulation_steps"]
        scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad(set_to_none=True)
    print(f"iter {it}: loss {loss.item() * config['gradient_accumulation_steps']:.4f}")
