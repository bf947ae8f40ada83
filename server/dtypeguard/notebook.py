"""Jupyter notebooks (.ipynb, nbformat 4): the cells as one script, findings mapped back to cells.

Why a separate module: a notebook is a different *container* for the same Python, and the
hazards that matter most in notebooks are ordering hazards across cells (the
`set_default_dtype` cell run after the model cell). The engine reads one script in execution
order, so the honest model of a notebook is the script the kernel runs when the cells are run
top to bottom: the code cells joined in order. Everything here is a translation at the edge:
cells -> script (`build_script`), script findings -> cell findings (`Script.cell_findings`),
fixed script -> cell sources (`Script.split`). The engine, the rules and the fixes never learn
that a notebook exists, so every shell (CLI `check`/`fix`/`verify`, the language server) gives
a notebook the same findings as the script made by joining its cells.

The script: each code cell is preceded by a marker comment line naming its index, so a
fixed script can be cut back into cells even when a fix moved a statement from one cell to
another (the setup block). IPython syntax that is not Python (`%magic`, `!shell`, `x = !ls`,
`obj?`) is neutralised line by line *without shifting positions*: the line becomes a comment
(or `pass` + comment inside a block) that carries a token, and `split` puts the original line
back. A cell whose first line is a non-Python cell magic (`%%bash`, `%%html`, ...) and a cell
that still does not parse are left out of the script (their lines are not in it) and never
changed by a fix; a cell that does not parse gets its own DG000 finding, as the kernel would
raise SyntaxError for that cell alone.

Reading is stdlib `json` only: nbformat 3 (worksheets) and malformed files raise
`NotebookError` with a clear message, which the shells turn into one DG000 finding.
Writing back (`NotebookFile.with_sources`) changes only the `source` of the cells given,
keeping the other cells, outputs and metadata as they were (equal after `json` normalisation).
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from dtypeguard.analysis import CheckResult, check_source, parse_failed
from dtypeguard.config import Config
from dtypeguard.engine.parse import LineIndex, ParseFailure, parse
from dtypeguard.findings import Finding, Related, Span
from dtypeguard.rules import PARSE_ERROR

if TYPE_CHECKING:
    from dtypeguard.verify.result import VerifyResult

NOTEBOOK_SUFFIX = ".ipynb"

# cell magics whose body is Python run by the kernel (the first line alone is neutralised)
PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun", "debug", "memit", "cProfile"})

_MAGIC_LINE = re.compile(r"^(\s*)([%!?].*)$")
_ASSIGN_MAGIC = re.compile(r"^(\s*[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*)([%!].*)$")
_HELP_LINE = re.compile(r"^(\s*)([A-Za-z_*][\w.*]*\s*\?\??)\s*$")  # (`torch.*Tensor?`: IPython's wildcard search)
_CELL_MAGIC = re.compile(r"^\s*%%(\w+)")
# IPython's automagic: a line magic written without `%` (`pip install x`, `cd data`), which the
# kernel runs when the line is not Python (checked by compiling it alone)
_AUTOMAGIC = re.compile(r"^(\s*)((?:pip|conda|mamba|cd|ls|pwd|mkdir|cat|cp|mv|rm|env|load_ext|matplotlib|run|time|timeit)\s+\S.*)$")
_LINE_REF = re.compile(r"\bline (\d+)\b")


def is_notebook(path: str | None) -> bool:
    return bool(path) and str(path).lower().endswith(NOTEBOOK_SUFFIX)


class NotebookError(ValueError):
    """The file is not a notebook dtypeguard can read; the message says why."""


# ---------------------------------------------------------------------------- the file
@dataclass
class Cell:
    index: int  # position among all cells (markdown included), 0-based
    kind: str  # "code", "markdown", "raw"
    source: str
    execution_count: int | None = None
    language: str = "python"  # a code cell's own language where an editor recorded one (VS Code's `metadata.vscode.languageId`)


@dataclass
class NotebookFile:
    """A parsed .ipynb: its cells, and the JSON to write back."""

    raw: dict[str, Any]
    text: str
    cells: list[Cell]
    language: str = "python"

    @property
    def code_cells(self) -> list[Cell]:
        return [c for c in self.cells if c.kind == "code" and c.language == "python"]  # (a shell or plain-text cell is not Python)

    def with_sources(self, sources: dict[int, str]) -> str:
        """The file's text with the given cells' sources replaced and nothing else changed
        (other cells, outputs and metadata keep their values; the indent and the final
        newline of the file are kept). A source stored as a list of lines stays a list."""
        raw = json.loads(self.text)  # a fresh copy: `self` stays what was read
        for index, source in sources.items():
            cell = raw["cells"][index]
            if isinstance(cell.get("source"), list):
                cell["source"] = source.splitlines(keepends=True)
            else:
                cell["source"] = source
        indent = _indent_of(self.text)
        out = json.dumps(raw, indent=indent, ensure_ascii=False)
        if self.text.endswith("\n"):
            out += "\n"
        return out


def _indent_of(text: str) -> int | None:
    match = re.search(r"\n( +)\S", text)
    if match is None:
        return None if "\n" not in text.strip() else 1
    return len(match.group(1))


def read_notebook(text: str) -> NotebookFile:
    """Parse an .ipynb text; raises NotebookError saying what is wrong."""
    try:
        raw = json.loads(text)
    except ValueError as exc:
        raise NotebookError(f"not a valid notebook: the file is not JSON ({exc})") from exc
    if not isinstance(raw, dict):
        raise NotebookError("not a valid notebook: the JSON is not an object")
    major = raw.get("nbformat")
    if "worksheets" in raw or (isinstance(major, int) and major < 4):
        raise NotebookError(
            f"nbformat {major} notebooks are not supported: convert it with "
            "`jupyter nbconvert --to notebook --nbformat 4` (or open and save it in Jupyter)"
        )
    if major is not None and major != 4:
        raise NotebookError(f"nbformat {major!r} is not supported (dtypeguard reads nbformat 4)")
    cells_raw = raw.get("cells")
    if not isinstance(cells_raw, list):
        raise NotebookError("not a valid notebook: no `cells` list (nbformat 4 keeps the cells in a top-level `cells` list)")
    cells: list[Cell] = []
    for index, cell in enumerate(cells_raw):
        if not isinstance(cell, dict):
            raise NotebookError(f"not a valid notebook: cell {index + 1} is not an object")
        kind = cell.get("cell_type")
        if kind not in ("code", "markdown", "raw"):
            raise NotebookError(f"not a valid notebook: cell {index + 1} has cell_type {kind!r}")
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise NotebookError(f"not a valid notebook: the source of cell {index + 1} is not text")
        count = cell.get("execution_count")
        meta = cell.get("metadata")
        vscode = meta.get("vscode") if isinstance(meta, dict) else None
        own = vscode.get("languageId") if isinstance(vscode, dict) else None
        lang = own.lower() if isinstance(own, str) and own else "python"
        cells.append(Cell(index, str(kind), source, count if isinstance(count, int) and not isinstance(count, bool) else None, lang))
    language = "python"
    metadata = raw.get("metadata")
    if isinstance(metadata, dict):
        info = metadata.get("language_info")
        kernel = metadata.get("kernelspec")
        if isinstance(info, dict) and isinstance(info.get("name"), str):
            language = info["name"]
        elif isinstance(kernel, dict) and isinstance(kernel.get("language"), str):
            language = kernel["language"]
    return NotebookFile(raw, text, cells, language.lower())


# ---------------------------------------------------------------------------- the script
@dataclass(frozen=True)
class Region:
    """Where one code cell is in the script."""

    cell: int  # index among all cells
    marker: int  # 1-based script line of the marker comment before the cell
    lines: int  # how many script lines the cell has (0 when left out)
    excluded: str = ""  # why the cell is not in the script ("" when it is)

    @property
    def start(self) -> int:
        return self.marker + 1


@dataclass
class Script:
    """The code cells joined in order, and how to go back."""

    text: str
    regions: list[Region]
    sources: dict[int, str]  # cell index -> the cell's original source
    magics: dict[int, str]  # magic number -> the original line it replaced
    cell_problems: dict[int, Finding] = field(default_factory=dict)  # DG000 of a cell left out (cell-relative)
    nonce: str = ""
    prologue_lines: int = 0
    names: dict[int, str] = field(default_factory=dict)  # how messages name a cell ("cell 3" by default)

    def name(self, cell: int) -> str:
        return self.names.get(cell) or f"cell {cell + 1}"

    def locate(self, line: int) -> tuple[int, int] | None:
        """Script line (1-based) -> (cell index, 1-based line in the cell), None outside cells."""
        for region in self.regions:
            if region.start <= line < region.start + region.lines:
                return region.cell, line - region.start + 1
        return None

    def script_line(self, cell: int, line: int) -> int | None:
        """(cell index, 1-based cell line) -> script line, None when the cell is not in it."""
        for region in self.regions:
            if region.cell == cell and region.lines and 1 <= line <= region.lines:
                return region.start + line - 1
        return None

    def region(self, cell: int) -> Region | None:
        return next((r for r in self.regions if r.cell == cell), None)

    def marker_text(self, cell: int) -> str:
        return f"# %% [dtypeguard cell {cell + 1} {self.nonce}]"

    def describe(self, line: int) -> str:
        """"line 3 of cell 2" for a script line."""
        where = self.locate(line)
        if where is None:
            return f"line {line} of the joined cells"
        return f"line {where[1]} of {self.name(where[0])}"

    def rewrite_lines(self, message: str) -> str:
        """Script line numbers in a message ("at line 42") -> cell positions."""
        return _LINE_REF.sub(lambda m: self.describe(int(m.group(1))), message)

    # ---------------------------------------------------------------- findings
    def cell_span(self, span: Span) -> tuple[int, Span] | None:
        where = self.locate(span.line)
        if where is None:
            return None
        cell, line = where
        region = self.region(cell)
        assert region is not None
        end_line, end_col = span.end_line - region.start + 1, span.end_col
        if end_line > region.lines:  # never past the cell's own text
            end_line, end_col = region.lines, len(self.sources[cell].split("\n")[region.lines - 1])
        return cell, Span(line, span.col, max(end_line, line), end_col)

    def cell_findings(self, findings: Sequence[Finding]) -> list[CellFinding]:
        """Findings of the script as findings of cells (spans relative to their cell, line
        numbers in messages rewritten to cell positions), then each left-out cell's DG000."""
        out: list[CellFinding] = []
        for finding in findings:
            mapped = self.cell_span(finding.span)
            if mapped is None:
                cell, span = (self.regions[0].cell if self.regions else 0), Span(1, 0, 1, 0)
            else:
                cell, span = mapped
            related: list[Related] = []
            related_cells: list[int | None] = []
            for rel in finding.related:
                if rel.span.file:  # a place in an imported module: its lines are that file's, not the cells'
                    related.append(rel)
                    related_cells.append(None)
                    continue
                where = self.cell_span(rel.span)
                related.append(Related(where[1] if where else rel.span, self.rewrite_lines(rel.message)))
                related_cells.append(where[0] if where else None)
            cell_finding = replace(
                finding, span=span, message=self.rewrite_lines(finding.message), related=tuple(related),
                note=self.rewrite_lines(finding.note),
            )
            out.append(CellFinding(cell, cell_finding, tuple(related_cells), finding))
        for cell, problem in sorted(self.cell_problems.items()):
            out.append(CellFinding(cell, problem, (), None))
        out.sort(key=lambda f: (f.cell, f.finding.span, f.finding.code))
        return out

    # ---------------------------------------------------------------- back to cells
    def split(self, text: str) -> dict[int, str]:
        """The cell sources in a changed script (a fixed one): cell index -> new source, for
        the cells whose source changed.

        Lines are matched with the script this was built from (difflib): a kept line stays in
        its cell; new lines go to the cell of the kept line above them (below them at the
        very top), so a fix that moves a statement (with the cell's marker comment attached
        to it, as libcst moves leading comments) moves it into the cell it lands in, and the
        cell it came from keeps what is left. Marker lines are dropped; magics are restored.
        Raises NotebookError when a change would land in a cell that is not analysed."""
        old = self.text.split("\n")
        new = text.split("\n")
        owner = self._owners(len(old))
        markers = {self.marker_text(r.cell) for r in self.regions}
        body: dict[int, list[str]] = {r.cell: [] for r in self.regions}
        analysed = [r.cell for r in self.regions if not r.excluded]

        def anchor(i: int) -> int | None:
            """The analysed cell new lines at old position `i` (before old line i) belong to."""
            for k in range(i - 1, -1, -1):
                cell = owner[k]
                if cell is not None and cell in analysed:
                    return cell
            return analysed[0] if analysed else None

        def add(cell: int | None, lines: list[str]) -> None:
            kept = [ln for ln in lines if ln not in markers]
            if not kept:
                return
            if cell is None:
                raise NotebookError("a fix wrote outside the notebook's cells; the notebook was not changed")
            body[cell].extend(kept)

        matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
        for op, i1, i2, j1, j2 in matcher.get_opcodes():
            if op == "equal":
                for k in range(i2 - i1):
                    cell = owner[i1 + k]
                    if cell is not None and old[i1 + k] not in markers:
                        body[cell].append(new[j1 + k])
            elif op == "insert":
                add(anchor(i1), new[j1:j2])
            elif op == "replace":
                cells = {owner[k] for k in range(i1, i2) if owner[k] is not None and old[k] not in markers}
                target = cells.pop() if len(cells) == 1 else anchor(i1)
                add(target if target in analysed else anchor(i1), new[j1:j2])
        changed: dict[int, str] = {}
        for region in self.regions:
            original = self.sources[region.cell]
            lines = body[region.cell]
            if region.excluded:
                if lines:
                    raise NotebookError(f"a fix wrote into cell {region.cell + 1}, which is not analysed; the notebook was not changed")
                continue
            source = "\n".join(self._restore(ln) for ln in lines)
            if original.endswith("\n") and lines:  # the script holds each cell without its final newline
                source += "\n"
            if source != original:
                changed[region.cell] = source
        return changed

    def _owners(self, count: int) -> list[int | None]:
        """The cell of each script line (0-based), None for the prologue and the end."""
        owner: list[int | None] = [None] * count
        for region in self.regions:
            for line in range(region.start, region.start + region.lines):
                if line - 1 < count:
                    owner[line - 1] = region.cell
        return owner

    def _restore(self, line: str) -> str:
        if self.nonce and f"dtypeguard-magic-{self.nonce} " in line:
            match = re.search(rf"dtypeguard-magic-{self.nonce} (\d+)", line)
            if match is not None and int(match.group(1)) in self.magics:
                return self.magics[int(match.group(1))]
        return line


