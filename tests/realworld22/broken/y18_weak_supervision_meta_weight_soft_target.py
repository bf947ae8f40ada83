"""Weak supervision with a Meta-Weight-Net end model (wrench layout): the label model's soft labels are computed in NumPy and stored as a CPU tensor inside the dataset wrapper; fit() moves each feature batch to the device but the meta step builds meta_target from that CPU tensor without moving it, so on a GPU cross_entropy_with_probs gets a CUDA input with a CPU target
source: https://github.com/JieyuZ2/wrench/issues/4
reported-error: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (when checking argument for argument target in method wrapper_nll_loss_forward; meta_weight_net.py line 166, meta_loss = cross_entropy_with_probs(outputs, meta_target))
outcome: cuda-only: RuntimeError: Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu! (meta_target is built from the CPU soft-label tensor; wording varies with the torch version; not run on a GPU for this set) at line 17; on CPU: ok
root-cause: line 61
expect: DG009
"""
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


# ---- wrench/utils.py
def cross_entropy_with_probs(input, target, reduction="mean"):
    if target.dim() == 1:
        return F.cross_entropy(input, target.long(), reduction=reduction)  # fails-here
    return -(target * F.log_softmax(input, -1)).sum(-1).mean()


# ---- wrench/labelmodel/majority_voting.py
def majority_vote_soft(weak_labels, n_class):
    votes = np.zeros((weak_labels.shape[0], n_class))
    for j in range(weak_labels.shape[1]):
        lf = weak_labels[:, j]
        votes[np.arange(len(lf))[lf >= 0], lf[lf >= 0]] += 1
    votes += 1e-3
    return votes / votes.sum(1, keepdims=True)


class WeakDataset:
    def __init__(self, n=64, d=10, n_class=3, seed=0):
        rng = np.random.default_rng(seed)
        self.features = torch.from_numpy(rng.normal(size=(n, d)).astype(np.float32))
        weak = rng.integers(-1, n_class, size=(n, 5))
        self.soft_labels = torch.from_numpy(majority_vote_soft(weak, n_class).astype(np.float32))
        self.gold = torch.from_numpy(rng.integers(0, n_class, size=n))


# ---- wrench/metalearning/meta_weight_net.py
class MetaWeightNet:
    def __init__(self, d=10, n_class=3, device="cpu"):
        self.device = torch.device(device)
        self.model = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, n_class)).to(self.device)
        self.vnet = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, 1), nn.Sigmoid()).to(self.device)

    def fit(self, data, valid_idx, steps=20, batch=16):
        opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        vopt = torch.optim.Adam(self.vnet.parameters(), lr=1e-3)
        for step in range(steps):
            idx = torch.randint(0, len(data.features), (batch,))
            x = data.features[idx].to(self.device)
            soft = data.soft_labels[idx].to(self.device)
            outputs = self.model(x)
            cost = -(soft * F.log_softmax(outputs, -1)).sum(-1, keepdim=True)
            loss = (self.vnet(cost.detach()) * cost).mean()
            opt.zero_grad()
            loss.backward()
            opt.step()
            meta_x = data.features[valid_idx].to(self.device)
            meta_target = data.soft_labels[valid_idx].argmax(1)  # root-cause
            meta_loss = cross_entropy_with_probs(self.model(meta_x), meta_target)
            vopt.zero_grad()
            meta_loss.backward()
            vopt.step()
        return meta_loss.item()


if __name__ == "__main__":
    torch.manual_seed(0)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    data = WeakDataset()
    end_model = MetaWeightNet(device=device)
    print(f"final meta loss {end_model.fit(data, valid_idx=torch.arange(8)):.4f}")
