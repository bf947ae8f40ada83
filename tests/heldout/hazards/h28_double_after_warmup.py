"""Two-phase schedule: warm up in float32, then 'refine in double precision'.
The model is cast after Adam already holds float32 state, so the next
optimizer.step() raises a dtype error."""
import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(200, 3)
Y = (X ** 2).sum(1, keepdim=True)

model = nn.Sequential(nn.Linear(3, 32), nn.Tanh(), nn.Linear(32, 1))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)


def run_phase(n_steps, x, y, tag):
    for i in range(n_steps):
        loss = nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"{tag}: loss {loss.item():.6f}")


run_phase(20, X, Y, "warmup fp32")

model.double()  # expect: DG015
run_phase(20, X.double(), Y.double(), "refine fp64")
