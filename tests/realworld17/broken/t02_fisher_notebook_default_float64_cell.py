"""Notebook export (Fisher information of a small classifier): the model is defined and trained in the first cells, a later cell switches torch.set_default_dtype(torch.float64) "for accurate eigenvalues", and the probe batch made with torch.randn afterwards is float64 while the trained model is float32
source: https://github.com/tfjgeorge/nngeometry/issues/70
reported-error: RuntimeError: expected scalar type Double but found Float
outcome: RuntimeError: mat1 and mat2 must have the same dtype, but got Double and Float at line 42
root-cause: line 37
expect: DG001
"""
#!/usr/bin/env python
# coding: utf-8

# In[1]:

import torch
import torch.nn as nn
import torch.nn.functional as F

# In[2]:

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(10, 16), nn.Tanh(), nn.Linear(16, 3))
X = torch.randn(200, 10)
y = torch.randint(0, 3, (200,))
opt = torch.optim.SGD(model.parameters(), lr=0.1)

# In[3]:

for epoch in range(20):
    loss = F.cross_entropy(model(X), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
print("train loss", loss.item())

# In[4]:

# double precision for the Fisher eigen-decomposition
torch.set_default_dtype(torch.float64)  # root-cause

# In[5]:

probe = torch.randn(64, 10)
logits = model(probe)  # fails-here
probs = logits.softmax(-1)
grads = []
for i in range(8):
    model.zero_grad()
    torch.log(probs[i, probs[i].argmax()]).backward(retain_graph=True)
    grads.append(torch.cat([p.grad.flatten() for p in model.parameters()]))
G = torch.stack(grads)
print("top eigenvalue", torch.linalg.eigvalsh(G @ G.T)[-1].item())
