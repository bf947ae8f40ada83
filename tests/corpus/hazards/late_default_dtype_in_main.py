import torch
import torch.nn as nn


class Classifier(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 2))

    def forward(self, x):
        return self.net(x)


def make_grid(n=100):
    t = torch.linspace(0, 1, n).unsqueeze(1)  # expect: DG004
    x = torch.cat([t, t**2, torch.sin(t), torch.cos(t)], dim=1)
    return x, (torch.sin(6 * t) > 0).long().squeeze(1)


def main():
    model = Classifier()
    # "more precise features"
    torch.set_default_dtype(torch.float64)  # expect: DG001
    x, y = make_grid()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    for _ in range(10):
        opt.zero_grad()
        logits = model(x)
        loss = nn.functional.cross_entropy(logits, y)
        loss.backward()
        opt.step()


if __name__ == "__main__":
    main()
