"""Small GPT-style pre-training script whose save_checkpoint() puts the script's own TrainConfig dataclass instance into the checkpoint next to the weights and optimizer state; resuming with the default weights_only torch.load refuses the class
source: https://github.com/NVIDIA/Megatron-LM/issues/1884
reported-error: Weights only load fail with pre-0.14 checkpoints (the checkpoint pickles config objects)
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL __main__.TrainConfig was not an allowed global by default. ... at line 45
root-cause: line 41
expect: DG011
"""
import os
import tempfile
from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class TrainConfig:
    vocab_size: int = 256
    d_model: int = 64
    n_layers: int = 2
    lr: float = 3e-4
    train_iters: int = 6
    save_interval: int = 3


class TinyGPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.emb = nn.Embedding(cfg.vocab_size, cfg.d_model)
        layer = nn.TransformerEncoderLayer(cfg.d_model, 4, 4 * cfg.d_model, batch_first=True)
        self.blocks = nn.TransformerEncoder(layer, cfg.n_layers)
        self.lm_head = nn.Linear(cfg.d_model, cfg.vocab_size)

    def forward(self, idx):
        mask = nn.Transformer.generate_square_subsequent_mask(idx.size(1))
        return self.lm_head(self.blocks(self.emb(idx), mask=mask, is_causal=True))


def save_checkpoint(path, iteration, model, optimizer, cfg):
    torch.save({"iteration": iteration, "model": model.state_dict(),
                "optimizer": optimizer.state_dict(), "args": cfg}, path)  # root-cause


def load_checkpoint(path, model, optimizer):
    state = torch.load(path)  # fails-here
    model.load_state_dict(state["model"])
    optimizer.load_state_dict(state["optimizer"])
    return state["iteration"], state["args"]


def pretrain(cfg, ckpt_path, resume=False):
    model = TinyGPT(cfg)
    optimizer = torch.optim.AdamW(model.parameters(), lr=cfg.lr)
    start = 0
    if resume:
        start, cfg = load_checkpoint(ckpt_path, model, optimizer)
    for it in range(start, cfg.train_iters):
        tokens = torch.randint(0, cfg.vocab_size, (4, 17))
        logits = model(tokens[:, :-1])
        loss = nn.functional.cross_entropy(logits.reshape(-1, cfg.vocab_size), tokens[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if (it + 1) % cfg.save_interval == 0:
            save_checkpoint(ckpt_path, it + 1, model, optimizer, cfg)
            print(f"iter {it + 1}: lm loss {loss.item():.3f}, saved")


if __name__ == "__main__":
    path = os.path.join(tempfile.mkdtemp(), "iter_0000003.pt")
    pretrain(TrainConfig(train_iters=3), path)
    pretrain(TrainConfig(), path, resume=True)
