"""TinyViT-style logit distillation: float teacher probabilities (same shape as the logits) as CrossEntropyLoss targets
source: https://github.com/microsoft/Cream/issues/131
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #2 'target' (old PyTorch without soft-label support)
outcome: ok
root-cause: none
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
teacher = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 10)).eval()
student = nn.Sequential(nn.Flatten(), nn.Linear(3 * 8 * 8, 32), nn.ReLU(), nn.Linear(32, 10))
criterion = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.AdamW(student.parameters(), lr=1e-3)

for step in range(3):
    samples = torch.randn(16, 3, 8, 8)
    with torch.no_grad():
        outputs_teacher = F.softmax(teacher(samples) / 2.0, dim=-1)
    outputs = student(samples)
    loss = criterion(outputs, outputs_teacher)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(step, loss.item())
