"""Forcing the whole model to bf16 inside compute_loss: Adam then updates bf16 weights and the loss decreases much more slowly
source: https://github.com/hp-l33/AiM/issues/10
reported-error: silent
outcome: ok (silent: loss 4.067 after 40 steps vs 4.030 with the same script in float32; the AdamW updates are applied to bfloat16 weights at line 55 and are rounded)
root-cause: line 44
expect: DG013
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)


class Args:
    bf16 = True
    learning_rate = 4e-4
    max_steps = 60


class AiM(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.tok = nn.Embedding(vocab, dim)
        self.mixer = nn.Sequential(nn.Linear(dim, dim), nn.GELU(), nn.Linear(dim, dim))
        self.projector = nn.Linear(dim, vocab)

    def get_projector_weight_dtype(self):
        return self.projector.weight.dtype

    def forward(self, x):
        return self.projector(self.mixer(self.tok(x)))


class Trainer:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)

    def compute_loss(self, model, x):
        dtype = torch.bfloat16 if self.args.bf16 else torch.float32
        if model.get_projector_weight_dtype() != dtype:
            model = model.to(dtype=dtype)  # root-cause
        logits = model(x[:, :-1])
        return F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), x[:, 1:].reshape(-1))

    def train(self):
        data = torch.randint(0, 64, (16, 12))
        w0 = self.model.projector.weight.detach().float().clone()
        for step in range(self.args.max_steps):
            loss = self.compute_loss(self.model, data)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()  # fails-here
            if step % 20 == 0:
                print(step, loss.item())
        moved = (self.model.projector.weight.detach().float() - w0).abs().max().item()
        frozen = (self.model.projector.weight.detach().float() == w0).float().mean().item()
        print('max |delta w| after training:', moved, 'never-updated fraction:', frozen, self.model.projector.weight.dtype)


if __name__ == '__main__':
    Trainer(AiM(), Args()).train()
