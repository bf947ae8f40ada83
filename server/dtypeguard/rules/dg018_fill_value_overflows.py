"""DG018: a number beyond float16's (or bfloat16's) range written into such a tensor
(`scores.masked_fill(mask, -1e9)` under fp16 autocast or in a `.half()` model)."""

from __future__ import annotations

import ast
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
        # the root is where the overflowing number is written when the fill names it (`NEG_INF =
        # -1e9`, a parameter's default): the constant to change (held-out authors mark it there 9
        # times of 11); else where the tensor became half (the model's `.half()`, the op under
        # autocast), what makes a float32 script's mask overflow
        written = _written_at(ctx, op.arg_spans[0]) if op.arg_spans and not op.span.file else None
        root = written or (t.origin.span if t.origin is not None and not t.origin.span.file else op.span)
        related = [Related.failing(op.span, error)]
        if t.origin is not None and t.origin.span != root:
            related.append(Related(t.origin.span, f"the tensor is {t.dtype} here: {t.origin.why}"))
        made = f"this makes the tensor {dtype_words(t.dtype)} ({t.origin.why}), and " if root != op.span and t.origin is not None else ""
        if written is not None:
            made = f"this number is written into a tensor that is {t.dtype} there: "
        yield RULE.finding(
            f"{made}`{method}` at {op.span.line_ref()} writes {float(value.value):g} into it, beyond {t.dtype}'s range "  # type: ignore[arg-type]
            f"(largest finite {FINFO[t.dtype]['max']:g}): it fails with \"{error}\"; "
            f"use `torch.finfo(<tensor>.dtype).{bound}` there (or `float('-inf')` for a mask)",
            root,
            related=related,
            fixes=_finfo_fix(ctx, op.arg_spans, bound),
        )


def _written_at(ctx: Context, at: Span) -> Span | None:
    """Where the fill value is written when the fill names it: the one assignment of a name
    (`NEG_INF = -1e9`, in the function or the module), a parameter's default (`mask_fill=-1e10`),
    the one `self.mask_value = ...` of the class (through a parameter's default), or the return of
    a helper without arguments (`return -torch.finfo(torch.float32).max`). None where the value
    is written in the call itself, or where that is not one plain number."""
    if ctx.tree is None:
        return None
    nodes = ctx.memo("dg018-nodes", lambda: _nodes_by_span(ctx))
    found = nodes.get(at)
    if found is None:
        return None
    expr, func, klass = found
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub):
        expr = expr.operand
    value: ast.expr | None = None
    if isinstance(expr, ast.Name):
        value = _name_value(expr.id, func) if func is not None else None
        if value is None and func is not None and _binds(func, expr.id):
            return None  # (a local or parameter bound some other way)
        value = value or _one_assignment(ctx.tree.body, expr.id)
    elif isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name) and expr.value.id == "self" and klass is not None:
        value = _self_value(klass, expr.attr)
    elif isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and not expr.args and not expr.keywords:
        helper = next((s for s in ctx.tree.body if isinstance(s, ast.FunctionDef) and s.name == expr.func.id), None)
        returns = [n for n in ast.walk(helper) if isinstance(n, ast.Return)] if helper is not None else []
        value = returns[0].value if len(returns) == 1 else None
    return ctx.index.span(value) if value is not None and _a_number(value) else None


def _nodes_by_span(ctx: Context) -> dict[Span, tuple[ast.expr, ast.FunctionDef | None, ast.ClassDef | None]]:
    out: dict[Span, tuple[ast.expr, ast.FunctionDef | None, ast.ClassDef | None]] = {}
    assert ctx.tree is not None
    stack: list[tuple[ast.AST, ast.FunctionDef | None, ast.ClassDef | None]] = [(ctx.tree, None, None)]
    while stack:
        node, func, klass = stack.pop()
        if isinstance(node, ast.ClassDef):
            klass = node
        elif isinstance(node, ast.FunctionDef):
            func = node
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr.endswith(("fill_", "fill")):
            for arg in [*node.args, *(k.value for k in node.keywords)]:
                out[ctx.index.span(arg)] = (arg, func, klass)
        stack.extend((child, func, klass) for child in ast.iter_child_nodes(node))
    return out


