"""Mixture-of-experts block whose forward is decorated with @torch.autocast(dtype=torch.bfloat16): the block returns a bfloat16 tensor, and the float32 nn.Linear that follows it in the parent model runs outside any autocast region
source: https://github.com/shawntan/scattermoe/issues/17
reported-error: RuntimeError: mat1 and mat2 must have the same dtype (dtype mismatch on the linear layer directly after MyMLP when its forward carries @torch.autocast(device_type='cuda', dtype=torch.bfloat16))
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got BFloat16 and Float at line 55
root-cause: line 38
expect: DG017
"""
import torch
import torch.nn as nn
from torch import Tensor

DEVICE_TYPE = "cuda" if torch.cuda.is_available() else "cpu"


class ReLUSquare(nn.Module):
    def forward(self, x):
        return torch.relu(x) ** 2


class MoE(nn.Module):
    def __init__(self, input_size, hidden_size, num_experts, activation):
        super().__init__()
        self.w1 = nn.Parameter(torch.randn(num_experts, input_size, hidden_size) * input_size**-0.5)
        self.w2 = nn.Parameter(torch.randn(num_experts, hidden_size, input_size) * hidden_size**-0.5)
        self.activation = activation

    def forward(self, x, expert_p, expert_idxs):
        h = self.activation(torch.bmm(x.unsqueeze(1), self.w1[expert_idxs[:, 0]]))
        return (torch.bmm(h, self.w2[expert_idxs[:, 0]]).squeeze(1)) * expert_p


class MyMLP(nn.Module):
    def __init__(self, n_experts: int, d_model: int, mlp_ratio: int = 4, d_out: int | None = None) -> None:
        super().__init__()
        self.moe = MoE(input_size=d_model, hidden_size=d_model * mlp_ratio, num_experts=n_experts, activation=ReLUSquare())
        self.out = nn.Linear(d_model, d_out) if d_out is not None else nn.Identity()

    @torch.autocast(device_type=DEVICE_TYPE, dtype=torch.bfloat16)  # root-cause
    def forward(self, x: Tensor, e: torch.LongTensor) -> Tensor:
        v = self.moe.forward(x, expert_p=torch.ones_like(e, dtype=x.dtype).unsqueeze(1), expert_idxs=e.unsqueeze(1))
        v = self.out(v)
        return v


class Denoiser(nn.Module):
    def __init__(self, d_model=32, n_experts=4):
        super().__init__()
        self.router = nn.Linear(d_model, n_experts)
        self.mlp = MyMLP(n_experts, d_model, d_out=d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        e = self.router(x).argmax(-1)
        h = self.mlp(x, e)
        return self.proj(h)  # fails-here


model = Denoiser().to(DEVICE_TYPE)
x = torch.randn(16, 32, device=DEVICE_TYPE)
loss = (model(x) - x).pow(2).mean()
loss.backward()
print("loss", loss.item())
