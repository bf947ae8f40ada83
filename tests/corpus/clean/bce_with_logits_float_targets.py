import torch
from torch import nn

torch.manual_seed(0)
n, d = 160, 6
x = torch.randn(n, d)
y = (x[:, 0] * x[:, 1] > 0).float().unsqueeze(1)  # float32, same shape as the logits

model = nn.Sequential(nn.Linear(d, 32), nn.ReLU(), nn.Linear(32, 1))
criterion = nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.5]))
optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3)

for epoch in range(10):
    optimizer.zero_grad()
    logits = model(x)
    loss = criterion(logits, y)
    loss.backward()
    optimizer.step()
