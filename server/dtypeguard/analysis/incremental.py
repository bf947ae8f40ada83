"""Analysis of one document as it is edited: each analysis reuses what the last one knew.

A language server analyses the same file on every keystroke, and a keystroke changes one
top-level statement. Two things are reused (and the rules' scans of the tree, below), nothing else:

* **Parsing.** The text is cut into chunks at lines that may begin a top-level statement, and
  each chunk is parsed on its own, cached by its text and first line. A cut that falls inside
  a string or a bracket leaves a chunk that does not parse, as does a half-typed statement:
  then the rest of the text, from that chunk on, is parsed in one piece. If it parses, it was
  a bad cut and the piece is one chunk; if not, its error is the text's first error. Every chunk that parses ends at a statement boundary, so the chunks'
  statements are exactly the module's (tested against `ast.parse`).
* **Interpretation.** Top-level statements run in order, and the machine between two of them
  is a `Snapshot`. Each run keeps one, taken before the first chunk that changed, because the
  next keystroke usually lands in the same place; the next run, if its text is unchanged up to
  that chunk (the very same node objects), resumes from it instead of from the first line.

Everything after the resumed chunk runs again, then the functions nobody called and all the
rules, so a result is always what `check_source` gives for the same text (tested by applying
random edits to real training files and comparing the two). "Runs again" ends early where the
machine, past the edited chunk, is what the last run had at the same place (`engine.resume.
Converge`): the last run's records of the rest are taken over. "The same" allows globals to
differ only where no code the rest runs names them: the rest's own text and the lines of
every function it ran last time (a function defined above and called below reads globals too).

A file that does everything in a `main()` called at the end is one long last chunk, so the
same two steps happen inside that call, between its statements: an edit in `def f` resumes
at main's first statement that runs `f` (a snapshot the last run took there) and, once that
statement has run, ends early where the machine is what the last run had between the same
two statements of main (the same checks, and main's locals too). A keystroke in a function
main calls then costs that function's call, not main's. (Not the first keystroke of a new
statement: one statement more than last time moves the engine's counters, so that run goes
to the end of main; the next keystroke compares with it.)

The rules' scans of the whole tree are kept per top-level statement on the statement object
(`rules.base.Context.any_node`): the statements an edit did not touch are the same objects,
so only the edited ones are walked again.

An edit that only adds or removes blank or comment lines has `shifted`: the last findings
moved with the lines, at once (positions in their messages too), for the language server to
publish until `check` of the same text (which runs everything below the edit again) replaces it.
"""

from __future__ import annotations

import ast
import bisect
import gc
import logging
import re
from collections.abc import Callable, Sequence
from dataclasses import replace

from dtypeguard.analysis.check import (
    CheckResult,
    apply_rules,
    check_source,
    interpret,
    parse_failed,
)
from dtypeguard.config import Config
from dtypeguard.engine.events import Events, Facts
from dtypeguard.engine.imports import Reader
from dtypeguard.engine.interpreter import Interpreter
from dtypeguard.engine.parse import LineIndex, ParseFailure, freezes_parameters, parse
from dtypeguard.engine.resume import Converge, EntryKeep, EntryTrace, Patch, Ran, Snapshot, Uncalled
from dtypeguard.engine.values import Func
from dtypeguard.findings import Finding, Span

log = logging.getLogger(__name__)

Chunk = tuple[int, str]  # (first line, text)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)
MAX_COMPARED_LINES = 200  # a changed chunk up to this long is compared with its last tree

_CONTINUES = re.compile(r"(?:else|elif|except|finally)\b")
_DEFINES = re.compile(r"(?:def|class|async)\b")
_TRIPLE = re.compile(r'"""|\'\'\'')


