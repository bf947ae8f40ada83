"""The one entry point every shell uses: text in, findings and facts out.

The CLI, the language server, the fixes and the tests all call `check_source`; none of them
re-derives what the engine knows. Hover and inlay hints read the same `CheckResult`.
"""

from __future__ import annotations

import ast
import gc
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from dtypeguard.config import Config
from dtypeguard.engine.events import Events, Facts
from dtypeguard.engine.interpreter import Interpreter
from dtypeguard.engine.parse import LineIndex, ParseFailure, parse
from dtypeguard.model import Finding, Severity, Span
from dtypeguard.rules import PARSE_ERROR, RULES
from dtypeguard.rules.base import Context

_SUPPRESS = re.compile(r"#\s*dtypeguard:\s*ignore(?:\[([A-Za-z0-9_,\s]*)\])?")


@dataclass
class CheckResult:
    findings: list[Finding]
    parsed: bool = True
    events: Events | None = None
    facts: Facts | None = None
    index: LineIndex | None = None
    optimizer_sites: list[tuple[Span, str]] = field(default_factory=list)  # (span, class) for the lens
    internal_error: str = ""


def check_source(text: str, path: str | None = None, config: Config | None = None) -> CheckResult:
    """Analyse one file. The cyclic GC is paused meanwhile: the engine allocates many
    short-lived, acyclic objects (freed by reference counting), and collections that walk a
    language server's whole heap would otherwise cost a sixth of the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _check(text, path, config)
    finally:
        if enabled:
            gc.enable()


def _check(text: str, path: str | None, config: Config | None) -> CheckResult:
    config = config or Config()
    index = LineIndex(text)
    tree = parse(text)
    if isinstance(tree, ParseFailure):
        return parse_failed(tree, index, path, config)
    interp = Interpreter(tree, index)
    return interpret(interp, interp.run, text, path, config)


def parse_failed(failure: ParseFailure, index: LineIndex, path: str | None, config: Config) -> CheckResult:
    finding = PARSE_ERROR.finding(failure.message, failure.span)
    return CheckResult([finding] if config.enabled("DG000", path) else [], parsed=False, index=index)


def interpret(interp: Interpreter, run: Callable[[], object], text: str, path: str | None, config: Config) -> CheckResult:
    """Run the interpreter (`run` drives it: from the start, or resumed from a snapshot), then
    the rules over what it recorded."""
    index, tree = interp.index, interp.tree
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(max(limit, 4000))
        run()
    except RecursionError:
        return CheckResult([PARSE_ERROR.finding("not analysed: the code is nested too deeply", Span(1, 0, 1, 0))], parsed=False, index=index)
    except Exception as exc:
        return CheckResult([], events=interp.events, facts=interp.facts, index=index, internal_error=f"{type(exc).__name__}: {exc}")
    finally:
        sys.setrecursionlimit(limit)
    return apply_rules(interp.events, interp.facts, index, text, tree, path, config)


def apply_rules(events: Events, facts: Facts, index: LineIndex, text: str, tree: ast.Module, path: str | None, config: Config) -> CheckResult:
    """The rules over what an interpretation of `tree` recorded, suppressions read in `text`."""
    ctx = Context(events, facts, index, text, tree)
    findings: list[Finding] = []
    seen: set[tuple[str, Span, str]] = set()
    for rule in RULES:
        if not config.enabled(rule.code, path):
            continue
        for finding in rule.check(ctx):
            key = (finding.code, finding.span, finding.message)
            if key in seen:
                continue
            seen.add(key)
            override = config.severity_for(finding.code)
            if override:
                finding = replace(finding, severity=Severity(override))
            findings.append(finding)
    findings = [f for f in findings if not _suppressed(f, index)]
    findings.sort(key=lambda f: (f.span, f.code))
    sites: dict[Span, str] = {}
    for new in events.optimizers:
        sites.setdefault(new.span, new.opt.cls)
    return CheckResult(findings, True, events, facts, index, sorted(sites.items()))


def _suppressed(finding: Finding, index: LineIndex) -> bool:
    """A suppression comment on the finding's line, or on the line it says fails."""
    lines = {finding.span.line, finding.span.end_line}
    lines |= {r.span.line for r in finding.related if r.message.startswith("fails here")}
    for line in lines:
        text = index.line_text(line)
        if "dtypeguard" not in text:
            continue
        match = _SUPPRESS.search(text)
        if match is None:
            continue
        codes = match.group(1)
        if codes is None or finding.code in {c.strip().upper() for c in codes.split(",")}:
            return True
    return False
