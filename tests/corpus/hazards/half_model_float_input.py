import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(
    nn.Conv1d(4, 8, kernel_size=3, padding=1),
    nn.ReLU(),
    nn.AdaptiveAvgPool1d(1),
    nn.Flatten(),
    nn.Linear(8, 2),
)
model = model.half()  # save memory  # expect: DG004
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)

signals = torch.randn(16, 4, 50)
labels = torch.randint(0, 2, (16,))
for step in range(3):
    optimizer.zero_grad()
    out = model(signals)
    loss = nn.functional.cross_entropy(out.float(), labels)
    loss.backward()
    optimizer.step()
