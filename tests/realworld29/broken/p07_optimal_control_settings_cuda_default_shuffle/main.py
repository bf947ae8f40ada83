"""Neural optimal-control training (marcelroed/deep-optimal-control layout: src/settings.py makes torch.cuda.FloatTensor the default tensor type when a GPU exists, the training script imports it first): the initial states are served by DataLoader(..., shuffle=True) from sampling.py, whose RandomSampler draws torch.randperm under the CUDA default with a CPU generator
source: https://github.com/marcelroed/deep-optimal-control/blob/a73c619d6f3f548b975c3c47fd4bd644099e543b/src/settings.py
reported-error: (the repository file itself; the same global default fails elsewhere with RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' as soon as a shuffled DataLoader is iterated)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm under the CUDA default tensor type; wording varies with the torch version; not run on a GPU for this set) at main.py:42; on CPU: ok
root-cause: settings.py:4
expect: DG003
"""
import torch
import torch.nn as nn

from settings import config  # noqa: I001  (must come first: it sets the default tensor type)
from sampling import initial_state_loader

device = torch.device(config["device"])
dt, horizon = 0.05, 20


class Policy(nn.Module):
    def __init__(self, state_dim=2, hidden=32):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(state_dim + 1, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, t, x):
        return self.net(torch.cat([t.expand(x.shape[0], 1), x], dim=1))


def rollout_cost(policy, x0):
    x, cost = x0, 0.0
    for k in range(horizon):
        t = torch.full((1, 1), k * dt, device=x.device)
        u = policy(t, x)
        pos, vel = x[:, :1], x[:, 1:]
        x = torch.cat([pos + dt * vel, vel + dt * u], dim=1)
        cost = cost + dt * (pos.pow(2) + 0.1 * u.pow(2)).mean()
    return cost + x[:, :1].pow(2).mean()


policy = Policy().to(device)
optimizer = torch.optim.Adam(policy.parameters(), lr=1e-2)
loader = initial_state_loader(n=256, batch_size=32)
for epoch in range(2):
    for (x0,) in loader:  # fails-here
        x0 = x0.to(device)
        loss = rollout_cost(policy, x0)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: cost {loss.item():.4f}")
