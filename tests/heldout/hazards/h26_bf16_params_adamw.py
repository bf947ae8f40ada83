"""Memory-saving: keep the weights themselves in bfloat16 and train with AdamW.
No error is raised; most small updates round away and training stalls."""
import torch
import torch.nn as nn


def make_batch(bs=64, d=16):
    x = torch.randn(bs, d)
    return x.to(torch.bfloat16), x.sum(1, keepdim=True).to(torch.bfloat16)


model = nn.Sequential(nn.Linear(16, 64), nn.SiLU(), nn.Linear(64, 1))
model = model.to(torch.bfloat16)  # expect: DG013
before = [p.detach().clone() for p in model.parameters()]

optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4, weight_decay=0.01)

for step in range(20):
    x, y = make_batch()
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()

unchanged = sum((a == b).sum().item() for a, b in zip(before, model.parameters()))
total = sum(p.numel() for p in model.parameters())
print(f"loss {loss.item():.4f}; weights that never changed after 20 steps: {unchanged}/{total}")
