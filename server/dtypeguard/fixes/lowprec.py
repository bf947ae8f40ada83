"""`master_weights_autocast`: float32 master weights plus autocast, for a model cast to
float16/bfloat16 as a whole and trained (DG012, DG013, DG014; the FixSpec comes from
rules/master_weights.py).

Two edits in one transform:
- the cast goes: `model.half()` / `model = model.half()` as a statement is removed;
  `X.half()`, `X.bfloat16()`, `X.to(torch.bfloat16)`, `X.to(dtype=...)` become `X`;
  `X.to(device, dtype)` / `X.to(device, dtype=...)` become `X.to(device)`;
- every statement that calls the model (outside an autocast already) moves into
  `with torch.autocast(device_type=..., dtype=torch.<dtype>):`, together with the statements
  after it, in the same block, that compute the loss the block later calls `backward()` on.
  `torch` is written with the name the file gives it.
"""

from __future__ import annotations

import libcst as cst

from dtypeguard.findings import FixSpec
from dtypeguard.fixes.base import NotApplicable, expression
from dtypeguard.fixes.calls import _in_file_names
from dtypeguard.fixes.cst import Parsed, render
from dtypeguard.rules.master_weights import decode

_CAST_METHODS = frozenset({"half", "bfloat16"})
_LEGACY_TYPES = frozenset({"HalfTensor", "BFloat16Tensor"})  # `torch.HalfTensor(n, m)` -> FloatTensor
_DTYPE_WORDS = ("float16", "bfloat16", "half", "dtype")
_BLOCKS = (cst.IndentedBlock, cst.Module)


def _dtype_like(expr: cst.BaseExpression) -> bool:
    """Whether a positional argument of `.to(...)` names a dtype (not a device)."""
    code = render(expr).lower()
    return any(word in code for word in _DTYPE_WORDS) and "device" not in code and "cuda" not in code


def _dtype_keyword(parsed: Parsed, fix: FixSpec) -> cst.Call | None:
    """The call whose `torch_dtype=`/`dtype=` keyword has the value at the fix's span."""
    value = parsed.expression_at(fix.span)
    if value is None:
        return None
    arg = parsed.parents.get(value)
    call = parsed.parents.get(arg) if arg is not None else None
    if isinstance(arg, cst.Arg) and arg.keyword is not None and arg.keyword.value in ("torch_dtype", "dtype") and isinstance(call, cst.Call):
        return call
    return None


def _is_dtype_keyword(arg: cst.Arg) -> bool:
    return arg.keyword is not None and arg.keyword.value in ("torch_dtype", "dtype")


def _float32_dtype_keyword(call: cst.Call, float32: str) -> cst.Call:
    """`f(a, torch_dtype=torch.float16)` -> `f(a, torch_dtype=torch.float32)`: float32 said
    explicitly, not the keyword dropped (the script's own `def f(torch_dtype)` has no default)."""
    return call.with_changes(args=[a.with_changes(value=expression(float32)) if _is_dtype_keyword(a) else a for a in call.args])