@dataclass(frozen=True)
class CellFinding:
    """A finding in a notebook cell: `finding.span` is relative to the cell (line 1 is the
    cell's first line); `related_cells[i]` is the cell of `finding.related[i]` (None when
    outside any cell); `script` is the same finding in script coordinates (None for a cell's
    own DG000), which is what fixes are computed from."""

    cell: int
    finding: Finding
    related_cells: tuple[int | None, ...] = ()
    script: Finding | None = None


def _neutralise(source: str, number: int, nonce: str, magics: dict[int, str]) -> tuple[str, int, str]:
    """The cell with IPython-only lines replaced, same line count and the same columns before
    the magic; returns (text, next magic number, why the cell is left out or "")."""
    lines = source.split("\n")
    first = _CELL_MAGIC.match(lines[0]) if lines else None
    if first is not None and first.group(1) not in PYTHON_CELL_MAGICS:
        return source, number, f"`%%{first.group(1)}` cell: not Python"
    out: list[str] = []
    continued = False
    indent = ""
    for i, line in enumerate(lines):
        match = _MAGIC_LINE.match(line) or _HELP_LINE.match(line) or _automagic(line)
        assign = _ASSIGN_MAGIC.match(line)
        is_magic = continued or match is not None or assign is not None or (i == 0 and first is not None)
        if not is_magic:
            out.append(line)
            continue
        if not continued:
            # a line a trailing backslash continues (`!python train.py \` then indented options)
            # belongs to the magic that started it: it takes that line's indent, not its own
            indent = re.match(r"\s*", line).group(0)  # type: ignore[union-attr]
        was_continued, continued = continued, line.rstrip().endswith("\\")
        magics[number] = line
        token = f"# dtypeguard-magic-{nonce} {number}"
        number += 1
        if assign is not None and match is None and not was_continued:
            out.append(f"{assign.group(1)}None  {token}")
        else:
            out.append(f"{indent}pass  {token}" if indent else token)
    return "\n".join(out), number, ""


