"""DG008: a float64 target silently promotes a regression loss to float64 (H08).

No error in current PyTorch (older releases failed at backward), so this is information: it
usually means the data pipeline produces float64 somewhere.
"""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.engine.library.vocabulary import FLOAT64_TARGET_FAILS_BACKWARD
from dtypeguard.engine.values import Tensor
from dtypeguard.findings import Finding, Related, RuleExamples, Severity, Span
from dtypeguard.rules.base import Context, Rule, buffer_fix, convert_fix, dtype_root, tensor


def check(ctx: Context) -> Iterator[Finding]:
    for loss in ctx.events.losses:
        target, output = tensor(loss.target), tensor(loss.output)
        if loss.kind == "regression" and _swapped(target, output):
            yield _swapped_finding(ctx, loss.span, loss.name, output)  # type: ignore[arg-type]
            continue
        if target is None or output is None or output.dtype != "float32" or target.dtype != "float64":
            continue
        if loss.kind == "class":
            # cross-entropy reads a target of the input's rank as class probabilities; float64
            # ones promote the loss like a regression target does (NLLLoss refuses them)
            if "nll" in loss.name.lower() or target.ndim is None or target.ndim != output.ndim:
                continue
            what = "these class probabilities are"
        elif loss.kind == "regression":
            what = "this target is"
        else:
            continue
        related = [Related(target.origin.span, f"the target becomes float64 here: {target.origin.why}")] if target.origin else []
        root = dtype_root(target, loss.span, prefer_cast=True, float_data=True)
        fixes = [*convert_fix(ctx, target, loss.target_span, "float32", "matches the predictions"), *buffer_fix(ctx, target, "matches the predictions")]
        if _fails_backward(loss.name):
            yield RULE.finding(
                f"{what} float64 while the predictions are float32: {loss.name} at {loss.span.line_ref()} keeps float32, and "
                f"`backward()` through it fails with \"{BACKWARD_ERROR}\"",
                root,
                related=[Related(loss.span, f"the loss whose backward fails: {BACKWARD_ERROR}"), *related] if root != loss.span else related,
                fixes=fixes,
                severity=Severity.ERROR,
            )
            continue
        yield RULE.finding(
            f"{what} float64 while the predictions are float32: {loss.name} at {loss.span.line_ref()} silently computes in float64 "
            "(no error in current PyTorch, but the data pipeline is producing float64)",
            root,
            related=[Related(loss.span, "the loss is computed in float64 here"), *related] if root != loss.span else related,
            fixes=fixes,
        )


BACKWARD_ERROR = "Found dtype Double but expected Float"


def _fails_backward(name: str) -> bool:
    """HuberLoss: a float64 target is not promoted, and the backward refuses it (conformance test)."""
    return name.removeprefix("F.") in FLOAT64_TARGET_FAILS_BACKWARD


def _swapped(target: Tensor | None, output: Tensor | None) -> bool:
    """`loss(q_target, q_pred)`: the arguments the other way round (the DQN tutorials' order),
    float64 data first, the model's float32 output second. Regression losses are symmetric in
    how they promote; only data made into a tensor (`site`: `torch.tensor(rewards)`) counts,
    not a float64 model's output (the model's cast is another rule's)."""
    return (
        target is not None and output is not None and target.dtype == "float32" and output.dtype == "float64"
        and output.site is not None and target.site is None
    )


def _swapped_finding(ctx: Context, at: Span, name: str, data: Tensor) -> Finding:
    related = [Related(data.origin.span, f"these values become float64 here: {data.origin.why}")] if data.origin else []
    root = dtype_root(data, at, prefer_cast=True, float_data=True)
    if _fails_backward(name):
        return RULE.finding(
            f"the first argument of {name} (the targets, passed first) is float64 while the model's output is float32: "
            f"`backward()` through the loss at {at.line_ref()} fails with \"{BACKWARD_ERROR}\"",
            root,
            related=[Related(at, f"the loss whose backward fails: {BACKWARD_ERROR}"), *related] if root != at else related,
            fixes=buffer_fix(ctx, data, "matches the model's output"),
            severity=Severity.ERROR,
        )
    return RULE.finding(
        f"the first argument of {name} (the targets, passed first) is float64 while the model's output is float32: "
        f"the loss at {at.line_ref()} silently computes in float64 (no error in current PyTorch, but the data pipeline is "
        "producing float64)",
        root,
        related=[Related(at, "the loss is computed in float64 here"), *related] if root != at else related,
        fixes=buffer_fix(ctx, data, "matches the model's output"),
    )


