"""The speculators-style draft-model resume of bf05 (vllm-project/speculators PR #899) with the PR's fix: the optimizer state dict is saved and loaded without a dtype cast (Optimizer.load_state_dict aligns the moments with the fp32 parameters and leaves step alone), so the resumed run's step counter and moments match the uninterrupted run; the model weights are still saved as bf16 and cast back to model.dtype on load, as in the project
source: https://github.com/vllm-project/speculators/pull/899
reported-error: (none filed; the fixed situation of bf05)
outcome: ok
root-cause: -
expect: none
"""
import os
import tempfile
from pathlib import Path

import torch
import torch.nn as nn
import torch.utils._pytree as pytree

WORK = Path(tempfile.mkdtemp())
TOTAL_STEPS, INTERRUPT_AT = 1100, 1001


class DraftModel(nn.Module):
    """EAGLE-3-like draft head: fuses verifier hidden states and predicts the next token."""

    def __init__(self, hidden=32, vocab=64):
        super().__init__()
        self.fc = nn.Linear(3 * hidden, hidden)
        self.layer = nn.Sequential(nn.LayerNorm(hidden), nn.Linear(hidden, hidden), nn.SiLU())
        self.lm_head = nn.Linear(hidden, vocab)

    @property
    def dtype(self):
        return next(self.parameters()).dtype

    def forward(self, hidden_states):
        return self.lm_head(self.layer(self.fc(hidden_states)))


def convert_float_dtype(sd, dtype):
    def convert_fn(x):
        if isinstance(x, torch.Tensor) and x.is_floating_point():
            return x.to(dtype)
        return x

    return pytree.tree_map(convert_fn, sd)


class SingleGPUCheckpointer:
    def __init__(self, path):
        self.path = Path(path)
        self.previous_epoch = None

    def model_path(self, epoch):
        return self.path / str(epoch) / "model.pt"

    def optimizer_path(self, epoch):
        return self.path / str(epoch) / "optimizer_state_dict.pt"

    def load_model_state_dict(self, model, float_dtype=None):
        full_state_dict = torch.load(self.model_path(self.previous_epoch), weights_only=True, map_location="cpu")
        full_state_dict = convert_float_dtype(full_state_dict, float_dtype or model.dtype)
        model.load_state_dict(full_state_dict, strict=False)

    def load_optimizer_state_dict(self, model, optimizer, float_dtype=None):
        loaded = torch.load(self.optimizer_path(self.previous_epoch), weights_only=True, map_location="cpu")
        optimizer.load_state_dict(loaded)

    def save_checkpoint(self, model, optimizer, epoch, float_dtype=torch.bfloat16):
        os.makedirs(self.path / str(epoch), exist_ok=True)
        model_state_dict = convert_float_dtype(model.state_dict(), float_dtype)
        torch.save(model_state_dict, self.model_path(epoch))
        state_dict = optimizer.state_dict()
        torch.save(state_dict, self.optimizer_path(epoch))
        self.previous_epoch = epoch


def batch_for(step):
    g = torch.Generator().manual_seed(step)
    hidden = torch.randn(16, 3 * 32, generator=g)
    target = (hidden[:, :32].sum(-1) * 7).long().remainder(64)
    return hidden, target


def run(model, optimizer, start, stop):
    for step in range(start, stop):
        hidden, target = batch_for(step)
        loss = nn.functional.cross_entropy(model(hidden), target)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


def fresh():
    torch.manual_seed(0)
    model = DraftModel()
    return model, torch.optim.AdamW(model.parameters(), lr=3e-4)


# uninterrupted reference run
ref_model, ref_opt = fresh()
ref_loss = run(ref_model, ref_opt, 0, TOTAL_STEPS)

# the same run, preempted after INTERRUPT_AT steps and resumed from its checkpoint
model, optimizer = fresh()
run(model, optimizer, 0, INTERRUPT_AT)
checkpointer = SingleGPUCheckpointer(WORK / "checkpoints")
checkpointer.save_checkpoint(model, optimizer, epoch="interrupted")

model, optimizer = fresh()
checkpointer.load_model_state_dict(model)
checkpointer.load_optimizer_state_dict(model, optimizer)
resumed_step = int(optimizer.state_dict()["state"][0]["step"].item())
loss = run(model, optimizer, INTERRUPT_AT, TOTAL_STEPS)

ref_step = int(ref_opt.state_dict()["state"][0]["step"].item())
final_step = int(optimizer.state_dict()["state"][0]["step"].item())
print(f"after resume the optimizer step counter is {resumed_step} (saved at {INTERRUPT_AT})")
print(f"resumed optimizer step {final_step}, uninterrupted {ref_step}")
assert final_step == ref_step and resumed_step == INTERRUPT_AT
print(f"final loss resumed {loss:.4f} vs uninterrupted {ref_loss:.4f}")
