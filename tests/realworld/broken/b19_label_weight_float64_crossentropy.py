"""Class weights computed with numpy from label counts (float64) passed as CrossEntropyLoss(weight=...)
source: https://github.com/sebsk/CS224N-Project/pull/2
reported-error: RuntimeError: expected scalar type Float but found Double
outcome: RuntimeError: expected scalar type Float but found Double at line 31
root-cause: line 19
expect: DG006
"""
import numpy as np
import pandas as pd
import torch
import torch.nn as nn

rng = np.random.default_rng(3)
df = pd.DataFrame({"text_len": rng.integers(5, 50, 300), "HS": rng.choice([0, 1, 2], p=[0.7, 0.2, 0.1], size=300)})
df["feat"] = df["text_len"] / 50.0

class_num = 3
label_count = df["HS"].value_counts().sort_index().values
train_label_weight = torch.tensor(1.0 / label_count * len(df) / class_num)  # root-cause
print(train_label_weight.dtype)

model = nn.Sequential(nn.Linear(1, 16), nn.ReLU(), nn.Linear(16, class_num))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
cn_loss = torch.nn.CrossEntropyLoss(weight=train_label_weight, reduction='mean')

X = torch.tensor(df[["feat"]].values, dtype=torch.float)
y = torch.tensor(df["HS"].values)
for i in range(0, len(X), 32):
    optimizer.zero_grad()
    pre_softmax = model(X[i:i + 32])
    loss = cn_loss(pre_softmax, y[i:i + 32])  # fails-here
    loss.backward()
    optimizer.step()
