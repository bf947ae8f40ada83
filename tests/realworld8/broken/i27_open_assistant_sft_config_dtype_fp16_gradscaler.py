"""Open-Assistant-style trainer_sft.py: the YAML model config says dtype: float16, get_model casts the whole causal LM to that dtype, and the fp16 training loop (GradScaler, unscale_ before gradient clipping) then meets float16 gradients
source: https://github.com/LAION-AI/Open-Assistant/issues/3213
reported-error: ValueError: Attempting to unscale FP16 gradients.
outcome: ValueError: Attempting to unscale FP16 gradients. at line 57
root-cause: line 45
expect: DG014
"""
import argparse

import torch
import torch.nn as nn
import yaml

CONFIGS = yaml.safe_load("""
defaults:
  learning_rate: 1.0e-5
  max_grad_norm: 2.0
  fp16: true
  per_device_train_batch_size: 4
galactica-125m:
  model_name: facebook/galactica-125m
  dtype: float16
  hidden: 32
  vocab: 100
webgpt_dataset_only:
  datasets: [webgpt]
""")


class CausalLM(nn.Module):
    def __init__(self, vocab, hidden):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.block = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.GELU(), nn.Linear(4 * hidden, hidden))
        self.lm_head = nn.Linear(hidden, vocab)

    def forward(self, input_ids):
        h = self.embed(input_ids)
        return self.lm_head(h + self.block(h))


def get_model(conf):
    dtype = {"float16": torch.float16, "bfloat16": torch.bfloat16, "float32": torch.float32}[conf["dtype"]]
    model = CausalLM(conf["vocab"], conf["hidden"])
    return model.to(dtype)  # root-cause


def train(conf):
    model = get_model(conf)
    optimizer = torch.optim.AdamW(model.parameters(), lr=conf["learning_rate"])
    scaler = torch.amp.GradScaler("cpu", enabled=conf["fp16"])
    for step in range(3):
        input_ids = torch.randint(0, conf["vocab"], (conf["per_device_train_batch_size"], 16))
        logits = model(input_ids[:, :-1])
        loss = nn.functional.cross_entropy(logits.float().reshape(-1, conf["vocab"]), input_ids[:, 1:].reshape(-1))
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)  # fails-here
        torch.nn.utils.clip_grad_norm_(model.parameters(), conf["max_grad_norm"])
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad()
        print(f"step {step}: loss {loss.item():.4f}")


def argument_parsing(config_names):
    conf = dict(CONFIGS["defaults"])
    for name in config_names:
        conf.update(CONFIGS[name])
    return conf


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--configs", nargs="+", default=["galactica-125m", "webgpt_dataset_only"])
    train(argument_parsing(parser.parse_args().configs))
