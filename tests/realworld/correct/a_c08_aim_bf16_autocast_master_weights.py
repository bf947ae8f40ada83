"""bf16 compute with fp32 master weights: the model stays float32 and compute_loss runs under autocast
source: https://github.com/hp-l33/AiM/issues/10
reported-error: silent
outcome: ok
root-cause: none
expect: none
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

    def forward(self, x):
        return self.projector(self.mixer(self.tok(x)))


class Trainer:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate)

    def compute_loss(self, model, x):
        with torch.autocast(device_type="cpu", dtype=torch.bfloat16, enabled=self.args.bf16):
            logits = model(x[:, :-1])
        return F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), x[:, 1:].reshape(-1))

    def train(self):
        data = torch.randint(0, 64, (16, 12))
        for step in range(self.args.max_steps):
            loss = self.compute_loss(self.model, data)
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
            if step % 20 == 0:
                print(step, loss.item())
        print(self.model.projector.weight.dtype)


if __name__ == '__main__':
    Trainer(AiM(), Args()).train()
