"""NN interatomic potential whose bootstrap still perturbs the parameter vector in NumPy float64, but update_model_params() converts each chunk to the parameter's own dtype (the kliff fix), so the layers stay float32
source: https://github.com/openkim/kliff/issues/139
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import numpy as np
import torch
import torch.nn as nn


# ---- kliff/models/nn.py
class AtomicEnergyNet(nn.Module):
    def __init__(self, n_desc=12, hidden=24):
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(n_desc, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1)
        )

    def forward(self, zeta):
        return self.layers(zeta)


# ---- kliff/calculators/calculator_torch.py
class CalculatorTorch:
    def __init__(self, model):
        self.model = model

    def get_opt_params(self):
        return np.concatenate([p.detach().numpy().ravel() for p in self.model.parameters()])

    def update_model_params(self, params):
        start = 0
        for p in self.model.parameters():
            n = p.numel()
            p.data = torch.from_numpy(params[start:start + n].reshape(p.shape)).to(dtype=p.dtype)
            start += n

    def compute(self, batch):
        zeta = torch.cat([conf["zeta"] for conf in batch])
        energy_atom = self.model(zeta)
        return {"energy": energy_atom.sum()}


# ---- uq/bootstrap.py
def make_configurations(n_conf=8, n_atoms=6, n_desc=12, seed=0):
    g = torch.Generator().manual_seed(seed)
    return [{"zeta": torch.rand(n_atoms, n_desc, generator=g)} for _ in range(n_conf)]


def bootstrap_predictions(calc, batch, n_members=4, sigma=0.01, seed=1):
    rng = np.random.default_rng(seed)
    base = calc.get_opt_params()
    preds = []
    for _ in range(n_members):
        par = base + rng.normal(0.0, sigma, size=base.shape)
        calc.update_model_params(par)
        with torch.no_grad():
            preds.append(float(calc.compute(batch)["energy"]))
    return np.mean(preds), np.std(preds)


if __name__ == "__main__":
    torch.manual_seed(0)
    calc = CalculatorTorch(AtomicEnergyNet())
    batch = make_configurations()
    mean, std = bootstrap_predictions(calc, batch)
    print(f"ensemble energy {mean:.4f} +- {std:.4f}")
