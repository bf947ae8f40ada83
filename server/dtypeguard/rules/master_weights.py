"""The fix DG012, DG013 and DG014 share for a model cast to float16/bfloat16 as a whole: keep
float32 master weights (remove the cast) and run the model's forward, and the loss computed
from it, under `torch.autocast(..., dtype=<that dtype>)` (transform: fixes/lowprec.py).

Offered only when the whole cast and every call of the model are in the checked file, so the
transform sees everything it changes. It is unsafe: it changes what the script computes and
stores (the title says what).
"""

from __future__ import annotations

import ast
import bisect

from dtypeguard.engine.events import Forward
from dtypeguard.engine.source import parse_quiet
from dtypeguard.engine.values import ModuleObj
from dtypeguard.findings import FixSpec, Span
from dtypeguard.rules.base import Context

KIND = "master_weights_autocast"
LOW = ("float16", "bfloat16")


def encode(span: Span) -> str:
    return f"{span.line}:{span.col}:{span.end_line}:{span.end_col}"


def decode(text: str) -> Span:
    line, col, end_line, end_col = (int(x) for x in text.split(":"))
    return Span(line, col, end_line, end_col)


def title(dtype: str, cast: str) -> str:
    return (
        f"Keep float32 master weights: remove the {dtype} cast `{cast}` and run the forward and loss under "
        f"`torch.autocast(dtype=torch.{dtype})` (changes behaviour: parameters, gradients, optimizer state and "
        "saved checkpoints become float32, twice the parameter memory; ops autocast does not list run in float32"
        + ("; on CUDA, float16 without a GradScaler can underflow small gradients)" if dtype == "float16" else ")")
    )


def _removable(ctx: Context, span: Span) -> bool:
    """Whether `span` is a call (`.half()`, `.to(...)`) or the value of a `torch_dtype=`/`dtype=`
    keyword: what the transform can take away."""
    tree = ctx.tree or parse_quiet(ctx.text)
    if tree is None:
        return False
    starts = ctx.memo("top-level starts", lambda: [stmt.lineno for stmt in tree.body])  # one index per check, not a scan per finding
    i = bisect.bisect_right(starts, span.line) - 1
    around = [stmt for stmt in tree.body[max(i, 0):i + 1] if stmt.lineno <= span.line <= (stmt.end_lineno or stmt.lineno)]  # (no need to walk the rest)
    for node in (node for stmt in around for node in ast.walk(stmt)):
        if isinstance(node, ast.Call) and (node.lineno, node.col_offset, node.end_lineno, node.end_col_offset) == (span.line, span.col, span.end_line, span.end_col):
            return True
        if isinstance(node, ast.keyword) and node.arg in ("torch_dtype", "dtype"):
            value = node.value
            if (value.lineno, value.col_offset, value.end_lineno, value.end_col_offset) == (span.line, span.col, span.end_line, span.end_col):
                return True
    return False


def part_fix(ctx: Context, span: Span) -> FixSpec | None:
    """A float16 part of a float32 model (`nn.PReLU(d).half()`, `torch.HalfTensor(...)`): make it
    float32; the forward already runs under autocast or in float32."""
    if span.file or not _removable(ctx, span):
        return None
    cast = ctx.snippet(span)
    return FixSpec(
        KIND, f"Create this part as float32: remove the float16 cast in `{cast[:60]}` (its parameters, gradients "
        "and optimizer state become float32)", span, False, (("dtype", "float16"), ("forwards", ""), ("cuda", "")),
    )


def _forwards_by_origin(ctx: Context) -> dict[object, list[Forward]]:
    """The forward calls of each module (by where it was made), not nested in another's."""
    out: dict[object, list[Forward]] = {}
    for f in ctx.events.forwards:
        if not f.nested:
            out.setdefault(f.module.origin, []).append(f)
    return out


def master_weights_fix(ctx: Context, module: ModuleObj | None) -> FixSpec | None:
    """The fix for `module` (the parameters an optimizer steps), or None when it does not fit."""
    if module is None or module.dtype not in LOW or module.cast_span is None or module.cast_span.file:
        return None
    if not _removable(ctx, module.cast_span):
        return None
    dtype = module.dtype
    by_origin = ctx.memo("forwards by module origin", lambda: _forwards_by_origin(ctx))
    forwards = by_origin.get(module.origin, [])
    if not forwards or any(f.span.file for f in forwards):
        return None  # the model runs somewhere this file does not show
    wrap = sorted({encode(f.span) for f in forwards if f.autocast is None})
    cast = ctx.snippet(module.cast_span)
    if len(cast) > 60:
        cast = cast[:57] + "..."
    return FixSpec(
        KIND, title(dtype, cast), module.cast_span, False,
        (("dtype", dtype), ("forwards", ";".join(wrap)), ("cuda", "1" if "cuda" in ctx.text else ""), ("lstm", "1" if _builds_lstm(ctx) else "")),
    )


def _builds_lstm(ctx: Context) -> bool:
    """The file builds an LSTM (`nn.LSTM(...)`, `LSTM(...)`): float16 autocast cannot run it on
    the CPU (oneDNN has no float16 LSTM primitive on most CPUs)."""
    if ctx.tree is not None:
        return ctx.any_node("builds_lstm", _lstm_call, needle="LSTM")

    def compute() -> bool:
        tree = parse_quiet(ctx.text)
        return tree is not None and any(_lstm_call(n) for n in ast.walk(tree))

    return ctx.memo("builds_lstm", compute)


def _lstm_call(n: ast.AST) -> bool:
    return isinstance(n, ast.Call) and (n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")) == "LSTM"
