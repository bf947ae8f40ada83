"""Lightning-style module without Lightning: training_step is called from a plain loop.
The author switched the module to float64 'for stable gradients' but the batches
are produced by torch factories in float32."""
import torch
from torch import nn, optim


class LitRegressor(nn.Module):
    def __init__(self, d_in=10):
        super().__init__()
        self.layer = nn.Sequential(nn.Linear(d_in, 20), nn.Tanh(), nn.Linear(20, 1))
        self.loss = nn.SmoothL1Loss()

    def forward(self, x):
        return self.layer(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        y_hat = self(x)
        loss = self.loss(y_hat, y)
        return loss

    def configure_optimizers(self):
        return optim.Adam(self.parameters(), lr=3e-4)


def make_batches(n=5, bs=16, d_in=10):
    return [(torch.randn(bs, d_in), torch.randn(bs, 1)) for _ in range(n)]


def fit(module, batches, max_epochs=1):
    opt = module.configure_optimizers()
    for epoch in range(max_epochs):
        for batch_idx, batch in enumerate(batches):
            loss = module.training_step(batch, batch_idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
        print(f"epoch {epoch}: last loss {loss.item():.4f}")


if __name__ == "__main__":
    module = LitRegressor().double()  # expect: DG004
    fit(module, make_batches())
