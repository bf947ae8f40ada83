"""Learned residual on top of rigid-body dynamics: the residual MLP is built first, then main() switches torch to float64 (as the kinematics tests do) before creating joint states
source: https://github.com/gbionics/adam/issues/118
reported-error: none in the report: discussion of forcing float64 through torch.set_default_dtype(torch.float64) instead of hard-coded dtypes
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 22
root-cause: line 34
expect: DG001
"""
import math

import torch
import torch.nn as nn


class ResidualDynamics(nn.Module):
    """tau_residual = f(q, dq): corrects the analytic inverse-dynamics torques."""

    def __init__(self, n_joints=6, hidden=64):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(2 * n_joints, hidden), nn.Tanh(), nn.Linear(hidden, n_joints))

    def forward(self, q, dq):
        return self.net(torch.cat([q, dq], dim=-1))  # fails-here


def analytic_gravity(q, masses=(2.0, 1.5, 1.0, 0.5, 0.3, 0.1), g=9.81):
    return torch.stack([m * g * torch.cos(q[..., i]) for i, m in enumerate(masses)], dim=-1)


residual = ResidualDynamics()
optimizer = torch.optim.Adam(residual.parameters(), lr=1e-3)


def main(n_samples=128, epochs=3):
    torch.set_default_dtype(torch.float64)  # root-cause
    t = torch.linspace(0, 2 * math.pi, n_samples)
    q = torch.stack([torch.sin(t + k) for k in range(6)], dim=-1)
    dq = torch.stack([torch.cos(t + k) for k in range(6)], dim=-1)
    tau_measured = analytic_gravity(q) + 0.05 * torch.sin(3 * q)
    for epoch in range(epochs):
        tau_pred = analytic_gravity(q) + residual(q, dq)
        loss = ((tau_pred - tau_measured) ** 2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"epoch {epoch} torque mse {loss.item():.5f}")


if __name__ == "__main__":
    main()
