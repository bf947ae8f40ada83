"""Notebook-style regression demo where the input dtype comes from a config variable that is torch.float32, matching nn.Linear
source: https://blog.51cto.com/u_16175525/6637440
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import torch as T

CONFIG = {"n_points": 32, "dtype": T.float32, "lr": 0.05, "epochs": 5}
DTYPE = CONFIG["dtype"]

xs = T.linspace(-1, 1, CONFIG["n_points"]).tolist()
input_data = T.tensor(xs, dtype=DTYPE).unsqueeze(1)
target = T.tensor([2.0 * v + 0.5 for v in xs], dtype=DTYPE).unsqueeze(1)
model = T.nn.Linear(1, 1)
opt = T.optim.SGD(model.parameters(), lr=CONFIG["lr"])
for epoch in range(CONFIG["epochs"]):
    opt.zero_grad()
    loss = T.nn.functional.mse_loss(model(input_data), target)
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 4))
