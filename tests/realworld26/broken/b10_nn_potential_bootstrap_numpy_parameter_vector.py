"""Neural-network interatomic potential with bootstrap uncertainty (kliff NeuralNetwork.update_model_params layout): each bootstrap member's weights come from a flat NumPy parameter vector, and the update assigns torch.from_numpy slices to param.data, which silently turns the float32 weights into float64 before the next energy evaluation on float32 descriptors
source: https://github.com/openkim/kliff/pull/141
reported-error: updating the NN weights and biases from a parameter array written as a NumPy array (float64 by default) while torch defaults to float32 broke the model; fixed by converting each slice to the dtype of the parameter it replaces
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Float and Double at line 27
root-cause: line 36
expect: DG004
"""
import numpy as np
import torch
import torch.nn as nn


# ---- kliff/descriptors/symmetry_function.py (simplified radial terms)
def radial_descriptors(positions, etas=(0.5, 1.0, 2.0, 4.0), rc=3.0):
    d = torch.cdist(positions, positions)
    fc = 0.5 * (torch.cos(np.pi * d / rc) + 1) * (d < rc) * (d > 0)
    return torch.stack([(torch.exp(-eta * d ** 2) * fc).sum(-1) for eta in etas], -1)


# ---- kliff/models/neural_network.py
class NeuralNetwork(nn.Module):
    def __init__(self, n_desc=4, hidden=16):
        super().__init__()
        self.layers = nn.Sequential(nn.Linear(n_desc, hidden), nn.Tanh(), nn.Linear(hidden, hidden), nn.Tanh(), nn.Linear(hidden, 1))

    def forward(self, descriptors):
        return self.layers(descriptors).sum()  # fails-here

    def get_opt_params(self):
        return np.concatenate([p.detach().numpy().ravel() for p in self.parameters()])

    def update_model_params(self, parameters):
        i = 0
        for param in self.parameters():
            n = param.numel()
            param.data = torch.from_numpy(parameters[i:i + n]).reshape(param.shape)  # root-cause
            i += n


# ---- kliff/uq/bootstrap.py
class BootstrapNeuralNetworkModel:
    def __init__(self, model, configs, seed=0):
        self.model, self.configs = model, configs
        self.rng = np.random.default_rng(seed)
        self.samples = []

    def generate_bootstrap_compute_arguments(self, n_members):
        base = self.model.get_opt_params()
        for _ in range(n_members):
            self.samples.append(base + 0.01 * self.rng.standard_normal(base.shape))

    def predict(self, positions):
        desc = radial_descriptors(positions)
        energies = []
        for params in self.samples:
            self.model.update_model_params(params)
            with torch.no_grad():
                energies.append(self.model(desc).item())
        return float(np.mean(energies)), float(np.std(energies))


if __name__ == "__main__":
    torch.manual_seed(0)
    positions = torch.rand(12, 3) * 4.0
    bootstrap = BootstrapNeuralNetworkModel(NeuralNetwork(), configs=[positions])
    bootstrap.generate_bootstrap_compute_arguments(n_members=5)
    mean, std = bootstrap.predict(positions)
    print(f"energy {mean:.4f} +- {std:.4f}")
