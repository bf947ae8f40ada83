"""Plain data shared by the engine, rules, fixes, CLI and LSP layers.

Nothing here knows about LSP, libcst or torch: these are the engine's words, and the shells
translate them at their edge. Positions are 1-based lines and 0-based *code point* columns
(the LSP layer converts to UTF-16 when a line holds non-BMP characters).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from enum import Enum

from dtypeguard.quick import quick_init

# `# dtypeguard: ignore` or `# dtypeguard: ignore[DG001, DG004]`: group 1 holds the codes (None
# for the bare form, which covers every code). One definition: the analysis drops findings by it
# and the suppression quick fix extends it, so the two cannot disagree on what suppresses.
SUPPRESS_COMMENT = re.compile(r"#\s*dtypeguard:\s*ignore(?:\[([A-Za-z0-9_,\s]*)\])?")


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"
    HINT = "hint"


@quick_init
@dataclass(frozen=True, order=True)
class Span:
    """A source range: lines 1-based, columns 0-based code points, end exclusive."""

    line: int
    col: int
    end_line: int
    end_col: int
    file: str = ""  # another file's path, for a place in a module the checked file imports; "" is the file itself

    def line_ref(self) -> str:
        """"line 42" in the checked file, "model.py:493" in a module it imports: a message that
        says "at line 493" of a place in another file sends the reader to the wrong line."""
        return f"{os.path.basename(self.file)}:{self.line}" if self.file else f"line {self.line}"

    def contains(self, line: int, col: int) -> bool:
        if (line, col) < (self.line, self.col):
            return False
        return (line, col) <= (self.end_line, self.end_col)


@quick_init
@dataclass(frozen=True)
class Related:
    """The other end of a hazard (where the model was built, where the default was set).

    The place where the script will fail is one of them, made by `Related.failing`: its message
    starts with `FAILS_HERE`, which survives every copy of a finding (the cache's JSON, a
    notebook's cell mapping), and `fails` reads it back; nothing else spells the words."""

    span: Span
    message: str

    @classmethod
    def failing(cls, span: Span, error: str) -> Related:
        """The line that will fail, with what it fails with."""
        return cls(span, f"{FAILS_HERE}: {error}")

    @property
    def fails(self) -> bool:
        return self.message.startswith(FAILS_HERE)


FAILS_HERE = "fails here"
CALL_RUNS_IT = "fails inside the code this call runs"  # a call of the checked file that runs another file's failing line


@quick_init
@dataclass(frozen=True)
class FixSpec:
    """A remedy a rule knows to be mechanical; `fixes/` turns it into text edits.

    `kind` names a transform in `dtypeguard.fixes` ("append_call", "add_kwarg",
    "insert_setup_block", "move_to_setup", "replace_default_tensor_type", "set_kwarg", ...);
    `span` is the expression or statement it applies to; `params` are its arguments.
    """

    kind: str
    title: str
    span: Span
    safe: bool = True
    params: tuple[tuple[str, str], ...] = ()

    def param(self, name: str, default: str = "") -> str:
        for key, value in self.params:
            if key == name:
                return value
        return default


@quick_init
@dataclass(frozen=True)
class Finding:
    code: str
    severity: Severity
    message: str
    span: Span
    rule: str = ""
    related: tuple[Related, ...] = ()
    fixes: tuple[FixSpec, ...] = ()
    note: str = ""  # extra explanation specific to this occurrence (e.g. why no fix is offered)


def in_its_file(finding: Finding, path: str) -> Finding:
    """A finding rooted in `path` that another file's analysis made, as `path`'s own: its span and
    its related places inside `path` drop the file name, as a file's own places carry none (the
    CLI's folder check and the language server both show such roots in their file)."""
    me = os.path.realpath(path)
    related = tuple(replace(r, span=replace(r.span, file="")) if r.span.file and os.path.realpath(r.span.file) == me else r for r in finding.related)
    return replace(finding, span=replace(finding.span, file=""), related=related)


@quick_init
@dataclass(frozen=True)
class TextEdit:
    """Replace `span` with `new_text` (an insertion has an empty span)."""

    span: Span
    new_text: str


@dataclass
class RuleExamples:
    """Code that must trigger a rule (`bad`) and code that must not (`good`).

    Each `bad` example marks the line where the finding must be reported with `# <-`.
    """

    bad: list[str] = field(default_factory=list)
    good: list[str] = field(default_factory=list)
