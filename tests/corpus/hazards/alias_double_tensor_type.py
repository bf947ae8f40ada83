import numpy as np
import torch as T

T.set_default_tensor_type(T.DoubleTensor)  # expect: DG002

data = np.random.default_rng(0).normal(size=(80, 3))
x = T.from_numpy(data)
y = T.from_numpy(data.sum(axis=1, keepdims=True))

model = T.nn.Linear(3, 1)
opt = T.optim.SGD(model.parameters(), lr=0.05)
for _ in range(20):
    opt.zero_grad()
    loss = T.nn.functional.mse_loss(model(x), y)
    loss.backward()
    opt.step()
