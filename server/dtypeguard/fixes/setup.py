"""The default-type setup block, and the fixes that produce it or move calls into it:
`insert_setup_block`, `move_to_setup`, `replace_default_tensor_type`.

The block uses the modern API only (`set_default_dtype`, never the deprecated
`set_default_tensor_type`), and explicit device handling (a `device` variable to `.to()`
things onto) rather than a global CUDA default, which breaks `DataLoader(shuffle=True)` and
does not move NumPy data anyway (H02, H03). It goes to the setup position defined in
`dtypeguard.engine.source`: after docstring, `__future__` lines and imports, before anything
that could create a tensor, a module or a dataset, because defaults are read at creation (H04).
"""

from __future__ import annotations

import ast

import libcst as cst

from dtypeguard.engine import source
from dtypeguard.engine.library.vocabulary import LEGACY_TENSOR_TYPES
from dtypeguard.findings import FixSpec, Span
from dtypeguard.fixes.base import NotApplicable, expression
from dtypeguard.fixes.cst import Parsed

_DTYPES = ("float32", "float64", "float16", "bfloat16")
Stmt = cst.SimpleStatementLine | cst.BaseCompoundStatement


def _statement(code: str) -> cst.SimpleStatementLine:
    stmt = cst.parse_statement(code)
    assert isinstance(stmt, cst.SimpleStatementLine)
    return stmt


def _marker() -> cst.EmptyLine:
    return cst.EmptyLine(comment=cst.Comment(source.MARKER))


def block_statements(alias: str, dtype: str, with_dtype: bool, with_device: bool) -> list[cst.SimpleStatementLine]:
    """The setup lines (without leading lines): `set_default_dtype` and the `device` line."""
    if dtype not in _DTYPES:
        raise NotApplicable(f"unknown dtype `{dtype}`")
    out: list[cst.SimpleStatementLine] = []
    if with_dtype:
        out.append(_statement(f"{alias}.set_default_dtype({alias}.{dtype})\n"))
    if with_device:
        out.append(_statement(f'device = {alias}.device("cuda" if {alias}.cuda.is_available() else "cpu")\n'))
    return out


class _Plan:
    """The file's top level as ast sees it, for decisions that must match `source`'s rules."""

    def __init__(self, parsed: Parsed) -> None:
        tree = source.parse_quiet(parsed.module.code)
        if tree is None:
            raise NotApplicable("the file does not parse")
        self.parsed = parsed
        self.tree = tree
        self.position = source.setup_position(tree)
        found = source.torch_alias(tree)
        binds = next((st for st in tree.body if isinstance(st, ast.Import) and any(a.name == "torch" or a.name.startswith("torch.") for a in st.names)), None)
        if found is not None and binds is not None and tree.body.index(binds) >= self.position.index:
            # `import sys; sys.path.append(...)` before `import torch` (aster.pytorch): the setup
            # block uses the name, so it goes after the import that binds it
            at = tree.body.index(binds)
            self.position = source.SetupPosition(at + 1, binds.end_lineno or binds.lineno)
        self.index = parsed.index_after_line(self.position.after_line)
        self.needs_import = found is None
        self.alias = found or "torch"
        self.device_name = source.module_device_name(tree)
        imports = [st for st in tree.body[: self.position.index] if isinstance(st, (ast.Import, ast.ImportFrom))]
        self.import_index = parsed.index_after_line(imports[-1].end_lineno or imports[-1].lineno) if imports else self.index


def _ensure_blank_before(stmt: Stmt) -> Stmt:
    if stmt.leading_lines:
        return stmt
    return stmt.with_changes(leading_lines=[cst.EmptyLine()])


def _follows_import(body: list[Stmt], index: int) -> bool:
    if index == 0:
        return False
    prev = body[index - 1]
    return isinstance(prev, cst.SimpleStatementLine) and all(isinstance(s, (cst.Import, cst.ImportFrom, cst.Expr)) for s in prev.body)


def _insert(body: list[Stmt], index: int, stmts: list[cst.SimpleStatementLine], plan: _Plan, marker: bool) -> list[Stmt]:
    """Insert setup statements at `index`, and `import torch` after the imports when the file
    lacks it (before any setup statement that will use it)."""
    new: list[Stmt] = []
    for i, stmt in enumerate(stmts):
        if i == 0:
            lines: list[cst.EmptyLine] = []
            if index > 0 or plan.needs_import:
                lines.append(cst.EmptyLine())
            lines += list(stmt.leading_lines)
            if marker:
                lines.append(_marker())
            stmt = stmt.with_changes(leading_lines=lines)
        new.append(stmt)
    rest = list(body[index:])
    if rest and stmts:
        rest[0] = _ensure_blank_before(rest[0])
    out = [*body[:index], *new, *rest]
    if plan.needs_import:
        at = min(plan.import_index, index)
        out.insert(at, _statement("import torch\n"))
    return out


