"""What the fixes need to know about a file's top level, read with the stdlib `ast` only.

Kept free of libcst so that a rule can ask "may this call be moved?" while checking (the
engine stays fast) and the fixes, which need libcst anyway, ask the very same question before
they move anything: one definition of the setup position and of a safe move, not two.

The *setup position* is where the default-type setup block belongs: after the module
docstring, the `from __future__` lines and the imports (and after setup statements already
there), before the first statement that runs code which could create a tensor, a module or a
dataset (any top-level statement that calls something, other than `def`/`class`).
"""

from __future__ import annotations

import ast
import bisect
import builtins
from dataclasses import dataclass, field
from functools import lru_cache

from dtypeguard.findings import Span

SET_DEFAULT = ("set_default_dtype", "set_default_device", "set_default_tensor_type")
MARKER = "# Default dtype and device, set once before any tensor, model or dataset is created (dtypeguard)."


@lru_cache(maxsize=4)
def parse_quiet(text: str) -> ast.Module | None:
    """`ast.parse`, or None; cached by text (a rule asks once per finding, the fixes again)."""
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return ast.parse(text.removeprefix("\ufeff"))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def torch_alias(tree: ast.Module) -> str | None:
    """The name this file binds to the torch module at top level (`torch`, `T`, ...)."""
    for stmt in tree.body:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.name == "torch":
                    return alias.asname or "torch"
                if alias.name.startswith("torch.") and alias.asname is None:
                    return "torch"  # `import torch.nn` binds `torch`
    return None


def uses_torch(tree: ast.Module) -> bool:
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "torch" or a.name.startswith("torch.") for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module and (node.module == "torch" or node.module.startswith("torch.")):
            return True
    return False


