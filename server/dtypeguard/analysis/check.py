"""The one entry point every shell uses: text in, findings and facts out.

The CLI, the language server, the fixes and the tests all call `check_source`; none of them
re-derives what the engine knows. Hover and inlay hints read the same `CheckResult`.
"""

from __future__ import annotations

import ast
import gc
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from dtypeguard.config import Config
from dtypeguard.engine.events import Events, Facts
from dtypeguard.engine.imports import Reader
from dtypeguard.engine.interpreter import Interpreter
from dtypeguard.engine.parse import LineIndex, ParseFailure, parse
from dtypeguard.engine.source import call_name
from dtypeguard.findings import CALL_RUNS_IT, SUPPRESS_COMMENT, Finding, Related, Severity, Span
from dtypeguard.rules import PARSE_ERROR, RULES
from dtypeguard.rules.base import Context


@dataclass
class CheckResult:
    findings: list[Finding]
    parsed: bool = True
    events: Events | None = None
    facts: Facts | None = None
    index: LineIndex | None = None
    optimizer_sites: list[tuple[Span, str]] = field(default_factory=list)  # (span, class) for the lens
    internal_error: str = ""
    dependencies: dict[str, str] = field(default_factory=dict)  # the project's files it imported, with the text read
    tree: ast.Module | None = None  # the parsed text, when it was analysed
    # the last result's findings moved with the lines (blank or comment lines added or removed:
    # `Analyzer.shifted`), without fixes; its events and facts are the last text's: for
    # diagnostics only, until the real analysis of the same text replaces it
    provisional: bool = False
    # findings whose root is in another of the project's files (`span.file`: a `.double()` in
    # `models.py`), shown there as that file's: their spans in this file carry this file's path.
    # The same hazard is in `findings` too, at its place here.
    elsewhere: list[Finding] = field(default_factory=list)


