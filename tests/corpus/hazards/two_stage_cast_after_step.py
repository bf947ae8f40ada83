import torch
from torch import nn


def fit(model, optimizer, x, y, epochs):
    for _ in range(epochs):
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(x), y)
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    torch.manual_seed(0)
    x = torch.randn(50, 3)
    y = (x**2).sum(dim=1, keepdim=True)
    model = nn.Sequential(nn.Linear(3, 32), nn.Softplus(), nn.Linear(32, 1))
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)

    fit(model, optimizer, x, y, epochs=30)  # coarse stage
    # refine in double precision
    model.to(torch.float64)  # expect: DG015
    fit(model, optimizer, x.double(), y.double(), epochs=10)


if __name__ == "__main__":
    main()