RULE = Rule(
    code="DG008",
    name="float64-target-promotes-loss",
    severity=Severity.INFORMATION,
    summary="float64 target promotes MSELoss/L1Loss (or cross-entropy over probabilities) to float64",
    explanation=(
        "In current PyTorch, MSELoss/L1Loss/SmoothL1Loss promote a float64 target and compute the "
        "loss in float64 without an error; gradients still come back float32. It is harmless but "
        "wasteful and usually means the data pipeline produces float64. (Older releases failed here "
        "at `loss.backward()` with \"Found dtype Double but expected Float\"; BCELoss still does, and so does "
        "HuberLoss, which keeps float32: that case is an error.) Convert the target with `.float()`."
    ),
    hazards=("H08",),
    reported_at=(
        'where the float64 target of a `MSELoss`/`L1Loss`/`SmoothL1Loss` with float32 output was made '
        '(information); related information at the loss call'
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            "import numpy as np\nimport torch\nfrom torch import nn\nmodel = nn.Linear(3, 1)\ny = torch.from_numpy(np.random.rand(8, 1))  # <-\nloss = nn.MSELoss()(model(torch.randn(8, 3)), y)\n",
            # one-hot float64 rows: cross-entropy reads them as class probabilities, in float64
            "import numpy as np\nimport torch\nfrom torch import nn\nmodel = nn.Linear(3, 4)\ny = torch.from_numpy(np.eye(4)[np.random.randint(0, 4, 8)])  # <-\nloss = nn.CrossEntropyLoss()(model(torch.randn(8, 3)), y)\n",
            # the targets passed first (`loss(q_target, q_pred)`): float64 rewards from a NumPy buffer
            "import numpy as np\nimport torch\nfrom torch import nn\nq = nn.Linear(4, 2)\nrewards = np.zeros(8)  # <-\n"
            "q_pred = q(torch.randn(8, 4)).max(1).values\nq_target = torch.tensor(rewards) + 0.99 * q_pred.detach()\nloss = nn.MSELoss()(q_target, q_pred)\n",
            "import numpy as np\nimport torch\nfrom torch import nn\nmodel = nn.Linear(3, 1)\ny = torch.from_numpy(np.random.rand(8, 1))  # <-\nloss = nn.HuberLoss(delta=2.0)(model(torch.randn(8, 3)), y)\nloss.backward()\n",
        ],
        good=[
            "import numpy as np\nimport torch\nfrom torch import nn\nmodel = nn.Linear(3, 1)\ny = torch.from_numpy(np.random.rand(8, 1)).float()\nloss = nn.MSELoss()(model(torch.randn(8, 3)), y)\n",
            # a float64 model's output first: the model's dtype, not the data's (DG004's business)
            "import torch\nfrom torch import nn\nmodel = nn.Linear(3, 1).double()\nloss = nn.MSELoss()(model(torch.randn(8, 3, dtype=torch.float64)), torch.randn(8, 1))\n",
            # float32 probabilities; and class indices taken from float64 one-hot rows
            "import numpy as np\nimport torch\nfrom torch import nn\nmodel = nn.Linear(3, 4)\ny = torch.from_numpy(np.eye(4, dtype=np.float32)[np.random.randint(0, 4, 8)])\nloss = nn.CrossEntropyLoss()(model(torch.randn(8, 3)), y)\n",
            "import numpy as np\nimport torch\nfrom torch import nn\nmodel = nn.Linear(3, 4)\ny = torch.from_numpy(np.eye(4)[np.random.randint(0, 4, 8)]).argmax(1)\nloss = nn.CrossEntropyLoss()(model(torch.randn(8, 3)), y)\n",
            "import numpy as np\nimport torch\nfrom torch import nn\nmodel = nn.Linear(3, 1)\ny = torch.from_numpy(np.random.rand(8, 1)).float()\nloss = nn.HuberLoss(delta=2.0)(model(torch.randn(8, 3)), y)\nloss.backward()\n",
        ],
    ),
)