def check_source(text: str, path: str | None = None, config: Config | None = None, reader: Reader | None = None) -> CheckResult:
    """Analyse one file. The cyclic GC is paused meanwhile: the engine allocates many
    short-lived, acyclic objects (freed by reference counting), and collections that walk a
    language server's whole heap would otherwise cost a sixth of the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _check(text, path, config, reader)
    finally:
        if enabled:
            gc.enable()


def _check(text: str, path: str | None, config: Config | None, reader: Reader | None = None) -> CheckResult:
    config = config or Config()
    index = LineIndex(text)
    tree = parse(text)
    if isinstance(tree, ParseFailure):
        return parse_failed(tree, index, path, config)
    interp = Interpreter(tree, index, path, reader)
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
    result = apply_rules(interp.events, interp.facts, index, text, tree, path, config, interp.entered_from if interp.modules else None, interp.module_indexes)
    result.dependencies = dict(interp.dependencies)
    result.tree = tree
    return result


def apply_rules(
    events: Events, facts: Facts, index: LineIndex, text: str, tree: ast.Module, path: str | None, config: Config,
    entered: Callable[[Span], Span | None] | None = None, others: Mapping[str, LineIndex] | None = None,
) -> CheckResult:
    """The rules over what an interpretation of `tree` recorded, suppressions read in `text`."""
    ctx = Context(events, facts, index, text, tree)
    findings: list[Finding] = []
    seen: dict[tuple[str, Span], int] = {}
    for rule in RULES:
        if not config.enabled(rule.code, path):
            continue
        for finding in rule.check(ctx):
            key = (finding.code, finding.span)
            if key in seen:
                # one root, one finding: the same hazard failing at a second line (two loss
                # calls on one int32 target) adds that line to the first finding's related places
                first = findings[seen[key]]
                extra = tuple(r for r in finding.related if r not in first.related)
                findings[seen[key]] = replace(first, related=(*first.related, *extra))
                continue
            seen[key] = len(findings)
            override = config.severity_for(finding.code)
            if override:
                finding = replace(finding, severity=Severity(override))
            findings.append(finding)
    placed = [(f, _anchor_here(f, entered)) for f in findings]
    anchored = [(f, here) for f, here in placed if here is not None and not _suppressed(here, index)]
    findings = [here for _, here in anchored]
    elsewhere = [_theirs(f, path) for f, _ in anchored if f.span.file and path and others and f.span.file in others]
    # a load without `map_location` in a project file that a call here ran (FastSpeech2's
    # `utils/model.py` get_model, called by train.py, which runs on the CPU too): that file's
    # finding, shown there, not here (see _NOT_ANCHORED_AT_CALLS)
    elsewhere += [
        _theirs(f, path) for f, here in placed
        if here is None and f.code in _NOT_ANCHORED_AT_CALLS and f.span.file and path and others and f.span.file in others
        and entered is not None and (call := entered(f.span)) is not None and _loads_weights(f.span, others[f.span.file], call, tree)
    ]
    elsewhere = [f for f in elsewhere if not _suppressed(replace(f, related=()), others[f.span.file])] if others else []
    findings.sort(key=lambda f: (f.span, f.code))
    sites: dict[Span, str] = {}
    for new in events.optimizers:
        sites.setdefault(new.span, new.opt.cls)
    return CheckResult(findings, True, events, facts, index, sorted(sites.items()), elsewhere=sorted(elsewhere, key=lambda f: (f.span.file, f.span, f.code)))


def _loads_weights(load: Span, index: LineIndex, caller_at: Span | None = None, here: ast.Module | None = None) -> bool:
    """Whether a load in another file reads model weights that its own function puts into a
    module (`model.load_state_dict(ckpt["model"])`, through the names it assigns on the way),
    and the class (or else top-level function) around it writes no file with `torch.save`.
    Weights are what a GPU run saves on the GPU; a dataset's processed tensors, a dictionary of
    features or a cache the same code writes (a trainer's own resume checkpoint too) are files
    whose devices this run did not see, so such a load is not reported from a caller."""
    try:
        tree = ast.parse("\n".join(index.lines))
    except (SyntaxError, ValueError):
        return False
    around = [n for n in ast.walk(tree) if isinstance(n, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and n.lineno <= load.line <= (n.end_lineno or n.lineno)]
    funcs = [n for n in around if not isinstance(n, ast.ClassDef)]
    classes = [n for n in around if isinstance(n, ast.ClassDef)]
    if not funcs:
        return False
    func = max(funcs, key=lambda n: n.lineno)
    scope: ast.AST = max(classes, key=lambda n: n.lineno) if classes else min(funcs, key=lambda n: n.lineno)
    if any(_is_torch_save(n) for n in ast.walk(scope)):
        return False
    call = next((n for n in ast.walk(func) if isinstance(n, ast.Call) and n.lineno == load.line and n.col_offset == load.col and call_name(n) == "load"), None)
    if call is None:
        return False
    if _into_state_dict(func, call):
        return True
    # `def load_checkpoint(path): return torch.load(path)` whose caller here puts what it returns
    # into a module (`model.load_state_dict(utils.load_checkpoint(path))`: CSI, scan 37)
    held = {t.id for n in ast.walk(func) if isinstance(n, ast.Assign) and call in ast.walk(n.value) for target in n.targets for t in ast.walk(target) if isinstance(t, ast.Name)}
    returned = any(isinstance(n, ast.Return) and n.value is not None and (call in ast.walk(n.value) or _mentions(n.value, held)) for n in ast.walk(func))
    if not returned or caller_at is None or here is None:
        return False
    caller = next((n for n in ast.walk(here) if isinstance(n, ast.Call) and n.lineno == caller_at.line and n.col_offset == caller_at.col), None)
    if caller is None:
        return False
    enclosing = [n for n in ast.walk(here) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.lineno <= caller.lineno <= (n.end_lineno or n.lineno)]
    return _into_state_dict(max(enclosing, key=lambda n: n.lineno) if enclosing else here, caller)


def _into_state_dict(func: ast.AST, call: ast.Call) -> bool:
    """Whether what `call` gives reaches `load_state_dict` in `func`: as its argument, or through
    the names it is assigned to on the way (`ckpt`, `pretrained = ckpt["w"]`, `sd.update(pretrained)`)."""
    into = [n for n in ast.walk(func) if isinstance(n, ast.Call) and call_name(n) == "load_state_dict"]
    if any(call in ast.walk(arg) for n in into for arg in n.args):
        return True  # `model.load_state_dict(torch.load(path))`
    tracked: set[str] = set()
    for _ in range(4):
        for node in ast.walk(func):
            if isinstance(node, ast.Assign) and (call in ast.walk(node.value) or _mentions(node.value, tracked)):
                tracked |= {t.id for target in node.targets for t in ast.walk(target) if isinstance(t, ast.Name)}
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Name) and any(_mentions(a, tracked) for a in node.args):
                tracked.add(node.func.value.id)
    return any(_mentions(arg, tracked) for n in into for arg in n.args)


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _is_torch_save(node: ast.AST) -> bool:
    """`torch.save(...)`, `th.save(...)`, `save(...)` (any `<name>.save` counts: erring towards
    "this code writes files" only keeps a finding from being shown)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id == "save") or (isinstance(func, ast.Attribute) and func.attr == "save" and isinstance(func.value, ast.Name))


