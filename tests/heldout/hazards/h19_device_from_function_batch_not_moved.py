"""CUDA ONLY: on a GPU machine the model is on cuda:0 while the batches stay on the
CPU -> RuntimeError: Expected all tensors to be on the same device ... at the
forward call. Runs without error on a CPU-only machine."""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def get_device():
    if torch.cuda.is_available():
        return torch.device("cuda")
    if getattr(torch.backends, "mps", None) is not None and torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def build_model(in_dim, n_classes):
    return nn.Sequential(nn.Linear(in_dim, 64), nn.ReLU(), nn.Dropout(0.1), nn.Linear(64, n_classes))


def main():
    device = get_device()
    X = torch.randn(512, 20)
    y = torch.randint(0, 5, (512,))
    loader = DataLoader(TensorDataset(X, y), batch_size=64, shuffle=True)

    model = build_model(20, 5).to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    criterion = nn.CrossEntropyLoss()

    for epoch in range(2):
        correct = 0
        for batch_idx, (inputs, targets) in enumerate(loader):
            optimizer.zero_grad()
            outputs = model(inputs)  # expect: DG009
            loss = criterion(outputs, targets)
            loss.backward()
            optimizer.step()
            correct += (outputs.argmax(1) == targets).sum().item()
        print(f"epoch {epoch} acc {correct / len(X):.3f}")


if __name__ == "__main__":
    main()