def split_chunks(text: str) -> list[Chunk]:
    """Cut before every line that looks like the start of a top-level statement.

    A guess is only a guess: a wrong cut makes a chunk fail to parse, never a wrong tree."""
    chunks: list[Chunk] = []
    start, lines = 0, text.split("\n")
    in_string: str | None = None  # the triple quote open at the start of the line
    decorating = False
    for i, line in enumerate(lines):
        quotes = _TRIPLE.findall(line) if ('"""' in line or "'''" in line) else ()
        if in_string is None and i > start and line and line[0] not in " \t\f\r#)]}\\":
            if decorating and (line[0] == "@" or _DEFINES.match(line)):
                decorating = line[0] == "@"
            elif not _CONTINUES.match(line):
                chunks.append((start + 1, "\n".join(lines[start:i]) + "\n"))
                start = i
                decorating = line[0] == "@"
        elif i == start:
            decorating = line[:1] == "@"
        for quote in quotes:
            if in_string is None:
                in_string = quote
            elif in_string == quote:
                in_string = None
    chunks.append((start + 1, "\n".join(lines[start:])))
    return chunks


class Analyzer:
    """`check_source` for one document across its versions (not thread-safe: one caller).

    The analysis of an open document: `check(text)` gives the same `CheckResult` as a fresh
    `check_source(text)`, reusing what the last check of this document knew (see the module
    docstring)."""

    def __init__(self) -> None:
        self._parsed: dict[Chunk, list[ast.stmt] | ParseFailure] = {}  # the last text's chunks (and failures)
        # the chunks the last run interpreted, in order, and their statements: kept while the
        # text does not parse, to resume after it
        self._good: dict[Chunk, list[ast.stmt]] = {}
        self._last_imports: tuple[Callable[[Span], Span | None] | None, dict[str, LineIndex]] = (None, {})
        self._last: tuple[Events, Facts] | None = None  # what the last run recorded...
        self._last_tree = ast.Module(body=[], type_ignores=[])  # ...of this tree
        self.reused = False  # the last check reused the last run whole (for tests)
        self._snapshot: Snapshot | None = None  # the text does not parse, to resume after it
        self._entry_snapshot: Snapshot | None = None  # inside the entry call (`main()`)
        self._trace: EntryTrace | None = None  # what the last run's entry call ran, statement by statement
        self._uncalled: Uncalled | None = None  # the last run's functions nobody called (engine.resume.Uncalled)
        self.uncalled_reused = False
        self.resumed_from = -1  # the chunk the last check resumed at (-1: from the top); for tests
        self.resumed_in_entry = -1  # ...and the entry call's statement, when it resumed inside it
        self._freezes = False  # the last text froze parameters somewhere (engine.parse.freezes_parameters)
        self._imports = False  # the last text imported the project's own modules: analysed whole
        # what the last run kept for ending the next one early (engine.resume.Converge)
        self._boundaries: dict[int, Snapshot] = {}
        self._floors: dict[int, int] = {}
        self._touched: dict[int, Ran] = {}  # per chunk: the function nodes it ran
        self._entry_boundaries: dict[int, Snapshot] = {}  # ...and inside the entry call
        self._entry_floors: dict[int, int] = {}
        self._names: dict[str, frozenset[str]] = {}  # a chunk's text -> the names it mentions
        self._own_names: dict[tuple[str, int, int], frozenset[str]] = {}  # ...and a function's lines in it
        self.converged_at = -1  # the chunk the last check stopped running at (-1: ran to the end); for tests
        self.entry_converged_at = -1  # ...or the entry call's statement; for tests
        self._base: tuple[str, str | None, Config, CheckResult] | None = None  # the last full result, for `shifted`

    def check(self, text: str, path: str | None = None, config: Config | None = None, reader: Reader | None = None) -> CheckResult:
        """A file that imports the project's own modules is analysed whole each time (what it
        imports may have changed since; resuming would not see that): correct first, the
        incremental reuse is for the single-file case."""
        config = config or Config()
        if self._imports:
            result = check_source(text, path, config, reader)
            self._imports = bool(result.dependencies)
            return result
        enabled = gc.isenabled()
        gc.disable()  # as in `check_source`: no collections over the engine's young objects
        try:
            result = self._check(text, path, config, reader)
        except Exception:  # a bug in the reuse must cost speed, never a result
            log.exception("incremental analysis failed; analysing from scratch")
            self._parsed = {}
            self._forget()
            return check_source(text, path, config, reader)
        finally:
            if enabled:
                gc.enable()
        if result.dependencies:
            self._imports = True
            self._parsed = {}
            self._forget()
        self._base = (text, path, config, result) if result.parsed and not result.internal_error and self._good else None
        return result

    def shifted(self, text: str, path: str | None = None, config: Config | None = None) -> CheckResult | None:
        """The last result with its findings moved, when `text` differs from the last text
        checked only by blank or comment-only lines added or removed (not in a string, not
        a suppression): then what the engine finds is the same, lines below the edit moved.
        None otherwise. A provisional result, for diagnostics at once: `check(text)` gives the
        real one (tested equal)."""
        base = self._base
        if base is None or self._imports:
            return None
        old_text, old_path, old_config, result = base
        if path != old_path or (config or Config()) != old_config or "\r" in text or "\x00" in text:
            return None
        old, new = old_text.split("\n"), text.split("\n")
        delta = len(new) - len(old)
        if delta == 0:
            return None
        p = _common(old, new)
        s = min(_common(old[::-1], new[::-1]), len(old) - p, len(new) - p)
        if any(not _blank_or_comment(line) for line in (*old[p : len(old) - s], *new[p : len(new) - s])):
            return None
        if not self._same_tree_around(old, new, p, len(old) - s, delta):
            return None
        if freezes_parameters(text) != self._freezes:
            return None
        after = p  # old lines after this one move by `delta`
        if any(_in_removed(f, after, delta) for f in result.findings):
            return None
        findings = sorted((_shift_finding(f, after, delta) for f in result.findings), key=lambda f: (f.span, f.code))
        sites = [(_shift(span, after, delta), cls) for span, cls in result.optimizer_sites]
        return replace(result, findings=findings, index=LineIndex(text), optimizer_sites=sites, provisional=True)

    def _same_tree_around(self, old: list[str], new: list[str], first: int, last: int, delta: int) -> bool:
        """Lines `first`..`last` (0-based, end exclusive) of the old text lie in one chunk, and
        that chunk with the new lines parses to the same statements (positions aside)."""
        anchor = max(first - 1, 0)  # 0-based: the old line before the edit (or the first)
        chunks = list(self._good.items())
        for k, ((start, chunk), body) in enumerate(chunks):
            final = k == len(chunks) - 1  # the last chunk runs to the end of the text
            count = len(chunk.split("\n")) if final else chunk.count("\n")
            if not start - 1 <= anchor < start - 1 + count:
                continue
            if last > start - 1 + count:
                return False  # the edit reaches into the next chunk
            new_chunk = "\n".join(new[start - 1 :]) if final else "\n".join(new[start - 1 : start - 1 + count + delta]) + "\n"
            tree = parse(new_chunk, start)
            if isinstance(tree, ParseFailure):
                return False
            return _dump(tree.body, False) == _dump(body, False)
        return False

    def _check(self, text: str, path: str | None, config: Config, reader: Reader | None = None) -> CheckResult:
        self.resumed_from, self.resumed_in_entry, self.reused, self.converged_at, self.entry_converged_at = -1, -1, False, -1, -1
        parsed = self._parse(text)
        if isinstance(parsed, ParseFailure):  # mid-typing: keep what the last run knew
            return parse_failed(parsed, LineIndex(text), path, config)
        if parsed is None:
            self._forget()
            return check_source(text, path, config, reader)
        keys, bodies = parsed
        freezes = freezes_parameters(text)
        if freezes != self._freezes:  # a file-wide fact the earlier chunks were analysed with changed:
            self._freezes = freezes  # nothing from the last run is reused
            self._forget()
        bodies = self._same_as_before(keys, bodies)
        old_bodies = list(self._good.values())
        changed = _first_difference(old_bodies, bodies)
        if changed == len(bodies) == len(old_bodies) and self._last is not None:
            self.reused = True  # nothing but comments and blank space changed: only the rules run
            self._good = dict(zip(keys, bodies, strict=True))
            return apply_rules(*self._last, LineIndex(text), text, self._last_tree, path, config, *self._last_imports)
        resume, entry_keep, patch = self._entry_plan(old_bodies, bodies, changed)
        if resume is None and self._snapshot is not None and self._snapshot.chunk <= changed:
            resume = self._snapshot
        tree = ast.Module(body=[stmt for body in bodies for stmt in body], type_ignores=[])
        interp = Interpreter(tree, LineIndex(text), path, reader)
        kept: list[Snapshot | None] = [None, None]
        converge = self._converge_plan(old_bodies, bodies, changed, keys, text)

        def run() -> None:
            kept[:] = interp.run_chunks(bodies, resume, keep=changed, entry_keep=entry_keep, patch=patch, converge=converge)

        result = interpret(interp, run, text, path, config)
        if not result.parsed or result.internal_error:
            self._forget()
            if result.internal_error and resume is not None:  # never a reuse bug's fault
                log.warning("resumed analysis failed (%s); analysing from scratch", result.internal_error)
                return check_source(text, path, config, reader)
            return result
        if resume is not None and resume.frame is not None:  # resumed inside the entry call
            self.resumed_from, self.resumed_in_entry = resume.chunk, resume.frame.index
            if self._snapshot is not None and self._snapshot.chunk > changed:
                self._snapshot = None  # it ran the old chunk `changed`
        else:
            self.resumed_from = resume.chunk if resume is not None else -1
            self._snapshot = kept[0]
        self._entry_snapshot, self._trace = kept[1], interp.entry_trace
        self._boundaries, self._floors, self.converged_at = interp.boundaries, interp.floors, interp.converged_at
        self._touched, self._entry_boundaries, self._entry_floors = interp.chunk_touched, interp.entry_boundaries, interp.entry_floors
        self.entry_converged_at = interp.entry_converged_at
        self._uncalled, self.uncalled_reused = interp.uncalled, interp.uncalled_reused
        self._good = dict(zip(keys, bodies, strict=True))
        self._last, self._last_tree = (interp.events, interp.facts), tree
        # (the imported files' places, for findings rooted there: shown here and there)
        self._last_imports = (interp.entered_from if interp.modules else None, dict(interp.module_indexes))
        return result

    def _same_as_before(self, keys: list[Chunk], bodies: list[list[ast.stmt]]) -> list[list[ast.stmt]]:
        """Where a chunk's text changed but not its tree (a comment, spaces at a line's end),
        keep the last run's statements for it: for the interpreter it did not change."""
        old_keys, old_bodies = list(self._good), list(self._good.values())
        if len(old_keys) != len(keys):
            return bodies
        out = list(bodies)
        for i, (key, old) in enumerate(zip(keys, old_keys, strict=True)):
            if out[i] is old_bodies[i] or key[0] != old[0] or key[1].count("\n") != old[1].count("\n"):
                continue
            if old[1].count("\n") > MAX_COMPARED_LINES or not _may_keep_tree(old[1], key[1]):
                continue
            if _dump(out[i]) == _dump(old_bodies[i]):
                out[i] = old_bodies[i]
        return out

    def _entry_plan(self, old: list[list[ast.stmt]], bodies: list[list[ast.stmt]], changed: int) -> tuple[Snapshot | None, EntryKeep | None, Patch | None]:
        """When the one chunk that changed is `def f` and the last run's entry call (`main()`)
        reaches `f` only at its statement j: a snapshot to take before statement j, and, if
        the last run took one there for this very `def f`, the snapshot to resume from."""
        trace = self._trace
        if trace is None or changed >= trace.chunk or len(old) != len(bodies):
            return None, None, None
        before, after = old[changed], bodies[changed]
        if not (len(before) == len(after) == 1 and isinstance(before[0], _DEFS) and type(after[0]) is type(before[0])):
            return None, None, None
        old_def, new_def = before[0], after[0]
        assert isinstance(old_def, _DEFS) and isinstance(new_def, _DEFS)
        if old_def.name != new_def.name or old_def is trace.node or id(old_def) in trace.ran_before:
            return None, None, None  # (run before the entry call: resuming inside it is too late)
        index = next((i for i, ran in enumerate(trace.touched) if id(old_def) in ran), len(trace.touched))
        keep = EntryKeep(index, new_def.name, new_def)
        if any(a is not b for a, b in zip(old[changed + 1 :], bodies[changed + 1 :], strict=True)):
            # (lines below moved: new nodes, nothing to resume from; but the next keystroke
            # lands here again, and `index` is still main's statement that calls `name`)
            return None, keep, None
        snap = self._entry_snapshot
        if snap is None or snap.frame is None or snap.frame.target is not old_def or snap.frame.index != index:
            return None, keep, None
        if snap.chunk != trace.chunk or id(old_def) in snap.executed:
            return None, keep, None
        return snap, keep, Patch(old_def, Func(new_def, new_def.name))

    def _converge_plan(self, old: list[list[ast.stmt]], bodies: list[list[ast.stmt]], changed: int, keys: list[Chunk], text: str) -> Converge | None:
        """What this run needs to end early (engine.resume.Converge): the last run's
        snapshots past the chunks that changed (or inside the entry call), when the chunks
        after those are the same."""
        if len(old) != len(bodies) or not (self._boundaries or self._entry_boundaries):
            return None
        after = next(i for i in range(len(bodies), 0, -1) if old[i - 1] is not bodies[i - 1]) if changed < len(bodies) else changed
        if not self._entry_boundaries and not any(after <= b < len(bodies) for b in self._boundaries):
            return None
        ids = frozenset(
            id(node) for body in old[changed:after] for stmt in body for node in ast.walk(stmt)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        )
        live = {text for _, text in keys}
        cache = self._names = {text: got for text, got in self._names.items() if text in live}  # (old chunks go)

        def mentioned(i: int) -> frozenset[str]:
            text = keys[i][1]
            got = cache.get(text)
            if got is None:
                got = cache[text] = frozenset(_WORD.findall(text)) if text.isascii() else _mentioned(bodies[i])
            return got

        starts = [first for first, _ in keys]
        own = self._own_names = {key: got for key, got in self._own_names.items() if key[0] in live}

        def names_of(node: ast.AST) -> frozenset[str]:
            first, last = getattr(node, "lineno", 1), getattr(node, "end_lineno", None) or len(text)
            start, chunk = keys[max(bisect.bisect_right(starts, first) - 1, 0)]
            key = (chunk, first - start, last - start)
            got = own.get(key)
            if got is None:
                lines = chunk.split("\n")[first - start : last - start + 1]
                got = own[key] = frozenset(_WORD.findall("\n".join(lines))) if chunk.isascii() else _mentioned([node])
            return got

        split: list[list[str]] = []

        def stmt_names(stmts: list[ast.stmt]) -> frozenset[str]:
            if not stmts:
                return frozenset()
            if not text.isascii():
                return _mentioned(stmts)
            if not split:
                split.append(text.split("\n"))
            last = stmts[-1].end_lineno or len(split[0])
            return frozenset(_WORD.findall("\n".join(split[0][stmts[0].lineno - 1 : last])))

        roots = frozenset(id(stmt) for body in old[changed:after] for stmt in body)
        return Converge(
            after, self._boundaries, self._floors, mentioned, ids, self._trace, roots, self._touched, names_of, stmt_names,
            self._entry_boundaries, self._entry_floors, self._uncalled,
        )

    def _forget(self) -> None:
        self._base = None
        self._boundaries, self._floors, self._touched, self._entry_boundaries, self._entry_floors = {}, {}, {}, {}, {}
        self._uncalled = None
        self._good, self._snapshot = {}, None
        self._last = None
        self._entry_snapshot, self._trace = None, None

    def _parse(self, text: str) -> tuple[list[Chunk], list[list[ast.stmt]]] | ParseFailure | None:
        """The chunks and their statements, or why the text does not parse; None: not for
        this class (NUL bytes, lone CR line ends)."""
        if "\x00" in text or text.count("\r") != text.count("\r\n"):
            return None
        text = text.removeprefix("\ufeff")
        raw = split_chunks(text)
        cache, good = self._parsed, self._good  # the same key gives the same nodes: resuming needs that
        fresh: dict[Chunk, list[ast.stmt] | ParseFailure] = {}
        keys: list[Chunk] = []
        bodies: list[list[ast.stmt]] = []
        offset = 0
        for key in raw:
            body = fresh[key] = self._lookup(key, good, cache)
            if isinstance(body, ParseFailure):  # a bad cut, or the text does not parse:
                rest = (key[0], text[offset:])  # the rest of the text in one piece tells which
                if rest != key:
                    key, body = rest, self._lookup(rest, good, cache)
                    fresh[key] = body
                if isinstance(body, ParseFailure):
                    self._parsed = fresh
                    return body
                keys.append(key)
                bodies.append(body)
                break
            keys.append(key)
            bodies.append(body)
            offset += len(key[1])
        self._parsed = fresh
        return keys, bodies

    @staticmethod
    def _lookup(key: Chunk, good: dict[Chunk, list[ast.stmt]], cache: dict[Chunk, list[ast.stmt] | ParseFailure]) -> list[ast.stmt] | ParseFailure:
        known = good.get(key)
        if known is not None:
            return known
        cached = cache.get(key)
        if cached is not None:
            return cached
        tree = parse(key[1], key[0])
        return tree if isinstance(tree, ParseFailure) else tree.body