def _theirs(finding: Finding, path: str) -> Finding:
    """A finding rooted in another file, as that file's: its places in the checked file (where it
    fails) name the checked file, and the message says which file runs it. No fixes: an edit of
    another file is made from that file."""
    here = str(Path(path).resolve())
    related = tuple(replace(r, span=replace(r.span, file=here)) if not r.span.file else r for r in finding.related)
    return replace(finding, related=related, fixes=(), message=f"{finding.message} (when {Path(path).name} runs it)")


# A finding wholly inside imported code that a call here ran (the float64 buffer the input here
# meets, the float16 model made here that the imported trainer's Adam steps) is shown at that call.
# Not DG010: a load without `map_location` there reads a file that code names itself; whether it
# was saved on a GPU does not depend on what this file passes, so it is that file's to report.
_NOT_ANCHORED_AT_CALLS = frozenset({"DG010"})


def _anchor_here(finding: Finding, entered: Callable[[Span], Span | None] | None = None) -> Finding | None:
    """A finding whose root is in an imported file (a `.double()` model class in `models.py`)
    is shown in the checked file, at the first of its places here (where it fails, where the
    data is made), or else at the call here that ran the imported code where it fails; the
    root is related information. Code of the imported file that runs on its own (at import) is
    that file's to report, not this one's."""
    if any(fix.span.file for fix in finding.fixes):  # an edit in another file is not this file's to make
        finding = replace(finding, fixes=tuple(fix for fix in finding.fixes if not fix.span.file))
    if not finding.span.file:
        return finding
    here = next((r for r in finding.related if not r.span.file), None)
    if here is None and entered is not None and finding.code not in _NOT_ANCHORED_AT_CALLS:
        fails = [r.span for r in finding.related if r.fails]
        places = [*fails, finding.span, *(r.span for r in finding.related if r.span not in fails)]  # (a config module's entry runs at import; the optimizer it reaches, from a call here)
        call = next((c for c in (entered(s) for s in places) if c is not None), None)
        if call is not None:
            here = Related(call, CALL_RUNS_IT)
    if here is None:
        return None
    where = f"{Path(finding.span.file).name}:{finding.span.line}"
    root = Related(finding.span, "the fix goes here")
    rest: list[Related] = []
    for r in finding.related:
        if r is here:
            continue
        rest.append(r)
        call = entered(r.span) if entered is not None and r.fails and r.span.file else None
        if call is not None and call != here.span and not call.file:
            rest.append(Related(call, CALL_RUNS_IT))  # (the other place it fails, reached from here)
    return replace(finding, span=here.span, message=f"{finding.message} (root in {where})", related=(root, here, *rest) if here.fails else (root, *rest))


def _suppressed(finding: Finding, index: LineIndex) -> bool:
    """A suppression comment on the finding's line, or on the line it says fails."""
    lines = {finding.span.line, finding.span.end_line}
    lines |= {r.span.line for r in finding.related if r.fails}
    for line in lines:
        text = index.line_text(line)
        if "dtypeguard" not in text:
            continue
        match = SUPPRESS_COMMENT.search(text)
        if match is None:
            continue
        codes = match.group(1)
        if codes is None or finding.code in {c.strip().upper() for c in codes.split(",")}:
            return True
    return False
