"""Which static rule a runtime error belongs to: a table of real PyTorch 2.13 messages.

When a verified script fails with an error that a rule describes, the user should get the
rule's explanation and quick fix, not only the traceback. The table is data: one row per
message shape, first match wins, so more specific rows (integer dtypes, autocast, BCE) come
before the general ones. Messages are the ones recorded in shared `docs/hazards.md`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

RULE_NAMES: dict[str, str] = {
    "DG002": "deprecated-set-default-tensor-type",
    "DG003": "cuda-default-breaks-shuffle",
    "DG004": "input-dtype-mismatch",
    "DG005": "integer-input-to-float-layer",
    "DG006": "class-target-dtype",
    "DG007": "bce-target-dtype",
    "DG009": "device-mismatch",
    "DG010": "torch-load-without-map-location",
    "DG011": "torch-load-weights-only",
    "DG012": "adam-fp16-eps-underflow",
    "DG013": "adam-bf16-stalled-updates",
    "DG014": "gradscaler-fp16-params",
    "DG015": "model-cast-after-optimizer-step",
    "DG016": "optimizer-flag-conflict",
    "DG017": "autocast-output-leaks",
}

HINTS: dict[str, str] = {
    "DG002": "set_default_tensor_type is deprecated since PyTorch 2.1 and a CUDA tensor type "
    "fails on a CPU-only install; use torch.set_default_dtype / torch.set_default_device, or "
    "better, move tensors with .to(device).",
    "DG003": "a global CUDA default device makes RandomSampler's randperm allocate on CUDA while "
    "its torch.Generator() stays on the CPU; keep the default on the CPU and move batches "
    "with .to(device), or pass generator=torch.Generator(device='cuda').",
    "DG004": "the input's floating dtype differs from the layer's parameters (NumPy arrays are "
    "float64, nn layers float32) and layers do not promote; convert the input with .float() "
    "(or x.to(next(model.parameters()).dtype)) where the data enters PyTorch.",
    "DG005": "an integer tensor went into a float layer; convert features with .float() "
    "(embedding indices are the opposite: they must be .long()).",
    "DG006": "class-index targets for CrossEntropyLoss/NLLLoss must be int64 (or uint8) of "
    "shape (N,); use target.long().",
    "DG007": "BCELoss needs a float target with the predictions' dtype and shape; use "
    "target.float().view_as(output).",
    "DG009": "every tensor in one op must be on the same device; move each batch and target "
    "with .to(device) matching next(model.parameters()).device.",
    "DG010": "the checkpoint holds CUDA tensors; load it with torch.load(path, "
    "map_location='cpu') (or map_location=device), then move the model.",
    "DG011": "torch.load defaults to weights_only=True since 2.6 and refuses pickled objects; "
    "allowlist the class with torch.serialization.add_safe_globals([...]), pass "
    "weights_only=False only for files you trust, or save state_dicts and plain numbers.",
    "DG012": "with float16 parameters Adam's eps=1e-8 rounds to 0 and small squared gradients "
    "underflow, so m/(sqrt(v)+eps) becomes inf/NaN; keep float32 parameters with "
    "torch.autocast, or use fused=True or eps=1e-4.",
    "DG013": "bfloat16 keeps 8 mantissa bits, so lr-sized updates to weights near 1.0 round "
    "away and training silently stalls; keep float32 parameters and use "
    "torch.autocast(dtype=torch.bfloat16) for the compute.",
    "DG014": "GradScaler needs float32 master parameters; do not .half() the model, use "
    "torch.autocast(..., dtype=torch.float16) for the forward.",
    "DG015": "the model's dtype changed after the optimizer already had state; create the "
    "optimizer after the final .to()/.double(), or recreate it (or reload its state_dict).",
    "DG016": "fused=True cannot be combined with foreach=True or differentiable=True, and "
    "capturable=True is for CUDA graphs only (it fails on CPU parameters).",
    "DG017": "a bfloat16/float16 activation produced inside torch.autocast reached a float32 "
    "layer outside it; run the whole forward inside autocast, or .float() the activation.",
}

_INT = r"(?:Long|Int|Short|Char|Byte|Bool)"
_INT_C = r"(?:long int|int|short int|signed char|bool)"


@dataclass(frozen=True)
class ErrorPattern:
    """One message shape. `code` None means: no rule, but the hint still helps."""

    code: str | None
    regex: str
    error_types: tuple[str, ...] = ()  # empty: any exception type
    source_contains: str | None = None  # the row applies only if the script's text has this
    traceback_contains: str | None = None  # ... or its traceback has this
    hint: str | None = None  # overrides HINTS[code]


PATTERNS: tuple[ErrorPattern, ...] = (
    # DG016: optimizer flags (construction or first step)
    ErrorPattern("DG016", r"`fused` and `foreach` cannot be `True` together"),
    ErrorPattern("DG016", r"`fused` does not support `differentiable`"),
    ErrorPattern("DG016", r"If capturable=True, params and state_steps must be on supported devices"),
    ErrorPattern("DG016", r"`fused=True` requires all the params to be floating point"),
    # DG015: Adam state kept the old dtype after a model cast
    ErrorPattern("DG015", r"expected dtype \w+ for `end` but got dtype \w+"),
    # DG014: GradScaler over fp16 parameters
    ErrorPattern("DG014", r"Attempting to unscale FP16 gradients"),
    # DG010 / DG011: torch.load
    ErrorPattern("DG010", r"Attempting to deserialize object on a CUDA device"),
    ErrorPattern("DG011", r"Weights only load failed"),
    # DG003: CUDA default device + shuffle
    ErrorPattern("DG003", r"Expected a 'cuda' device type for generator but found 'cpu'"),
    # DG009: devices
    ErrorPattern("DG009", r"Expected all tensors to be on the same device"),
    ErrorPattern("DG009", r"Tensor on device \S+ is not on the expected device"),
    ErrorPattern("DG009", r"Input type \(torch\.cuda\.\w+\) and weight type \(torch\.(?!cuda\.)\w+\)"),
    ErrorPattern("DG009", r"Input type \(torch\.(?!cuda\.)\w+\) and weight type \(torch\.cuda\.\w+\)"),
    # DG002: a CUDA default tensor type on a CPU-only build
    ErrorPattern("DG002", r"type torch\.cuda\.\w+ not available"),
    # DG006 / DG007: loss targets
    ErrorPattern("DG006", r"expected target dtype to be Long or Byte"),
    # a one-hot (N, C) integer target: CrossEntropyLoss reads a target shaped like the logits as
    # class probabilities, which must be float (typical of an eval helper after training)
    ErrorPattern(
        "DG006", r"Expected floating point type for target with class probabilities",
        hint="the target has the logits' shape, so CrossEntropyLoss reads it as class "
        "probabilities, which must be float; pass class indices (target.argmax(1), int64 of shape "
        "(N,)) or a float one-hot (target.float()).",
    ),
    ErrorPattern("DG006", r"argument 'target' \(position 2\) must be Tensor, not int", traceback_contains="cross_entropy"),
    ErrorPattern("DG006", r"argument 'target' \(position 2\) must be Tensor, not int", traceback_contains="nll_loss"),
    ErrorPattern("DG007", r"Found dtype \w+ but expected Float"),
    ErrorPattern(
        "DG007",
        r"result type Float can't be cast to the desired output type Long",
        traceback_contains="binary_cross_entropy",
    ),
    # DG005: integer data into float layers (before the general DG004 rows)
    ErrorPattern("DG005", rf"must have the same dtype, but got {_INT} and \w+"),
    ErrorPattern("DG005", rf"expected m1 and m2 to have the same dtype, but got: {_INT_C} !="),
    ErrorPattern("DG005", rf"expected scalar type {_INT} but found"),
    ErrorPattern("DG005", rf"Input type \({_INT_C}\) and bias type"),
    ErrorPattern("DG005", r"Expected tensor for argument #1 'indices' to have one of the following scalar types"),
    # DG017: a low-precision activation that left autocast (only when the script uses autocast)
    ErrorPattern(
        "DG017", r"must have the same dtype, but got (?:BFloat16|Half) and Float", source_contains="autocast"
    ),
    ErrorPattern(
        "DG017",
        r"Input type \((?:c10::BFloat16|c10::Half|BFloat16|Half)\) and bias type \(float\)",
        source_contains="autocast",
    ),
    # DG004: floating dtype mismatches, in all the wordings 2.13 uses
    ErrorPattern("DG004", r"must have the same dtype, but got \w+ and \w+"),
    ErrorPattern("DG004", r"expected m1 and m2 to have the same dtype"),
    ErrorPattern("DG004", r"Input type \([^)]*\) and bias type \([^)]*\) should be the same"),
    ErrorPattern("DG004", r"expected scalar type \w+ but found \w+"),
    ErrorPattern("DG004", r"Input type \(torch\.[\w.]+\) and weight type \(torch\.[\w.]+\) should be the same"),
    ErrorPattern("DG004", r"mixed dtype \(CPU\)"),
    ErrorPattern("DG004", r"RNN input dtype \(\S+\) does not match weight dtype", ("ValueError",)),
    ErrorPattern("DG004", r"prelu: Type promoting not supported"),
    ErrorPattern("DG004", r"dot : expected both vectors to have same dtype"),
    # no rule, but a clear reason: CUDA-only code run with --device cpu
    ErrorPattern(
        None,
        r"Torch not compiled with CUDA enabled|No CUDA GPUs are available|Found no NVIDIA driver",
        hint="the script uses CUDA unconditionally; pick the device with "
        "torch.device('cuda' if torch.cuda.is_available() else 'cpu') and move tensors with "
        ".to(device), or verify with --device cuda on a GPU machine.",
    ),
)


@dataclass(frozen=True)
class Explanation:
    """The rule (if any) an error belongs to, and what to do about it."""

    code: str | None
    name: str | None
    hint: str

    def text(self) -> str:
        if self.code is None:
            return self.hint
        return f"this is {self.code} ({self.name}): {self.hint}"


_COMPILED: tuple[tuple[ErrorPattern, re.Pattern[str]], ...] = tuple(
    (row, re.compile(row.regex)) for row in PATTERNS
)


def explain(
    error_type: str | None,
    message: str | None,
    traceback: str | None = None,
    source: str | None = None,
) -> Explanation | None:
    """The first table row whose conditions all hold, as an Explanation."""
    if not message:
        return None
    for row, regex in _COMPILED:
        if row.error_types and error_type not in row.error_types:
            continue
        if row.source_contains is not None and row.source_contains not in (source or ""):
            continue
        if row.traceback_contains is not None and row.traceback_contains not in (traceback or ""):
            continue
        if regex.search(message):
            hint = row.hint or (HINTS.get(row.code, "") if row.code else "")
            name = RULE_NAMES.get(row.code) if row.code else None
            return Explanation(row.code, name, hint)
    return None
