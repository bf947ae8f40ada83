"""Run scripts as `__main__` up to their first optimizer step, one JSON line per script.

Used by test_fixed_samples_run.py: torch is imported once for all scripts (the import is most
of the cost), and each script stops right after its first `optimizer.step()`, where the loss
that was backpropagated and the updated parameters must be finite. It also records what a
silent hazard leaves behind: the loss's dtype, the share of parameters the step changed, and
calls of the deprecated `set_default_tensor_type`.
"""

from __future__ import annotations

import json
import math
import os
import runpy
import sys
import traceback

import torch
from torch.optim.optimizer import (
    register_optimizer_step_post_hook,
    register_optimizer_step_pre_hook,
)


class Stepped(BaseException):
    """Raised from the step hook; a BaseException so a script's `except Exception` lets it by."""


last_loss: list[tuple[float, str]] = []
_backward = torch.Tensor.backward


def _recording_backward(self: torch.Tensor, *args: object, **kwargs: object) -> None:
    if self.numel() == 1:
        # a loss on the meta device (the sets' stand-in for CUDA) has no value: 0.0 stands for
        # "no number to check", as the step on meta parameters changes none that can be read
        value = 0.0 if self.is_meta else float(self.detach().float().item())
        last_loss.append((value, str(self.dtype).removeprefix("torch.")))
    _backward(self, *args, **kwargs)  # type: ignore[arg-type]


legacy_calls: list[object] = []  # a silent symptom of its own: the deprecated API was still called
_set_default_tensor_type = torch.set_default_tensor_type


def _recording_set_default_tensor_type(t: object) -> None:
    legacy_calls.append(t)
    _set_default_tensor_type(t)  # type: ignore[arg-type]


before_step: list[tuple[torch.Tensor, torch.Tensor]] = []


def _before_step(optimizer: torch.optim.Optimizer, args: object, kwargs: object) -> None:
    before_step[:] = [(p, p.detach().clone()) for group in optimizer.param_groups for p in group["params"] if p.grad is not None and not p.is_meta]


def _after_step(optimizer: torch.optim.Optimizer, args: object, kwargs: object) -> None:
    finite = all(bool(torch.isfinite(p).all()) for group in optimizer.param_groups for p in group["params"] if not p.is_meta)
    total = sum(old.numel() for _, old in before_step)
    changed = sum(int((p.detach() != old).sum()) for p, old in before_step)
    dtypes = sorted({str(p.dtype).removeprefix("torch.") for p, _ in before_step})
    raise Stepped(finite, changed / total if total else None, dtypes)


torch.Tensor.backward = _recording_backward  # type: ignore[method-assign]
torch.set_default_tensor_type = _recording_set_default_tensor_type
register_optimizer_step_pre_hook(_before_step)
register_optimizer_step_post_hook(_after_step)

for path in sys.argv[1:]:
    torch.set_default_dtype(torch.float32)
    torch.set_default_device(None)
    last_loss.clear()
    legacy_calls.clear()
    before_step.clear()
    os.chdir(os.path.dirname(path))
    sys.argv = [path]
    record: dict[str, object] = {"path": path}
    try:
        runpy.run_path(path, run_name="__main__")
        record.update(status="no_step")
    except Stepped as stepped:
        loss, loss_dtype = last_loss[-1] if last_loss else (None, None)
        record.update(status="stepped", loss=loss, params_finite=stepped.args[0], loss_finite=loss is not None and math.isfinite(loss),
                      changed_share=stepped.args[1], param_dtypes=stepped.args[2], loss_dtype=loss_dtype)
    except BaseException as exc:
        record.update(status="error", error=f"{type(exc).__name__}: {exc}", trace=traceback.format_exc()[-800:])
    record["legacy_default_calls"] = len(legacy_calls)
    print(json.dumps(record), flush=True)
