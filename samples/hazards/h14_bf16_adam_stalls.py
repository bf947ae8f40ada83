"""H14: bfloat16 parameters updated by AdamW.

bfloat16 keeps 8 bits of mantissa: an update of about lr=1e-5 on a weight above ~0.004
is smaller than half the spacing between bf16 numbers and rounds away. Nothing fails;
most weights simply never change.
"""
import torch
from torch import nn


def build_model():
    model = nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 4))
    return model.to(torch.bfloat16)  # expect: DG013


def main():
    torch.manual_seed(0)
    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5, weight_decay=0.01)
    inputs = torch.randn(64, 32, dtype=torch.bfloat16)
    labels = torch.randint(0, 4, (64,))

    for step in range(10):
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(inputs), labels)
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
