"""Analysis of one document as it is edited: each analysis reuses what the last one knew.

A language server analyses the same file on every keystroke, and a keystroke changes one
top-level statement. Two things are reused, and nothing else:

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
random edits to real training files and comparing the two).
"""

from __future__ import annotations

import ast
import gc
import logging
import re

from dtypeguard.analysis import CheckResult, check_source, interpret, parse_failed
from dtypeguard.config import Config
from dtypeguard.engine.interpreter import Interpreter, Snapshot
from dtypeguard.engine.parse import LineIndex, ParseFailure, parse

log = logging.getLogger(__name__)

Chunk = tuple[int, str]  # (first line, text)

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


class IncrementalChecker:
    """`check_source` for one document across its versions (not thread-safe: one caller)."""

    def __init__(self) -> None:
        self._parsed: dict[Chunk, list[ast.stmt] | ParseFailure] = {}  # the last text's chunks (and failures)
        self._chunks: list[Chunk] = []  # the chunks the last run interpreted...
        self._good: dict[Chunk, list[ast.stmt]] = {}  # ...and their statements: kept while
        self._snapshot: Snapshot | None = None  # the text does not parse, to resume after it
        self.resumed_from = -1  # the chunk the last check resumed at (-1: from the top); for tests

    def check(self, text: str, path: str | None = None, config: Config | None = None) -> CheckResult:
        config = config or Config()
        enabled = gc.isenabled()
        gc.disable()  # as in `check_source`: no collections over the engine's young objects
        try:
            return self._check(text, path, config)
        except Exception:  # a bug in the reuse must cost speed, never a result
            log.exception("incremental analysis failed; analysing from scratch")
            self._parsed = {}
            self._forget()
            return check_source(text, path, config)
        finally:
            if enabled:
                gc.enable()

    def _check(self, text: str, path: str | None, config: Config) -> CheckResult:
        self.resumed_from = -1
        parsed = self._parse(text)
        if isinstance(parsed, ParseFailure):  # mid-typing: keep what the last run knew
            return parse_failed(parsed, LineIndex(text), path, config)
        if parsed is None:
            self._forget()
            return check_source(text, path, config)
        keys, bodies = parsed
        changed = _first_difference(self._chunks, keys)
        resume = self._snapshot if self._snapshot is not None and self._snapshot.chunk <= changed else None
        tree = ast.Module(body=[stmt for body in bodies for stmt in body], type_ignores=[])
        interp = Interpreter(tree, LineIndex(text))
        kept: list[Snapshot | None] = [None]

        def run() -> None:
            kept[0] = interp.run_chunks(bodies, resume, keep=changed)

        result = interpret(interp, run, text, path, config)
        if result.parsed and not result.internal_error and kept[0] is not None:
            self._chunks, self._good, self._snapshot = keys, dict(zip(keys, bodies, strict=True)), kept[0]
            self.resumed_from = resume.chunk if resume is not None else -1
        else:
            self._forget()
        return result

    def _forget(self) -> None:
        self._chunks, self._good, self._snapshot = [], {}, None

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


def _first_difference(old: list[Chunk], new: list[Chunk]) -> int:
    for i, (a, b) in enumerate(zip(old, new, strict=False)):
        if a != b:
            return i
    return min(len(old), len(new))
