"""H14 fixed: the optimizer owns float32 weights; bfloat16 is used for compute via autocast."""
import torch
from torch import nn


def build_model():
    return nn.Sequential(nn.Linear(32, 64), nn.GELU(), nn.Linear(64, 4))


def main():
    torch.manual_seed(0)
    model = build_model()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-5, weight_decay=0.01)
    inputs = torch.randn(64, 32)
    labels = torch.randint(0, 4, (64,))

    for step in range(10):
        optimizer.zero_grad()
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
            logits = model(inputs)
        loss = nn.functional.cross_entropy(logits, labels)
        loss.backward()
        optimizer.step()
        print(f"step {step}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
