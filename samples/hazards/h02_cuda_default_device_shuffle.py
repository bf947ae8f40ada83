"""H02: a global CUDA default device breaks DataLoader(shuffle=True).

On a CPU-only machine this runs. On a GPU, RandomSampler calls `torch.randperm` (now on
CUDA) with its own CPU `torch.Generator()`, and iterating the loader fails with
"Expected a 'cuda' device type for generator but found 'cpu'".
"""
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

if torch.cuda.is_available():
    torch.set_default_device("cuda")  # expect: DG003


def main():
    inputs = torch.randn(256, 20)
    targets = torch.randint(0, 2, (256,))
    loader = DataLoader(TensorDataset(inputs, targets), batch_size=32, shuffle=True)

    model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 2))
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)

    for epoch in range(3):
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = criterion(model(xb), yb)
            loss.backward()
            optimizer.step()
        print(f"epoch {epoch}: loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
