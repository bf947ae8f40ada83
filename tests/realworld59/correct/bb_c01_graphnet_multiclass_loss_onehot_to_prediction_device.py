"""The graphnet-style multi-class PID training of bb01 (graphnet-team/graphnet #328) with the fix the issue settled on and graphnet's CrossEntropyLoss keeps: the one-hot target built from the PDG-code mapping is moved to prediction.device before cross_entropy, so the loss, backward and Adam steps all run on the model's device (meta standing in for cuda:0); the torch.tensor of Python ints, the int() of the truth values and the torch.from_numpy inputs are kept
source: https://github.com/graphnet-team/graphnet/issues/328
reported-error: (none filed; the fixed situation of bb01)
outcome: ok
root-cause: -
expect: none
"""
from abc import abstractmethod

import numpy as np
import torch
from torch import Tensor, nn
from torch.nn.functional import cross_entropy, one_hot

torch.manual_seed(0)
DEVICE = torch.device("meta")  # stand-in for torch.device("cuda:0"): accelerator "gpu", devices [0]


class LossFunction(nn.Module):
    """graphnet.training.loss_functions.LossFunction: elementwise terms, then the mean."""

    def forward(self, prediction: Tensor, target: Tensor, weights=None, return_elements=False) -> Tensor:
        elements = self._forward(prediction, target)
        if weights is not None:
            elements = elements * weights
        assert elements.size(dim=0) == target.size(dim=0), "`_forward` should return elementwise loss terms."
        return elements if return_elements else torch.mean(elements)

    @abstractmethod
    def _forward(self, prediction: Tensor, target: Tensor) -> Tensor:
        ...


class MultiClassificationCrossEntropyLoss(LossFunction):
    """Predictions [N, 3]; targets are PDG codes: noise (1, -1), muon (13, -13), neutrinos (12, 14, 16)."""

    def _forward(self, prediction: Tensor, target: Tensor) -> Tensor:
        pid_transform = {1: 0, 12: 2, 13: 1, 14: 2, 16: 2}
        target_integer = torch.tensor([pid_transform[np.abs(int(value))] for value in target])
        target_new = one_hot(target_integer, 3).to(prediction.device)
        return cross_entropy(prediction.float(), target_new.float(), reduction="none")


class DynEdgeLike(nn.Module):
    """Per-pulse MLP followed by sum/mean/max pooling over the pulses of each event."""

    def __init__(self, nb_inputs, hidden=32):
        super().__init__()
        self.pulse_mlp = nn.Sequential(nn.Linear(nb_inputs, hidden), nn.LeakyReLU(), nn.Linear(hidden, hidden), nn.LeakyReLU())
        self.nb_outputs = 2 * hidden

    def forward(self, x, batch, num_graphs):
        h = self.pulse_mlp(x)
        summed = torch.zeros(num_graphs, h.shape[1], device=h.device, dtype=h.dtype).index_add_(0, batch, h)
        counts = torch.zeros(num_graphs, device=h.device, dtype=h.dtype).index_add_(0, batch, torch.ones_like(batch, dtype=h.dtype))
        return torch.cat([summed, summed / counts.unsqueeze(1)], dim=1)


class MulticlassificationTask(nn.Module):
    def __init__(self, hidden_size, target_labels, loss_function):
        super().__init__()
        self._target_labels = target_labels
        self._loss_function = loss_function
        self._affine = nn.Linear(hidden_size, 3)

    def forward(self, x):
        return self._affine(x)

    def compute_loss(self, pred, data):
        target = data[self._target_labels]
        return self._loss_function(pred, target)


class StandardModel(nn.Module):
    def __init__(self, gnn, task):
        super().__init__()
        self._gnn, self._task = gnn, task

    def forward(self, data):
        return self._task(self._gnn(data["x"], data["batch"], data["num_graphs"]))

    def training_step(self, data):
        return self._task.compute_loss(self(data), data)


def make_batch(rng, n_events=16, features=("dom_x", "dom_y", "dom_z", "dom_time", "charge")):
    sizes = rng.integers(5, 30, n_events)
    x = rng.normal(size=(sizes.sum(), len(features))).astype(np.float32)
    batch = np.repeat(np.arange(n_events), sizes)
    pid = rng.choice([1, -1, 13, -13, 12, -12, 14, -14, 16, -16], size=n_events)
    return {
        "x": torch.from_numpy(x).to(DEVICE),
        "batch": torch.from_numpy(batch).to(DEVICE),
        "num_graphs": n_events,
        "pid": torch.from_numpy(pid),
    }


rng = np.random.default_rng(0)
train_batches = [make_batch(rng) for _ in range(6)]
gnn = DynEdgeLike(nb_inputs=5)
task = MulticlassificationTask(hidden_size=gnn.nb_outputs, target_labels="pid", loss_function=MultiClassificationCrossEntropyLoss())
model = StandardModel(gnn, task).to(DEVICE)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3, eps=1e-3)

for epoch in range(2):
    for data in train_batches:
        loss = model.training_step(data)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss on {loss.device}")
