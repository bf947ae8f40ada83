"""CUDA ONLY: on a GPU machine this fails when the shuffled DataLoader is iterated
(RuntimeError: Expected a 'cuda' device type for generator but found 'cpu').
On a CPU-only build the set_default_tensor_type call itself raises TypeError
(torch.cuda.FloatTensor not available), so nothing after it runs here."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, Dataset

# "make everything live on the GPU"
torch.set_default_tensor_type("torch.cuda.FloatTensor")  # expect: DG002 DG003


class Points(Dataset):
    def __init__(self, n=128):
        self.x = torch.randn(n, 2)
        self.y = (self.x[:, 0] * self.x[:, 1] > 0).long()

    def __len__(self):
        return len(self.y)

    def __getitem__(self, i):
        return self.x[i], self.y[i]


loader = DataLoader(Points(), batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(2, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(3):
    for xb, yb in loader:
        loss = nn.functional.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print("epoch", epoch, "loss", loss.item())
