"""CUDA ONLY: batches are moved to the GPU but the model never is -> device mismatch
at the forward call on a GPU machine. Runs without error on a CPU-only machine."""
import torch
from torch import nn, optim
from torch.utils.data import DataLoader, TensorDataset

device = torch.device("cuda:0" if torch.cuda.is_available() else "cpu")


class SiameseScorer(nn.Module):
    def __init__(self, d=16):
        super().__init__()
        self.tower = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 8))

    def forward(self, a, b):
        return (self.tower(a) * self.tower(b)).sum(-1)


left = DataLoader(TensorDataset(torch.randn(128, 16)), batch_size=16)
right = DataLoader(TensorDataset(torch.randn(128, 16), torch.rand(128)), batch_size=16)

model = SiameseScorer()  # expect: DG009
opt = optim.Adam(model.parameters(), lr=1e-3)

for i, ((a,), (b, sim)) in enumerate(zip(left, right)):
    a, b, sim = a.to(device), b.to(device), sim.to(device)
    score = model(a, b)
    loss = nn.functional.mse_loss(torch.sigmoid(score), sim)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if i % 4 == 0:
        print(f"it {i}: {loss.item():.4f}")
