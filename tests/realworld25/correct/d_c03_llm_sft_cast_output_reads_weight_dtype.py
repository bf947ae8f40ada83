"""LLaMA-Efficient-Tuning-style SFT where CastOutputToFloat reads the wrapped lm_head's weight dtype at forward time instead of capturing it, so a later model.half() keeps the hidden states and the head in the same dtype while the logits still come out float32
source: https://github.com/hiyouga/LlamaFactory/issues/1233
reported-error: none (fixed version)
outcome: ok
root-cause: -
expect: none
"""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F


def get_args():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stage", default="sft")
    parser.add_argument("--fp16", action="store_true", default=True)
    parser.add_argument("--upcast_layernorm", action="store_true", default=True)
    parser.add_argument("--vocab_size", type=int, default=64)
    parser.add_argument("--hidden_size", type=int, default=32)
    parser.add_argument("--learning_rate", type=float, default=5e-5)
    return parser.parse_args([])


# ---- model (tiny LLaMA-like)
class Block(nn.Module):
    def __init__(self, h):
        super().__init__()
        self.input_layernorm = nn.LayerNorm(h)
        self.mlp = nn.Sequential(nn.Linear(h, 4 * h), nn.GELU(), nn.Linear(4 * h, h))

    def forward(self, x):
        return x + self.mlp(self.input_layernorm(x))


class TinyCausalLM(nn.Module):
    def __init__(self, vocab_size, hidden_size):
        super().__init__()
        self.embed_tokens = nn.Embedding(vocab_size, hidden_size)
        self.layers = nn.ModuleList([Block(hidden_size) for _ in range(2)])
        self.norm = nn.LayerNorm(hidden_size)
        self.lm_head = nn.Linear(hidden_size, vocab_size, bias=False)

    def forward(self, input_ids, labels=None):
        h = self.embed_tokens(input_ids)
        for layer in self.layers:
            h = layer(h)
        logits = self.lm_head(self.norm(h))
        loss = None
        if labels is not None:
            loss = F.cross_entropy(logits[:, :-1].reshape(-1, logits.size(-1)).float(), labels[:, 1:].reshape(-1))
        return loss, logits


# ---- llmtuner/tuner/core/utils.py
def prepare_model_for_training(model, finetuning_args, output_layer_name="lm_head"):
    if finetuning_args.upcast_layernorm:
        for name, param in model.named_parameters():
            if param.ndim == 1 and "norm" in name:
                param.data = param.data.to(torch.float32)
    if hasattr(model, output_layer_name):
        output_layer = getattr(model, output_layer_name)
        if isinstance(output_layer, torch.nn.Linear):

            class CastOutputToFloat(torch.nn.Sequential):
                def forward(self, x):
                    return super().forward(x.to(self[0].weight.dtype)).to(torch.float32)

            setattr(model, output_layer_name, CastOutputToFloat(output_layer))
    return model


# ---- llmtuner/tuner/core/loader.py
def load_model_and_tokenizer(model_args, is_trainable=True):
    model = TinyCausalLM(model_args.vocab_size, model_args.hidden_size)
    if is_trainable:
        model = prepare_model_for_training(model, model_args)
    if model_args.fp16:
        model = model.half()
    return model


def run_sft(args, steps=3):
    model = load_model_and_tokenizer(args)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.learning_rate)
    for step in range(steps):
        input_ids = torch.randint(0, args.vocab_size, (2, 12))
        loss, _ = model(input_ids, labels=input_ids)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f}")


if __name__ == "__main__":
    torch.manual_seed(0)
    run_sft(get_args())
