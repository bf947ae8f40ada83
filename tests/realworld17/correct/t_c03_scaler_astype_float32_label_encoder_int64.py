"""Tabular notebook: LabelEncoder codes are kept as int64, the StandardScaler output is cast with astype(np.float32), and CrossEntropyLoss gets Long targets
source: http://theneuralbase.com/pytorch/qna/how-to-use-crossentropyloss-in-pytorch/
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
# In[1]:

import numpy as np
import pandas as pd
import torch
import torch.nn as nn
from sklearn.model_selection import train_test_split
from sklearn.preprocessing import LabelEncoder, StandardScaler
from torch.utils.data import DataLoader, TensorDataset

# In[2]:

rng = np.random.default_rng(0)
df = pd.DataFrame({"age": rng.integers(18, 80, 300), "income": rng.normal(50_000, 15_000, 300),
                   "visits": rng.poisson(4, 300), "segment": rng.choice(["bronze", "silver", "gold"], 300)})
df["income"] = df["income"].where(rng.random(300) > 0.05).fillna(df["income"].median())

# In[3]:

le = LabelEncoder()
df["segment_code"] = le.fit_transform(df["segment"])
num_cols = df.select_dtypes("number").columns.drop("segment_code")
X = StandardScaler().fit_transform(df[num_cols]).astype(np.float32)
y = df["segment_code"].to_numpy()

# In[4]:

X_train, X_val, y_train, y_val = train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)
train_dl = DataLoader(TensorDataset(torch.from_numpy(X_train), torch.from_numpy(y_train)), batch_size=32, shuffle=True)
model = nn.Sequential(nn.Linear(len(num_cols), 32), nn.ReLU(), nn.Linear(32, len(le.classes_)))
criterion = nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

# In[5]:

for epoch in range(3):
    for xb, yb in train_dl:
        loss = criterion(model(xb), yb)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    print(f"epoch {epoch} loss {loss.item():.3f}", yb.dtype)
