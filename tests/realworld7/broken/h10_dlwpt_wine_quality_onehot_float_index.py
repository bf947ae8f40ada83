"""Deep Learning with PyTorch ch. 4: the wine-quality CSV is loaded as float32 and the quality column is used directly as the scatter_ index for one-hot encoding
source: https://github.com/deep-learning-with-pytorch/dlwpt-code/issues/12
reported-error: RuntimeError: Expected object of scalar type Long but got scalar type Float for argument #3 'index' in call to _th_scatter_
outcome: RuntimeError: scatter(): Expected dtype int32/int64 for index at line 37
root-cause: line 32
expect: DG006
"""
import csv
import os
import tempfile

import numpy as np
import torch

# In[1]: write a small winequality-white.csv (semicolon separated, like the UCI file)
wine_path = os.path.join(tempfile.mkdtemp(), "winequality-white.csv")
rng = np.random.default_rng(0)
with open(wine_path, "w", newline="") as f:
    w = csv.writer(f, delimiter=";")
    w.writerow(["fixed acidity", "volatile acidity", "citric acid", "residual sugar", "chlorides", "alcohol", "quality"])
    for _ in range(50):
        w.writerow([round(x, 3) for x in rng.random(6) * 10] + [int(rng.integers(3, 10))])

# In[2]:
wineq_numpy = np.loadtxt(wine_path, dtype=np.float32, delimiter=";", skiprows=1)
col_list = next(csv.reader(open(wine_path), delimiter=";"))
wineq = torch.from_numpy(wineq_numpy)
print(wineq.shape, wineq.dtype)

# In[3]:
data = wineq[:, :-1]
target = wineq[:, -1]  # root-cause
print(data.shape, target.shape)

# In[4]: one-hot encoding
target_onehot = torch.zeros(target.shape[0], 10)
target_onehot.scatter_(1, target.unsqueeze(1), 1.0)  # fails-here

# In[5]: normalisation
data_mean = torch.mean(data, dim=0)
data_var = torch.var(data, dim=0)
data_normalized = (data - data_mean) / torch.sqrt(data_var)
print(target_onehot.sum(0), data_normalized.std(0))
