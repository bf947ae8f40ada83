"""CausVid-style generator cast to bfloat16 and optimized with AdamW: updates round away
source: https://github.com/tianweiy/CausVid/issues/19
reported-error: silent (after casting the model with .to(dtype=torch.bfloat16) the generator is unable to converge)
outcome: ok (silent: bf16 parameters; 89% of the first-layer weights never change over 60 AdamW steps)
root-cause: line 35
expect: DG013
"""
import torch
import torch.nn as nn


class Generator(nn.Module):
    def __init__(self, dim=16):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, 64), nn.SiLU(), nn.Linear(64, dim))

    def forward(self, x):
        return self.net(x)


class DMD(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.generator = Generator()
        self.config = config


torch.manual_seed(0)
config = {'mixed_precision': False, 'lr': 1e-4, 'steps': 60}
distillation_model = DMD(config)
target = nn.Linear(16, 16)
for p in target.parameters():
    p.requires_grad_(False)

distillation_model.generator = distillation_model.generator.to(dtype=torch.bfloat16)  # root-cause
print(next(distillation_model.generator.parameters()).dtype)
generator_optimizer = torch.optim.AdamW(distillation_model.generator.parameters(), lr=config['lr'],
                                        betas=(0.9, 0.999), weight_decay=0.01)
w0 = distillation_model.generator.net[0].weight.detach().float().clone()
for step in range(config['steps']):
    noise = torch.randn(64, 16)
    pred = distillation_model.generator(noise.to(torch.bfloat16)).float()
    generator_loss = ((pred - target(noise)) ** 2).mean()
    generator_optimizer.zero_grad()
    generator_loss.backward()
    generator_optimizer.step()
    if step % 20 == 0:
        print(step, generator_loss.item())
moved = (distillation_model.generator.net[0].weight.detach().float() - w0).abs()
print("fraction of first-layer weights that never changed:", (moved == 0).float().mean().item())