def _ipython_dedent(code: str) -> str:
    """IPython's `leading_indent` input transformer: the first line's leading whitespace is
    removed from every line that starts with it."""
    lines = code.split("\n")
    space = re.match(r"[ \t]+", lines[0]) if lines else None
    if space is None:
        return code
    n = len(space.group(0))
    return "\n".join(ln[n:] if ln.startswith(space.group(0)) else ln for ln in lines)


def _automagic(line: str) -> re.Match[str] | None:
    """`pip install torch` in a cell: IPython runs it as `%pip install torch` (automagic is on
    by default) because it is not Python; a line that is Python (`ls = []`) stays Python."""
    match = _AUTOMAGIC.match(line)
    if match is None:
        return None
    try:
        compile(line.strip(), "<cell line>", "exec")
    except SyntaxError:
        return match
    return None


def build_script(
    cells: Sequence[tuple[int, str]], prologue: Sequence[str] = (), path: str | None = None, config: Config | None = None,
    names: dict[int, str] | None = None,
) -> Script:
    """Join code cells `(index, source)` in order into one script (see the module docstring)."""
    # the markers and magic tokens stay the same text while cells are edited (so the language
    # server's incremental analysis reuses unchanged cells); only a notebook that already holds
    # such text gets markers no cell can contain
    nonce = "nb"
    if any("[dtypeguard cell" in src or "dtypeguard-magic-" in src for _, src in cells):
        nonce = hashlib.sha1("\x00".join(src for _, src in cells).encode("utf-8", "surrogatepass")).hexdigest()[:12]
    parts: list[str] = list(prologue)
    regions: list[Region] = []
    sources: dict[int, str] = {}
    magics: dict[int, str] = {}
    problems: dict[int, Finding] = {}
    number = 0
    for index, source in cells:
        source = source.replace("\r\n", "\n").replace("\r", "\n")
        sources[index] = source
        marker_line = len(parts) + 1
        parts.append(f"# %% [dtypeguard cell {index + 1} {nonce}]")
        code = source
        excluded = ""
        if isinstance(parse(code), ParseFailure):
            code, number, excluded = _neutralise(source, number, nonce, magics)
            if not excluded:
                failure = parse(code)
                if isinstance(failure, ParseFailure) and not isinstance(parse(_ipython_dedent(code)), ParseFailure):
                    # ` x = 1\n x`: IPython removes a whole cell's leading indent and runs it; it is
                    # valid, but its columns would not be the cell's: left out, without a DG000
                    excluded = "indented cell (IPython removes the indent): not analysed"
                elif isinstance(failure, ParseFailure):
                    excluded = "does not parse"
                    result = parse_failed(failure, LineIndex(code), path, config or Config())
                    if result.findings:
                        name = (names or {}).get(index) or f"cell {index + 1}"
                        problems[index] = replace(result.findings[0], message=f"{name}: {result.findings[0].message}")
        if excluded:
            regions.append(Region(index, marker_line, 0, excluded))
            continue
        body = code[:-1] if code.endswith("\n") else code
        body_lines = body.split("\n")
        parts.extend(body_lines)
        regions.append(Region(index, marker_line, len(body_lines)))
    text = "\n".join(parts) + "\n" if parts else ""
    return Script(text, regions, sources, magics, problems, nonce, len(prologue), dict(names or {}))


