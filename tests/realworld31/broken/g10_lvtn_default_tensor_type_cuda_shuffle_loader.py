"""Plagiarism-detection server training its sentence-pair classifier (oldguard69/lvtn server/core: the module picks cuda when available and then calls torch.set_default_tensor_type("torch.cuda.FloatTensor")), with a DataLoader(shuffle=True) whose RandomSampler draws its permutation under the CUDA default with a CPU generator
source: https://github.com/oldguard69/lvtn/blob/851dab58f0d3b0d14a0fdcc792dacb779038f105/server/core/test_torch.py
reported-error: (none filed; the same pattern fails as soon as the shuffled loader is iterated on a GPU machine: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu')
outcome: cuda-only: RuntimeError: Expected a 'cuda' device type for generator but found 'cpu' (RandomSampler's torch.randperm runs under the CUDA default tensor type with a CPU generator; wording varies with the torch version; not run on a GPU for this set) at line 56; on CPU: ok
root-cause: line 21
expect: DG003
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

# ---- core/test_torch.py (module setup)
cuda = True
if torch.cuda.is_available():
    device = torch.device("cuda")
else:
    device = torch.device("cpu")

torch.set_default_tensor_type("torch.FloatTensor")
if device.type == "cuda":
    torch.set_default_tensor_type("torch.cuda.FloatTensor")  # root-cause
print(device)


# ---- core/dataset.py
class SentencePairDataset(Dataset):
    def __init__(self, n=64, dim=24):
        g = torch.Generator().manual_seed(0)
        self.left = torch.randn(n, dim, generator=g)
        self.right = torch.randn(n, dim, generator=g)
        self.label = (torch.rand(n, generator=g) > 0.5).float()

    def __len__(self):
        return len(self.label)

    def __getitem__(self, i):
        return self.left[i], self.right[i], self.label[i]


# ---- core/model.py
class SiameseScorer(nn.Module):
    def __init__(self, dim=24):
        super().__init__()
        self.proj = nn.Sequential(nn.Linear(dim, 32), nn.ReLU())
        self.out = nn.Linear(64, 1)

    def forward(self, a, b):
        return self.out(torch.cat([self.proj(a), self.proj(b)], 1)).squeeze(1)


def train():
    model = SiameseScorer().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    loader = DataLoader(SentencePairDataset(), batch_size=16, shuffle=True)
    for epoch in range(2):
        for a, b, y in loader:  # fails-here
            a, b, y = a.to(device), b.to(device), y.to(device)
            loss = nn.functional.binary_cross_entropy_with_logits(model(a, b), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch} loss {loss.item():.4f}")


if __name__ == "__main__":
    train()
