"""Text-classifier training with a Lightning-style hand-rolled Trainer(precision=16) that implements 16-bit by calling model.half(), while the module's configure_optimizers returns Adam with its default eps=1e-8, which is 0 in float16: after the first step the weights hold inf/NaN and the loss is NaN, with no error raised
source: https://github.com/pytorch/pytorch/issues/26218
reported-error: (feature request "Default adam epsilon to 1e-7 when on fp16": "If you use 1e-8 as default and you use 16 bit, it will round to zero, and thus you get no stability gains")
outcome: ok (silent: the first optimizer.step() at line 50 writes inf/NaN into the float16 weights, printed as "step 0: loss 1.3811, 18230 non-finite params", and every later loss is nan)
root-cause: line 32
expect: DG012
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset

hparams = {"vocab": 500, "embed": 32, "classes": 4, "lr": 1e-3, "batch_size": 32, "max_steps": 6}


# ---- model.py
class LitTextClassifier(nn.Module):
    def __init__(self, hp):
        super().__init__()
        self.hp = hp
        self.embedding = nn.EmbeddingBag(hp["vocab"], hp["embed"])
        self.fc = nn.Sequential(nn.Linear(hp["embed"], 64), nn.ReLU(), nn.Linear(64, hp["classes"]))

    def forward(self, tokens):
        return self.fc(self.embedding(tokens))

    def training_step(self, batch):
        tokens, y = batch
        return F.cross_entropy(self(tokens).float(), y)

    def configure_optimizers(self):
        return torch.optim.Adam(self.parameters(), lr=self.hp["lr"])  # root-cause


# ---- trainer.py
class Trainer:
    def __init__(self, precision=32, max_steps=10):
        self.precision, self.max_steps = precision, max_steps

    def fit(self, model, loader):
        if self.precision == 16:
            model.half()
        optimizer = model.configure_optimizers()
        step = 0
        while step < self.max_steps:
            for batch in loader:
                loss = model.training_step(batch)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()  # fails-here
                bad = sum(int((~torch.isfinite(p)).sum()) for p in model.parameters())
                print(f"step {step}: loss {loss.item():.4f}, {bad} non-finite params")
                step += 1
                if step >= self.max_steps:
                    break


if __name__ == "__main__":
    torch.manual_seed(0)
    tokens = torch.randint(0, hparams["vocab"], (256, 20))
    labels = torch.randint(0, hparams["classes"], (256,))
    loader = DataLoader(TensorDataset(tokens, labels), batch_size=hparams["batch_size"], shuffle=True)
    Trainer(precision=16, max_steps=hparams["max_steps"]).fit(LitTextClassifier(hparams), loader)
