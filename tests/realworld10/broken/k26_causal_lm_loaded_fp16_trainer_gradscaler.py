"""Hand-written Trainer with fp16=True mixed precision: the causal LM is "loaded" with torch_dtype=torch.float16 to save memory (from_pretrained-style factory), and the fp16 path wraps steps in autocast with a GradScaler, whose unscale_ before gradient clipping refuses the float16 gradients
source: https://github.com/huggingface/transformers/issues/23165
reported-error: ValueError: Attempting to unscale FP16 gradients. (you cannot train a model loaded in FP16: LlamaForCausalLM.from_pretrained(xxx, torch_dtype=torch.float16) is the culprit)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 54
root-cause: line 62
expect: DG014
"""
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class TrainingArguments:
    fp16: bool = True
    learning_rate: float = 2e-5
    max_grad_norm: float = 1.0
    max_steps: int = 3


class TinyCausalLM(nn.Module):
    def __init__(self, vocab=128, dim=32):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.block = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        self.lm_head = nn.Linear(dim, vocab)

    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32):
        torch.manual_seed(len(name))
        return cls().to(torch_dtype)

    def forward(self, input_ids, labels=None):
        h = self.embed(input_ids)
        logits = self.lm_head(h + self.block(h))
        loss = None
        if labels is not None:
            loss = nn.functional.cross_entropy(logits[:, :-1].flatten(0, 1).float(), labels[:, 1:].flatten())
        return loss, logits


class Trainer:
    def __init__(self, model, args):
        self.model, self.args = model, args
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=args.learning_rate, eps=1e-4)
        self.scaler = torch.amp.GradScaler("cpu", enabled=args.fp16)

    def train(self, batches):
        for step, input_ids in enumerate(batches):
            with torch.autocast("cpu", dtype=torch.float16, enabled=self.args.fp16):
                loss, _ = self.model(input_ids, labels=input_ids)
            self.scaler.scale(loss).backward()
            self.scaler.unscale_(self.optimizer)  # fails-here
            nn.utils.clip_grad_norm_(self.model.parameters(), self.args.max_grad_norm)
            self.scaler.step(self.optimizer)
            self.scaler.update()
            self.optimizer.zero_grad()
            print(f"step {step}: loss {loss.item():.4f}")


model = TinyCausalLM.from_pretrained("tiny-llama", torch_dtype=torch.float16)  # root-cause
batches = [torch.randint(0, 128, (2, 16)) for _ in range(3)]
Trainer(model, TrainingArguments()).train(batches)
