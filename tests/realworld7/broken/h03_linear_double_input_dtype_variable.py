"""Notebook-style regression demo: the input dtype comes from a config variable set to torch.double while nn.Linear keeps its float32 weights
source: https://blog.51cto.com/u_16175525/6637440
reported-error: RuntimeError: expected scalar type Float but found Double
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 26
root-cause: line 16
expect: DG004
"""
import torch as T

CONFIG = {"in_features": 1, "n_points": 32, "dtype": T.double, "lr": 0.05, "epochs": 5}

# %% data
T.manual_seed(0)
xs = T.linspace(-1, 1, CONFIG["n_points"]).tolist()
ys = [2.0 * v + 0.5 for v in xs]
input_data = T.tensor(xs, dtype=CONFIG["dtype"]).unsqueeze(1)  # root-cause
target = T.tensor(ys).unsqueeze(1)

# %% model
model = T.nn.Linear(CONFIG["in_features"], 1)
opt = T.optim.SGD(model.parameters(), lr=CONFIG["lr"])

# %% train
for epoch in range(CONFIG["epochs"]):
    opt.zero_grad()
    output = model(input_data)  # fails-here
    loss = T.nn.functional.mse_loss(output, target)
    loss.backward()
    opt.step()
    print(epoch, round(loss.item(), 4))