def _without_cast(call: cst.Call, float32: str = "torch.float32") -> cst.BaseExpression:
    """The expression `call` is without its dtype cast; NotApplicable when it is not a cast."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value == "to") and any(_is_dtype_keyword(a) for a in call.args):
        return _float32_dtype_keyword(call, float32)
    if not isinstance(func, cst.Attribute):
        raise NotApplicable("the cast is not a method call")
    receiver = func.value
    name = func.attr.value
    if name in _CAST_METHODS and not call.args:
        return receiver
    if name in _LEGACY_TYPES:
        return call.with_changes(func=func.with_changes(attr=cst.Name("FloatTensor")))
    if name != "to":
        raise NotApplicable(f"`.{name}(...)` is not a cast this fix knows how to remove")
    if any(a.star for a in call.args):
        raise NotApplicable("the cast passes `*args`/`**kwargs`")
    keep: list[cst.Arg] = []
    removed = False
    for i, arg in enumerate(call.args):
        keyword = arg.keyword.value if arg.keyword is not None else None
        if keyword == "dtype" or (keyword is None and (i > 0 or _dtype_like(arg.value))):
            removed = True
            continue
        keep.append(arg)
    if not removed:
        raise NotApplicable("no dtype argument in the `.to(...)` call")
    if not keep or all(a.keyword is not None and a.keyword.value in ("non_blocking", "copy") for a in keep):
        return receiver
    keep[-1] = keep[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
    return call.with_changes(args=keep)


def _statement_of(parsed: Parsed, node: cst.CSTNode) -> tuple[cst.BaseStatement, cst.IndentedBlock | cst.Module]:
    """The statement in a block's body that contains `node`, and that block."""
    child: cst.CSTNode = node
    for parent in parsed.ancestors(node):
        if isinstance(parent, _BLOCKS) and isinstance(child, cst.BaseStatement):
            return child, parent
        child = parent
    if isinstance(child, cst.BaseStatement) and any(s is child for s in parsed.module.body):
        return child, parsed.module  # a top-level statement (its parent is not recorded)
    raise NotApplicable("the call is not inside a statement")


def _loss_name(stmt: cst.BaseStatement) -> str | None:
    """`loss` for a statement that calls `loss.backward()` or `scaler.scale(loss).backward()`."""
    found: list[str] = []

    class Visitor(cst.CSTVisitor):
        def visit_Call(self, node: cst.Call) -> None:
            func = node.func
            if isinstance(func, cst.Attribute) and func.attr.value == "backward":
                target = func.value
                if isinstance(target, cst.Call) and isinstance(target.func, cst.Attribute) and target.func.attr.value == "scale" and target.args:
                    target = target.args[0].value
                found.append(render(target).strip())

    stmt.visit(Visitor())
    return found[0] if found else None


def _assigns(stmt: cst.BaseStatement, name: str) -> bool:
    if not isinstance(stmt, cst.SimpleStatementLine):
        return False
    for small in stmt.body:
        targets: list[cst.BaseExpression] = []
        if isinstance(small, cst.Assign):
            targets = [t.target for t in small.targets]
        elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
            targets = [small.target]
        for target in targets:
            elements = [e.value for e in target.elements] if isinstance(target, (cst.Tuple, cst.List)) else [target]
            if any(render(e).strip() == name for e in elements):
                return True
    return False


def _wrap_range(body: list[cst.BaseStatement], i: int) -> tuple[int, int]:
    """Statements i..j (inclusive) to wrap: the forward, and the loss after it in the block."""
    for k in range(i + 1, len(body)):
        name = _loss_name(body[k])
        if name is None:
            continue
        last = max((m for m in range(i, k) if _assigns(body[m], name)), default=i)
        return i, last
    return i, i


def _with_statement(header: str, stmts: list[cst.BaseStatement]) -> cst.With:
    template = cst.parse_statement(f"{header}\n    pass\n")
    assert isinstance(template, cst.With)
    first = stmts[0]
    leading = list(first.leading_lines) if isinstance(first, (cst.SimpleStatementLine, cst.BaseCompoundStatement)) else []
    stmts = [first.with_changes(leading_lines=[]), *stmts[1:]]
    return template.with_changes(body=cst.IndentedBlock(body=stmts), leading_lines=leading)


