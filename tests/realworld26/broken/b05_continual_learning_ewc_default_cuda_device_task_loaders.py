"""Continual-learning benchmark (AFEC/EWC main.py layout): the setup helper makes CUDA the global default device so that the Fisher matrices and importance buffers are created on the GPU, and every task's DataLoader(shuffle=True) then samples with a CPU generator while randperm runs on CUDA
source: https://github.com/lywang3081/AFEC/issues/4
reported-error: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (python ./main.py --dataset CUB200 --trainer ewc --lamb 40, before the first batch of the first task)
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm runs under the CUDA default device with a CPU torch.Generator; not run on a GPU for this set) at line 53; on CPU: ok
root-cause: line 21
expect: DG003
"""
import copy

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


# ---- utils.py
def setup_device(seed):
    torch.manual_seed(seed)
    device = "cuda" if torch.cuda.is_available() else "cpu"
    torch.set_default_device(device)  # root-cause
    return device


def split_tasks(features, labels, n_tasks):
    classes = np.unique(labels)
    tasks = []
    for chunk in np.array_split(classes, n_tasks):
        mask = np.isin(labels, chunk)
        x = torch.from_numpy(features[mask]).float()
        y = torch.from_numpy(labels[mask]).long()
        tasks.append(TensorDataset(x, y))
    return tasks


# ---- approaches/ewc.py
class Appr:
    def __init__(self, model, lamb=40, lr=0.01, nepochs=2, sbatch=16):
        self.model, self.lamb, self.lr, self.nepochs, self.sbatch = model, lamb, lr, nepochs, sbatch
        self.fisher, self.model_old = None, None

    def criterion(self, output, targets):
        loss_reg = 0
        if self.model_old is not None:
            for (name, param), (_, param_old) in zip(self.model.named_parameters(), self.model_old.named_parameters()):
                loss_reg += torch.sum(self.fisher[name] * (param_old - param).pow(2)) / 2
        return F.cross_entropy(output, targets) + self.lamb * loss_reg

    def train(self, task_data, device):
        optimizer = torch.optim.SGD(self.model.parameters(), lr=self.lr)
        loader = DataLoader(task_data, batch_size=self.sbatch, shuffle=True)
        for _ in range(self.nepochs):
            for images, targets in loader:  # fails-here
                images, targets = images.to(device), targets.to(device)
                loss = self.criterion(self.model(images), targets)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
        self.model_old = copy.deepcopy(self.model).eval()
        self.fisher = self.fisher_matrix_diag(loader, device)
        return loss.item()

    def fisher_matrix_diag(self, loader, device):
        fisher = {n: torch.zeros_like(p) for n, p in self.model.named_parameters()}
        for images, targets in loader:
            self.model.zero_grad()
            F.cross_entropy(self.model(images.to(device)), targets.to(device)).backward()
            for n, p in self.model.named_parameters():
                fisher[n] += p.grad.detach() ** 2 * len(targets)
        return {n: f / len(loader.dataset) for n, f in fisher.items()}


if __name__ == "__main__":
    device = setup_device(seed=0)
    rng = np.random.default_rng(0)
    features = rng.standard_normal((240, 64)).astype(np.float32)
    labels = rng.integers(0, 20, 240)
    model = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 20)).to(device)
    appr = Appr(model)
    for t, task in enumerate(split_tasks(features, labels, n_tasks=4)):
        print("task", t, "loss", appr.train(task, device))
