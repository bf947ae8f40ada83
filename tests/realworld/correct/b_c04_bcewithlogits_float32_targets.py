"""Fixed skorch#813: y cast to np.float32 (not int64) for BCEWithLogitsLoss, with the same shape as the logits
source: https://github.com/skorch-dev/skorch/issues/813
reported-error: RuntimeError: result type Float can't be cast to the desired output type Long
outcome: ok
root-cause: none
expect: none
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

rng = np.random.default_rng(42)
X = pd.DataFrame(rng.normal(size=(128, 12)), columns=["f%d" % i for i in range(12)])
y = pd.Series((X["f0"] + X["f1"] > 0).astype(int))


class MyModule(nn.Module):
    def __init__(self, input=12, l1=60):
        super(MyModule, self).__init__()
        self.layer_1 = nn.Linear(input, l1)
        self.batchnorm1 = nn.BatchNorm1d(l1, momentum=0.2)
        self.layer_out = nn.Linear(l1, 1)
        self.relu = nn.ReLU()

    def forward(self, inputs):
        x = self.batchnorm1(self.relu(self.layer_1(inputs)))
        return self.layer_out(x)


X_train_m = X.values.astype(np.float32)
y_train_m = y.values.astype(np.float32).reshape(-1, 1)
module = MyModule()
criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.5]))
optimizer = torch.optim.Adam(module.parameters(), lr=0.01)
Xt, yt = torch.from_numpy(X_train_m), torch.from_numpy(y_train_m)
for epoch in range(3):
    for i in range(0, len(Xt), 32):
        optimizer.zero_grad()
        loss = criterion(module(Xt[i:i + 32]), yt[i:i + 32])
        loss.backward()
        optimizer.step()
print(loss.item())
