"""What a fix transform is: text and a `FixSpec` in, new text out, or a reason it does not apply."""

from __future__ import annotations

from collections.abc import Callable

import libcst as cst

from dtypeguard.findings import FixSpec
from dtypeguard.fixes.cst import Parsed


class NotApplicable(Exception):
    """The fix cannot be applied here; the message says why (logged, and shown by `fix`)."""


Transform = Callable[[Parsed, FixSpec], str]


def replace_node(parsed: Parsed, old: cst.CSTNode, new: cst.CSTNode) -> str:
    """The module's code with one node swapped: everything else is reproduced byte for byte."""
    module = parsed.module.deep_replace(old, new)
    assert isinstance(module, cst.Module)
    return module.code


def expression(source: str) -> cst.BaseExpression:
    try:
        return cst.parse_expression(source)
    except cst.ParserSyntaxError as exc:
        raise NotApplicable(f"`{source}` is not a Python expression") from exc
