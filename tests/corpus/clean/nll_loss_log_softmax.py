import numpy as np
import torch
import torch.nn as nn

np.random.seed(0)
features = np.random.randn(150, 4).astype(np.float32)
classes = np.random.randint(0, 3, size=150)  # int64


class LogisticRegression(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 3)
        self.log_softmax = nn.LogSoftmax(dim=1)

    def forward(self, x):
        return self.log_softmax(self.linear(x))


clf = LogisticRegression()
criterion = nn.NLLLoss()
optimizer = torch.optim.Adagrad(clf.parameters(), lr=0.1)
x, y = torch.from_numpy(features), torch.from_numpy(classes)
for epoch in range(20):
    optimizer.zero_grad()
    loss = criterion(clf(x), y)
    loss.backward()
    optimizer.step()
