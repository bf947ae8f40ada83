"""hippynn-style training of a small atomistic energy model with a user-built controller (re-typed: SetupParams, Controller/PatienceController, setup_and_train -> setup_training -> set_devices -> training_loop, a HIP-NN-like pairwise-distance energy network and an MSE loss module): the user constructs torch.optim.Adagrad over the model's parameters while the model is still on the CPU, Adagrad creates its per-parameter "sum" state right away in its constructor, and set_devices then moves the model to the GPU in place; the optimizer state stays on the CPU and the first optimizer.step() mixes devices. The meta device stands in for cuda (this machine has no GPU); torch.__future__.set_swap_module_params_on_conversion(True) makes .to(meta) keep the Parameter objects, as a cpu -> cuda .to() does
source: https://github.com/lanl/hippynn/pull/15
reported-error: "Fix a optimizer device problem": "If the optimizer is initialized first and then the model is transferred to GPU, Adagrad will crash because some of its tensors are on the CPU. This might affect some other optimizers as well." (the PR reloads the state dictionary after the model transfer: controller.optimizer.load_state_dict(controller.optimizer.state_dict()))
outcome: RuntimeError: Tensor on device meta is not on the expected device cpu! at line 107
root-cause: line 128
expect: DG009
"""
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np
import torch
import torch.nn as nn

torch.manual_seed(0)
torch.__future__.set_swap_module_params_on_conversion(True)  # meta stand-in: keep Parameter identity like cpu -> cuda
DEVICE = torch.device("meta")  # stand-in for torch.device("cuda")


class HipnnLike(nn.Module):
    """Per-pair radial features -> per-atom energies -> molecular energy."""

    def __init__(self, n_species=3, n_sensitivities=16, n_hidden=32, cutoff=5.0):
        super().__init__()
        self.embed = nn.Embedding(n_species, n_hidden)
        self.register_buffer("mu", torch.linspace(0.8, cutoff, n_sensitivities))
        self.interaction = nn.Linear(n_sensitivities, n_hidden)
        self.atom_net = nn.Sequential(nn.Linear(n_hidden, n_hidden), nn.Softplus(), nn.Linear(n_hidden, 1))
        self.cutoff = cutoff

    def forward(self, species, coordinates):
        r = torch.cdist(coordinates, coordinates)
        sense = torch.exp(-((r.unsqueeze(-1) - self.mu) ** 2) / 0.25) * (r < self.cutoff).unsqueeze(-1) * (r > 0).unsqueeze(-1)
        h = self.embed(species) + torch.einsum("bijs,hs->bih", sense, self.interaction.weight) + self.interaction.bias
        return (self.atom_net(h).squeeze(-1).sum(dim=1),)


class MSELossModule(nn.Module):
    def forward(self, pred_energy, true_energy):
        return (torch.mean((pred_energy - true_energy) ** 2),)


class Controller:
    def __init__(self, optimizer, scheduler, batch_size, max_epochs, stopping_key, eval_batch_size=None, fraction_train_eval=0.1):
        self.optimizer, self.scheduler_list = optimizer, [] if scheduler is None else [scheduler]
        self.batch_size, self.eval_batch_size = batch_size, eval_batch_size or batch_size
        self.stopping_key, self._max_epochs, self.fraction_train_eval = stopping_key, max_epochs, fraction_train_eval
        self.boredom = self.current_epoch = 0

    @property
    def max_epochs(self):
        return self._max_epochs

    def push_epoch(self):
        self.current_epoch += 1
        for sch in self.scheduler_list:
            sch.step()
        return self.current_epoch < self.max_epochs


class PatienceController(Controller):
    def __init__(self, *args, termination_patience, **kwargs):
        super().__init__(*args, **kwargs)
        self.patience, self.last_best = termination_patience, 0


@dataclass
class SetupParams:
    stopping_key: Optional[str] = None
    batch_size: Optional[int] = None
    device: Optional[Any] = None
    controller: Optional[Controller] = None
    max_epochs: Optional[int] = None
    learning_rate: Optional[float] = None


def set_devices(model, loss, device):
    print("Using device: ", device)
    device = torch.device(device)
    model.to(device)
    loss.to(device)
    return model, device


def setup_training(training_modules, setup_params):
    model, loss = training_modules
    model, device = set_devices(model, loss, setup_params.device)  # root-cause-alt
    controller = setup_params.controller
    if not isinstance(controller, Controller):
        optimizer = torch.optim.Adam(filter(lambda p: p.requires_grad, model.parameters()), lr=setup_params.learning_rate)
        controller = Controller(optimizer, None, setup_params.batch_size, setup_params.max_epochs, setup_params.stopping_key)
    return (model, loss), controller, device


def training_loop(model, loss, controller, device, train_arrays):
    n_inputs, n_targets = 2, 1
    optimizer = controller.optimizer
    n = len(train_arrays[0])
    while True:
        for idx in torch.randperm(n).split(controller.batch_size):
            batch = [item[idx].to(device=device, non_blocking=True) for item in train_arrays]
            batch_inputs, batch_targets = batch[:n_inputs], batch[-n_targets:]
            optimizer.zero_grad(set_to_none=True)
            batch_model_outputs = model(*batch_inputs)
            batch_train_loss = loss(*batch_model_outputs, *batch_targets)[0]
            batch_train_loss.backward()
            optimizer.step()  # fails-here
        print(f"epoch {controller.current_epoch}: loss on {batch_train_loss.device}")
        if not controller.push_epoch():
            break


def setup_and_train(training_modules, train_arrays, setup_params):
    (model, loss), controller, device = setup_training(training_modules, setup_params)
    training_loop(model, loss, controller, device, train_arrays)


# synthetic small molecules: 5 atoms each, species 1..2 (0 is padding), energies from a pair potential
rng = np.random.default_rng(0)
coords = rng.normal(scale=1.2, size=(256, 5, 3)).astype(np.float32)
species = torch.from_numpy(rng.integers(1, 3, size=(256, 5)))
d = np.linalg.norm(coords[:, :, None] - coords[:, None], axis=-1) + np.eye(5) * 1e3
energy = torch.from_numpy((np.exp(-d) - 2 * np.exp(-0.5 * d)).sum(axis=(1, 2)).astype(np.float32))
train_arrays = [species, torch.from_numpy(coords), energy]

model = HipnnLike()
loss = MSELossModule()
optimizer = torch.optim.Adagrad(model.parameters(), lr=1e-2)  # root-cause
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.9)
controller = PatienceController(optimizer=optimizer, scheduler=scheduler, batch_size=64, eval_batch_size=128, max_epochs=2, termination_patience=10, stopping_key="T-RMSE")
experiment_params = SetupParams(controller=controller, device=DEVICE)
setup_and_train((model, loss), train_arrays, experiment_params)