# ---------------------------------------------------------------------------- analysis
@dataclass
class NotebookResult:
    findings: list[CellFinding]
    script: Script | None
    result: CheckResult | None
    order_notes: dict[int, str] = field(default_factory=dict)  # cell index -> hover note
    error: str = ""  # the notebook could not be read (then `findings` holds one DG000)


def check_notebook(text: str, path: str | None = None, config: Config | None = None) -> NotebookResult:
    """Analyse a notebook's text (.ipynb JSON): the findings of its code cells joined in
    order, mapped to cells; a file that is not a readable notebook gets one DG000."""
    config = config or Config()
    try:
        notebook = read_notebook(text)
    except NotebookError as exc:
        return NotebookResult(notebook_error_findings(str(exc), path, config), None, None, error=str(exc))
    if notebook.language not in ("python", "python3", "ipython", "ipython3"):
        return NotebookResult([], None, None, error=f"skipped: the notebook's kernel language is {notebook.language}, not Python")
    return check_cells([(c.index, c.source) for c in notebook.code_cells], path, config, execution_order_notes(notebook.cells))


def check_cells(
    cells: Sequence[tuple[int, str]], path: str | None, config: Config | None, notes: dict[int, str] | None = None,
    names: dict[int, str] | None = None,
) -> NotebookResult:
    script = build_script(cells, path=path, config=config, names=names)
    result = check_source(script.text, path, config)
    problems = {c: f for c, f in script.cell_problems.items() if (config or Config()).enabled("DG000", path)}
    script.cell_problems = problems
    return NotebookResult(script.cell_findings(result.findings), script, result, notes or {})