def _first_difference(old: list[list[ast.stmt]], new: list[list[ast.stmt]]) -> int:
    """The first chunk whose statements are not the very objects the last run had."""
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        if a is not b:
            return i
    return min(len(old), len(new))


_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")  # every identifier in ASCII text (and words of comments, strings: more is safe)


def _mentioned(body: Sequence[ast.AST]) -> frozenset[str]:
    """Every name a chunk could look up or bind: names, attributes, definitions, imports,
    parameters, strings (`getattr(m, "x")`). (For non-ASCII text; ASCII text is read by `_WORD`.)"""
    out: set[str] = set()
    for stmt in body:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name):
                out.add(node.id)
            elif isinstance(node, ast.Attribute):
                out.add(node.attr)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.add(node.name)
            elif isinstance(node, ast.alias):
                out.add(node.asname or node.name.split(".")[0])
                out.add(node.name)
            elif isinstance(node, ast.arg):
                out.add(node.arg)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                out.update(node.names)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and len(node.value) < 80:
                out.add(node.value)
    return frozenset(out)


def _dump(body: list[ast.stmt], attributes: bool = True) -> str:
    return ast.dump(ast.Module(body=body, type_ignores=[]), include_attributes=attributes)


def _may_keep_tree(old: str, new: str) -> bool:
    """Could the edit from `old` to `new` leave the tree as it was, positions and all? Only
    when what changed is blank space, or follows a `#` on its line (a comment); anything
    else changes the tree (or, rarely, not: then the chunk merely runs again)."""
    p = _common_chars(old, new)
    s = _common_chars(old[::-1], new[::-1])
    s = min(s, len(old) - p, len(new) - p)
    if not old[p : len(old) - s].strip() and not new[p : len(new) - s].strip():
        return True
    return "#" in new[new.rfind("\n", 0, p) + 1 : p]


