"""Supervised fine-tuning of a small vision-language model (ms-swift style trainer) with fp16 mixed precision: the loader materialises the checkpoint with torch_dtype float16, all parameters stay trainable in half precision, and the trainer's GradScaler refuses to unscale their float16 gradients before clipping
source: https://github.com/modelscope/ms-swift/issues/4352
reported-error: ValueError: Attempting to unscale FP16 gradients. (MultiModalityCausalLM: 1975.2356M Params (1652.6561M Trainable); swift sft with fp16)
outcome: ValueError: Attempting to unscale FP16 gradients. at line 43
root-cause: line 29
expect: DG014
"""
import torch
import torch.nn as nn

args = {"torch_dtype": "float16", "fp16": True, "lr": 1e-4, "max_grad_norm": 1.0, "steps": 2}


class MultiModalityCausalLM(nn.Module):
    def __init__(self, vocab=64, dim=32):
        super().__init__()
        self.vision = nn.Linear(48, dim)
        self.embed = nn.Embedding(vocab, dim)
        self.lm_head = nn.Linear(dim, vocab)

    def forward(self, pixel_values, input_ids):
        h = self.embed(input_ids) + self.vision(pixel_values).unsqueeze(1)
        return self.lm_head(torch.tanh(h))


def get_model(a):
    dtype = getattr(torch, a["torch_dtype"])
    model = MultiModalityCausalLM()
    return model.to(dtype)  # root-cause


class Seq2SeqTrainer:
    def __init__(self, model, a):
        self.model = model
        self.args = a
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=a["lr"])
        self.scaler = torch.amp.GradScaler("cpu", enabled=a["fp16"])

    def training_step(self, batch):
        logits = self.model(batch["pixel_values"], batch["input_ids"][:, :-1])
        loss = nn.functional.cross_entropy(logits.float().flatten(0, 1), batch["input_ids"][:, 1:].flatten())
        self.scaler.scale(loss).backward()
        self.scaler.unscale_(self.optimizer)  # fails-here
        torch.nn.utils.clip_grad_norm_(self.model.parameters(), self.args["max_grad_norm"])
        self.scaler.step(self.optimizer)
        self.scaler.update()
        self.optimizer.zero_grad()
        return loss.item()

    def train(self):
        for step in range(self.args["steps"]):
            batch = {"pixel_values": torch.rand(2, 48, dtype=torch.float16), "input_ids": torch.randint(0, 64, (2, 10))}
            print(f"step {step} loss {self.training_step(batch):.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    Seq2SeqTrainer(get_model(args), args).train()