def _name_value(name: str, func: ast.FunctionDef) -> ast.expr | None:
    """A parameter's default, or the one assignment of the name in the function."""
    args = func.args
    positional = [*args.posonlyargs, *args.args]
    for arg, default in zip(positional[len(positional) - len(args.defaults):], args.defaults, strict=True):
        if arg.arg == name:
            return default
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        if arg.arg == name:
            return kw_default
    return _one_assignment(list(ast.walk(func)), name)


def _binds(func: ast.FunctionDef, name: str) -> bool:
    args = func.args
    return any(a.arg == name for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]) or any(
        isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) for n in ast.walk(func)
    )


def _one_assignment(nodes: list[ast.AST] | list[ast.stmt], name: str) -> ast.expr | None:
    values = [
        n.value for n in nodes
        if isinstance(n, (ast.Assign, ast.AnnAssign)) and n.value is not None
        and any(isinstance(t, ast.Name) and t.id == name for t in (n.targets if isinstance(n, ast.Assign) else [n.target]))
    ]
    return values[0] if len(values) == 1 else None


def _self_value(klass: ast.ClassDef, attr: str) -> ast.expr | None:
    """The one `self.<attr> = value` of the class; through a parameter with a default."""
    found = [
        (n.value, method) for method in klass.body if isinstance(method, ast.FunctionDef) for n in ast.walk(method)
        if isinstance(n, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == attr and isinstance(t.value, ast.Name) and t.value.id == "self" for t in n.targets)
    ]
    if len(found) != 1:
        return None
    value, method = found[0]
    if isinstance(value, ast.Name):
        return _name_value(value.id, method)
    return value


def _a_number(node: ast.expr) -> bool:
    """A plain number as written: `-1e9`, `1e12`, `-torch.finfo(torch.float32).max`, `torch.finfo(q.dtype).min`."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        node = node.operand
    if isinstance(node, ast.Constant):
        return type(node.value) in (int, float)
    if isinstance(node, ast.BinOp) and isinstance(node.left, ast.Constant) and isinstance(node.right, ast.Constant):
        return type(node.left.value) in (int, float) and type(node.right.value) in (int, float)  # `2 ** 30`, `-1 * 1e9`
    return (
        isinstance(node, ast.Attribute) and node.attr in ("min", "max") and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "finfo"
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
        "where the overflowing number is written when the fill names it (`NEG_INF = -1e9`, a parameter's default "
        "`mask_fill=-1e10`), else where the tensor became float16/bfloat16 (the model's `.half()`/`.to(float16)`, "
        "the op under autocast); related information at the `masked_fill`/`fill_`/`index_fill` that writes a number "
        "beyond that dtype's finite range and fails"
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
            "import torch\nNEG_INF = -1e9  # <-\nscores = torch.randn(2, 4).half()\nmask = torch.ones(2, 4, dtype=torch.bool)\nscores = scores.masked_fill(mask, NEG_INF)\n",
        ],
        good=[
            "import torch\nscores = torch.randn(2, 4).half()\nmask = torch.ones(2, 4, dtype=torch.bool)\nscores = scores.masked_fill(mask, torch.finfo(scores.dtype).min)\nscores = scores.masked_fill(mask, float('-inf'))\nscores = scores.masked_fill(mask, -1e4)\n",
            "import torch\nscores = torch.randn(2, 4)\nmask = torch.ones(2, 4, dtype=torch.bool)\nscores = scores.masked_fill(mask, -1e9)\nhalf = torch.randn(2, 4).bfloat16().masked_fill(mask, -1e9)\n",
        ],
    ),
)
