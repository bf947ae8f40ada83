"""DG018: a number beyond float16's (or bfloat16's) range written into such a tensor
(`scores.masked_fill(mask, -1e9)` under fp16 autocast or in a `.half()` model)."""

from __future__ import annotations

from collections.abc import Iterator

from dtypeguard.engine.library.torch import FINFO
from dtypeguard.engine.values import Const
from dtypeguard.findings import Finding, FixSpec, Related, RuleExamples, Severity, Span
from dtypeguard.rules.base import Context, ErrorPattern, Rule, dtype_words, tensor

_CPP = {"float16": "c10::Half", "bfloat16": "c10::BFloat16"}


def overflow_error(dtype: str) -> str:
    """What torch (2.13, CPU) raises when the value does not fit (tests/engine/test_rule_numbers.py)."""
    return f"value cannot be converted to type {_CPP[dtype]} without overflow"


def check(ctx: Context) -> Iterator[Finding]:
    seen: set[object] = set()  # one finding a line, and one per tensor: its first fill fails, nothing after it runs
    for op in ctx.events.ops:
        if not op.name.endswith("() value") or len(op.inputs) != 2:
            continue
        t, value = tensor(op.inputs[0]), op.inputs[1]
        if t is None or t.dtype not in _CPP or not isinstance(value, Const) or op.span.line in seen or (t.origin and t.origin.span in seen):
            continue
        seen.add(op.span.line)
        if t.origin is not None:
            seen.add(t.origin.span)
        error = overflow_error(t.dtype)
        method = op.name.removesuffix(" value").strip(".()")
        bound = "min" if float(value.value) < 0 else "max"  # type: ignore[arg-type]
        # the root is where the tensor became half (the model's `.half()`, the op under autocast):
        # what held-out authors mark (6 of 6), and what makes a float32 script's mask overflow
        root = t.origin.span if t.origin is not None and not t.origin.span.file else op.span
        related = [Related.failing(op.span, error)]
        if t.origin is not None and t.origin.span != root:
            related.append(Related(t.origin.span, f"the tensor is {t.dtype} here: {t.origin.why}"))
        made = f"this makes the tensor {dtype_words(t.dtype)} ({t.origin.why}), and " if root != op.span and t.origin is not None else ""
        yield RULE.finding(
            f"{made}`{method}` at {op.span.line_ref()} writes {float(value.value):g} into it, beyond {t.dtype}'s range "  # type: ignore[arg-type]
            f"(largest finite {FINFO[t.dtype]['max']:g}): it fails with \"{error}\"; "
            f"use `torch.finfo(<tensor>.dtype).{bound}` there (or `float('-inf')` for a mask)",
            root,
            related=related,
            fixes=_finfo_fix(ctx, op.arg_spans, bound),
        )


def _finfo_fix(ctx: Context, spans: tuple[Span, ...], bound: str) -> list[FixSpec]:
    """`masked_fill(mask, -1e9)` -> `masked_fill(mask, torch.finfo(scores.dtype).min)`: the most
    negative (or positive) number of whatever dtype the tensor has, the way transformers masks."""
    if len(spans) != 2:
        return []
    old, receiver = ctx.snippet(spans[0]), ctx.snippet(spans[1])
    value = f"torch.finfo({receiver}.dtype).{bound}"
    return [FixSpec("replace_expression", f"Fill with `{value}` (in range for every dtype)", spans[0], True, (("value", value), ("old", old)))]


RULE = Rule(
    code="DG018",
    name="fill-value-overflows-half",
    severity=Severity.ERROR,
    summary="a fill value beyond float16/bfloat16's range (`masked_fill(mask, -1e9)` on half activations)",
    explanation=(
        "float16 holds finite numbers up to 65504 (bfloat16 up to about 3.39e38). Writing a larger "
        "number into such a tensor (`scores.masked_fill(mask, -1e9)` to mask attention, "
        "`torch.finfo(torch.float32).max` as an ignore value) fails with \"value cannot be "
        "converted to type c10::Half without overflow\"; this happens when the scores come out of "
        "`torch.autocast` or a `.half()` model. Use `torch.finfo(scores.dtype).min`, which is in "
        "range for every dtype, or `float('-inf')`."
    ),
    hazards=(),
    reported_at=(
        "where the tensor became float16/bfloat16 (the model's `.half()`/`.to(float16)`, the op under "
        'autocast); related information at the `masked_fill`/`fill_`/`index_fill` that writes a number beyond '
        "that dtype's finite range and fails"
    ),
    errors=(
        ErrorPattern(
            r"value cannot be converted to type (?:c10::|at::)?(?:Half|BFloat16) without overflow",
            "value cannot be converted to type c10::Half without overflow",
            "tests/engine/test_rule_numbers.py",
        ),
    ),
    hint=(
        "a number beyond float16's range (65504) was written into a half tensor; use "
        "torch.finfo(t.dtype).min / .max, or float('-inf') for a mask."
    ),
    check=check,
    examples=RuleExamples(
        bad=[
            "import torch\nscores = torch.randn(2, 4).half()  # <-\nmask = torch.ones(2, 4, dtype=torch.bool)\nscores = scores.masked_fill(mask, -1e9)\n",
            "import torch\nfrom torch import nn\nproj = nn.Linear(8, 8)\nwith torch.autocast('cpu', dtype=torch.float16):\n    sim = proj(torch.randn(4, 8))  # <-\nsim.fill_(torch.finfo(torch.float32).max)\n",
        ],
        good=[
            "import torch\nscores = torch.randn(2, 4).half()\nmask = torch.ones(2, 4, dtype=torch.bool)\nscores = scores.masked_fill(mask, torch.finfo(scores.dtype).min)\nscores = scores.masked_fill(mask, float('-inf'))\nscores = scores.masked_fill(mask, -1e4)\n",
            "import torch\nscores = torch.randn(2, 4)\nmask = torch.ones(2, 4, dtype=torch.bool)\nscores = scores.masked_fill(mask, -1e9)\nhalf = torch.randn(2, 4).bfloat16().masked_fill(mask, -1e9)\n",
        ],
    ),
)
