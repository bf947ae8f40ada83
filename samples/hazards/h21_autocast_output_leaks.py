"""H21: a bf16 activation leaves the autocast block.

Autocast changes the dtype of op outputs only inside the `with` block. The encoder output
is bfloat16, and the float32 head called outside the block fails with
"mat1 and mat2 must have the same dtype, but got BFloat16 and Float".
"""
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU())
head = nn.Linear(64, 5)
params = list(encoder.parameters()) + list(head.parameters())
optimizer = torch.optim.AdamW(params, lr=1e-3)

x = torch.randn(64, 32)
y = torch.randint(0, 5, (64,))

for step in range(10):
    optimizer.zero_grad()
    with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
        features = encoder(x)  # expect: DG017
    logits = head(features)
    loss = F.cross_entropy(logits, y)
    loss.backward()
    optimizer.step()