def _common_chars(a: str, b: str) -> int:
    if a == b:
        return len(a)
    lo, hi = 0, min(len(a), len(b))  # the longest common prefix, by halves
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common(a: list[str], b: list[str]) -> int:
    """How many leading lines `a` and `b` share."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _blank_or_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or (stripped[0] == "#" and "dtypeguard" not in stripped)


_LINE_IN_TEXT = re.compile(r"\bline (\d+)\b")


def _shift(span: Span, after: int, delta: int) -> Span:
    if span.file or span.end_line <= after:
        return span
    return Span(span.line + delta if span.line > after else span.line, span.col, span.end_line + delta, span.end_col, span.file)


def _shift_text(text: str, after: int, delta: int) -> str:
    if "line " not in text:
        return text
    return _LINE_IN_TEXT.sub(lambda m: f"line {int(m.group(1)) + delta if int(m.group(1)) > after else m.group(1)}", text)


def _shift_finding(f: Finding, after: int, delta: int) -> Finding:
    return replace(
        f,
        span=_shift(f.span, after, delta),
        message=_shift_text(f.message, after, delta),
        related=tuple(replace(r, span=_shift(r.span, after, delta), message=_shift_text(r.message, after, delta)) for r in f.related),
        fixes=(),  # (their parameters hold positions too: a provisional result offers none)
        note=_shift_text(f.note, after, delta),
    )


def _in_removed(f: Finding, after: int, delta: int) -> bool:
    """A place on a removed line (it cannot move): no shortcut."""
    if delta >= 0:
        return False
    spans = [f.span, *(r.span for r in f.related)]
    return any(not s.file and (after < s.line <= after - delta or after < s.end_line <= after - delta) for s in spans)
