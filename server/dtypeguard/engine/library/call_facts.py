"""What a library call really does, in the words a hover shows over it (torch 2.13).

The library tables next to this module say what a call returns, for the interpreter; this one
says, for a person, what the call is known to do wrong (the "Hover:" lines of shared
`docs/hazards.md`). Keyed by qualified name, as the engine reports calls (`Facts.calls`).

A fact about a call that a rule also states is the rule's: the text refers to it as
`{DG017.leak}` (the rule's `facts["leak"]`, a part of its explanation, in its module) instead of
copying it, and the hover puts the rule's words there. `rules` are the rules about the call;
the hover names them after the text. This module is engine data, below the rules layer, so it
names rules by code only; tests/engine/test_call_facts.py checks every reference against the
registry.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CallFact:
    text: str  # what the call does; `{DG001.order}` stands for that rule's fact of that name
    rules: tuple[str, ...] = ()  # the rules about this call, named after the text: "(DG010, DG011)"


CALL_FACTS: dict[str, CallFact] = {
    "torch.set_default_tensor_type": CallFact("{DG002.deprecated}", ("DG002",)),
    "torch.set_default_dtype": CallFact(
        "`torch.set_default_dtype` affects only tensors and modules created after the call; existing "
        "parameters keep their dtype. {DG001.order}.",
        ("DG001",),
    ),
    "torch.set_default_device": CallFact(
        "`torch.set_default_device` only redirects torch factory calls (zeros, randn, tensor, ...) made in "
        "the current thread (and in fork-started DataLoader workers), and it adds per-call overhead to every "
        "torch function. `torch.from_numpy`, the legacy `torch.Tensor(...)` constructor, `torch.Generator()` "
        "and tensors built in other threads stay on the CPU, so data must still be moved with `.to(device)`. "
        "Under a CUDA default device, {DG003.shuffle}.",
        ("DG001", "DG003"),
    ),
    "torch.from_numpy": CallFact(
        "`torch.from_numpy` shares the array's memory and keeps its dtype: NumPy's default float64 stays "
        "float64 whatever the default dtype, and the tensor is always on the CPU whatever the default "
        "device. Convert with `.float()` before a float32 model.",
        ("DG004",),
    ),
    "torch.tensor": CallFact(
        "Only Python floats and dtype-less torch factories follow `torch.get_default_dtype()`. NumPy arrays "
        "and NumPy scalars keep their own dtype (usually float64), and integer lists give int64. Pass "
        "`dtype=torch.float32` to be explicit."
    ),
    "torch.as_tensor": CallFact(
        "`torch.as_tensor` keeps a NumPy array's dtype (usually float64) and avoids a copy when it can. "
        "Pass `dtype=torch.float32` to convert where the data enters PyTorch."
    ),
    "torch.load": CallFact(
        "{DG010.device_tag}: on a machine without CUDA, pass "
        "`map_location='cpu'` (or `map_location=device`). Since PyTorch 2.6 `torch.load` defaults to "
        "`weights_only=True` and refuses pickled objects other than tensors and basic containers.",
        ("DG010", "DG011"),
    ),
    "torch.utils.data.DataLoader": CallFact(
        "DataLoader batches are built on the CPU (NumPy arrays keep their dtype; Python floats become "
        "float64 tensors): move them with `.to(device)`. With a global CUDA default device, "
        "{DG003.shuffle}.",
        ("DG003", "DG009"),
    ),
    "torch.amp.GradScaler": CallFact(
        "{DG014.fp16_grads} Use `torch.autocast` for fp16 compute instead.",
        ("DG014",),
    ),
    "torch.autocast": CallFact(
        "{DG017.scope} {DG017.leak}; computing the loss outside autocast is fine.",
        ("DG017",),
    ),
}
CALL_FACTS["torch.cuda.amp.GradScaler"] = CALL_FACTS["torch.amp.GradScaler"]
CALL_FACTS["torch.utils.data.dataloader.DataLoader"] = CALL_FACTS["torch.utils.data.DataLoader"]

# any `torch.optim.<Class>(...)` (hover.py decides which calls that is)
OPTIMIZER_FACT = CallFact(
    "{DG015.order}. Over float16 parameters, Adam's default {DG012.eps}. Over bfloat16 parameters, "
    "{DG013.stall}.",
    ("DG012", "DG013", "DG015"),
)
