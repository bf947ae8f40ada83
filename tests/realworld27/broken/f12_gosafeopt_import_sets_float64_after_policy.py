"""Safe Bayesian-optimisation tuning of a pendulum controller: the experiment builds its float32 policy network first and imports the gosafeopt package only when the config asks for it, but the package's __init__ runs torch.set_default_dtype(torch.float64) at import time, so every observation made afterwards with torch.tensor(list) is float64 and meets the float32 policy weights
source: https://github.com/lasgroup/gosafeopt/blob/40ff125e26321d318df540bda5f1b69b93f805d5/src/gosafeopt/__init__.py
reported-error: (none filed; the package's __init__.py changes the process-wide default dtype on import: import torch; torch.set_default_dtype(torch.float64))
outcome: RuntimeError: expected m1 and m2 to have the same dtype, but got: double != float at line 31
root-cause: line 19
expect: DG001
"""
import math
import types

import torch
import torch.nn as nn

config = {"optimizer": "gosafeopt", "horizon": 20, "dt": 0.05, "n_iterations": 3, "safety_threshold": -50.0}


# ---- gosafeopt/__init__.py (the package body that runs on import)
def import_gosafeopt():
    torch.set_default_dtype(torch.float64)  # root-cause
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return types.SimpleNamespace(device=device, __name__="gosafeopt")


# ---- experiments/pendulum/policy.py
class LinearPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = nn.Linear(2, 1, bias=False)

    def forward(self, obs):
        return self.gain(obs)  # fails-here


# ---- experiments/pendulum/environment.py
class PendulumEnvironment:
    def __init__(self, dt):
        self.dt = dt

    def rollout(self, policy, horizon, theta0=0.3):
        theta, omega, ret = theta0, 0.0, 0.0
        for _ in range(horizon):
            obs = torch.tensor([theta, omega])
            u = policy(obs).item()
            omega += self.dt * (9.81 * math.sin(theta) + u)
            theta += self.dt * omega
            ret -= theta ** 2 + 0.01 * u ** 2
        return ret


# ---- experiments/run.py
def make_optimizer(cfg):
    if cfg["optimizer"] == "gosafeopt":
        gosafeopt = import_gosafeopt()
        print("using", gosafeopt.__name__, "on", gosafeopt.device)
        return lambda params: params + 0.5 * torch.randn_like(params)
    return lambda params: params


def main(cfg):
    policy = LinearPolicy()
    with torch.no_grad():
        policy.gain.weight.copy_(torch.tensor([[-20.0, -4.0]]))
    env = PendulumEnvironment(cfg["dt"])
    propose = make_optimizer(cfg)
    for it in range(cfg["n_iterations"]):
        with torch.no_grad():
            ret = env.rollout(policy, cfg["horizon"])
            candidate = propose(policy.gain.weight.detach().clone())
            if ret > cfg["safety_threshold"]:
                policy.gain.weight.copy_(candidate)
        print(f"iteration {it} return {ret:.3f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    main(config)