@dataclass
class NotebookFix:
    """`fix` on a notebook: the new file text (the old one when nothing changed), the cells
    that changed (index -> (old, new) source), what the fixes did, and what is left."""

    text: str
    changed: dict[int, tuple[str, str]]
    applied: list[Finding]
    remaining: list[CellFinding]
    not_applied: list[tuple[str, Finding, str]]  # (where, finding, why)
    error: str = ""
    unreadable: bool = False  # not a notebook we can read (`remaining` holds its DG000)


def fix_notebook(text: str, path: str | None = None, config: Config | None = None, unsafe: bool = False) -> NotebookFix:
    """Apply the fixes to a notebook's code cells joined in order, then put each changed
    cell's source back; a notebook that cannot be read, or whose fixed script cannot be cut
    back into its cells, is returned unchanged with `error` set."""
    from dtypeguard.fixes.api import fix_all

    config = config or Config()
    try:
        notebook = read_notebook(text)
    except NotebookError as exc:
        return NotebookFix(text, {}, [], notebook_error_findings(str(exc), path, config), [], str(exc), unreadable=True)
    checked = check_cells([(c.index, c.source) for c in notebook.code_cells], path, config)
    script = checked.script
    assert script is not None
    result = fix_all(script.text, path, config, unsafe=unsafe)
    not_applied = [(script.describe(f.span.line), f, why) for f, why in result.not_applied]
    if result.text == script.text:
        return NotebookFix(text, {}, [], checked.findings, not_applied)
    try:
        sources = script.split(result.text)
    except NotebookError as exc:
        return NotebookFix(text, {}, [], checked.findings, not_applied, str(exc))
    # what remains, in the cells as they are now (the fixed script's lines are not theirs)
    after = check_cells([(c.index, sources.get(c.index, c.source)) for c in notebook.code_cells], path, config)
    remaining = after.findings
    changed = {i: (script.sources[i], new) for i, new in sources.items()}
    return NotebookFix(notebook.with_sources(sources), changed, list(result.applied), remaining, not_applied)


