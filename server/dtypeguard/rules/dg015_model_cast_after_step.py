"""DG015: the model's dtype changes after its optimizer already has state (H16).

Creating the optimizer before `.to()` is fine in current PyTorch (parameters are the same
objects); converting after a `step()` leaves Adam's state in the old dtype.
"""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.engine.events import ModuleCast
from dtypeguard.findings import Finding, Related, RuleExamples, Severity
from dtypeguard.rules.base import Context, ErrorPattern, Rule, fails_here


def check(ctx: Context) -> Iterator[Finding]:
    seen = set()
    for cast in ctx.events.casts:
        if cast.stepped_optimizers and cast.before.device == "cpu" and cast.after.device in ("cuda", "auto", "meta") and cast.span not in seen:
            finding = _moved_after_state(ctx, cast)
            if finding is not None:
                seen.add(cast.span)
                yield finding
                continue
        stepped = [o for o in cast.stepped_optimizers if o.stepped]  # (a state made at construction: its dtype is not claimed)
        if not stepped or cast.before.dtype is None or cast.after.dtype in (None, cast.before.dtype):
            continue
        if cast.span in seen:
            continue
        seen.add(cast.span)
        opt = stepped[0]
        stateful = opt.cls not in ("SGD",) or "momentum" in opt.options
        if not stateful:
            continue
        if not any(step.opt.origin.span == opt.origin.span and step.time > cast.time for step in ctx.events.steps):
            continue  # no step after the conversion: the state is never used with the new dtype
        had = f"loaded its state ({opt.step_span.line_ref()})" if opt.state_loaded and opt.step_span else "already stepped"
        where = "the optimizer's state was loaded here, in the parameters' dtype of that moment" if opt.state_loaded else "the optimizer stepped here"
        yield RULE.finding(
            f"the model is converted from {cast.before.dtype} to {cast.after.dtype} after {opt.cls} {had}: "
            f"its state stays {cast.before.dtype} and the next `step()` fails with a dtype mismatch",
            cast.span,
            related=[Related(opt.step_span, where)] if opt.step_span else [],
            note="Convert the model before training starts, or re-create the optimizer (or reload its state_dict) after the conversion.",
        )


def _moved_after_state(ctx: Context, cast: ModuleCast) -> Finding | None:
    """`optimizer.load_state_dict(ckpt["optimizer"])` while the model is on the CPU, then
    `model.to(device)`: the state was placed on the parameters' device as it loaded (the CPU)
    and stays there, so the next CUDA `step()` mixes devices (IAGNet #4)."""
    opt = cast.stepped_optimizers[0]
    stateful = opt.cls not in ("SGD",) or "momentum" in opt.options
    if opt.state_device != "cpu":
        return None  # its state was made on the device the model goes back to (`.cpu()` to save, then `.to(device)`)
    later = [s for s in ctx.events.steps if s.opt.origin.span == opt.origin.span and s.time > cast.time and s.opt.state_device == "cpu"]
    if not stateful or not later:
        return None  # no step after the move with the state still on the CPU (none, or reloaded after the move)
    on = "CUDA" if cast.after.device == "cuda" else "CUDA (when this script finds a GPU)" if cast.after.device == "auto" else cast.after.device
    if opt.init_state and not opt.stepped:
        # Adagrad makes its state in its constructor (hippynn #15): built over the model while it
        # is on the CPU, its state stays there; the fix is where it is built, after the move
        error = "Expected all tensors to be on the same device"
        return RULE.finding(
            f"{opt.cls} makes its state in its constructor, on the device its parameters are on now (the CPU); the model is "
            f"moved to {on} at {cast.span.line_ref()} and the next `step()` fails with \"{error}\": create the optimizer after the move",
            opt.origin.span,
            related=[*fails_here(opt.origin.span, later[0].span, error),
                     Related(cast.span, f"the model is moved to {on} here, after the optimizer was built")],
            note="Move the model to its device before creating the optimizer (or reload the optimizer's state_dict after the move).",
            severity=Severity.WARNING if cast.after.device == "auto" else None,
        )
    had = f"loaded its state ({opt.step_span.line_ref()})" if opt.state_loaded and opt.step_span else "already stepped"
    where = "the optimizer's state was loaded here, on the parameters' device of that moment (the CPU)" if opt.state_loaded else "the optimizer stepped here, on the CPU"
    return RULE.finding(
        f"the model is moved to {on} after {opt.cls} {had}: its state stays on the CPU and the next `step()` fails with "
        "\"Expected all tensors to be on the same device\"",
        cast.span,
        related=[Related(opt.step_span, where)] if opt.step_span else [],
        note="Move the model to its device before loading the optimizer's state_dict (or before creating the optimizer).",
        severity=Severity.WARNING if cast.after.device == "auto" else None,
    )


# the part of the explanation that the hover over an optimizer's creation repeats
_FACTS = {
    "order": "In current PyTorch, `model.to()`/`.double()` keeps the same Parameter objects, so an "
    "optimizer created earlier still works. But once the optimizer has state (after a "
    "`step()`), changing the model's dtype makes the next `step()` fail",
}

RULE = Rule(
    code="DG015",
    name="model-cast-after-optimizer-step",
    severity=Severity.ERROR,
    summary="model converted to another dtype (or moved to the GPU) after the optimizer has state",
    explanation=(
        f"{_FACTS['order']} (Adam: \"expected dtype "
        "float for `end` but got dtype double\" after `.double()`). Create the optimizer after the model is on its "
        "final device and dtype, and never cast the model after training has started. Likewise, "
        "`optimizer.load_state_dict(...)` places the state on the parameters' device of that moment: "
        "a model moved to CUDA afterwards leaves Adam's state on the CPU, and the next `step()` fails "
        "with \"Expected all tensors to be on the same device\" (move the model before resuming)."
    ),
    facts=_FACTS,
    hazards=("H16",),
    reported_at='the `model.double()/.half()/.to(dtype)` call executed after the optimizer already stepped',
    errors=(
        ErrorPattern(
            r"expected dtype \w+ for `end` but got dtype \w+",
            "expected dtype double for `end` but got dtype float",
            "hazards.md H16",
        ),
    ),
    hint=(
        "the model's dtype changed after the optimizer already had state; create the optimizer "
        "after the final .to()/.double(), or recreate it (or reload its state_dict); when resuming, "
        "move the model to its device before optimizer.load_state_dict."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters())\nopt.step()\nmodel.double()  # <-\nopt.step()\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters())\nckpt = torch.load('last.pt')\n"
            "opt.load_state_dict(ckpt['optimizer'])\nmodel.cuda()  # <-\nopt.step()\n",
            "import torch\nimport torch.nn as nn\nmodel = nn.Linear(3, 1)\nopt = torch.optim.Adagrad(model.parameters())  # <-\nmodel.to('cuda')\nmodel(torch.randn(2, 3).cuda()).sum().backward()\nopt.step()\n",
        ],
        good=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters())\nmodel.double()\nopt.step()\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters())\nopt.step()\nmodel.to('cpu')\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).cuda()\nopt = torch.optim.Adam(model.parameters())\nckpt = torch.load('last.pt')\n"
            "opt.load_state_dict(ckpt['optimizer'])\nopt.step()\n",
            "import torch\nimport torch.nn as nn\nmodel = nn.Linear(3, 1)\nopt = torch.optim.Adam(model.parameters())\nmodel.to('cuda')\nmodel(torch.randn(2, 3).cuda()).sum().backward()\nopt.step()\n",
        ],
    ),
)
