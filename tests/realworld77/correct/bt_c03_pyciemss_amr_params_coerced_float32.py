"""The pyciemss-style Lotka-Volterra regnet sample of bt03 (ciemss/pyciemss #567) with the fix of PR #604: `_compile_param_values` coerces every numeric parameter with torch.as_tensor(..., dtype=torch.float32), so the integer populations of the model file give a float32 initial state, the odeint input checks pass and the trajectories are sampled; the integer counts in the model dict, the torchdiffeq-style _assert_floating checks and the float time grid from torch.arange are kept
source: https://github.com/ciemss/pyciemss/issues/567
reported-error: (none; the fixed situation of bt03)
outcome: ok
root-cause: -
expect: none
"""
import numbers

import numpy as np
import torch

# AMR-like regnet: rabbits (R) and wolves (W); the initial populations are counts, written as integers
AMR = {
    "name": "LV_rabbits_wolves_regnet",
    "states": ["R", "W"],
    "initials": {"R": lambda p: p["R0"], "W": lambda p: p["W0"]},
    "parameters": {"R0": 80, "W0": 12, "alpha": 0.55, "beta": 0.028, "delta": 0.024, "gamma": 0.8},
    "rates": {
        "R": lambda X, p: p["alpha"] * X["R"] - p["beta"] * X["R"] * X["W"],
        "W": lambda X, p: p["delta"] * X["R"] * X["W"] - p["gamma"] * X["W"],
    },
    "observables": {"total": lambda X, p: X["R"] + X["W"]},
}


def _compile_param_values(src):
    values = {}
    for param_name, param_value in src["parameters"].items():
        if isinstance(param_value, torch.nn.Parameter):
            values[param_name] = param_value
        elif isinstance(param_value, (numbers.Number, np.ndarray, torch.Tensor)):
            values[param_name] = torch.as_tensor(param_value, dtype=torch.float32)
        else:
            raise TypeError(f"Unknown parameter type: {type(param_value)}")
    return values


class CompiledDynamics(torch.nn.Module):
    def __init__(self, src):
        super().__init__()
        self.src = src
        for k, v in _compile_param_values(src).items():
            self.register_buffer(k, v)

    def parameters_dict(self):
        return {k: getattr(self, k) for k in self.src["parameters"]}

    def initial_state(self):
        p = self.parameters_dict()
        numeric_initial_state = torch.stack([self.src["initials"][k](p) for k in self.src["states"]], dim=-1)
        return {k: numeric_initial_state[..., i] for i, k in enumerate(self.src["states"])}

    def deriv(self, X):
        p = self.parameters_dict()
        numeric_deriv = torch.stack([self.src["rates"][k](X, p) for k in self.src["states"]], dim=-1)
        return {k: numeric_deriv[..., i] for i, k in enumerate(self.src["states"])}

    def observables(self, X):
        p = self.parameters_dict()
        return {k: f(X, p) for k, f in self.src["observables"].items()}


def _assert_floating(name, t):
    if not torch.is_floating_point(t):
        raise TypeError("`{}` must be a floating point Tensor but is a {}".format(name, t.type()))


def odeint(func, y0, t, method="rk4", options=None):
    """torchdiffeq.odeint, fixed-step rk4 only, with torchdiffeq's _check_inputs."""
    _assert_floating("y0", y0)
    _assert_floating("t", t)
    step = (options or {}).get("step_size", 0.05)
    ys = [y0]
    y = y0
    for t0, t1 in zip(t[:-1], t[1:]):
        n = max(1, int(round(float(t1 - t0) / step)))
        h = (t1 - t0) / n
        tt = t0
        for _ in range(n):
            k1 = func(tt, y)
            k2 = func(tt + h / 2, y + h / 2 * k1)
            k3 = func(tt + h / 2, y + h / 2 * k2)
            k4 = func(tt + h, y + h * k3)
            y = y + h / 6 * (k1 + 2 * k2 + 2 * k3 + k4)
            tt = tt + h
        ys.append(y)
    return torch.stack(ys)


def simulate(dynamics, start_time, end_time, logging_step_size):
    """chirho TorchDiffEq backend: flatten the state dict, integrate, unflatten."""
    X0 = dynamics.initial_state()
    keys = list(X0)
    y0 = torch.stack([X0[k] for k in keys])
    timespan = torch.arange(start_time, end_time + 1e-9, logging_step_size)

    def func(t, y):
        dX = dynamics.deriv({k: y[i] for i, k in enumerate(keys)})
        return torch.stack([dX[k] for k in keys])

    yt = odeint(func, y0, timespan, method="rk4", options={"step_size": 0.05})
    return timespan, {k: yt[:, i] for i, k in enumerate(keys)}


def sample(model_src, end_time, logging_step_size, num_samples, start_time=0.0):
    dynamics = CompiledDynamics(model_src)
    results = []
    for _ in range(num_samples):
        t, X = simulate(dynamics, start_time, end_time, logging_step_size)
        results.append({**X, **dynamics.observables(X)})
    return t, {k: torch.stack([r[k] for r in results]) for k in results[0]}


t, result = sample(AMR, end_time=20.0, logging_step_size=1.0, num_samples=2)
print("rabbits at t=20:", result["R"][0, -1].item(), "wolves:", result["W"][0, -1].item())