def _call_name(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        func = node.func
        if isinstance(func, ast.Attribute):
            return func.attr
        if isinstance(func, ast.Name):
            return func.id
    return ""


def call_name(node: ast.AST) -> str:
    """The called function's last name (`set_default_dtype` for `torch.set_default_dtype(...)`)."""
    return _call_name(node)


def is_set_default(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and _call_name(stmt.value) in SET_DEFAULT


def _is_device_expr(node: ast.AST) -> bool:
    """`torch.device(...)`, or `"cuda" if torch.cuda.is_available() else "cpu"`."""
    if isinstance(node, ast.Call) and _call_name(node) == "device":
        return True
    if isinstance(node, ast.IfExp):
        return "is_available" in ast.unparse(node.test) and isinstance(node.body, ast.Constant) and isinstance(node.orelse, ast.Constant)
    return False


def device_assignment(stmt: ast.stmt) -> str | None:
    """The name a top-level `name = torch.device(...)`-like statement binds, if it is one."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name) and _is_device_expr(stmt.value):
        return stmt.targets[0].id
    if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name) and stmt.value is not None and _is_device_expr(stmt.value):
        return stmt.target.id
    return None


def is_cuda_default_block(stmt: ast.stmt) -> bool:
    """`if torch.cuda.is_available(): set_default_...(...) [else: set_default_...(...)]`."""
    if not isinstance(stmt, ast.If) or "is_available" not in ast.unparse(stmt.test):
        return False
    inner = [*stmt.body, *stmt.orelse]
    return all(is_set_default(s) or isinstance(s, ast.Pass) for s in inner)


def _is_setup(stmt: ast.stmt) -> bool:
    return is_set_default(stmt) or device_assignment(stmt) is not None or is_cuda_default_block(stmt)


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)


def _runs_code(stmt: ast.stmt) -> bool:
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return False
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        # decorators and defaults run at definition time
        heads: list[ast.AST] = list(stmt.decorator_list)
        if isinstance(stmt, ast.ClassDef):
            heads += stmt.bases + [k.value for k in stmt.keywords]
        else:
            heads += [d for d in stmt.args.defaults + stmt.args.kw_defaults if d is not None]
        return any(isinstance(n, ast.Call) for h in heads for n in ast.walk(h))
    return any(isinstance(n, ast.Call) for n in ast.walk(stmt))


@dataclass(frozen=True)
class SetupPosition:
    index: int  # index in `tree.body` before which the block goes
    after_line: int  # last line of the statement it follows (0: top of the file)


def setup_position(tree: ast.Module) -> SetupPosition:
    body = tree.body
    last = -1
    for i, stmt in enumerate(body):
        if i == 0 and _is_docstring(stmt):
            last = 0
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom)) or _is_setup(stmt):
            last = i
            continue
        if _runs_code(stmt):
            break
    if last < 0:
        return SetupPosition(0, 0)
    return SetupPosition(last + 1, body[last].end_lineno or body[last].lineno)


def module_device_name(tree: ast.Module) -> str | None:
    """A top-level name already bound to the device (`device = torch.device(...)`)."""
    for stmt in tree.body:
        name = device_assignment(stmt)
        if name:
            return name
    return None


def has_setup_dtype(tree: ast.Module, upto: int | None = None) -> bool:
    body = tree.body if upto is None else tree.body[:upto]
    return any(is_set_default(s) and _call_name(s.value) == "set_default_dtype" for s in body if isinstance(s, ast.Expr))


def first_line(stmt: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(stmt, "decorator_list", [])
    return min([stmt.lineno, *(d.lineno for d in decorators)])


def top_statement_at(tree: ast.Module, span: Span, starts: list[int] | None = None) -> tuple[int, ast.stmt] | None:
    """The top-level statement whose lines hold `span`."""
    starts = starts if starts is not None else [first_line(s) for s in tree.body]
    i = bisect.bisect_right(starts, span.line) - 1
    if i >= 0 and span.line <= (tree.body[i].end_lineno or tree.body[i].lineno):
        return i, tree.body[i]
    return None


def _bound_names(stmt: ast.stmt) -> frozenset[str]:
    """Names a top-level statement binds in the module namespace (not inside defs/classes),
    kept on the statement: the incremental checker hands back the statements a keystroke did
    not touch, so only the edited ones are walked again."""
    known: frozenset[str] | None = stmt.__dict__.get("_dg_bound")
    if known is None:
        known = stmt.__dict__["_dg_bound"] = frozenset(_walk_bound_names(stmt))
    return known


def _walk_bound_names(stmt: ast.stmt) -> set[str]:
    names: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
            return
        if isinstance(node, (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            return
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names.add((alias.asname or alias.name).split(".")[0])
            return
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        if isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(stmt)
    return names


def _used_names(node: ast.AST) -> list[str]:
    seen: list[str] = []
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in seen:
            seen.append(n.id)
    return seen


@dataclass
class _TopLevel:
    """Per-text facts for `move_blocker`, computed once: a file with hundreds of findings must
    not be re-walked for each of them."""

    tree: ast.Module
    position: SetupPosition
    before: set[str]
    starts: list[int]
    binders: dict[str, list[int]] = field(default_factory=dict)  # name -> statement indexes


@lru_cache(maxsize=4)
def _top_level(text: str) -> _TopLevel | None:
    tree = parse_quiet(text)
    return None if tree is None else top_level_of(tree)


def top_level_of(tree: ast.Module) -> _TopLevel:
    """The facts `move_blocker` needs, from a tree the caller already has (the checker parsed
    the text once; parsing it again for this cost a fifth of a check)."""
    position = setup_position(tree)
    before: set[str] = set()
    binders: dict[str, list[int]] = {}
    for i, stmt in enumerate(tree.body):
        names = _bound_names(stmt)
        if i < position.index:
            before |= names
        for name in names:
            binders.setdefault(name, []).append(i)
    return _TopLevel(tree, position, before, [first_line(s) for s in tree.body], binders)


def move_blocker(text: str, span: Span, top: _TopLevel | None = None) -> str | None:
    """Why the statement holding `span` cannot safely move up to the setup position, or None.

    Safe means: it is a top-level statement of its own line, after the setup position, and
    every name it reads is bound before that position and not rebound between there and its
    current place, so the moved statement computes the same thing, only earlier.
    """
    top = top or _top_level(text)
    if top is None:
        return "the file does not parse"
    tree = top.tree
    found = top_statement_at(tree, span, top.starts)
    if found is None:
        return "the call is not in a statement of this file"
    index, stmt = found
    if not (stmt.lineno == span.line and isinstance(stmt, ast.Expr)):
        kind = {ast.FunctionDef: "a function", ast.AsyncFunctionDef: "a function", ast.ClassDef: "a class", ast.If: "an `if` block"}.get(type(stmt), "a block")
        where = f" `{stmt.name}()`" if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)) else ""
        return f"the call is inside {kind}{where}: moving it out would change when (and whether) it runs"
    neighbours = tree.body[max(index - 1, 0) : index + 2]
    if any(other is not stmt and (other.lineno == stmt.lineno or other.end_lineno == stmt.end_lineno) for other in neighbours):
        return "the call shares its line with other statements"
    if index < top.position.index:
        return "the call is already at the setup position"
    for name in _used_names(stmt):
        indexes = top.binders.get(name, [])
        k = bisect.bisect_left(indexes, top.position.index)
        if k < len(indexes) and indexes[k] < index:
            return f"it uses `{name}`, which is (re)defined on line {tree.body[indexes[k]].lineno}, between the setup position and the call"
        if name not in top.before and not hasattr(builtins, name):
            return f"it uses `{name}`, which is not defined before the setup position"
    return None
