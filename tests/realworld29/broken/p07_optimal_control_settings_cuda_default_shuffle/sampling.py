import torch
from torch.utils.data import DataLoader, TensorDataset


def initial_state_loader(n=1024, batch_size=64, low=-1.0, high=1.0):
    x0 = torch.empty(n, 2).uniform_(low, high).cpu()
    return DataLoader(TensorDataset(x0), batch_size=batch_size, shuffle=True)
