"""Full fine-tune that keeps the weights and AdamW state in float32 and runs only the forward pass under bfloat16 autocast
source: https://github.com/meta-pytorch/torchtune/issues/2254
reported-error: silent: very bad convergence with pure bf16 weights (in the broken version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Classifier(nn.Module):
    def __init__(self, dim=64):
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.head = nn.Linear(dim, 2)

    def forward(self, x):
        return self.head(x + self.backbone(x))


def main(steps=30, lr=2e-5, dim=64):
    torch.manual_seed(0)
    device_type = "cuda" if torch.cuda.is_available() else "cpu"
    model = Classifier(dim).to(device_type)
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr)
    g = torch.Generator().manual_seed(1)
    w_true = torch.randn(dim, generator=g)
    for step in range(steps):
        x = torch.randn(8, dim, generator=g)
        labels = (x @ w_true > 0).long()
        with torch.autocast(device_type=device_type, dtype=torch.bfloat16):
            logits = model(x.to(device_type))
        loss = F.cross_entropy(logits.float(), labels.to(device_type))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"final loss {loss.item():.4f}; param dtype {next(model.parameters()).dtype}")


if __name__ == "__main__":
    main()
