"""The fix DG012, DG013 and DG014 share for a model cast to float16/bfloat16 as a whole: keep
float32 master weights (remove the cast) and run the model's forward, and the loss computed
from it, under `torch.autocast(..., dtype=<that dtype>)` (transform: fixes/lowprec.py).

Offered only when the whole cast and every call of the model are in the checked file, so the
transform sees everything it changes. It changes what the script computes and stores (the title
says what), so it is unsafe, but for a float16 model whose optimizer a GradScaler steps: that
script cannot pass its first step ("Attempting to unscale FP16 gradients"), and float32 master
weights under autocast are what the GradScaler it uses is made for, so the fix is safe there.
"""

from __future__ import annotations

import ast
import bisect
import re

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


def title(dtype: str, cast: str, scaled: bool = False) -> str:
    """What the fix does and changes. `scaled`: the script's GradScaler steps these float16
    parameters, so it fails as written and the GradScaler is the underflow guard."""
    head = "GradScaler needs float32 parameters: keep float32 master weights" if scaled else "Keep float32 master weights"
    return (
        f"{head}: remove the {dtype} cast `{cast}` and run the forward and loss under "
        f"`torch.autocast(dtype=torch.{dtype})` (changes behaviour: parameters, gradients, optimizer state and "
        "saved checkpoints become float32, twice the parameter memory; ops autocast does not list run in float32"
        + ("; on CUDA, float16 without a GradScaler can underflow small gradients)" if dtype == "float16" and not scaled else ")")
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
    """A float16 part of a float32 model (`nn.PReLU(d).half()`, `torch.HalfTensor(...)`) whose
    optimizer a GradScaler steps (DG014): make it float32; the forward already runs under autocast
    or in float32. Safe unless the scaler may be disabled: as written the first step fails."""
    if span.file or not _removable(ctx, span):
        return None
    cast = ctx.snippet(span)
    return FixSpec(
        KIND, f"Create this part as float32: remove the float16 cast in `{cast[:60]}` (its parameters, gradients "
        "and optimizer state become float32)", span, not _maybe_disabled_scaler(ctx), (("dtype", "float16"), ("forwards", ""), ("cuda", "")),
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
    scaled = _scaler_steps(ctx, module)
    if not forwards and scaled:
        # a wrapper whose own forward never runs (parseq's `CrossEntropySystem` calls `self.model`,
        # set 55): its parts' forwards are what runs; when every float16 forward already runs
        # under autocast, removing the cast is all the fix does (the GradScaler's own recipe)
        forwards = [f for f in ctx.events.forwards if not f.nested and f.module.dtype == dtype]
        if not forwards or any(f.autocast is None for f in forwards):
            return None
    if not forwards or any(f.span.file for f in forwards):
        return None  # the model runs somewhere this file does not show
    wrap = sorted({encode(f.span) for f in forwards if f.autocast is None})
    cast = ctx.snippet(module.cast_span)
    if len(cast) > 60:
        cast = cast[:57] + "..."
    return FixSpec(
        KIND, title(dtype, cast, scaled), module.cast_span, scaled,
        (("dtype", dtype), ("forwards", ";".join(wrap)), ("cuda", "1" if "cuda" in ctx.text else ""), ("lstm", "1" if _builds_lstm(ctx) else "")),
    )


def _scaler_steps(ctx: Context, module: ModuleObj) -> bool:
    """A GradScaler steps the optimizer of this float16 model: the script fails at that step
    ("Attempting to unscale FP16 gradients") whatever else it does, so the fix cannot stop a run
    that worked, and float32 parameters under autocast are the recipe that GradScaler is for."""
    if module.dtype != "float16" or _maybe_disabled_scaler(ctx):
        return False
    return any(s.scaler and s.module is not None and s.module.origin == module.origin and s.module.dtype == "float16" for s in ctx.events.steps)


def _maybe_disabled_scaler(ctx: Context) -> bool:
    """A GradScaler in the file that may be disabled: a disabled scaler steps float16 gradients
    without complaint, so the script may run as written. `enabled=True`, and a float16 switch
    (`enabled=args.fp16`, `enabled=args.mixed_precision == "fp16"`: on whenever the script runs
    in float16, as it does when its model is float16) do not count."""
    if ctx.tree is not None:
        return ctx.any_node("scaler_maybe_disabled", _maybe_disabled, needle="enabled")
    return ctx.memo("scaler_maybe_disabled", lambda: (tree := parse_quiet(ctx.text)) is None or any(_maybe_disabled(n) for n in ast.walk(tree)))


_FLOAT16_SWITCH = re.compile(r"fp16|float16|half", re.IGNORECASE)
_NEGATED = re.compile(r"\bnot\b|!=|\belse\b|\bor\b")


def _maybe_disabled(n: ast.AST) -> bool:
    if not isinstance(n, ast.Call):
        return False
    func = n.func.attr if isinstance(n.func, ast.Attribute) else getattr(n.func, "id", "")
    if func != "GradScaler":
        return False
    if len(n.args) >= 5 or any(isinstance(a, ast.Starred) for a in n.args):
        return True  # `enabled` passed by position (or `*args`)
    for k in n.keywords:
        if k.arg is None:
            return True  # `**kwargs`: may carry `enabled=False`
        if k.arg != "enabled" or (isinstance(k.value, ast.Constant) and k.value.value is True):
            continue
        text = ast.unparse(k.value)
        if not _FLOAT16_SWITCH.search(text) or _NEGATED.search(text):
            return True
    return False


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
