"""Float64 neural ODE for a damped pendulum through a torchdde-style integrate() (re-typed) with the fix of commit a659f8c for issue #33: _integrate_ode allocates ys with dtype=y0.dtype, so the float64 states stay float64 into the float64 readout; the float64 NumPy reference data (torch.from_numpy of float64 arrays), model.double() and a float64 dt0 are kept
source: https://github.com/thibmonsel/torchdde/issues/33
reported-error: (none; the fixed situation of bg02)
outcome: ok
root-cause: -
expect: none
"""

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)

# ---- torchdde/solver/rk4.py and the step-size controller (re-typed) ----
class RK4:
    def order(self):
        return 2

    def step(self, func, t, y, dt, args):
        k1 = func(t, y, args)
        k2 = func(t + 1 / 2 * dt, y + 1 / 2 * dt * k1, args)
        k3 = func(t + 1 / 2 * dt, y + 1 / 2 * dt * k2, args)
        k4 = func(t + dt, y + dt * k3, args)
        y1 = y + 1 / 6 * dt * (k1 + 2 * k2 + 2 * k3 + k4)
        return y1, None, dict(y0=y, y1=y1)

    def build_interpolation(self, t0, t1, dense_info):
        # linear stand-in for ThirdOrderPolynomialInterpolation
        def interp(t):
            w = (t - t0) / (t1 - t0)
            return dense_info["y0"] + w * (dense_info["y1"] - dense_info["y0"])
        return interp

class ConstantStepSizeController:
    def init(self, func, t0, t1, y0, dt0, args, order):
        return t0 + dt0, dt0

    def adapt_step_size(self, func, t0, t1, y0, y1_candidate, args, y_error, order, dt):
        return True, t1, t1 + dt, dt

# ---- torchdde/integrate.py, _integrate_ode before commit a659f8c (re-typed) ----
def _integrate_ode(func, t0, t1, ts, y0, args, solver, stepsize_controller, dt0, max_steps=2048):
    tnext, dt = stepsize_controller.init(func, t0, t1, y0, dt0, args, solver.order())
    tprev, y, save_idx, num_steps = t0, y0, 0, 0
    ys = torch.empty((y0.shape[0], ts.shape[0], *(y0.shape[1:])), device=y0.device, dtype=y0.dtype)
    while tprev < t1 and num_steps < max_steps:
        y_candidate, y_error, dense_info = solver.step(func, tprev, y, dt, args)
        keep_step, tprev_new, tnext_new, dt = stepsize_controller.adapt_step_size(
            func, tprev, tnext, y, y_candidate, args, y_error, solver.order(), dt)
        if keep_step:
            interp = solver.build_interpolation(tprev, tnext, dense_info)
            while save_idx < ts.shape[0] and tnext >= ts[save_idx] - 1e-9:
                ys[:, save_idx] = interp(ts[save_idx])
                save_idx += 1
            y = y_candidate
        tprev, tnext = min(tprev_new, t1), tnext_new
        num_steps += 1
    return ys

def integrate(func, solver, t0, t1, ts, y0, args, stepsize_controller=ConstantStepSizeController(), dt0=None,
              discretize_then_optimize=True):
    assert discretize_then_optimize, "the adjoint path is not re-typed here"
    return _integrate_ode(func, t0, t1, ts, y0, args, solver, stepsize_controller, dt0)

# ---- the user's float64 neural ODE ----
class VectorField(nn.Module):
    def __init__(self, width=32):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(2, width), nn.Tanh(), nn.Linear(width, width), nn.Tanh(),
                                 nn.Linear(width, 2))

    def forward(self, t, y, args):
        return self.mlp(y)

def pendulum(theta0, omega0, ts, damping=0.3, g_over_l=4.0):
    """Reference trajectories (semi-implicit Euler on a fine grid, float64)."""
    out, theta, omega, t, h = [], theta0.copy(), omega0.copy(), 0.0, 1e-3
    for target in ts:
        while t < target - 1e-12:
            omega = omega - h * (g_over_l * np.sin(theta) + damping * omega)
            theta = theta + h * omega
            t += h
        out.append(theta.copy())
    return np.stack(out, axis=1)  # (batch, time)

rng = np.random.default_rng(0)
ts_np = np.linspace(0.0, 4.0, 41)
theta0, omega0 = rng.uniform(-1.0, 1.0, 16), rng.uniform(-0.5, 0.5, 16)
observed = torch.from_numpy(pendulum(theta0, omega0, ts_np)).unsqueeze(-1)  # float64 (16, 41, 1)

ts = torch.from_numpy(ts_np)
y0 = torch.from_numpy(np.stack([theta0, omega0], axis=1))  # float64 (16, 2)
vector_field = VectorField().double()
readout = nn.Linear(2, 1).double()
optimizer = torch.optim.Adam(list(vector_field.parameters()) + list(readout.parameters()), lr=3e-3)
print("y0", y0.dtype, "vector field", next(vector_field.parameters()).dtype)

for step in range(60):
    states = integrate(vector_field, RK4(), ts[0], ts[-1], ts, y0, None, dt0=torch.tensor(0.05, dtype=torch.float64))
    predicted_angle = readout(states)
    loss = ((predicted_angle - observed) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step % 20 == 0:
        print(f"step {step}: mse {loss.item():.3e}")
print("final mse", loss.item(), "dtype", loss.dtype)
