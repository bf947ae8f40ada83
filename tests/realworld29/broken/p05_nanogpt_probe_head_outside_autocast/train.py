"""nanoGPT training with a linear probe on the last position's logits (karpathy/nanoGPT train.py layout: dtype='bfloat16', ctx = torch.amp.autocast(device_type, dtype=ptdtype), model.py GPT): the logits are computed inside `with ctx:` by lm_head and come out bfloat16, while the probe in probe.py is a float32 nn.Linear called outside the autocast block
source: https://github.com/karpathy/nanoGPT/blob/e2221318e607eb5ee0669d6b7641af25a2111545/train.py
reported-error: (the repository trains under ctx; a probe added after `with ctx:` fails with RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at probe.py:10
root-cause: train.py:46
expect: DG017
"""
import torch
import torch.nn.functional as F

from model import GPT, GPTConfig
from probe import LinearProbe

# -----------------------------------------------------------------------------
batch_size = 8
block_size = 16
max_iters = 3
learning_rate = 6e-4
device = "cpu"
dtype = "bfloat16"
# -----------------------------------------------------------------------------
torch.manual_seed(1337)
device_type = "cuda" if "cuda" in device else "cpu"
ptdtype = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}[dtype]
ctx = torch.amp.autocast(device_type=device_type, dtype=ptdtype)

data = torch.randint(0, 64, (2000,))


def get_batch():
    ix = torch.randint(len(data) - block_size, (batch_size,))
    x = torch.stack([data[i:i + block_size] for i in ix])
    y = torch.stack([data[i + 1:i + 1 + block_size] for i in ix])
    return x.to(device), y.to(device)


model_args = dict(n_layer=2, n_head=2, n_embd=32, block_size=block_size, vocab_size=64, dropout=0.0)
model = GPT(GPTConfig(**model_args)).to(device)
optimizer = torch.optim.AdamW(model.parameters(), lr=learning_rate)
probe = LinearProbe(model_args["vocab_size"], 2).to(device)
probe_optimizer = torch.optim.AdamW(probe.parameters(), lr=1e-3)

for iter_num in range(max_iters):
    X, Y = get_batch()
    with ctx:
        logits, loss = model(X, Y)  # root-cause
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    # probe: is the next token even? trained on the detached last-position logits
    probe_labels = (Y[:, -1] % 2).long()
    probe_logits = probe(logits[:, -1, :].detach())
    probe_loss = F.cross_entropy(probe_logits, probe_labels)
    probe_optimizer.zero_grad()
    probe_loss.backward()
    probe_optimizer.step()
    print(f"iter {iter_num}: loss {loss.item():.4f}, probe {probe_loss.item():.4f}")
