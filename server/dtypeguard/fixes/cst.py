"""One libcst parse per text, with positions and parents, and the lookups every fix needs.

libcst is what keeps the user's formatting: a transform replaces only the nodes it changes
and `Module.code` reproduces every other character. Parsing a 2,000-line file costs most of a
second here, so a parse (with its position and parent metadata) is cached by text: the code
actions offered for one buffer, and all fixes of one `fix_all` round, share it.
"""

from __future__ import annotations

import bisect
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import cast

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, ParentNodeProvider, PositionProvider

from dtypeguard.findings import Span

log = logging.getLogger("dtypeguard.fixes")

RangeKey = tuple[int, int, int, int]


@dataclass(frozen=True)
class _StatementMeta:
    """Positions (in file coordinates) and parents of one top-level statement's subtree."""

    positions: Mapping[cst.CSTNode, CodeRange]
    line_offset: int
    by_range: Mapping[RangeKey, tuple[cst.CSTNode, ...]]


@dataclass
class Parsed:
    """A parsed module whose position metadata is resolved per top-level statement, lazily.

    Resolving positions and parents for a whole 2,000-line module takes seconds here, while a
    fix only ever looks inside the one statement its span points into: each statement is
    wrapped in a module of its own (the nodes are shared, so replacements still find them) and
    its positions are shifted by the statement's first line, which the stdlib `ast` gives.
    """

    module: cst.Module
    starts: list[int]  # first line of each top-level statement (its first decorator, if any)
    parents: dict[cst.CSTNode, cst.CSTNode] = field(default_factory=dict)
    _meta: dict[int, _StatementMeta] = field(default_factory=dict)

    def _statement_meta(self, i: int) -> _StatementMeta:
        cached = self._meta.get(i)
        if cached is not None:
            return cached
        stmt = self.module.body[i]
        sub = self.module.with_changes(body=[stmt], header=[], footer=[])
        meta = MetadataWrapper(sub, unsafe_skip_copy=True).resolve_many([PositionProvider, ParentNodeProvider])
        positions = cast(Mapping[cst.CSTNode, CodeRange], meta[PositionProvider])
        parents = cast(Mapping[cst.CSTNode, cst.CSTNode], meta[ParentNodeProvider])
        offset = self.starts[i] - (1 + len(stmt.leading_lines))
        by_range: dict[RangeKey, list[cst.CSTNode]] = {}
        for node, r in positions.items():
            by_range.setdefault((r.start.line + offset, r.start.column, r.end.line + offset, r.end.column), []).append(node)
        for node, parent in parents.items():
            if parent is not sub:
                self.parents[node] = parent
        result = _StatementMeta(positions, offset, {k: tuple(v) for k, v in by_range.items()})
        self._meta[i] = result
        return result

    def statement_index(self, line: int) -> int | None:
        i = bisect.bisect_right(self.starts, line) - 1
        return i if i >= 0 else None

    def ancestors(self, node: cst.CSTNode) -> list[cst.CSTNode]:
        out: list[cst.CSTNode] = []
        current = self.parents.get(node)
        while current is not None:
            out.append(current)
            current = self.parents.get(current)
        return out

    def expression_at(self, span: Span) -> cst.BaseExpression | None:
        """The outermost expression whose range (without its parentheses) is exactly `span`."""
        i = self.statement_index(span.line)
        if i is None:
            return None
        meta = self._statement_meta(i)
        nodes = [n for n in meta.by_range.get((span.line, span.col, span.end_line, span.end_col), ()) if isinstance(n, cst.BaseExpression)]
        for node in nodes:
            parent = self.parents.get(node)
            if parent is None or parent not in nodes:
                assert isinstance(node, cst.BaseExpression)
                return node
        return None

    def call_at(self, span: Span) -> cst.Call | None:
        """The call at `span`; when the span is a bigger expression, the outermost call in it
        that starts where it starts (a rule may point at `x = f(...)` or at `f(...)`)."""
        expr = self.expression_at(span)
        if isinstance(expr, cst.Call):
            return expr
        i = self.statement_index(span.line)
        if i is None:
            return None
        meta = self._statement_meta(i)
        best: tuple[int, int] | None = None
        found: cst.Call | None = None
        for node, r in meta.positions.items():
            if isinstance(node, cst.Call) and (r.start.line + meta.line_offset, r.start.column) == (span.line, span.col):
                end = (r.end.line + meta.line_offset, r.end.column)
                if end <= (span.end_line, span.end_col) and (best is None or end > best):
                    best, found = end, node
        return found

    def index_after_line(self, line: int) -> int:
        """Index in the module body of the first statement that starts after `line`."""
        return bisect.bisect_right(self.starts, line)


def _statement_starts(module: cst.Module, text: str) -> list[int] | None:
    """First lines of libcst's top-level statements, from `ast` (one libcst line `a; b` is
    several ast statements)."""
    from dtypeguard.engine.source import first_line, parse_quiet

    tree = parse_quiet(text)
    if tree is None:
        return None
    starts: list[int] = []
    k = 0
    for stmt in module.body:
        if k >= len(tree.body):
            return None
        starts.append(first_line(tree.body[k]))
        k += len(stmt.body) if isinstance(stmt, cst.SimpleStatementLine) else 1
    return starts if k == len(tree.body) else None


@lru_cache(maxsize=8)
def parse(text: str) -> Parsed | None:
    """Parse once per text (cached); None when libcst cannot parse it."""
    try:
        module = cst.parse_module(text)
    except (cst.ParserSyntaxError, RecursionError, ValueError) as exc:
        log.info("libcst cannot parse the file: %s", exc)
        return None
    starts = _statement_starts(module, text)
    if starts is None:
        log.info("libcst and ast disagree about the file's statements")
        return None
    return Parsed(module, starts)


def needs_parens(expr: cst.BaseExpression) -> bool:
    """Whether `expr.attr` would bind to a part of `expr` instead of all of it."""
    if expr.lpar:
        return False
    return isinstance(
        expr,
        (
            cst.BinaryOperation, cst.BooleanOperation, cst.Comparison, cst.UnaryOperation, cst.IfExp,
            cst.Lambda, cst.NamedExpr, cst.Await, cst.Yield, cst.Integer, cst.ConcatenatedString,
        ),
    )


def parenthesized(expr: cst.BaseExpression) -> cst.BaseExpression:
    return expr.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()]) if needs_parens(expr) else expr


def render(node: cst.CSTNode) -> str:
    return cst.Module(body=[]).code_for_node(node)
