"""ChatGLM freeze-tuning (glmtuner style, Windows): the model is loaded with torch_dtype=torch.float16, the last layers are unfrozen in fp16, and the Seq2Seq trainer runs with fp16=True (GradScaler)
source: https://github.com/bitsandbytes-foundation/bitsandbytes/issues/945
reported-error: ValueError: Attempting to unscale FP16 gradients.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 84
root-cause: line 64
expect: DG014
"""
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class FinetuningArguments:
    finetuning_type: str = "freeze"
    num_layer_trainable: int = 1


@dataclass
class Seq2SeqTrainingArguments:
    fp16: bool = True
    learning_rate: float = 5e-5
    max_steps: int = 3
    per_device_train_batch_size: int = 2


class GLMBlock(nn.Module):
    def __init__(self, hidden=32):
        super().__init__()
        self.attention = nn.MultiheadAttention(hidden, 4, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden))
        self.ln = nn.LayerNorm(hidden)

    def forward(self, h):
        x = self.ln(h)
        h = h + self.attention(x, x, x, need_weights=False)[0]
        return h + self.mlp(self.ln(h))


class ChatGLMForConditionalGeneration(nn.Module):
    def __init__(self, vocab=128, hidden=32, num_layers=3):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([GLMBlock(hidden) for _ in range(num_layers)])
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    @classmethod
    def from_pretrained(cls, name, torch_dtype=torch.float32):
        model = cls()
        return model.to(torch_dtype)

    def forward(self, input_ids, labels=None):
        h = self.word_embeddings(input_ids)
        for layer in self.layers:
            h = layer(h)
        logits = self.lm_head(h)
        loss = F.cross_entropy(logits[:, :-1].float().reshape(-1, logits.size(-1)), labels[:, 1:].reshape(-1)) if labels is not None else None
        return loss, logits


def load_pretrained(finetuning_args):
    model = ChatGLMForConditionalGeneration.from_pretrained("THUDM/chatglm-6b", torch_dtype=torch.float16)  # root-cause
    if finetuning_args.finetuning_type == "freeze":
        trainable = [f"layers.{len(model.layers) - 1 - i}." for i in range(finetuning_args.num_layer_trainable)]
        for name, param in model.named_parameters():
            param.requires_grad_(any(name.startswith(t) for t in trainable))
    return model


class Seq2SeqPeftTrainer:
    def __init__(self, model, args):
        self.model = model
        self.args = args
        self.optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=args.learning_rate)
        self.scaler = torch.amp.GradScaler("cuda" if torch.cuda.is_available() else "cpu", enabled=args.fp16)

    def train(self):
        for step in range(self.args.max_steps):
            input_ids = torch.randint(0, 128, (self.args.per_device_train_batch_size, 16))
            loss, _ = self.model(input_ids, labels=input_ids)
            self.scaler.scale(loss).backward()
            self.scaler.step(self.optimizer)  # fails-here
            self.scaler.update()
            self.optimizer.zero_grad()
            print({"loss": round(loss.item(), 4), "step": step})


def run_sft(training_args, finetuning_args):
    model = load_pretrained(finetuning_args)
    trainer = Seq2SeqPeftTrainer(model, training_args)
    trainer.train()


if __name__ == "__main__":
    run_sft(Seq2SeqTrainingArguments(), FinetuningArguments())