def _with_body(parsed: Parsed, body: list[Stmt], module: cst.Module | None = None) -> str:
    return (module or parsed.module).with_changes(body=body).code


def _set_dtype_calls(tree: ast.Module) -> list[tuple[ast.Call, str | None]]:
    """Every `set_default_dtype(...)` call in the file, with the dtype it sets when literal."""
    out: list[tuple[ast.Call, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and source.call_name(node) == "set_default_dtype":
            arg = node.args[0] if node.args else None
            name = arg.attr if isinstance(arg, ast.Attribute) else None
            out.append((node, name if name in _DTYPES else None))
    return out


def _late_movable_call(parsed: Parsed, plan: _Plan) -> Span | None:
    """A top-level `set_default_dtype(...)` statement below the setup position (after something
    was created) that can move up unchanged: the span `move_to_setup` takes."""
    for stmt in plan.tree.body[plan.position.index:]:
        if isinstance(stmt, ast.Expr) and source.is_set_default(stmt) and source.call_name(stmt.value) == "set_default_dtype":
            span = Span(stmt.lineno, stmt.col_offset, stmt.end_lineno or stmt.lineno, stmt.end_col_offset or 0)
            if source.move_blocker(parsed.module.code, span) is None:
                return span
    return None


def setup_block(parsed: Parsed, dtype: str | None = None) -> str:
    """The file with the setup block at the setup position, coherent with what the file does.

    A `set_default_dtype` call that runs too late (DG001) is moved up when that is safe, and
    nothing else is added; otherwise the block sets the dtype the file's own call sets (so the
    late call becomes a no-op), without a `device` name nothing would use. Only a file that
    sets no default dtype at all gets the full block: `set_default_dtype(float32)` and `device`.
    """
    plan = _Plan(parsed)
    late = _late_movable_call(parsed, plan) if dtype is None else None
    if late is not None:
        return move_to_setup(parsed, FixSpec("move_to_setup", "move", late, True))
    literal = [d for _, d in _set_dtype_calls(plan.tree) if d is not None]
    sets_dtype = dtype is not None or bool(literal)
    dtype = dtype or (literal[0] if literal else "float32")
    with_dtype = not source.has_setup_dtype(plan.tree, plan.position.index)
    with_device = plan.device_name is None and not sets_dtype
    if not (with_dtype or with_device):
        raise NotApplicable("the file already has the setup block")
    stmts = block_statements(plan.alias, dtype, with_dtype, with_device)
    return _with_body(parsed, _insert(list(parsed.module.body), plan.index, stmts, plan, marker=True))


def insert_setup_block(parsed: Parsed, fix: FixSpec) -> str:
    return setup_block(parsed, fix.param("dtype", "float32"))


def _split_comments(lines: list[cst.EmptyLine]) -> tuple[list[cst.EmptyLine], list[cst.EmptyLine]]:
    """(lines that stay, the comment lines directly above the statement, which move with it)."""
    cut = len(lines)
    while cut > 0 and lines[cut - 1].comment is not None:
        cut -= 1
    return lines[:cut], lines[cut:]


def move_to_setup(parsed: Parsed, fix: FixSpec) -> str:
    """Move the top-level statement holding the span up to the setup position.

    Refused (with the reason) unless `source.move_blocker` finds the move safe: the statement
    then computes the same thing, only before anything it was meant to affect exists.
    """
    reason = source.move_blocker(parsed.module.code, fix.span)
    if reason:
        raise NotApplicable(reason)
    plan = _Plan(parsed)
    body = list(parsed.module.body)
    j = parsed.index_after_line(fix.span.line - 1)
    if j >= len(body) or parsed.starts[j] != fix.span.line:
        raise NotApplicable("no statement starts at the fix's line")
    i = plan.index
    if i >= j:
        raise NotApplicable("the statement is already at the setup position")
    stmt = body[j]
    stay, attached = _split_comments(list(stmt.leading_lines))
    lead: list[cst.EmptyLine] = [cst.EmptyLine()] if _follows_import(body, i) else []
    moved = stmt.with_changes(leading_lines=[*lead, *attached])
    if j + 1 < len(body) and stay and not body[j + 1].leading_lines:
        body[j + 1] = body[j + 1].with_changes(leading_lines=stay)
    del body[j]
    body.insert(i, moved)
    if i + 1 < len(body):
        body[i + 1] = _ensure_blank_before(body[i + 1])
    return _with_body(parsed, body)


def replace_default_tensor_type(parsed: Parsed, fix: FixSpec) -> str:
    """`set_default_tensor_type(...)` -> `set_default_dtype(...)`; for a CUDA default (also
    `replace_cuda_default`: a `set_default_device("cuda")` call), the block
    that chose it (`if torch.cuda.is_available(): ... else: ...`) becomes the setup block."""
    dtype = fix.param("dtype", "float32")
    cuda = bool(fix.param("cuda"))
    if dtype not in _DTYPES:
        raise NotApplicable(f"unknown dtype `{dtype}`")
    call = parsed.call_at(fix.span)
    if call is None:
        raise NotApplicable("no call at the fix's position (the file changed?)")
    plan = _Plan(parsed)
    body = list(parsed.module.body)
    top = source.top_statement_at(plan.tree, fix.span)
    if cuda and top is not None:
        _, stmt = top
        whole = source.is_cuda_default_block(stmt) or (isinstance(stmt, ast.Expr) and stmt.lineno == fix.span.line)
        k = parsed.index_after_line(stmt.lineno - 1)
        if whole and k < len(body) and parsed.starts[k] == source.first_line(stmt):
            moves = _spans(fix.param("moves")) if fix.param("moves") or fix.param("dtype_noop") else None
            if moves is not None:
                return _explicit_device(parsed, plan, k, dtype, moves, with_dtype=not fix.param("dtype_noop"))
            stmts = block_statements(plan.alias, dtype, True, plan.device_name is None)
            first = stmts[0].with_changes(leading_lines=[*body[k].leading_lines, _marker()])
            new_body = [*body[:k], first, *stmts[1:], *body[k + 1 :]]
            if plan.needs_import:
                new_body = _insert(new_body, plan.index, [], plan, marker=False)
            return _with_body(parsed, new_body)
    replacement = expression(f"{plan.alias}.set_default_dtype({plan.alias}.{dtype})")
    module = parsed.module.deep_replace(call, replacement)
    assert isinstance(module, cst.Module)
    new_body = list(module.body)
    extra = block_statements(plan.alias, dtype, False, cuda and plan.device_name is None)
    if extra or plan.needs_import:
        new_body = _insert(new_body, plan.index, extra, plan, marker=bool(extra))
    return _with_body(parsed, new_body, module)


def _spans(text: str) -> list[Span]:
    """`"43,8,43,97;50,4,50,20"` (the rule's `moves` parameter) -> spans."""
    out: list[Span] = []
    for part in filter(None, text.split(";")):
        line, col, end_line, end_col = (int(n) for n in part.split(","))
        out.append(Span(line, col, end_line, end_col))
    return out


def _explicit_device(parsed: Parsed, plan: _Plan, k: int, dtype: str, moves: list[Span], with_dtype: bool) -> str:
    """The CUDA-default block at body[k] becomes the explicit device it stood for: a `device`
    name (only when some model moves to it) and `.to(device)` on each model the default placed
    (`moves`: the calls that create them), plus `set_default_dtype` only where it changes the
    default dtype. Nothing left to say: the block goes, with the comment lines above it."""
    calls = [parsed.call_at(span) for span in moves]
    if any(call is None for call in calls):
        raise NotApplicable("a model's creation is not where the check saw it (the file changed?)")
    stmts = block_statements(plan.alias, dtype, with_dtype, bool(moves))
    module = parsed.module
    if moves:
        name = "device"
        replacements = {call: cst.Call(func=cst.Attribute(value=call, attr=cst.Name("to")), args=[cst.Arg(cst.Name(name))]) for call in calls if call is not None}
        module = module.visit(_Replace(replacements))
    body = list(module.body)
    stay, _attached = _split_comments(list(body[k].leading_lines))
    if stmts:
        first = stmts[0].with_changes(leading_lines=[*body[k].leading_lines, _marker()])
        new_body = [*body[:k], first, *stmts[1:], *body[k + 1 :]]
    else:
        new_body = [*body[:k], *body[k + 1 :]]
        if k < len(new_body) and stay:
            new_body[k] = new_body[k].with_changes(leading_lines=stay)
    if plan.needs_import and stmts:
        new_body = _insert(new_body, plan.index, [], plan, marker=False)
    return _with_body(parsed, new_body, module)


class _Replace(cst.CSTTransformer):
    """Replace given nodes (by identity) with new ones."""

    def __init__(self, replacements: dict[cst.Call, cst.Call]) -> None:
        super().__init__()
        self.replacements = replacements

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        return self.replacements.get(original_node, updated_node)


def _chosen_types(expr: cst.BaseExpression) -> tuple[tuple[str, bool], tuple[str, bool], str] | None:
    """`"torch.cuda.FloatTensor" if c else "torch.FloatTensor"`: each branch's (dtype, CUDA)
    and the test's code, when both branches name legacy types as strings."""
    if not isinstance(expr, cst.IfExp):
        return None
    named: list[tuple[str, bool]] = []
    for branch in (expr.body, expr.orelse):
        text = branch.evaluated_value if isinstance(branch, cst.SimpleString) else None
        if not isinstance(text, str) or not text.startswith("torch.") or text.removeprefix("torch.").removeprefix("cuda.") not in LEGACY_TENSOR_TYPES:
            return None
        named.append((LEGACY_TENSOR_TYPES[text.rsplit(".", 1)[1]][0], ".cuda." in text))
    return named[0], named[1], cst.Module(body=[]).code_for_node(expr.test)


def _named_type(expr: cst.BaseExpression) -> tuple[str, bool] | None:
    """`"torch.cuda.FloatTensor"`: (its dtype, whether CUDA), for a string naming a legacy type."""
    text = expr.evaluated_value if isinstance(expr, cst.SimpleString) else None
    if isinstance(expr, cst.Attribute):  # `torch.cuda.FloatTensor`, the type itself
        written = cst.Module(body=[]).code_for_node(expr)
        text = written if written.startswith("torch.") else None
    if not isinstance(text, str) or not text.startswith("torch.") or text.removeprefix("torch.").removeprefix("cuda.") not in LEGACY_TENSOR_TYPES:
        return None
    return LEGACY_TENSOR_TYPES[text.rsplit(".", 1)[1]][0], ".cuda." in text


def replace_tensor_type_call(parsed: Parsed, fix: FixSpec) -> str:
    """`set_default_tensor_type(t)` with `t` chosen at run time (a legacy type or its name, CPU
    or CUDA) -> the two calls it stands for, reading dtype and device from `t` itself:
    `set_default_dtype(<t's dtype>)` and `set_default_device("cuda")` for a CUDA type (`None`,
    the CPU default, for a CPU one). `torch.empty(0).type(t)` accepts both forms of `t`, as
    the legacy call does, and fails where it fails (a CUDA type without CUDA)."""
    call = parsed.call_at(fix.span)
    if call is None:
        raise NotApplicable("no call at the fix's position (the file changed?)")
    if len(call.args) != 1 or call.args[0].keyword is not None or call.args[0].star:
        raise NotApplicable("the call does not pass one positional argument")
    stmt = next((a for a in parsed.ancestors(call) if isinstance(a, cst.SimpleStatementLine)), None)
    if stmt is None or len(stmt.body) != 1 or not isinstance(stmt.body[0], cst.Expr) or stmt.body[0].value is not call:
        raise NotApplicable("the call is not a statement of its own")
    arg = cst.Module(body=[]).code_for_node(call.args[0].value)
    if any(isinstance(n, ast.Call | ast.Await | ast.NamedExpr | ast.Yield) for n in ast.walk(ast.parse(arg.strip(), mode="eval"))):
        raise NotApplicable("the type is computed by a call: it would be computed twice")
    alias = _Plan(parsed).alias
    like = f"{alias}.empty(0).type({arg.strip()})"
    dtype_expr, device_expr = f"{like}.dtype", f'"cuda" if {like}.is_cuda else None'
    chosen = _chosen_types(call.args[0].value)
    named = _named_type(call.args[0].value)
    if named is not None:  # `"torch.cuda.FloatTensor"`: its dtype and device, written out; the
        # device where there is one (on a CPU-only machine the legacy CUDA type raises instead)
        dtype_expr = f"{alias}.{named[0]}"
        device_expr = f'"cuda" if {alias}.cuda.is_available() else "cpu"' if named[1] else "None"
    elif chosen is not None:  # `"torch.cuda.FloatTensor" if use_cuda else "torch.FloatTensor"`: both named
        (dtype_a, cuda_a), (dtype_b, cuda_b), test = chosen
        if dtype_a == dtype_b:
            dtype_expr = f"{alias}.{dtype_a}"
            device_a, device_b = ('"cuda"' if cuda else "None" for cuda in (cuda_a, cuda_b))
            device_expr = device_a if cuda_a == cuda_b else f"{device_a} if {test} else {device_b}"
    first = _statement(f"{alias}.set_default_dtype({dtype_expr})\n").with_changes(leading_lines=stmt.leading_lines, trailing_whitespace=stmt.trailing_whitespace)
    second = _statement(f"{alias}.set_default_device({device_expr})\n")
    body = list(parsed.module.body)
    if any(s is stmt for s in body):
        i = next(k for k, s in enumerate(body) if s is stmt)
        return _with_body(parsed, [*body[:i], first, second, *body[i + 1 :]])
    parent = parsed.parents.get(stmt)
    if not isinstance(parent, cst.IndentedBlock):
        raise NotApplicable("the call is not in a block of statements")
    inner = list(parent.body)
    i = next(k for k, s in enumerate(inner) if s is stmt)
    module = parsed.module.deep_replace(parent, parent.with_changes(body=[*inner[:i], first, second, *inner[i + 1 :]]))
    assert isinstance(module, cst.Module)
    return module.code
