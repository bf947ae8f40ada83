import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self):
        super().__init__()
        self.proj = nn.Linear(24, 3)

    def forward(self, x):
        return self.proj(x)


class Trainer:
    def __init__(self):
        self.model = Head().half()  # expect: DG014
        self.optimizer = torch.optim.SGD(self.model.parameters(), lr=0.05, momentum=0.9)
        self.scaler = torch.amp.GradScaler("cpu")

    def step(self, x, y):
        self.optimizer.zero_grad()
        loss = F.cross_entropy(self.model(x.half()).float(), y)
        self.scaler.scale(loss).backward()
        self.scaler.step(self.optimizer)
        self.scaler.update()
        return loss.item()


trainer = Trainer()
for _ in range(3):
    trainer.step(torch.randn(8, 24), torch.randint(0, 3, (8,)))
