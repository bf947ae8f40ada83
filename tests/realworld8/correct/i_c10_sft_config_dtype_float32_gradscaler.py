"""Open-Assistant-style SFT run after the suggested fix: the YAML model config says dtype: float32, get_model casts the model to the configured dtype (float32), and the GradScaler loop unscales float32 gradients before clipping
source: https://github.com/LAION-AI/Open-Assistant/issues/3213
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import yaml

conf = yaml.safe_load("""
learning_rate: 1.0e-5
max_grad_norm: 2.0
fp16: true
dtype: float32
hidden: 32
vocab: 100
""")


def get_model(conf):
    dtype = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}[conf["dtype"]]
    model = nn.Sequential(nn.Embedding(conf["vocab"], conf["hidden"]), nn.Linear(conf["hidden"], conf["hidden"]), nn.GELU(), nn.Linear(conf["hidden"], conf["vocab"]))
    return model.to(dtype)


model = get_model(conf)
optimizer = torch.optim.AdamW(model.parameters(), lr=conf["learning_rate"])
scaler = torch.amp.GradScaler("cpu", enabled=conf["fp16"])
for step in range(3):
    input_ids = torch.randint(0, conf["vocab"], (4, 16))
    with torch.autocast("cpu", dtype=torch.bfloat16):
        logits = model(input_ids[:, :-1])
    loss = nn.functional.cross_entropy(logits.float().reshape(-1, conf["vocab"]), input_ids[:, 1:].reshape(-1))
    scaler.scale(loss).backward()
    scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), conf["max_grad_norm"])
    scaler.step(optimizer)
    scaler.update()
    optimizer.zero_grad()
    print(f"step {step}: loss {loss.item():.4f}")
