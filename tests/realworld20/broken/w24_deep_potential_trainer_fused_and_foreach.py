"""Deep-potential (DeePMD-like) energy/force model trained on CPU in float64: the training input's optimizer section asks for the fused Adam kernel, and the trainer's device helper additionally sets foreach=True "as the multi-tensor fallback for CPU", so torch.optim.Adam is constructed with both flags
source: https://github.com/deepmodeling/deepmd-kit/issues/4667
reported-error: [BUG] PT: RuntimeError: `fused=True` requires all the params to be floating point Tensors of supported devices (training a model with the PyTorch backend on the CPU)
outcome: RuntimeError: `fused` and `foreach` cannot be `True` together. at line 51
root-cause: line 42
expect: DG016
"""
import json

import torch
import torch.nn as nn

INPUT_JSON = json.loads("""{
  "model": {"descriptor": {"rcut": 6.0, "neuron": [16, 32]}, "fitting_net": {"neuron": [32, 32]}},
  "learning_rate": {"start_lr": 0.001},
  "training": {"numb_steps": 5, "opt_type": "Adam", "fused": true}
}""")


# ---- deepmd/pt/model/model.py
class EnergyModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        n1, n2 = cfg["descriptor"]["neuron"]
        self.embedding = nn.Sequential(nn.Linear(1, n1), nn.Tanh(), nn.Linear(n1, n2), nn.Tanh())
        f1, f2 = cfg["fitting_net"]["neuron"]
        self.fitting = nn.Sequential(nn.Linear(n2, f1), nn.Tanh(), nn.Linear(f1, f2), nn.Tanh(), nn.Linear(f2, 1))
        self.rcut = cfg["descriptor"]["rcut"]

    def forward(self, coord):
        diff = coord[:, :, None] - coord[:, None]
        r = ((diff ** 2).sum(-1) + 1e-12).sqrt() + torch.eye(coord.shape[1], dtype=coord.dtype) * 1e3
        s = (1.0 / r) * (r < self.rcut)
        g = self.embedding(s.unsqueeze(-1)).mean(2)
        return self.fitting(g).sum((1, 2))


# ---- deepmd/pt/train/training.py
def optimizer_kwargs(train_cfg, device):
    kwargs = {"lr": INPUT_JSON["learning_rate"]["start_lr"], "fused": train_cfg.get("fused", False)}
    if device.type == "cpu":
        kwargs["foreach"] = True  # root-cause
    return kwargs


class Trainer:
    def __init__(self, cfg):
        torch.set_default_dtype(torch.float64)
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = EnergyModel(cfg["model"]).to(self.device)
        self.optimizer = torch.optim.Adam(self.model.parameters(), **optimizer_kwargs(cfg["training"], self.device))  # fails-here
        self.steps = cfg["training"]["numb_steps"]

    def run(self):
        coord = torch.rand(4, 12, 3, device=self.device) * 8
        coord.requires_grad_(True)
        energy_label = torch.randn(4, device=self.device)
        for step in range(self.steps):
            energy = self.model(coord)
            force = -torch.autograd.grad(energy.sum(), coord, create_graph=True)[0]
            loss = ((energy - energy_label) ** 2).mean() + 0.1 * (force ** 2).mean()
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        print("rmse_e", loss.sqrt().item())


if __name__ == "__main__":
    Trainer(INPUT_JSON).run()
