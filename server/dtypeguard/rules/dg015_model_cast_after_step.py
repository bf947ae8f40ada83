"""DG015: the model's dtype changes after its optimizer already has state (H16).

Creating the optimizer before `.to()` is fine in current PyTorch (parameters are the same
objects); converting after a `step()` leaves Adam's state in the old dtype.
"""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.findings import Finding, Related, RuleExamples, Severity
from dtypeguard.rules.base import Context, ErrorPattern, Rule


def check(ctx: Context) -> Iterator[Finding]:
    seen = set()
    for cast in ctx.events.casts:
        if not cast.stepped_optimizers or cast.before.dtype is None or cast.after.dtype in (None, cast.before.dtype):
            continue
        if cast.span in seen:
            continue
        seen.add(cast.span)
        opt = cast.stepped_optimizers[0]
        stateful = opt.cls not in ("SGD",) or "momentum" in opt.options
        if not stateful:
            continue
        if not any(step.opt.origin.span == opt.origin.span and step.time > cast.time for step in ctx.events.steps):
            continue  # no step after the conversion: the state is never used with the new dtype
        had = f"loaded its state (line {opt.step_span.line})" if opt.state_loaded and opt.step_span else "already stepped"
        where = "the optimizer's state was loaded here, in the parameters' dtype of that moment" if opt.state_loaded else "the optimizer stepped here"
        yield RULE.finding(
            f"the model is converted from {cast.before.dtype} to {cast.after.dtype} after {opt.cls} {had}: "
            f"its state stays {cast.before.dtype} and the next `step()` fails with a dtype mismatch",
            cast.span,
            related=[Related(opt.step_span, where)] if opt.step_span else [],
            note="Convert the model before training starts, or re-create the optimizer (or reload its state_dict) after the conversion.",
        )


RULE = Rule(
    code="DG015",
    name="model-cast-after-optimizer-step",
    severity=Severity.ERROR,
    summary="model converted to another dtype after the optimizer stepped",
    explanation=(
        "In current PyTorch, `model.to()`/`.double()` keeps the same Parameter objects, so an "
        "optimizer created earlier still works. But once the optimizer has state (after a "
        "`step()`), changing the model's dtype makes the next `step()` fail (Adam: \"expected dtype "
        "float for `end` but got dtype double\" after `.double()`). Create the optimizer after the model is on its "
        "final device and dtype, and never cast the model after training has started."
    ),
    hazards=("H16",),
    errors=(
        ErrorPattern(
            r"expected dtype \w+ for `end` but got dtype \w+",
            "expected dtype double for `end` but got dtype float",
            "hazards.md H16",
        ),
    ),
    hint=(
        "the model's dtype changed after the optimizer already had state; create the optimizer "
        "after the final .to()/.double(), or recreate it (or reload its state_dict)."
    ),
    check=check,
    examples=RuleExamples(
        bad=["import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters())\nopt.step()\nmodel.double()  # <-\nopt.step()\n"],
        good=[
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters())\nmodel.double()\nopt.step()\n",
            "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1)\nopt = torch.optim.Adam(model.parameters())\nopt.step()\nmodel.to('cpu')\n",
        ],
    ),
)
