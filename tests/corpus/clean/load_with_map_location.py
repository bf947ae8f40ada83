import os
import tempfile

import torch
import torch.nn as nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")


class Tiny(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(6, 3)

    def forward(self, x):
        return self.fc(x)


def resume(path, model, optimizer):
    state = torch.load(path, map_location=device)
    model.load_state_dict(state["model_state"])
    optimizer.load_state_dict(state["optim_state"])
    return state["epoch"], state["best_loss"]


with tempfile.TemporaryDirectory() as workdir:
    ckpt = os.path.join(workdir, "ckpt.pt")
    model = Tiny().to(device)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    torch.save({"model_state": model.state_dict(), "optim_state": optimizer.state_dict(),
                "epoch": 4, "best_loss": 0.731}, ckpt)
    epoch, best = resume(ckpt, model, optimizer)

x = torch.randn(20, 6, device=device)
y = torch.randint(0, 3, (20,), device=device)
optimizer.zero_grad()
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
optimizer.step()
