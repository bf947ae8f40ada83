"""A chemprop-style multi-task binary classifier trained on fingerprint features after predictor.to(device), with PR #1296's fix: ChempropMetric.update creates its default per-sample weights on targets.device, so the weighted BCE loss stays on one device and training runs
source: https://github.com/chemprop/chemprop/pull/1296
reported-error: RuntimeError: Encountered different devices in metric calculation ... Instead of `metric=BCELoss(...)` try to do `metric=BCELoss(...).to(device)` (predictor = BinaryClassificationFFN(n_tasks=3, criterion=BCELoss(task_weights=torch.ones(3))); predictor.to("mps"); predictor.criterion(preds, targets) with both on mps; the fix creates the default weights with device=targets.device)
outcome: ok (prints the loss of each epoch)
root-cause: -
expect: none
"""
import numpy as np
import torch
from torch import Tensor, nn
from torch.nn import functional as F
from torch.utils.data import DataLoader, TensorDataset

torch.manual_seed(0)

# Apple's mps device where there is one, the CPU otherwise
device = "mps" if torch.backends.mps.is_available() else "cpu"


class ChempropMetric(nn.Module):
    """torchmetrics.Metric subset: registered states, update/compute, forward on one batch."""

    def __init__(self, task_weights=1.0):
        super().__init__()
        task_weights = torch.as_tensor(task_weights, dtype=torch.float).view(1, -1)
        self.register_buffer("task_weights", task_weights)
        self.register_buffer("total_loss", torch.tensor(0.0))
        self.register_buffer("num_samples", torch.tensor(0))

    def update(self, preds: Tensor, targets: Tensor, mask: Tensor | None = None, weights: Tensor | None = None,
               lt_mask: Tensor | None = None, gt_mask: Tensor | None = None) -> None:
        mask = torch.ones_like(targets, dtype=torch.bool) if mask is None else mask
        weights = (
            torch.ones(targets.shape[0], dtype=torch.float, device=targets.device)
            if weights is None
            else weights
        )
        lt_mask = torch.zeros_like(targets, dtype=torch.bool) if lt_mask is None else lt_mask
        gt_mask = torch.zeros_like(targets, dtype=torch.bool) if gt_mask is None else gt_mask

        L = self._calc_unreduced_loss(preds, targets, mask, weights, lt_mask, gt_mask)
        L = L * weights.view(-1, 1) * self.task_weights * mask

        self.total_loss = self.total_loss + L.sum()
        self.num_samples = self.num_samples + mask.sum()

    def compute(self):
        return self.total_loss / self.num_samples

    def reset(self):
        self.total_loss = torch.zeros_like(self.total_loss)
        self.num_samples = torch.zeros_like(self.num_samples)

    def forward(self, *args, **kwargs):
        self.reset()
        self.update(*args, **kwargs)
        return self.compute()


class BCELoss(ChempropMetric):
    def _calc_unreduced_loss(self, preds, targets, *args) -> Tensor:
        return F.binary_cross_entropy_with_logits(preds, targets, reduction="none")


class BinaryClassificationFFN(nn.Module):
    def __init__(self, n_tasks=1, input_dim=300, hidden_dim=300, n_layers=1, dropout=0.0, criterion=None):
        super().__init__()
        layers = [nn.Linear(input_dim, hidden_dim), nn.ReLU(), nn.Dropout(dropout)]
        for _ in range(n_layers - 1):
            layers += [nn.Linear(hidden_dim, hidden_dim), nn.ReLU(), nn.Dropout(dropout)]
        layers += [nn.Linear(hidden_dim, n_tasks)]
        self.ffn = nn.Sequential(*layers)
        self.criterion = criterion if criterion is not None else BCELoss(task_weights=torch.ones(n_tasks))

    def forward(self, Z):
        return self.ffn(Z)


# Tox21-like data: 2048-bit Morgan fingerprints (float32 0/1) and three binary assay labels
rng = np.random.default_rng(0)
n_mols, n_bits, task_dim = 256, 2048, 3
fps = (rng.random((n_mols, n_bits)) < 0.05).astype(np.float32)
w_true = rng.normal(size=(n_bits, task_dim)).astype(np.float32)
labels = ((fps @ w_true) > 0).astype(np.float32)
loader = DataLoader(TensorDataset(torch.from_numpy(fps), torch.from_numpy(labels)), batch_size=64, shuffle=True)

predictor = BinaryClassificationFFN(
    n_tasks=task_dim,
    input_dim=n_bits,
    criterion=BCELoss(task_weights=torch.ones(task_dim)),
)
predictor.to(device=device)
optimizer = torch.optim.Adam(predictor.parameters(), lr=1e-3)

for epoch in range(5):
    predictor.train()
    for fp, y in loader:
        fp, y = fp.to(device), y.to(device)
        preds = predictor(fp)
        loss = predictor.criterion(preds, y)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch}: loss {loss.item():.4f}")
