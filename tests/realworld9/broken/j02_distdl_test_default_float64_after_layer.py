"""distdl-style layer test: the layer is constructed in float32, then the test switches torch.set_default_dtype(torch.float64) for a precise adjoint check, and the per-call scale tensor the forward builds with torch.tensor becomes float64
source: https://github.com/distdl/distdl/issues/75
reported-error: dtype consistency: dtype should come from the input tensor, but buffers are made at layer instantiation / forward with the default dtype (torch.Tensor downcasts to float32, torch.tensor keeps the dtype)
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 22
root-cause: line 31
expect: DG001
"""
import torch
import torch.nn as nn


class DistributedLinear(nn.Module):
    def __init__(self, in_features, out_features, scales=(0.5, 1.0, 2.0, 1.0)):
        super().__init__()
        self.local = nn.Linear(in_features, out_features)
        self.head = nn.Linear(out_features, 1)
        self.scales = list(scales)

    def forward(self, x):
        scale = torch.tensor(self.scales[: self.local.out_features])
        y = self.local(x) * scale
        return self.head(y)  # fails-here


def build_layer():
    torch.manual_seed(0)
    return DistributedLinear(3, 4)


def adjoint_test(layer):
    torch.set_default_dtype(torch.float64)  # root-cause
    x = torch.randn(8, 3, dtype=torch.float32, requires_grad=True)
    y = layer(x)
    dy = torch.randn_like(y)
    (dx,) = torch.autograd.grad(y, x, dy)
    return (dx * x).sum().item(), (dy * y).sum().item()


def test_distributed_linear_adjoint():
    layer = build_layer()
    lhs, rhs = adjoint_test(layer)
    print(f"<dx, x> = {lhs:.6f}   <dy, y> = {rhs:.6f}")


if __name__ == "__main__":
    test_distributed_linear_adjoint()
