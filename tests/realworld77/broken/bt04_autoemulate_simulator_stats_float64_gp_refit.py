"""An autoemulate-style history-matching wave on a cardiac (two-element Windkessel) simulator with a hand-written exact Gaussian-process emulator (re-typed Simulator, HistoryMatchingWorkflow and GP): the simulator summarises each NumPy pressure trace with np.max/np.min/np.mean and returns torch.tensor(output_stats), a float64 row; the workflow concatenates the new rows onto its float32 training outputs and refits the float32 GP, whose Cholesky solve refuses the float64 targets
source: https://github.com/alan-turing-institute/autoemulate/issues/537
reported-error: "PyTorch by default creates tensors with type float32 but we have run into issues where a method returned a tensor of float64 and this then threw errors when it was incompatible with the other tensors" (fixed by "fix dtype returned by simulator": torch.tensor(output_stats, dtype=torch.float32))
outcome: RuntimeError: Expected b and A to have the same dtype, but found b of type Double and A of type Float instead. at line 86
root-cause: line 62
expect: DG004
"""
import math

import numpy as np
import pandas as pd
import torch

torch.manual_seed(0)
np.random.seed(0)


class LatinHypercube:
    def __init__(self, bounds_list):
        self.bounds = np.array(bounds_list, dtype=float)

    def sample(self, n):
        d = len(self.bounds)
        u = (np.argsort(np.random.rand(n, d), axis=0) + np.random.rand(n, d)) / n
        sample_array = self.bounds[:, 0] + u * (self.bounds[:, 1] - self.bounds[:, 0])
        return torch.tensor(sample_array, dtype=torch.float32)


class WindkesselSimulator:
    """Stand-in for the NaghaviSimulator case study: a NumPy ODE run per parameter row, summarised by statistics."""

    param_names = ["R", "C", "stroke_volume"]
    output_names = ["p_max", "p_min", "p_mean"]

    def __init__(self):
        self._param_bounds = [(0.8, 1.6), (0.8, 2.0), (60.0, 90.0)]

    @property
    def in_dim(self):
        return len(self.param_names)

    @property
    def out_dim(self):
        return len(self.output_names)

    def sample_inputs(self, n):
        return LatinHypercube(self._param_bounds).sample(n)

    def _forward(self, x):
        R, C, sv = (float(v) for v in x[0])
        dt, period, n_beats = 2e-3, 0.8, 5
        t = np.arange(0.0, n_beats * period, dt)
        phase = np.mod(t, period)
        q = np.where(phase < 0.3, sv * math.pi / 0.6 * np.sin(math.pi * phase / 0.3), 0.0)
        p = np.empty_like(t)
        p[0] = 80.0
        for i in range(1, len(t)):
            p[i] = p[i - 1] + dt * (q[i - 1] - p[i - 1] / R) / C
        last = p[t >= (n_beats - 1) * period]
        output_stats = [np.max(last), np.min(last), np.mean(last)]
        # return shape [1, n_outputs]
        return torch.tensor(output_stats).reshape(1, -1)  # root-cause

    def forward_batch(self, samples):
        return torch.cat([self._forward(samples[i : i + 1]) for i in range(len(samples))], dim=0)


