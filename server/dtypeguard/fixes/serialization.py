"""The safe fix for a weights-only `torch.load` of a checkpoint that holds argparse Namespaces
or plain objects of the file's own classes: allowlist exactly those classes with
`torch.serialization.add_safe_globals([...])` once at the top of the file (after the imports
and those classes), or right before a load at the top level. The load keeps
`weights_only=True` (no arbitrary code runs), and the script loads what it saved."""

from __future__ import annotations

import ast

import libcst as cst

from dtypeguard.engine import source
from dtypeguard.findings import FixSpec
from dtypeguard.fixes.base import NotApplicable, replace_node
from dtypeguard.fixes.calls import _in_file_names, numpy_alias
from dtypeguard.fixes.cst import Parsed
from dtypeguard.fixes.lowprec import _statement_of


def _in_scope(tree: ast.Module, name: str, before_line: int | None) -> str:
    """`argparse.Namespace` as this file names it (`argparse.Namespace`, `ap.Namespace` or
    `Namespace`); a class of the file by its name, if it is defined at the top level (and, for
    a load at the top level, above it)."""
    if name == "argparse.Namespace":
        # only an import at the top level, above the load, is bound where the allowlist goes (an
        # `import argparse` under `if __name__ == "__main__":` runs after the top of the file:
        # tracking_wo_bnw, scan 39); without one, the fix imports it itself ("" here)
        for node in tree.body:
            if before_line is not None and node.lineno > before_line:
                break
            if isinstance(node, ast.Import):
                alias = next((a.asname or a.name for a in node.names if a.name == "argparse"), None)
                if alias:
                    return f"{alias}.Namespace"
            if isinstance(node, ast.ImportFrom) and node.module == "argparse":
                alias = next((a.asname or a.name for a in node.names if a.name == "Namespace"), None)
                if alias:
                    return alias
        return ""
    defined = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    if len(defined) != 1 or (before_line is not None and defined[0].lineno > before_line):
        raise NotApplicable(f"`{name}` is not one top-level class defined before the load")
    return name


