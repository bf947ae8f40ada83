"""Resuming stochastic variational inference of a Bayesian Poisson regression (hourly bike-share counts) on a CPU-only laptop from a checkpoint written on a GPU node (pyro-ppl/pyro PR #2925 as in av03) with the PR's change: PyroOptim.load(filename, map_location=None) passes map_location on to torch.load, and the laptop calls it with map_location="cpu" like the param store, so the Adam states saved on cuda:0 are mapped to the CPU and SVI resumes; the save side still writes cuda-tagged storages and the loader's default stays None
source: https://github.com/pyro-ppl/pyro/pull/2925
reported-error: (none filed; the fixed situation of av03)
outcome: ok
root-cause: -
expect: none
"""
import math
import os
import tempfile

import numpy as np
import pandas as pd
import torch
import torch.distributions as dist
import torch.serialization

torch.manual_seed(0)


# ---- pyro/params/param_store.py (trimmed)
class ParamStoreDict:
    def __init__(self):
        self._params = {}
        self._param_to_name = {}

    def get_param(self, name, init_tensor):
        if name not in self._params:
            p = init_tensor.detach().clone().requires_grad_()
            self._params[name] = p
            self._param_to_name[p] = name
        return self._params[name]

    def param_name(self, p):
        return self._param_to_name.get(p)

    def save(self, filename):
        with open(filename, "wb") as output_file:
            torch.save({"params": {k: v.detach() for k, v in self._params.items()}}, output_file)

    def load(self, filename, map_location=None):
        with open(filename, "rb") as input_file:
            state = torch.load(input_file, map_location)
        for name, value in state["params"].items():
            self.get_param(name, value)


# ---- pyro/optim/optim.py (with PR #2925)
class PyroOptim:
    def __init__(self, optim_constructor, optim_args, param_store):
        self.pt_optim_constructor = optim_constructor
        self.pt_optim_args = optim_args
        self.param_store = param_store
        self.optim_objs = {}
        self._state_waiting_to_be_consumed = {}

    def __call__(self, params):
        for p in params:
            if p not in self.optim_objs:
                self.optim_objs[p] = self.pt_optim_constructor([p], **self.pt_optim_args)
                param_name = self.param_store.param_name(p)
                if param_name in self._state_waiting_to_be_consumed:
                    self.optim_objs[p].load_state_dict(self._state_waiting_to_be_consumed.pop(param_name))
            self.optim_objs[p].step()

    def get_state(self):
        return {self.param_store.param_name(p): opt.state_dict() for p, opt in self.optim_objs.items()}

    def set_state(self, state_dict):
        self._state_waiting_to_be_consumed = state_dict

    def save(self, filename):
        with open(filename, "wb") as output_file:
            torch.save(self.get_state(), output_file)

    def load(self, filename, map_location=None):
        with open(filename, "rb") as input_file:
            state = torch.load(input_file, map_location=map_location)
        self.set_state(state)


# ---- the model, the mean-field guide and a one-particle Trace_ELBO
FEATURES = ["temp", "humidity", "windspeed", "rush_hour", "weekend"]


def elbo_loss(store, X, y):
    d = X.shape[1]
    loc = store.get_param("w_loc", torch.zeros(d))
    scale = torch.nn.functional.softplus(store.get_param("w_scale_raw", torch.full((d,), -2.0)))
    b_loc = store.get_param("b_loc", torch.tensor(math.log(float(y.mean()))))
    b_scale = torch.nn.functional.softplus(store.get_param("b_scale_raw", torch.tensor(-2.0)))
    q_w, q_b = dist.Normal(loc, scale), dist.Normal(b_loc, b_scale)
    w, b = q_w.rsample(), q_b.rsample()
    log_prior = dist.Normal(0.0, 1.0).log_prob(w).sum() + dist.Normal(0.0, 5.0).log_prob(b)
    log_lik = dist.Poisson(torch.exp(b + X @ w)).log_prob(y).sum()
    return -(log_prior + log_lik - q_w.log_prob(w).sum() - q_b.log_prob(b))


def run_svi(store, optim, X, y, steps):
    for step in range(steps):
        loss = elbo_loss(store, X, y)
        params = list(store._params.values())
        for p in params:
            p.grad = None
        loss.backward()
        optim(params)
    return loss.item()


rng = np.random.default_rng(1)
hours = pd.DataFrame({"temp": rng.normal(18, 7, 800), "humidity": rng.uniform(20, 95, 800),
                      "windspeed": rng.gamma(2.0, 6.0, 800), "rush_hour": rng.integers(0, 2, 800),
                      "weekend": rng.integers(0, 2, 800)})
true_w = np.array([0.03, -0.01, -0.02, 0.6, -0.3])
hours["rides"] = rng.poisson(np.exp(2.0 + (hours[FEATURES] - hours[FEATURES].mean()).to_numpy() @ true_w))
Xdf = (hours[FEATURES] - hours[FEATURES].mean()) / hours[FEATURES].std()
X = torch.tensor(Xdf.to_numpy(), dtype=torch.float32)
y = torch.tensor(hours["rides"].to_numpy(), dtype=torch.float32)

ckpt_dir = tempfile.mkdtemp()

# ---- on the GPU node: 150 steps, then checkpoint (storages there are tagged cuda:0)
store = ParamStoreDict()
optim = PyroOptim(torch.optim.Adam, {"lr": 0.05}, store)
print("GPU node, loss after 150 steps:", round(run_svi(store, optim, X, y, 150), 1))
_location_tag = torch.serialization.location_tag
torch.serialization.location_tag = lambda storage: "cuda:0"
try:
    store.save(os.path.join(ckpt_dir, "params.pt"))
    optim.save(os.path.join(ckpt_dir, "optim.pt"))
finally:
    torch.serialization.location_tag = _location_tag

# ---- on the laptop: resume
store = ParamStoreDict()
store.load(os.path.join(ckpt_dir, "params.pt"), map_location="cpu")
optim = PyroOptim(torch.optim.Adam, {"lr": 0.05}, store)
optim.load(os.path.join(ckpt_dir, "optim.pt"), map_location="cpu")
print("laptop, loss after 150 more steps:", round(run_svi(store, optim, X, y, 150), 1))
w_loc = store._params["w_loc"].detach().numpy()
print(pd.Series(w_loc, index=FEATURES).round(3).to_string())
