"""Safe Bayesian-optimisation tuning of a pendulum controller that imports the gosafeopt package (whose __init__ runs torch.set_default_dtype(torch.float64)) at the start of main(), before the policy network is built, so the policy weights and the torch.tensor(list) observations are both float64 on purpose
source: https://github.com/lasgroup/gosafeopt/blob/40ff125e26321d318df540bda5f1b69b93f805d5/src/gosafeopt/__init__.py
reported-error: none (correct ordering: the default dtype is changed before any module or tensor is created)
outcome: ok
root-cause: -
expect: none
"""
import math
import types

import torch
import torch.nn as nn

config = {"optimizer": "gosafeopt", "horizon": 20, "dt": 0.05, "n_iterations": 3, "safety_threshold": -50.0}


# ---- gosafeopt/__init__.py (the package body that runs on import)
def import_gosafeopt():
    torch.set_default_dtype(torch.float64)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return types.SimpleNamespace(device=device, __name__="gosafeopt")


# ---- experiments/pendulum/policy.py
class LinearPolicy(nn.Module):
    def __init__(self):
        super().__init__()
        self.gain = nn.Linear(2, 1, bias=False)

    def forward(self, obs):
        return self.gain(obs)


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
def make_optimizer(cfg, backend):
    if backend is not None:
        print("using", backend.__name__, "on", backend.device)
        return lambda params: params + 0.5 * torch.randn_like(params)
    return lambda params: params


def main(cfg):
    backend = import_gosafeopt() if cfg["optimizer"] == "gosafeopt" else None
    policy = LinearPolicy()
    with torch.no_grad():
        policy.gain.weight.copy_(torch.tensor([[-20.0, -4.0]]))
    env = PendulumEnvironment(cfg["dt"])
    propose = make_optimizer(cfg, backend)
    for it in range(cfg["n_iterations"]):
        with torch.no_grad():
            ret = env.rollout(policy, cfg["horizon"])
            candidate = propose(policy.gain.weight.detach().clone())
            if ret > cfg["safety_threshold"]:
                policy.gain.weight.copy_(candidate)
        print(f"iteration {it} return {ret:.3f} weight dtype {policy.gain.weight.dtype}")


if __name__ == "__main__":
    torch.manual_seed(0)
    main(config)
