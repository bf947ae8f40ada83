"""Text-generation web UI style LoRA trainer: inject_adapters() adds float32 LoRA layers to the loaded model, then reload_for_training() calls model.half() on the whole model (adapters included) to save memory before the fp16 GradScaler loop, whose scaler.step fails
source: https://github.com/oobabooga/textgen/pull/5268
reported-error: ValueError: Attempting to unscale FP16 gradients.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 61
root-cause: line 47
expect: DG014
"""
import torch
import torch.nn as nn


class LoraAdapter(nn.Module):
    def __init__(self, base, r=8):
        super().__init__()
        self.base = base
        self.down = nn.Linear(base.in_features, r, bias=False)
        self.up = nn.Linear(r, base.out_features, bias=False)
        nn.init.zeros_(self.up.weight)

    def forward(self, x):
        return self.base(x) + self.up(self.down(x))


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=128, dim=64):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.attn_q = nn.Linear(dim, dim)
        self.mlp = nn.Linear(dim, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        h = self.embed(ids)
        h = h + torch.tanh(self.attn_q(h))
        return self.head(h + torch.relu(self.mlp(h)))


def inject_adapters(model):
    for p in model.parameters():
        p.requires_grad_(False)
    model.attn_q = LoraAdapter(model.attn_q)
    model.mlp = LoraAdapter(model.mlp)
    return model


def reload_for_training(model):
    return model.half()  # root-cause


model = reload_for_training(inject_adapters(TinyCausalLM()))
trainable = [p for p in model.parameters() if p.requires_grad]
print(f"trainable params: {sum(p.numel() for p in trainable)}")
optimizer = torch.optim.AdamW(trainable, lr=3e-4)
scaler = torch.amp.GradScaler("cpu")
for step in range(2):
    ids = torch.randint(0, 128, (4, 16))
    with torch.autocast("cpu", dtype=torch.float16):
        logits = model(ids[:, :-1])
    loss = nn.functional.cross_entropy(logits.float().reshape(-1, 128), ids[:, 1:].reshape(-1))
    scaler.scale(loss).backward()
    scaler.step(optimizer)  # fails-here
    scaler.update()
    optimizer.zero_grad()
    print(f"step {step}: loss {loss.item():.4f}")
