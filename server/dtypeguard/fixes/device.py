"""`to_device`: move a batch to the model's device where the batch is unpacked;
`cuda_to_device`: hard-coded `.cuda()` calls become `.to(device)`, the model too;
`register_buffer`: a plain tensor attribute set in `__init__` becomes a (non-persistent) buffer, which `.to()` moves.

When the input is a plain name bound by the target of an enclosing `for ... in loader:` loop,
`name = name.to(device)` becomes the loop body's first statement, so every use of the batch in
the body (forward, loss, metrics) sees the moved tensor, not only the one the rule pointed
at. Otherwise `.to(device)` is appended to the expression itself.
"""

from __future__ import annotations

import libcst as cst

from dtypeguard.findings import FixSpec
from dtypeguard.fixes.base import NotApplicable, expression, replace_node
from dtypeguard.fixes.calls import append_call
from dtypeguard.fixes.cst import Parsed

_SCOPES = (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)


def _binds(target: cst.BaseExpression, name: str) -> bool:
    if isinstance(target, cst.Name):
        return target.value == name
    if isinstance(target, (cst.Tuple, cst.List)):
        return any(_binds(e.value, name) for e in target.elements)
    if isinstance(target, cst.StarredElement):
        return _binds(target.value, name)
    return False


def _leading_moves(body: cst.IndentedBlock) -> list[str]:
    """The `x = x.to(...)` statements already at the top of the loop body, as code."""
    moves = []
    for stmt in body.body:
        code = cst.Module(body=[]).code_for_node(stmt).strip().replace(" ", "")
        name = code.split("=", 1)[0]
        if not name.isidentifier() or not code.startswith(f"{name}={name}.to("):
            break
        moves.append(code)
    return moves


def _moved_already(body: cst.IndentedBlock, name: str, device: str) -> bool:
    return f"{name}={name}.to({device})".replace(" ", "") in _leading_moves(body)


