"""Hand-rolled mixed precision (network_to_half keeps BatchNorm in float32 and casts every other layer to float16), trained with torch.optim.Adam at its default eps=1e-8, which is 0 in float16; the first printed loss is finite, then the half-precision weights turn inf/NaN after the Adam step
source: https://github.com/suvojit-0x55aa/mixed-precision-pytorch/issues/2
reported-error: Adam in half-precision mode is unstable: the default epsilon (1e-8) is not representable in FP16 and updates blow up (NaN)
outcome: ok (silent: after the Adam step at line 44 the float16 weights become non-finite, printed as "step N: loss nan, non-finite params K" with K above 0)
root-cause: line 37
expect: DG012
"""
import torch
import torch.nn as nn


class BNFloat(nn.Module):
    def __init__(self, bn):
        super().__init__()
        self.bn = bn.float()

    def forward(self, x):
        return self.bn(x.float()).half()


def network_to_half(model):
    for name, child in model.named_children():
        if isinstance(child, nn.BatchNorm1d):
            setattr(model, name, BNFloat(child))
        else:
            child.half()
    return model


def make_net():
    return nn.Sequential(nn.Linear(10, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 1))


def main(steps=4):
    torch.manual_seed(0)
    model = network_to_half(make_net())
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)  # root-cause
    x = torch.randn(64, 10).half()
    y = (torch.randn(64, 1) * 1e-3).half()
    for step in range(steps):
        loss = (model(x).float() - y.float()).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
        bad = sum(int((~torch.isfinite(p)).sum()) for p in model.parameters())
        print(f"step {step}: loss {loss.item():.6f}, non-finite params {bad}")


if __name__ == "__main__":
    main()
