import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def configure():
    if torch.cuda.is_available():
        torch.set_default_tensor_type("torch.cuda.FloatTensor")  # expect: DG002 DG003
    else:
        torch.set_default_tensor_type("torch.FloatTensor")  # expect: DG002


def get_loader(batch_size=16):
    x = torch.randn(128, 32)
    y = torch.randint(0, 4, (128,))
    return DataLoader(TensorDataset(x, y), batch_size=batch_size, shuffle=True)


def main():
    configure()
    loader = get_loader()
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4))
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    for xb, yb in loader:
        optimizer.zero_grad()
        F.cross_entropy(model(xb), yb).backward()
        optimizer.step()


if __name__ == "__main__":
    main()