class GaussianProcess(torch.nn.Module):
    """Exact GP, ARD RBF kernel, constant mean, Gaussian noise; outputs standardised and fitted jointly."""

    def __init__(self, in_dim, out_dim):
        super().__init__()
        self.log_lengthscale = torch.nn.Parameter(torch.zeros(in_dim))
        self.log_outputscale = torch.nn.Parameter(torch.zeros(()))
        self.log_noise = torch.nn.Parameter(torch.full((), -4.0))
        self.out_dim = out_dim

    def kernel(self, a, b):
        a = a / self.log_lengthscale.exp()
        b = b / self.log_lengthscale.exp()
        return self.log_outputscale.exp() * torch.exp(-0.5 * torch.cdist(a, b) ** 2)

    def _neg_mll(self, x, y):
        K = self.kernel(x, x) + (self.log_noise.exp() + 1e-3) * torch.eye(len(x))
        L = torch.linalg.cholesky(K)
        alpha = torch.cholesky_solve(y, L)  # fails-here
        return 0.5 * (y * alpha).sum() + self.out_dim * torch.log(torch.diagonal(L)).sum()

    def fit(self, x, y, steps=60):
        self.x_mean, self.x_std = x.mean(0), x.std(0)
        self.y_mean, self.y_std = y.mean(0), y.std(0)
        self.x_train = (x - self.x_mean) / self.x_std
        self.y_train = (y - self.y_mean) / self.y_std
        opt = torch.optim.Adam(self.parameters(), lr=0.05)
        for _ in range(steps):
            opt.zero_grad()
            loss = self._neg_mll(self.x_train, self.y_train)
            loss.backward()
            opt.step()
        return float(loss.detach())

    @torch.no_grad()
    def predict(self, x):
        xs = (x - self.x_mean) / self.x_std
        K = self.kernel(self.x_train, self.x_train) + (self.log_noise.exp() + 1e-3) * torch.eye(len(self.x_train))
        L = torch.linalg.cholesky(K)
        Ks = self.kernel(xs, self.x_train)
        mean = Ks @ torch.cholesky_solve(self.y_train, L)
        v = torch.linalg.solve_triangular(L, Ks.T, upper=False)
        var = (self.log_outputscale.exp() - (v**2).sum(0)).clamp_min(1e-9)
        return mean * self.y_std + self.y_mean, var[:, None] * self.y_std**2


class HistoryMatchingWorkflow:
    def __init__(self, simulator, emulator, observations, threshold=3.0, train_x=None, train_y=None):
        self.simulator, self.emulator = simulator, emulator
        self.obs_mean = torch.tensor([observations[k][0] for k in simulator.output_names])
        self.obs_var = torch.tensor([observations[k][1] for k in simulator.output_names])
        self.threshold = threshold
        self.train_x, self.train_y = train_x, train_y

    def simulate(self, x):
        y = self.simulator.forward_batch(x)
        self.train_y = torch.cat([self.train_y, y], dim=0)  # root-cause-alt
        self.train_x = torch.cat([self.train_x, x], dim=0)
        return x, y

    def run(self, n_simulations=10, n_test_samples=2000):
        test_x = self.simulator.sample_inputs(n_test_samples)
        mean, var = self.emulator.predict(test_x)
        impl = (mean - self.obs_mean).abs() / (self.obs_var + var).sqrt()
        nroy_x = test_x[impl.max(dim=1).values <= self.threshold]
        print(f"NROY: {len(nroy_x)}/{n_test_samples} parameter sets")
        self.simulate(nroy_x[torch.randperm(len(nroy_x))[:n_simulations]])
        return self.emulator.fit(self.train_x, self.train_y)


simulator = WindkesselSimulator()
# initial design, kept as a table of simulator runs (as the case study does) and read back as float32 tensors
x0 = simulator.sample_inputs(24)
df = pd.DataFrame(np.hstack([x0.numpy(), simulator.forward_batch(x0).numpy()]), columns=simulator.param_names + simulator.output_names)
train_x = torch.tensor(df[simulator.param_names].to_numpy(), dtype=torch.float32)
train_y = torch.tensor(df[simulator.output_names].to_numpy(), dtype=torch.float32)

gp = GaussianProcess(simulator.in_dim, simulator.out_dim)
print("initial fit, neg. log marginal likelihood:", gp.fit(train_x, train_y))

observations = {"p_max": (118.0, 4.0), "p_min": (72.0, 4.0), "p_mean": (95.0, 4.0)}
hm = HistoryMatchingWorkflow(simulator, gp, observations, train_x=train_x, train_y=train_y)
for wave in range(2):
    print(f"wave {wave}: refit loss", hm.run(n_simulations=8))
