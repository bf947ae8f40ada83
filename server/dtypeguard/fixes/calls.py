"""Fixes that edit one expression or one call: `append_call`, `add_kwarg`, `set_kwarg`,
`remove_kwarg`, `replace_expression`, `int_bounds`.

They convert where a value is created (`torch.from_numpy(a).float()`,
`torch.tensor(a, dtype=torch.float32)`) or change one argument of one call, so every later use
is fixed at once and nothing else moves. Keyword edits copy the separators already in the call,
so a one-line call stays one line and a call with one argument per line gets one more line in
the same style, trailing comma and comments included.
"""

from __future__ import annotations

import ast

import libcst as cst

from dtypeguard.engine import source
from dtypeguard.findings import FixSpec
from dtypeguard.fixes.base import NotApplicable, expression, replace_node
from dtypeguard.fixes.cst import Parsed, parenthesized


def append_call(parsed: Parsed, fix: FixSpec) -> str:
    """`expr` -> `expr.method()`, or `expr.to(arg)` when the fix names an argument."""
    method = fix.param("method")
    arg = fix.param("arg")
    if not method.isidentifier():
        raise NotApplicable(f"`{method}` is not a method name")
    expr = parsed.expression_at(fix.span)
    if expr is None:
        raise NotApplicable("no expression at the fix's position (the file changed?)")
    if _already_calls(expr, method, arg):
        raise NotApplicable(f"the expression already ends with `.{method}(...)`")
    args = [cst.Arg(expression(arg))] if arg else []
    new = cst.Call(func=cst.Attribute(value=parenthesized(expr), attr=cst.Name(method)), args=args)
    return replace_node(parsed, expr, new)


def _already_calls(expr: cst.BaseExpression, method: str, arg: str) -> bool:
    if not (isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value == method):
        return False
    if not arg:
        return not expr.args
    return len(expr.args) == 1 and cst.Module(body=[]).code_for_node(expr.args[0].value) == arg


def _keyword(call: cst.Call, name: str) -> cst.Arg | None:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == name:
            return arg
    return None


def _call(parsed: Parsed, fix: FixSpec) -> cst.Call:
    call = parsed.call_at(fix.span)
    if call is None:
        raise NotApplicable("no call at the fix's position (the file changed?)")
    return call


def _with_keyword(call: cst.Call, name: str, value: cst.BaseExpression) -> cst.Call:
    new_arg = cst.Arg(value=value, keyword=cst.Name(name), equal=cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
    args = list(call.args)
    if not args:
        return call.with_changes(args=[new_arg])
    last = args[-1]
    if isinstance(last.comma, cst.Comma):
        # trailing comma: the new argument goes after it, on its own line when the call has one
        # argument per line; the old last argument keeps its comma and any comment after it
        sep = args[-2].comma.whitespace_after if len(args) > 1 and isinstance(args[-2].comma, cst.Comma) else call.whitespace_before_args
        closing = last.comma.whitespace_after
        if isinstance(closing, cst.ParenthesizedWhitespace) and isinstance(sep, cst.ParenthesizedWhitespace):
            args[-1] = last.with_changes(comma=last.comma.with_changes(whitespace_after=closing.with_changes(indent=sep.indent, last_line=sep.last_line)))
            args.append(new_arg.with_changes(comma=cst.Comma(whitespace_after=closing.with_changes(first_line=cst.TrailingWhitespace(), empty_lines=[]))))
        else:
            args[-1] = last.with_changes(comma=cst.Comma(whitespace_after=cst.SimpleWhitespace(" ")))
            args.append(new_arg.with_changes(comma=last.comma))
    else:
        separator = args[-2].comma if len(args) > 1 and isinstance(args[-2].comma, cst.Comma) else cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))
        args[-1] = last.with_changes(comma=separator)
        args.append(new_arg)
    return call.with_changes(args=args)


def _in_file_names(parsed: Parsed, value: str) -> str:
    """`torch.float32` written with the name this file gives torch (`T.float32` after `import
    torch as T`); a file that binds no name to torch (`from torch import tensor`) cannot take
    it, so the fix is not applicable there. `numpy.float32` likewise (`np.float32`)."""
    if value.startswith("numpy."):
        return numpy_alias(parsed) + value[len("numpy"):]
    if not value.startswith("torch."):
        return value
    tree = source.parse_quiet(parsed.module.code)
    alias = source.torch_alias(tree) if tree is not None else None
    if alias is None and tree is not None and any(isinstance(n, ast.Name) and n.id == "torch" for n in ast.walk(tree)):
        alias = "torch"  # bound some other way (inside a function, a star import): the file says `torch`
    if alias is None:
        raise NotApplicable("the file binds no name to the torch module")
    return alias + value[len("torch"):]


def numpy_alias(parsed: Parsed) -> str:
    """The name the file binds to numpy at top level (`np` after `import numpy as np`)."""
    tree = source.parse_quiet(parsed.module.code)
    for stmt in tree.body if tree is not None else []:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.name == "numpy":
                    return alias.asname or "numpy"
    raise NotApplicable("the file binds no name to the numpy module")


