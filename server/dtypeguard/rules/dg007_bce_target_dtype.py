"""DG007: BCELoss targets that are integer or float64; BCEWithLogits with integer targets (H10)."""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.engine.values import WIDE, is_int
from dtypeguard.findings import Finding, Related, RuleExamples, Severity
from dtypeguard.rules.base import (
    Context,
    ErrorPattern,
    Rule,
    convert_fix,
    dtype_root,
    dtype_words,
    fails_here,
    tensor,
)

_WORD = {WIDE: "Long (Double for float columns)", "int64": "Long", "int32": "Int", "float64": "Double", "uint8": "Byte", "bool": "Bool"}


def check(ctx: Context) -> Iterator[Finding]:
    for loss in ctx.events.losses:
        if loss.kind not in ("bce", "bce_logits"):
            continue
        target = tensor(loss.target)
        output = tensor(loss.output)
        if target is None or target.dtype is None:
            continue
        out_dtype = output.dtype if output is not None else None
        if loss.kind == "bce":
            bad = is_int(target.dtype) or (target.dtype in ("float64", WIDE) and out_dtype == "float32")
            error = f"Found dtype {_WORD.get(target.dtype, target.dtype)} but expected Float"
        else:
            bad = is_int(target.dtype) and target.dtype != "bool"
            error = f"result type Float can't be cast to the desired output type {_WORD.get(target.dtype, target.dtype)}"
        if not bad:
            continue
        related = [Related(target.origin.span, f"the target becomes {target.dtype} here: {target.origin.why}")] if target.origin else []
        want = out_dtype if out_dtype and out_dtype.startswith(("float", "bfloat")) else "float32"
        root = dtype_root(target, loss.span, prefer_cast=True)
        yield RULE.finding(
            f"{loss.name} targets are {dtype_words(target.dtype)}: the loss at {loss.span.line_ref()} fails with \"{error}\"",
            root,
            related=[*fails_here(root, loss.span, error), *related],
            fixes=convert_fix(ctx, target, loss.target_span, want, "BCE targets must match the predictions' float dtype"),
        )


RULE = Rule(
    code="DG007",
    name="bce-target-dtype",
    severity=Severity.ERROR,
    summary="BCELoss / BCEWithLogitsLoss target of the wrong dtype",
    explanation=(
        "BCELoss needs a float target of the same dtype and shape as the predictions; integer "
        "labels or float64 targets fail with \"Found dtype Long/Double but expected Float\". "
        "BCEWithLogitsLoss with integer targets fails with \"result type Float can't be cast to the "
        "desired output type Long\" (a float64 target is accepted there). Use "
        "`target.float().view_as(output)`."
    ),
    hazards=("H10",),
    reported_at=(
        'where the integer or float64 BCE target was made (BCEWithLogits with an integer target); related '
        'information at the loss call that fails'
    ),
    errors=(
        ErrorPattern(
            r"Found dtype \w+ but expected Float",
            "Found dtype Long but expected Float",
            "hazards.md H10",
        ),
        ErrorPattern(
            r"result type Float can't be cast to the desired output type Long",
            "result type Float can't be cast to the desired output type Long",
            "hazards.md H10",
            traceback_contains="binary_cross_entropy",
        ),
    ),
    hint=(
        "BCELoss needs a float target with the predictions' dtype and shape; use "
        "target.float().view_as(output)."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            "import pandas as pd\nimport torch\nfrom torch import nn\ndf = pd.read_csv('train.csv')\ny = torch.from_numpy(df['clicked'].values)  # <-\nnn.BCELoss()(torch.sigmoid(nn.Linear(3, 1)(torch.randn(8, 3))).squeeze(1), y)\n",
            "import torch\nfrom torch import nn\nmodel = nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())\ny = torch.randint(0, 2, (8, 1))  # <-\nnn.BCELoss()(model(torch.randn(8, 4)), y)\n",
            "import torch\nimport torch.nn.functional as F\nlogits = torch.randn(8, 1)\ntarget = torch.tensor([[1], [0], [1], [0], [1], [0], [1], [0]])  # <-\nF.binary_cross_entropy_with_logits(logits, target)\n",
        ],
        good=[
            "import torch\nfrom torch import nn\nmodel = nn.Sequential(nn.Linear(4, 1), nn.Sigmoid())\ny = torch.randint(0, 2, (8, 1)).float()\nnn.BCELoss()(model(torch.randn(8, 4)), y)\n",
            "import torch\nimport torch.nn.functional as F\nF.binary_cross_entropy_with_logits(torch.randn(8, 1), torch.rand(8, 1).double())\n",
        ],
    ),
)
