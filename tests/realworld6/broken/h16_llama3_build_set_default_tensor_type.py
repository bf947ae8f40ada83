"""Llama-style Llama.build(): picks a legacy tensor type (torch.cuda.BFloat16Tensor / HalfTensor, or BFloat16Tensor on CPU) and installs it globally with torch.set_default_tensor_type before building the Transformer
source: https://github.com/meta-llama/llama3/issues/83
reported-error: UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.
outcome: ok (UserWarning: torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use torch.set_default_dtype() and torch.set_default_device() as alternatives.)
root-cause: line 67
expect: DG002
"""
import argparse
import time
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class ModelArgs:
    dim: int = 64
    n_layers: int = 2
    n_heads: int = 4
    vocab_size: int = 256
    max_seq_len: int = 32


class TransformerBlock(nn.Module):
    def __init__(self, args):
        super().__init__()
        self.attn = nn.MultiheadAttention(args.dim, args.n_heads, batch_first=True)
        self.ff = nn.Sequential(nn.Linear(args.dim, 4 * args.dim), nn.SiLU(), nn.Linear(4 * args.dim, args.dim))
        self.n1, self.n2 = nn.LayerNorm(args.dim), nn.LayerNorm(args.dim)

    def forward(self, h, mask):
        x = self.n1(h)
        h = h + self.attn(x, x, x, attn_mask=mask, need_weights=False)[0]
        return h + self.ff(self.n2(h))


class Transformer(nn.Module):
    def __init__(self, params):
        super().__init__()
        self.params = params
        self.tok_embeddings = nn.Embedding(params.vocab_size, params.dim)
        self.layers = nn.ModuleList([TransformerBlock(params) for _ in range(params.n_layers)])
        self.output = nn.Linear(params.dim, params.vocab_size, bias=False)

    @torch.inference_mode()
    def forward(self, tokens):
        h = self.tok_embeddings(tokens)
        seqlen = tokens.shape[1]
        mask = torch.full((seqlen, seqlen), float("-inf"), device=tokens.device).triu(1).to(h.dtype)
        for layer in self.layers:
            h = layer(h, mask)
        return self.output(h).float()


class Llama:
    @staticmethod
    def build(max_seq_len, max_batch_size, seed=1):
        torch.manual_seed(seed)
        start_time = time.time()
        model_args = ModelArgs(max_seq_len=max_seq_len)
        if torch.cuda.is_available():
            default_tensor_type = torch.cuda.BFloat16Tensor if torch.cuda.is_bf16_supported() else torch.cuda.HalfTensor
        else:
            default_tensor_type = torch.BFloat16Tensor
        torch.set_default_tensor_type(default_tensor_type)  # root-cause
        model = Transformer(model_args)
        print(f"Loaded in {time.time() - start_time:.2f} seconds")
        return Llama(model)

    def __init__(self, model):
        self.model = model

    def text_completion(self, prompt_tokens, max_gen_len=8):
        tokens = torch.tensor(prompt_tokens, dtype=torch.long)
        for _ in range(max_gen_len):
            logits = self.model(tokens[:, -self.model.params.max_seq_len:])
            next_token = torch.argmax(F.softmax(logits[:, -1], dim=-1), dim=-1, keepdim=True)
            tokens = torch.cat([tokens, next_token], dim=1)
        return tokens


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--max_seq_len", type=int, default=32)
    parser.add_argument("--max_batch_size", type=int, default=2)
    args = parser.parse_args()
    generator = Llama.build(max_seq_len=args.max_seq_len, max_batch_size=args.max_batch_size)
    out = generator.text_completion([[1, 5, 9, 12], [3, 4, 7, 100]])
    print(out.shape, next(generator.model.parameters()).dtype)
