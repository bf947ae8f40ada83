"""parrots.example ImageNet classification (ParrotsDL/parrots.example models/imagenet layout: main.py reads the trainer config and calls utils.optimizer.build_optimizer(cfg_trainer, model), which passes the config's optimizer kwargs to torch.optim): the config turns on Adam's capturable=True (meant for CUDA graphs), and on a machine without a GPU the first step on the CPU parameters is refused
source: https://github.com/ParrotsDL/parrots.example/blob/37f9f8d3e975deb6c4276bbaeb224e402651fded/models/imagenet/utils/optimizer.py
reported-error: (the repository's factory forwards any optimizer kwargs from the config; with capturable=True on CPU parameters the first step fails with AssertionError: If capturable=True, params and state_steps must be on supported devices)
outcome: AssertionError: If capturable=True, params and state_steps must be on supported devices: ['cuda', 'xpu', 'hpu', 'privateuseone', 'xla']. at main.py:28
root-cause: utils/config.py:14
expect: DG016
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

from utils.config import trainer as cfg_trainer
from utils.optimizer import build_optimizer

model = nn.Sequential(nn.Conv2d(3, 16, 3, stride=2, padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 100))
device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = model.to(device)
optimizer = build_optimizer(cfg_trainer, model)

for epoch in range(cfg_trainer.epochs):
    for i in range(5):
        images = torch.randn(8, 3, 32, 32, device=device)
        target = torch.randint(0, 100, (8,), device=device)
        loss = F.cross_entropy(model(images), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()  # fails-here
    print(f"epoch {epoch} loss {loss.item():.4f}")
