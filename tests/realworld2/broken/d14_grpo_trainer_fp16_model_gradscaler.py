"""GRPO notebook trainer: policy model cast to float16, then trained through a GradScaler
source: https://github.com/Jaykef/ai-algorithms/issues/4
reported-error: ValueError: Attempting to unscale FP16 gradients.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 100
root-cause: line 57
expect: DG014
"""
import gc
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class TrainingConfig:
    vocab_size: int = 64
    hidden: int = 32
    group_size: int = 4
    max_new_tokens: int = 6
    learning_rate: float = 1e-5
    num_steps: int = 3
    beta: float = 0.04
    use_fp16: bool = True
    max_grad_norm: float = 1.0


class TinyPolicy(nn.Module):
    def __init__(self, vocab_size, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden)
        self.rnn = nn.GRU(hidden, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab_size)

    def forward(self, ids):
        h, _ = self.rnn(self.embed(ids))
        return self.head(h)


def int_reward(completions):
    return [float((c % 2 == 0).float().mean()) for c in completions]


def accuracy_reward(completions):
    return [float(c[-1] == 2) for c in completions]


class GRPOTrainer:
    def __init__(self, model, reward_functions, config):
        self.config = config
        self.device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
        self.model = model.to(self.device)
        self.ref_model = TinyPolicy(config.vocab_size, config.hidden).to(self.device)
        self.ref_model.load_state_dict(model.state_dict())
        if config.use_fp16:
            self.model = self.model.half()  # root-cause
            self.ref_model = self.ref_model.half()
        self.reward_functions = reward_functions
        self.optimizer = torch.optim.AdamW(self.model.parameters(), lr=config.learning_rate, eps=1e-4)
        self.scaler = torch.amp.GradScaler(self.device.type) if config.use_fp16 else None

    def clear_memory_cache(self):
        gc.collect()
        if torch.cuda.is_available():
            torch.cuda.empty_cache()

    @torch.no_grad()
    def generate(self, prompt):
        ids = prompt.repeat(self.config.group_size, 1)
        for _ in range(self.config.max_new_tokens):
            logits = self.model(ids)[:, -1].float()
            nxt = torch.multinomial(F.softmax(logits, -1), 1)
            ids = torch.cat([ids, nxt], dim=1)
        return ids

    def compute_loss(self, ids, prompt_len, advantages):
        logits = self.model(ids[:, :-1]).float()
        logp = torch.log_softmax(logits, -1).gather(-1, ids[:, 1:, None]).squeeze(-1)[:, prompt_len - 1:]
        with torch.no_grad():
            ref_logits = self.ref_model(ids[:, :-1]).float()
            ref_logp = torch.log_softmax(ref_logits, -1).gather(-1, ids[:, 1:, None]).squeeze(-1)[:, prompt_len - 1:]
        kl = torch.exp(ref_logp - logp) - (ref_logp - logp) - 1
        per_token = torch.exp(logp - logp.detach()) * advantages[:, None] - self.config.beta * kl
        return -per_token.mean()

    def train(self):
        for step in range(self.config.num_steps):
            prompt = torch.randint(0, self.config.vocab_size, (1, 5), device=self.device)
            ids = self.generate(prompt)
            completions = ids[:, prompt.shape[1]:].cpu()
            rewards = torch.tensor([sum(r) for r in zip(*[f(completions) for f in self.reward_functions])],
                                   device=self.device)
            advantages = (rewards - rewards.mean()) / (rewards.std() + 1e-4)
            loss = self.compute_loss(ids, prompt.shape[1], advantages)
            self.optimizer.zero_grad()
            self.clear_memory_cache()
            if self.scaler is not None:
                self.scaler.scale(loss).backward()
                self.scaler.unscale_(self.optimizer)  # fails-here
                torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.config.max_grad_norm)
                self.scaler.step(self.optimizer)
                self.scaler.update()
            else:
                loss.backward()
                self.optimizer.step()
            print(f"step {step} loss {loss.item():.4f} reward {rewards.mean().item():.3f}")


config = TrainingConfig()
model = TinyPolicy(config.vocab_size, config.hidden)
reward_functions = [int_reward, accuracy_reward]
trainer = GRPOTrainer(model, reward_functions, config)
trainer.train()
