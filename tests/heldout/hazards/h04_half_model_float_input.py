"""Halve memory by converting the model to fp16 (inputs are left as they come)."""
import torch as T
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self, d_in=16, d_hidden=64, d_out=3):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(d_in, d_hidden), nn.GELU(), nn.Linear(d_hidden, d_out))

    def forward(self, x):
        return self.net(x)


def get_batches(n_batches=4, bs=8):
    for _ in range(n_batches):
        yield T.randn(bs, 16), T.randint(0, 3, (bs,))


model = MLP().half()  # expect: DG004
opt = T.optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()

for step, (x, y) in enumerate(get_batches()):
    logits = model(x)
    loss = loss_fn(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(step, loss.item())
