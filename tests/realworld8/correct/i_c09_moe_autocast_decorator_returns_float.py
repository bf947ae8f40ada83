"""Mixture-of-experts block whose forward still carries @torch.autocast(dtype=torch.bfloat16), but it returns v.float(), so the float32 projection after it in the parent model gets a float32 input
source: https://github.com/shawntan/scattermoe/issues/17
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch
import torch.nn as nn

DEVICE_TYPE = "cuda" if torch.cuda.is_available() else "cpu"


class MyMLP(nn.Module):
    def __init__(self, n_experts, d_model, mlp_ratio=4):
        super().__init__()
        self.w1 = nn.Parameter(torch.randn(n_experts, d_model, d_model * mlp_ratio) * d_model**-0.5)
        self.w2 = nn.Parameter(torch.randn(n_experts, d_model * mlp_ratio, d_model) * (d_model * mlp_ratio) ** -0.5)
        self.out = nn.Linear(d_model, d_model)

    @torch.autocast(device_type=DEVICE_TYPE, dtype=torch.bfloat16)
    def forward(self, x, e):
        h = torch.relu(torch.bmm(x.unsqueeze(1), self.w1[e])) ** 2
        v = self.out(torch.bmm(h, self.w2[e]).squeeze(1))
        return v.float()


class Denoiser(nn.Module):
    def __init__(self, d_model=32, n_experts=4):
        super().__init__()
        self.router = nn.Linear(d_model, n_experts)
        self.mlp = MyMLP(n_experts, d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x):
        return self.proj(self.mlp(x, self.router(x).argmax(-1)))


model = Denoiser().to(DEVICE_TYPE)
x = torch.randn(16, 32, device=DEVICE_TYPE)
loss = (model(x) - x).pow(2).mean()
loss.backward()
print("loss", loss.dtype, round(loss.item(), 4))
