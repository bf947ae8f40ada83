"""set_default_device replaces set_default_tensor_type(torch.cuda.FloatTensor), but torch.Tensor([...]) inputs stay on the CPU
source: https://github.com/pytorch/pytorch/issues/132483
reported-error: silent (torch.Tensor([1, 2, 3, 4]).device is cpu after torch.set_default_device("cuda"))
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but got mat1 is on cpu, different from other tensors on cuda:0 (when checking argument in method wrapper_CUDA_addmm) at line 38; on CPU: ok
root-cause: line 32
expect: DG009
"""
import torch
import torch.nn as nn

device = "cuda" if torch.cuda.is_available() else "cpu"
# was: torch.set_default_tensor_type(torch.cuda.FloatTensor)  (deprecated since 2.1)
torch.set_default_dtype(torch.float32)
torch.set_default_device(device)


class Regressor(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 1))

    def forward(self, x):
        return self.net(x)


model = Regressor()  # parameters are created on the default device
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
print(torch.randn(4).device)  # follows the default device

rows = [[1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6], [0, 1, 0, 1]]
targets = [[10.0], [14.0], [18.0], [2.0]]
X = torch.Tensor(rows)  # root-cause
Y = torch.tensor(targets)
print(X.device, Y.device)

for step in range(20):
    optimizer.zero_grad()
    pred = model(X)  # fails-here
    loss = ((pred - Y) ** 2).mean()
    loss.backward()
    optimizer.step()
print("loss", loss.item())
