"""deepxde-style PyTorch backend module: GPU by default through set_default_tensor_type(torch.cuda.FloatTensor)
source: https://github.com/lululxvi/deepxde/pull/1530
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.
outcome: cuda-only: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives. (at line 18); on CPU: ok (the branch does not run)
root-cause: line 18
expect: DG002
"""
import numpy as np
import torch

# --- deepxde/backend/pytorch/tensor.py -------------------------------------
lib = torch

# Similar to TensorFlow, use GPU by default if GPU is available.
# An alternative way is to use GPU by default if GPU is available, which is similar to
# TensorFlow.
if torch.cuda.is_available():
    torch.set_default_tensor_type(torch.cuda.FloatTensor)  # root-cause


def as_tensor(data, dtype=None):
    if isinstance(data, torch.Tensor):
        if dtype is None or data.dtype == dtype:
            return data
        return data.type(dtype=dtype)
    return torch.as_tensor(data, dtype=dtype)


# --- user script ----------------------------------------------------------
class FNN(torch.nn.Module):
    def __init__(self, layer_sizes):
        super().__init__()
        self.linears = torch.nn.ModuleList(
            [torch.nn.Linear(layer_sizes[i - 1], layer_sizes[i]) for i in range(1, len(layer_sizes))])

    def forward(self, x):
        for linear in self.linears[:-1]:
            x = torch.tanh(linear(x))
        return self.linears[-1](x)


def main():
    net = FNN([1, 32, 32, 1])
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    x = np.linspace(-1, 1, 64, dtype=np.float32)[:, None]
    y = np.sin(np.pi * x)
    device = next(net.parameters()).device
    x_t = as_tensor(x, dtype=torch.float32).to(device)
    y_t = as_tensor(y, dtype=torch.float32).to(device)
    for it in range(50):
        opt.zero_grad()
        loss = torch.mean((net(x_t) - y_t) ** 2)
        loss.backward()
        opt.step()
    print("final loss", loss.item())


if __name__ == "__main__":
    main()
