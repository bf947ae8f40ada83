"""AReaL-style FSDP engine: actor loaded in bfloat16, torch.optim.AdamW built over the bf16 parameters
source: https://github.com/areal-project/AReaL/issues/1292
reported-error: silent (late-stage convergence plateaus ~3x higher than DS-Z3 / Megatron)
outcome: ok (silent: after 30 AdamW steps at lr=1e-4 only 14892 of 49600 bf16 weights changed at all and the loss is 5.021, vs 4.931 with every weight moving when the same script runs in float32)
root-cause: line 69
expect: DG013
"""
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class OptimizerConfig:
    type: str = "adam"
    lr: float = 1e-4
    weight_decay: float = 0.01
    beta1: float = 0.9
    beta2: float = 0.999
    eps: float = 1e-8


@dataclass
class TrainEngineConfig:
    dtype: str = "bfloat16"
    vocab_size: int = 128
    hidden_size: int = 64
    optimizer: OptimizerConfig = field(default_factory=OptimizerConfig)


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.mlp = nn.Sequential(nn.Linear(hidden_size, 4 * hidden_size), nn.GELU(),
                                 nn.Linear(4 * hidden_size, hidden_size))
        self.norm = nn.LayerNorm(hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    def forward(self, input_ids):
        h = self.embed_tokens(input_ids)
        h = h + self.mlp(h)
        return self.lm_head(self.norm(h))

    @classmethod
    def from_pretrained(cls, config, torch_dtype=torch.float32):
        torch.manual_seed(0)
        model = cls(config.vocab_size, config.hidden_size)
        return model.to(dtype=torch_dtype)


class FSDPEngine:
    def __init__(self, config: TrainEngineConfig):
        self.config = config
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = None
        self.optimizer = None

    def initialize(self):
        dtype = getattr(torch, self.config.dtype)
        self.model = TinyCausalLM.from_pretrained(self.config, torch_dtype=dtype).to(self.device)
        self.create_optimizer()

    def create_optimizer(self):
        opt = self.config.optimizer
        assert opt.type == "adam"
        self.optimizer = torch.optim.AdamW(  # root-cause
            self.model.parameters(),
            lr=opt.lr,
            weight_decay=opt.weight_decay,
            betas=(opt.beta1, opt.beta2),
            eps=opt.eps,
        )

    def train_batch(self, input_ids):
        self.model.train()
        logits = self.model(input_ids[:, :-1])
        loss = F.cross_entropy(logits.float().reshape(-1, logits.size(-1)), input_ids[:, 1:].reshape(-1))
        self.optimizer.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), 1.0)
        self.optimizer.step()
        return loss.item()


def main():
    engine = FSDPEngine(TrainEngineConfig())
    engine.initialize()
    before = [p.detach().clone() for p in engine.model.parameters()]
    data = torch.randint(0, 128, (16, 33), device=engine.device)
    for step in range(30):
        loss = engine.train_batch(data)
        if step % 10 == 0:
            print(f"step {step} loss {loss:.4f}")
    moved = sum((p.detach() != b).sum().item() for p, b in zip(engine.model.parameters(), before))
    total = sum(p.numel() for p in engine.model.parameters())
    print(f"final loss {loss:.4f}; weights changed: {moved}/{total}")


if __name__ == "__main__":
    main()