def add_kwarg(parsed: Parsed, fix: FixSpec) -> str:
    """Add `name=value` to the call; not applicable when the call already passes `name`."""
    name, value = fix.param("name"), _in_file_names(parsed, fix.param("value"))
    call = _call(parsed, fix)
    if _keyword(call, name) is not None:
        raise NotApplicable(f"the call already passes `{name}=`")
    arg = parsed.parents.get(call)
    outer = parsed.parents.get(arg) if isinstance(arg, cst.Arg) and arg.keyword is None else None
    rejects = isinstance(outer, cst.Call) and isinstance(outer.func, cst.Attribute) and outer.func.attr.value == "load_state_dict"
    misplaced = _keyword(outer, name) if isinstance(outer, cst.Call) and rejects else None
    if isinstance(outer, cst.Call) and misplaced is not None:
        # `model.load_state_dict(torch.load(path), map_location=dev)`: the keyword was meant for
        # the inner call; move it there (`load_state_dict` would reject it next). A function of
        # the user's that takes its own `map_location` keeps it.
        inner = _with_keyword(call, name, misplaced.value)
        args = [a.with_changes(value=inner) if a is arg else a for a in outer.args if a is not misplaced]
        if misplaced is outer.args[-1]:
            args[-1] = args[-1].with_changes(comma=misplaced.comma)
        return replace_node(parsed, outer, outer.with_changes(args=args))
    return replace_node(parsed, call, _with_keyword(call, name, expression(value)))


def set_kwarg(parsed: Parsed, fix: FixSpec) -> str:
    """Give the call's `name` keyword this value, replacing the one it has (or adding it)."""
    name, value = fix.param("name"), _in_file_names(parsed, fix.param("value"))
    call = _call(parsed, fix)
    existing = _keyword(call, name)
    if existing is None:
        return replace_node(parsed, call, _with_keyword(call, name, expression(value)))
    if cst.Module(body=[]).code_for_node(existing.value) == value:
        raise NotApplicable(f"the call already passes `{name}={value}`")
    return replace_node(parsed, existing.value, expression(value))


def _keyword_call(parsed: Parsed, fix: FixSpec) -> cst.Call | None:
    """The call whose `name=value` argument is exactly the fix's span (a flag the caller passes
    on through a factory's `**kwargs`), if the span is one."""
    i = parsed.statement_index(fix.span.line)
    if i is None:
        return None
    key = (fix.span.line, fix.span.col, fix.span.end_line, fix.span.end_col)
    for node in parsed._statement_meta(i).by_range.get(key, ()):
        parent = parsed.parents.get(node)
        if isinstance(node, cst.Arg) and node.keyword is not None and isinstance(parent, cst.Call):
            return parent
    return None


def remove_kwarg(parsed: Parsed, fix: FixSpec) -> str:
    """Drop the `name=` keyword; the separators around it stay as they were written."""
    name = fix.param("name")
    call = _keyword_call(parsed, fix) or _call(parsed, fix)
    args = list(call.args)
    i = next((k for k, a in enumerate(args) if a.keyword is not None and a.keyword.value == name), -1)
    if i < 0:
        raise NotApplicable(f"the call does not pass `{name}=`")
    arg = args[i]
    if i == len(args) - 1 and i > 0:
        # the removed argument was last: its predecessor takes over its comma (or its absence)
        args[i - 1] = args[i - 1].with_changes(comma=arg.comma)
    del args[i]
    return replace_node(parsed, call, call.with_changes(args=args))


def replace_expression(parsed: Parsed, fix: FixSpec) -> str:
    """The expression at the span (a flag's value in a dict, `"capturable": True`) becomes
    `value`; the fix names the expression it expects there (`old`), so a changed file is left alone."""
    value = _in_file_names(parsed, fix.param("value"))
    expr = parsed.expression_at(fix.span)
    if expr is None:
        raise NotApplicable("no expression at the fix's position (the file changed?)")
    bare = expr.with_changes(lpar=[], rpar=[]) if getattr(expr, "lpar", None) else expr  # `(gt + predict)`: its parentheses stay
    if cst.Module(body=[]).code_for_node(bare) != fix.param("old"):
        raise NotApplicable(f"the expression there is not `{fix.param('old')}`")
    new = expression(value)
    if getattr(expr, "lpar", None) and hasattr(new, "lpar"):
        new = new.with_changes(lpar=expr.lpar, rpar=expr.rpar)
    return replace_node(parsed, expr, new)


def _int_literal(expr: cst.BaseExpression) -> bool:
    if isinstance(expr, cst.UnaryOperation) and isinstance(expr.operator, cst.Minus):
        expr = expr.expression
    return isinstance(expr, cst.Integer)


def int_bounds(parsed: Parsed, fix: FixSpec) -> str:
    """`idx.clamp_(0, gain[3] - 1)` -> `idx.clamp_(0, int(gain[3] - 1))`: the bounds of an
    in-place clamp of an integer tensor become Python ints (a float bound makes the result float,
    which cannot be written back). Integer literals and `int(...)` calls stay as they are."""
    call = _call(parsed, fix)
    args = list(call.args)
    changed = False
    for i, arg in enumerate(args):
        if arg.keyword is not None and arg.keyword.value not in ("min", "max"):
            continue
        value = arg.value
        if _int_literal(value) or (isinstance(value, cst.Name) and value.value == "None"):
            continue
        if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) and value.func.value == "int":
            continue
        args[i] = arg.with_changes(value=cst.Call(func=cst.Name("int"), args=[cst.Arg(value)]))
        changed = True
    if not changed:
        raise NotApplicable("the bounds are integers already")
    return replace_node(parsed, call, call.with_changes(args=args))