# ---------------------------------------------------------------------------- verify
def verify_script(cells: Sequence[tuple[int, str]], notebook_path: str) -> Script:
    """The script `verify` runs: the code cells joined in order, behind a one-line prologue
    that does what Jupyter does (the notebook's folder is the working directory and the
    first entry of `sys.path`), since the script itself lives in a temporary folder."""
    folder = os.path.dirname(os.path.abspath(notebook_path))
    prologue = (
        f"import os as _dg_os, sys as _dg_sys; _dg_os.chdir({folder!r}); _dg_sys.path[0:1] = [{folder!r}]; "
        "del _dg_os, _dg_sys  # dtypeguard verify: run as the notebook would"
    )
    return build_script(cells, prologue=[prologue])


@contextlib.contextmanager
def temporary_script(script: Script, notebook_path: str) -> Iterator[str]:
    """The script in a fresh temporary folder (never in the user's folders), removed after."""
    folder = tempfile.mkdtemp(prefix="dtypeguard-notebook-")
    stem = os.path.splitext(os.path.basename(notebook_path))[0] or "notebook"
    path = os.path.join(folder, f"{stem}.py")
    try:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(script.text)
        yield path
    finally:
        shutil.rmtree(folder, ignore_errors=True)


_FRAME = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)')


def map_verify_result(result: VerifyResult, script: Script, script_path: str, notebook_path: str) -> VerifyResult:
    """A result of running the script, told in the notebook's cells: `cell`/`line` name the
    cell line that raised, the traceback names cells instead of the temporary file."""
    real = os.path.realpath(script_path)
    notebook = os.path.abspath(notebook_path)

    def frame(match: re.Match[str]) -> str:
        if os.path.realpath(match.group("path")) != real:
            return match.group(0)
        return f'File "{notebook}", {script.describe(int(match.group("line")))}'

    in_script = result.path is None or os.path.realpath(result.path) == real
    if result.line is not None and in_script:
        where = script.locate(result.line)
        if where is not None:
            result.cell, result.line = where[0] + 1, where[1]
        result.path = notebook
    elif result.path is not None and os.path.realpath(result.path) == real:
        result.path = notebook
    result.file = notebook
    if result.traceback:
        result.traceback = _FRAME.sub(frame, result.traceback)
    if result.message:
        result.message = result.message.replace(script_path, notebook)
    result.notes.append("ran the code cells top to bottom as one script; IPython magics and `!` lines were skipped")
    return result


