"""Resuming a fine-tuning run from an intermediate checkpoint: rng_state.pth holds np.random.get_state() (a tuple with a NumPy array), which torch.load's default weights_only=True rejects
source: https://github.com/huggingface/trl/issues/3247
reported-error: resume from checkpoint fails; maintainer: the traceback sits inside transformers' _load_rng_state, where torch>=2.6 made weights_only=True the default for torch.load and the saved rng_state file contains a numpy array
outcome: _pickle.UnpicklingError: Weights only load failed. ... WeightsUnpickler error: Unsupported global: GLOBAL numpy._core.multiarray._reconstruct was not an allowed global by default. ... at line 41
root-cause: line 41
expect: DG011
"""
import os
import random
import tempfile

import numpy as np
import torch
import torch.nn as nn


class TinyLM(nn.Module):
    def __init__(self, vocab=100, dim=32):
        super().__init__()
        self.emb = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, ids):
        return self.head(self.emb(ids))


def save_checkpoint(output_dir, step, model, optimizer):
    ckpt_dir = os.path.join(output_dir, f"checkpoint-{step}")
    os.makedirs(ckpt_dir, exist_ok=True)
    torch.save(model.state_dict(), os.path.join(ckpt_dir, "pytorch_model.bin"))
    torch.save(optimizer.state_dict(), os.path.join(ckpt_dir, "optimizer.pt"))
    rng_states = {"python": random.getstate(), "numpy": np.random.get_state(), "cpu": torch.random.get_rng_state()}
    torch.save(rng_states, os.path.join(ckpt_dir, "rng_state.pth"))
    return ckpt_dir


def load_rng_state(checkpoint):
    rng_file = os.path.join(checkpoint, "rng_state.pth")
    if not os.path.isfile(rng_file):
        return
    checkpoint_rng_state = torch.load(rng_file)  # root-cause  # fails-here
    random.setstate(checkpoint_rng_state["python"])
    np.random.set_state(checkpoint_rng_state["numpy"])
    torch.random.set_rng_state(checkpoint_rng_state["cpu"])


def train(model, optimizer, steps, start=0, output_dir=None, save_steps=5):
    for step in range(start, steps):
        ids = torch.randint(0, 100, (4, 9))
        loss = nn.functional.cross_entropy(model(ids[:, :-1]).reshape(-1, 100), ids[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        if output_dir and (step + 1) % save_steps == 0:
            last = save_checkpoint(output_dir, step + 1, model, optimizer)
    return last


if __name__ == "__main__":
    output_dir = tempfile.mkdtemp()
    model = TinyLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    resume_from_checkpoint = train(model, optimizer, steps=10, output_dir=output_dir)

    # second run: --resume_from_checkpoint
    model = TinyLM()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-3)
    model.load_state_dict(torch.load(os.path.join(resume_from_checkpoint, "pytorch_model.bin")))
    optimizer.load_state_dict(torch.load(os.path.join(resume_from_checkpoint, "optimizer.pt")))
    load_rng_state(resume_from_checkpoint)
    train(model, optimizer, steps=15, start=10, output_dir=output_dir)
    print("resumed fine")