def allow_globals(parsed: Parsed, fix: FixSpec) -> str:
    call = parsed.call_at(fix.span)
    if call is None:
        raise NotApplicable("no call at the fix's position (the file changed?)")
    stmt, block = _statement_of(parsed, call)
    tree = source.parse_quiet(parsed.module.code)
    if tree is None:
        raise NotApplicable("the file does not parse")
    at_top = isinstance(block, cst.Module)
    names = [_in_scope(tree, n, fix.span.line if at_top else None) for n in fix.param("names").split(",") if n]
    if not names:
        raise NotApplicable("no class to allow")
    allow = _in_file_names(parsed, "torch.serialization.add_safe_globals")
    spelled = [n or "argparse.Namespace" for n in names]
    line = cst.parse_statement(f"{allow}([{', '.join(spelled)}])\n")
    lines = [cst.parse_statement("import argparse\n"), line] if "" in names else [line]
    top = None if at_top else _top_level_slot(tree, fix.param("names").split(","))
    if top is not None:
        # the allowlist is process-wide: once at the top of the file, after the imports and the
        # classes it names, it covers every load the run makes (a load in one branch only would
        # leave another load, `--resume` beside `--frozen_weights`, failing)
        module = parsed.module
        body: list[cst.BaseStatement] = list(module.body)
        after_class = top > 0 and isinstance(body[top - 1], cst.ClassDef)
        lines[0] = lines[0].with_changes(leading_lines=[cst.EmptyLine()] * (2 if after_class else 1))
        following = body[top] if top < len(body) else None
        if isinstance(following, (cst.FunctionDef, cst.ClassDef)) and len(following.leading_lines) < 2:
            missing = 2 - len(following.leading_lines)  # two blank lines between the call and the definition below it
            body[top] = following.with_changes(leading_lines=[*[cst.EmptyLine()] * missing, *following.leading_lines])
        return module.with_changes(body=[*body[:top], *lines, *body[top:]]).code
    body = list(block.body)
    index = next((i for i, s in enumerate(body) if s is stmt), None)
    if index is None:
        raise NotApplicable("the load's statement is not in its block")
    if isinstance(stmt, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
        lines[0] = lines[0].with_changes(leading_lines=stmt.leading_lines)  # comments above the load stay above both
        stmt = stmt.with_changes(leading_lines=())
    body[index : index + 1] = [*lines, stmt]
    if isinstance(block, cst.Module):
        return block.with_changes(body=body).code
    return replace_node(parsed, block, block.with_changes(body=body))


def _top_level_slot(tree: ast.Module, names: list[str]) -> int | None:
    """Where a top-level `add_safe_globals` goes: after the last top-level import and the
    definitions of the file's own classes it names. None when a top-level statement above that
    point runs code (a call) that might load before it: then it goes right before the load."""
    own = {n for n in names if n and "." not in n}
    slot = 0
    for i, stmt in enumerate(tree.body):
        if isinstance(stmt, (ast.Import, ast.ImportFrom)) or (isinstance(stmt, ast.ClassDef) and stmt.name in own):
            slot = i + 1
    if own - {s.name for s in tree.body[:slot] if isinstance(s, ast.ClassDef)}:
        return None
    for stmt in tree.body[:slot]:
        if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # the module's docstring
        if isinstance(stmt, ast.ClassDef) and not any(isinstance(n, ast.Call) for b in stmt.body if not isinstance(b, (ast.FunctionDef, ast.AsyncFunctionDef)) for n in ast.walk(b)):
            continue
        if not isinstance(stmt, ast.ClassDef) and not any(isinstance(n, ast.Call) for n in ast.walk(stmt)):
            continue  # a constant (`PATH = "ckpt.pt"`)
        return None
    return slot


def plain_number(parsed: Parsed, fix: FixSpec) -> str:
    """`"rank1": cmc[0]` -> `"rank1": float(cmc[0])` (or `int`/`bool`): the NumPy number the
    checkpoint's entry holds becomes the Python number it stands for, which a weights-only load
    reads. The span is the entry as the engine recorded it: a dict display's `key: value`, or
    the target of `ckpt["best"] = value`."""
    func = fix.param("func")
    if func not in ("float", "int", "bool", "item"):
        raise NotApplicable(f"`{func}` is not a conversion this fix makes")
    i = parsed.statement_index(fix.span.line)
    if i is None:
        raise NotApplicable("no statement at the fix's position (the file changed?)")
    meta = parsed._statement_meta(i)
    key = (fix.span.line, fix.span.col, fix.span.end_line, fix.span.end_col)
    value: cst.BaseExpression | None = None
    for node in meta.by_range.get(key, ()):
        if isinstance(node, cst.DictElement):
            value = node.value
        elif isinstance(node, cst.Arg) and node.keyword is not None:
            value = node.value  # `save(best_map=best_map)` into a helper's `**kwargs` entry (simple-faster-rcnn, scan 38)
        elif isinstance(node, cst.Subscript):
            parent = parsed.parents.get(parsed.parents.get(node, node), None)
            if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and parent.targets[0].target is node:
                value = parent.value
    if value is None:
        for node in meta.positions:  # a display entry: from its key's start to its value's end
            if isinstance(node, cst.DictElement):
                start, end = meta.positions[node.key], meta.positions[node.value]
                if (start.start.line + meta.line_offset, start.start.column, end.end.line + meta.line_offset, end.end.column) == key:
                    value = node.value
    if value is None:
        raise NotApplicable("no checkpoint entry at the fix's position (the file changed?)")
    called = value.func.value if isinstance(value, cst.Call) and isinstance(value.func, cst.Name) else value.func.attr.value if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) else ""
    if called == func:
        raise NotApplicable(f"the entry already calls `{func}`")
    if func == "item":
        # a NumPy scalar of a dtype not known here, and perhaps a Python number on another path
        # (`best_pred = 0.0`, then a NumPy metric when validation runs): `np.asarray(x).item()`
        # gives the Python number in both cases, where `x.item()` fails on a float
        numpy = numpy_alias(parsed)
        wrapped = cst.Call(func=cst.Attribute(value=cst.Name(numpy), attr=cst.Name("asarray")), args=[cst.Arg(value=value)])
        return replace_node(parsed, value, cst.Call(func=cst.Attribute(value=wrapped, attr=cst.Name("item"))))
    return replace_node(parsed, value, cst.Call(func=cst.Name(func), args=[cst.Arg(value=value)]))