def verify_notebook(
    path: str, device: str = "auto", python: str | None = None, timeout: float = 60.0, args: Sequence[str] = (), **kwargs: Any
) -> VerifyResult:
    """`dtypeguard verify` on a notebook: its code cells run in order as one script up to the
    first optimizer step; the error, if any, is reported at its cell and line. Raises
    NotebookError for a file that is not a readable notebook."""
    from dtypeguard.verify.runner import run_verify

    with open(path, "rb") as handle:
        data = handle.read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise NotebookError(f"not UTF-8 text (byte {exc.start})") from exc
    notebook = read_notebook(text)
    script = verify_script([(c.index, c.source) for c in notebook.code_cells], path)
    with temporary_script(script, path) as script_path:
        result = run_verify(script_path, device=device, python=python, timeout=timeout, args=args, **kwargs)
    return map_verify_result(result, script, script_path, path)


def notebook_error_findings(message: str, path: str | None, config: Config) -> list[CellFinding]:
    if not config.enabled("DG000", path):
        return []
    return [CellFinding(-1, PARSE_ERROR.finding(message, Span(1, 0, 1, 0)))]


def execution_order_notes(cells: Sequence[Cell] | Sequence[tuple[int, int | None]], names: dict[int, str] | None = None) -> dict[int, str]:
    """Cells whose saved execution count disagrees with the cell order -> a note for their
    hover: the kernel ran them in another order than top to bottom."""
    counted: list[tuple[int, int]] = []
    for cell in cells:
        index, count = (cell.index, cell.execution_count) if isinstance(cell, Cell) else cell
        if count is not None:
            counted.append((index, count))
    notes: dict[int, str] = {}
    for k, (index, count) in enumerate(counted):
        later_above = [(i, c) for i, c in counted[:k] if c > count]
        earlier_below = [(i, c) for i, c in counted[k + 1 :] if c < count]
        if not later_above and not earlier_below:
            continue
        if later_above:
            other, other_count = later_above[-1]
            clash = f"{(names or {}).get(other) or f'cell {other + 1}'} above it ran later ([{other_count}])"
        else:
            other, other_count = earlier_below[0]
            clash = f"{(names or {}).get(other) or f'cell {other + 1}'} below it ran earlier ([{other_count}])"
        notes[index] = (
            f"**Execution order:** this cell last ran as [{count}], but {clash}: the saved execution "
            "counts disagree with the cell order, so the kernel's state may differ from what you read. "
            "dtypeguard analyses the cells top to bottom (Restart & Run All runs them that way)."
        )
    return notes


__all__ = [
    "Cell",
    "CellFinding",
    "NotebookError",
    "NotebookFile",
    "NotebookFix",
    "NotebookResult",
    "Script",
    "build_script",
    "check_cells",
    "check_notebook",
    "execution_order_notes",
    "fix_notebook",
    "is_notebook",
    "map_verify_result",
    "read_notebook",
    "temporary_script",
    "verify_notebook",
    "verify_script",
]