def master_weights_autocast(parsed: Parsed, fix: FixSpec) -> str:
    dtype = fix.param("dtype")
    if dtype not in ("float16", "bfloat16"):
        raise NotApplicable(f"no autocast for `{dtype}`")
    cast = parsed.call_at(fix.span)
    keyword = _dtype_keyword(parsed, fix) if cast is None or parsed.expression_at(fix.span) is not cast else None
    if keyword is not None:
        cast = keyword  # `from_pretrained(..., torch_dtype=torch.bfloat16)`: the keyword goes
    if cast is None:
        raise NotApplicable("no cast call at the fix's position (the file changed?)")
    float32 = _in_file_names(parsed, "torch.float32")
    replacement = _without_cast(cast, float32)
    cast_stmt, _ = _statement_of(parsed, cast)
    remove_stmt = False
    bare = isinstance(cast.func, cst.Attribute) and replacement is cast.func.value  # nothing but the receiver is left
    if bare and isinstance(cast_stmt, cst.SimpleStatementLine) and len(cast_stmt.body) == 1:
        small = cast_stmt.body[0]
        if isinstance(small, cst.Expr) and small.value is cast:
            remove_stmt = True  # `model.half()`
        elif (isinstance(small, cst.Assign) and small.value is cast and len(small.targets) == 1
              and render(small.targets[0].target).strip() == render(replacement).strip()):
            remove_stmt = True  # `model = model.half()`
    torch_name = _in_file_names(parsed, "torch.autocast").rsplit(".", 1)[0]
    device = f'"cuda" if {torch_name}.cuda.is_available() else "cpu"' if fix.param("cuda") else '"cpu"'
    # oneDNN has no float16 LSTM on most CPUs ("could not create a primitive descriptor for the
    # LSTM forward propagation primitive"): such a model's autocast uses bfloat16 on the CPU
    low = f"{torch_name}.{dtype}"
    if dtype == "float16" and fix.param("lstm"):
        low = f"{torch_name}.float16 if {torch_name}.cuda.is_available() else {torch_name}.bfloat16" if fix.param("cuda") else f"{torch_name}.bfloat16"
    header = f"with {torch_name}.autocast(device_type={device}, dtype={low}):"

    # statements to wrap, by block: block -> set of statement indexes
    wraps: dict[cst.IndentedBlock | cst.Module, list[tuple[int, int]]] = {}
    for text in filter(None, fix.param("forwards").split(";")):
        call = parsed.call_at(decode(text))
        if call is None:
            raise NotApplicable("no call of the model at a recorded position (the file changed?)")
        stmt, block = _statement_of(parsed, call)
        if not isinstance(stmt, cst.SimpleStatementLine):
            raise NotApplicable(f"the model is called in the header of a compound statement (`{render(call).strip()[:40]}`)")
        body = list(block.body)
        i = next(k for k, s in enumerate(body) if s is stmt)
        wraps.setdefault(block, []).append(_wrap_range(body, i))
    wrapped = [s for block, ranges in wraps.items() for a, b in ranges for s in list(block.body)[a:b + 1]]
    if any(s is cast_stmt for s in wrapped):
        raise NotApplicable("the model is cast and called in the same statement")

    class Rewrite(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            if original is cast and not remove_stmt:
                return _without_cast(updated, float32)
            return updated

        def _body(self, original: cst.IndentedBlock | cst.Module, updated_body: list[cst.BaseStatement]) -> list[cst.BaseStatement]:
            ranges = sorted(wraps.get(original, []))
            merged: list[list[int]] = []
            for a, b in ranges:
                if merged and a <= merged[-1][1] + 1:
                    merged[-1][1] = max(merged[-1][1], b)
                else:
                    merged.append([a, b])
            out: list[cst.BaseStatement] = []
            k = 0
            orig_body = list(original.body)
            while k < len(updated_body):
                span = next((m for m in merged if m[0] == k), None)
                if span is not None:
                    out.append(_with_statement(header, updated_body[span[0]:span[1] + 1]))
                    k = span[1] + 1
                    continue
                if remove_stmt and orig_body[k] is cast_stmt:
                    k += 1
                    continue
                out.append(updated_body[k])
                k += 1
            return out

        def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
            if original not in wraps and not (remove_stmt and any(s is cast_stmt for s in original.body)):
                return updated
            body = self._body(original, list(updated.body))
            if not body:
                body = [cst.SimpleStatementLine(body=[cst.Pass()])]
            return updated.with_changes(body=body)

        def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
            if original not in wraps and not (remove_stmt and any(s is cast_stmt for s in original.body)):
                return updated
            return updated.with_changes(body=self._body(original, list(updated.body)))

    new = parsed.module.visit(Rewrite())
    return new.code
