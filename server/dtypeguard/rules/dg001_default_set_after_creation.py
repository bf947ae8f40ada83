"""DG001: a `set_default_*` call that runs after the things it was meant to change exist.

The default dtype/device is read when a tensor or module is created (H04); existing
parameters keep theirs. So the call's position in *execution* order is what matters.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

from dtypeguard.engine.call_effects import MATMUL
from dtypeguard.engine.events import SetDefault
from dtypeguard.engine.values import Tensor
from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity
from dtypeguard.rules.base import Context, Rule


def check(ctx: Context) -> Iterator[Finding]:
    ev = ctx.events
    if not ev.set_defaults:
        return
    uses: dict[int, list[int]] = {}
    for fw in ev.forwards:
        uses.setdefault(fw.oid, []).append(fw.time)
    for new in ev.optimizers:
        if new.opt.module is not None:
            uses.setdefault(new.opt.module, []).append(new.time)
    for sd in ev.set_defaults:
        # (a previous default not known, or what it is set to: no change to claim)
        changed_dtype = sd.dtype.value != sd.prev_dtype.value and None not in (sd.dtype.value, sd.prev_dtype.value)
        changed_device = sd.device.value != sd.prev_device.value and None not in (sd.device.value, sd.prev_device.value)
        if not (changed_dtype or changed_device):
            continue
        # the old default put back later (`finally: torch.set_default_dtype(previous)` once the new
        # model exists): a model made before is used with tensors of the new default only if it
        # runs before that
        restored = min((
            later.time for later in ev.set_defaults
            if later.time > sd.time and (not changed_dtype or later.dtype.value == sd.prev_dtype.value)
            and (not changed_device or later.device.value == sd.prev_device.value)
        ), default=None)
        stale = []
        made: list[int] = []
        for time, span, oid, module in ev.creations:
            if time >= sd.time:
                continue
            after = [u for u in uses.get(oid, ()) if u > sd.time]
            if not after or (restored is not None and min(after) > restored):
                continue
            for cast in ev.casts:
                if (cast.oid == oid or oid in cast.family) and time < cast.time < sd.time:
                    # moved or cast since, itself or as a part (`net.cuda()` just before): what it is now
                    module = replace(module, dtype=cast.after.dtype or module.dtype, device=cast.after.device or module.device)
            if (changed_dtype and module.dtype == sd.prev_dtype.value) or (changed_device and module.device == sd.prev_device.value):
                stale.append((span, module))
                made.append(time)
        if not stale or (changed_dtype and not changed_device and _restores(sd, ev.set_defaults, min(made))):
            continue
        span0, module0 = stale[0]
        what = []
        if changed_dtype:
            what.append(f"dtype {sd.dtype.value}")
        if changed_device:
            what.append(f"device {sd.device.value}")
        kept = module0.dtype if changed_dtype else module0.device
        fixes, note = _fixes(ctx, sd)
        yield RULE.finding(
            f"`{sd.call.removeprefix('torch.')}` runs after the model was built (line {span0.line}): "
            f"its parameters keep {kept}, only tensors created later get the new {' and '.join(what)}",
            sd.span,
            related=[Related(span, f"created here with the old default ({m.dtype if changed_dtype else m.device})") for span, m in stale[:5]],
            fixes=fixes,
            note=note,
        )


def _restores(sd: SetDefault, sets: list[SetDefault], first_made: int) -> bool:
    """`previous = torch.get_default_dtype()`, `set_default_dtype(torch.float64)`, build, then
    `finally: set_default_dtype(previous)` (deepmd's `get_model`, set 56): the call puts back the
    default an earlier one replaced, and every model it would leave "stale" was built under that
    earlier one, in the dtype the code chose for it on purpose."""
    return any(
        e.time < sd.time and e.time <= first_made and e.dtype.value == sd.prev_dtype.value and e.prev_dtype.value == sd.dtype.value
        for e in sets
    )


def _fixes(ctx: Context, sd: SetDefault) -> tuple[list[FixSpec], str]:
    """Move the call up when that is safe; otherwise say why, and (for a literal dtype) offer
    the setup block with that dtype instead, which leaves the late call a no-op."""
    from dtypeguard.engine import source  # ast only: no libcst while checking

    tree = ctx.tree
    top = ctx.memo("top-level", lambda: source.top_level_of(tree)) if tree is not None else None
    blocker = source.move_blocker(ctx.text, sd.span, top)
    if blocker is None:
        return [FixSpec("move_to_setup", "Move this call to the top, before anything is created", sd.span, True)], ""
    note = f"No quick fix moves this call: {blocker}."
    dtype = sd.dtype.value
    if sd.what == "dtype" and dtype in ("float32", "float64", "float16", "bfloat16"):
        fails = _fails_as_written(ctx, sd)
        title = (f"Set the default dtype to {dtype} in a setup block at the top (everything created before this call becomes {dtype} too"
                 + (f": the model built before it then takes the {dtype} tensors made after it, which fail there now)" if fails else ")"))
        return [FixSpec("insert_setup_block", title, sd.span, fails, (("dtype", dtype),))], note
    return [], note


def _fails_as_written(ctx: Context, sd: SetDefault) -> bool:
    """A model built under the old default dtype is later called with a floating tensor of the
    new one (made after this call): layers do not promote, so that forward raises as written.
    The setup block gives the model the dtype the script itself chose, so it cannot stop a run
    that worked: the fix is safe then."""
    new, old = sd.dtype.value, sd.prev_dtype.value
    if new is None or old is None or new == old or sd.device.value != sd.prev_device.value:
        return False
    for fw in ctx.events.forwards:
        if fw.time <= sd.time or fw.autocast or fw.module.dtype != old or fw.module.chosen_dtype or fw.module.input_kind != "float":
            continue
        if any(isinstance(v, Tensor) and v.kind == "tensor" and v.dtype == new for v in (*fw.inputs, *fw.kw_inputs)):
            return True
    for op in ctx.events.ops:  # `torch.matmul(power, self.fb)`: a new-dtype tensor meets an old-dtype one
        if op.time <= sd.time or op.autocast or op.name.rsplit(".", 1)[-1] not in MATMUL:
            continue
        dtypes = {v.dtype for v in op.inputs if isinstance(v, Tensor) and v.kind == "tensor"}
        if dtypes == {new, old}:
            return True
    return False


# parts of the explanation that the hover over `torch.set_default_dtype` repeats
_FACTS = {
    "order": "Calling it between building the model and creating the data is a common source of "
    "Double/Float mismatches",
}

RULE = Rule(
    code="DG001",
    name="default-set-after-creation",
    severity=Severity.WARNING,
    summary="set_default_dtype/device/tensor_type runs after a model already exists",
    explanation=(
        "`torch.set_default_dtype` and `torch.set_default_device` affect only tensors and modules "
        "created after the call; existing parameters keep their dtype and device. "
        f"{_FACTS['order']} "
        "(`mat1 and mat2 must have the same dtype, but got Double and Float`). Call it once at the "
        "very top, before any model or data is created, or convert explicitly instead. The quick "
        "fix moves the call up; it is not offered when the call depends on names defined in between."
    ),
    facts=_FACTS,
    hazards=("H04",),
    reported_at=(
        'the `set_default_dtype/device/tensor_type` call that runs after a model/tensor it would have '
        'affected already exists'
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\nimport torch.nn as nn\nclass Gain(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.gain = nn.Parameter(torch.ones(1, 4))\n    def forward(self, x):\n        return x * self.gain\nmodel = Gain()\ntorch.set_default_dtype(torch.float64)  # <-\nmodel(torch.randn(2, 4))\n",
            "import torch\nimport torch.nn as nn\nmodel = nn.Linear(3, 1)\ntorch.set_default_dtype(torch.float64)  # <-\nx = torch.randn(4, 3)\nmodel(x)\n",
            "import torch\nfrom torch import nn\n\ndef setup():\n    torch.set_default_dtype(torch.float64)  # <-\n\ndef main():\n    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU())\n    setup()\n    out = net(torch.zeros(2, 3))\n\nmain()\n",
        ],
        good=[
            "import torch\nimport torch.nn as nn\ntorch.set_default_dtype(torch.float64)\nmodel = nn.Linear(3, 1)\nx = torch.randn(4, 3)\nmodel(x)\n",
            "import torch\nimport torch.nn as nn\nmodel = nn.Linear(3, 1)\ntorch.set_default_dtype(torch.float32)\nmodel(torch.randn(4, 3))\n",
            "import torch\nfrom torch import nn\n\ndef setup():\n    torch.set_default_dtype(torch.float64)\n\ndef main():\n    setup()\n    net = nn.Linear(3, 4)\n    out = net(torch.zeros(2, 3))\n\nmain()\n",
        ],
    ),
)