def _visible(code: str, name: str, line: int) -> bool:
    """Whether `name` is bound where `line` runs: at the top level of the module (or imported),
    or in a function that encloses the line (a parameter or an assignment). A `device` local to
    `main()` is not visible in a method that `main()` calls."""
    import ast
    import builtins

    try:
        tree = ast.parse(code)
    except SyntaxError:
        return False

    def binds(body: list[ast.stmt], args: ast.arguments | None) -> bool:
        if args is not None and name in {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a is not None}:
            return True
        for stmt in body:
            for node in ast.walk(stmt) if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) else [stmt]:
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and node.id == name:
                    return True
                if isinstance(node, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name.split(".")[0]) == name for a in node.names):
                    return True
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == name:
                    return True
        return False

    if hasattr(builtins, name):
        return True
    if binds(tree.body, None):
        return True
    functions = [n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    if not any(binds(f.body, f.args) for f in functions):
        return True  # bound nowhere in this text (a fragment): the rule's name is taken as given
    return any(binds(f.body, f.args) for f in functions if f.lineno <= line <= (f.end_lineno or f.lineno))


def to_device(parsed: Parsed, fix: FixSpec) -> str:
    device = fix.param("device")
    if not device:
        raise NotApplicable("no device expression")
    expression(device)
    root = device.split(".", 1)[0].split("(", 1)[0].strip()
    if root.isidentifier() and not _visible(parsed.module.code, root, fix.span.line):
        raise NotApplicable(f"`{root}` is not a name the code at line {fix.span.line} can see")
    expr = parsed.expression_at(fix.span)
    if expr is None:
        raise NotApplicable("no expression at the fix's position (the file changed?)")
    if isinstance(expr, cst.Name):
        for node in parsed.ancestors(expr):
            if isinstance(node, _SCOPES):
                break
            if isinstance(node, cst.For) and _binds(node.target, expr.value) and isinstance(node.body, cst.IndentedBlock):
                if _moved_already(node.body, expr.value, device):
                    raise NotApplicable(f"`{expr.value}` is already moved at the top of the loop")
                stmt = cst.parse_statement(f"{expr.value} = {expr.value}.to({device})\n")
                at = len(_leading_moves(node.body))  # after earlier moves: x before y, however applied
                body = node.body.with_changes(body=[*node.body.body[:at], stmt, *node.body.body[at:]])
                return replace_node(parsed, node.body, body)
    return append_call(parsed, FixSpec("append_call", fix.title, fix.span, fix.safe, (("method", "to"), ("arg", device))))


def cuda_to_device(parsed: Parsed, fix: FixSpec) -> str:
    """Every `x.cuda()` (no arguments) in the file -> `x.to(<device>)`, and the model made at the
    span -> `<model>.to(<device>)`. The rule offers it only when `<device>` is one top-level
    name for CUDA-if-available: on a GPU `.to(device)` is `.cuda()`, without one it is the CPU."""
    name = fix.param("device")
    if not name.isidentifier():
        raise NotApplicable("no device name")
    model = parsed.expression_at(fix.span)
    if model is None:
        raise NotApplicable("no expression at the fix's position (the file changed?)")

    class Rewrite(cst.CSTTransformer):
        def leave_Call(self, original: cst.Call, updated: cst.Call) -> cst.BaseExpression:
            func = updated.func
            if isinstance(func, cst.Attribute) and func.attr.value == "cuda" and not updated.args and not _is_torch_module(func.value):
                return updated.with_changes(func=func.with_changes(attr=cst.Name("to")), args=[cst.Arg(cst.Name(name))])
            if original is model:
                return cst.Call(func=cst.Attribute(value=updated, attr=cst.Name("to")), args=[cst.Arg(cst.Name(name))])
            return updated

    if not isinstance(model, cst.Call):
        raise NotApplicable("the model is not made by a call here")
    module = parsed.module.visit(Rewrite())
    return module.code


def _is_torch_module(expr: cst.BaseExpression) -> bool:
    """`torch.cuda` itself (as in `torch.cuda()`, never a tensor)."""
    return isinstance(expr, cst.Name) and expr.value == "torch"


def _initialised_before(func: cst.FunctionDef, stmt: cst.CSTNode) -> bool:
    """Is `super().__init__(...)` (or `nn.Module.__init__(self)`) a statement of `func`'s body
    before the one holding `stmt`? `register_buffer` fails before it ("cannot assign buffer
    before Module.__init__() call"), where a plain attribute does not."""
    if not isinstance(func.body, cst.IndentedBlock):
        return False
    for item in func.body.body:
        if item is stmt:
            return False
        code = cst.Module(body=[]).code_for_node(item).replace(" ", "")
        if ".__init__(" in code and (code.startswith("super(") or "Module.__init__(self" in code):
            return True
    return False


def register_buffer(parsed: Parsed, fix: FixSpec) -> str:
    """`self.name = <tensor>` in a module's `__init__` -> `self.register_buffer("name", <tensor>,
    persistent=False)`: a buffer moves with `model.to(device)`, a plain attribute does not. Not
    persistent, so `state_dict()` keeps the keys it had and checkpoints saved before still load."""
    target = parsed.expression_at(fix.span)
    if not isinstance(target, cst.Attribute) or not isinstance(target.value, cst.Name) or target.value.value != "self":
        raise NotApplicable("the fix's position is not a `self.<name>` attribute")
    chain = parsed.ancestors(target)
    assign = next((n for n in chain if isinstance(n, cst.Assign)), None)
    if assign is None or len(assign.targets) != 1 or assign.targets[0].target is not target:
        raise NotApplicable("not a plain `self.<name> = ...` assignment")
    line = next((n for n in chain if isinstance(n, cst.SimpleStatementLine)), None)
    func = next((n for n in chain if isinstance(n, cst.FunctionDef)), None)
    top = chain[chain.index(func.body) - 1] if func is not None and func.body in chain else None  # the body's statement holding it
    if line is None or len(line.body) != 1 or func is None or top is None or func.name.value != "__init__" or not _initialised_before(func, top):
        raise NotApplicable("only an attribute set in `__init__` after `super().__init__()` becomes a buffer")
    call = cst.parse_expression(f'self.register_buffer("{target.attr.value}", _, persistent=False)')
    assert isinstance(call, cst.Call)
    call = call.with_changes(args=[call.args[0], call.args[1].with_changes(value=assign.value), call.args[2]])
    return replace_node(parsed, line, line.with_changes(body=[cst.Expr(call)]))
