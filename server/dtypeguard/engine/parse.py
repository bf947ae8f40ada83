"""Text -> `ast.Module` plus a position index; a parse failure is a value, not an exception.

We analyse with the stdlib `ast` (about 7x faster than `libcst.parse_module` here) and keep
libcst for fixes, which need the concrete syntax. `ast` columns are UTF-8 byte offsets;
`LineIndex` converts them to code points only on lines that are not pure ASCII.
"""

from __future__ import annotations

import ast
import gc
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from dtypeguard.findings import Span

T = TypeVar("T")

LINE_END = re.compile(r"\r\n|\r|\n")
_LINE_WITH_END = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def split_lines(text: str) -> list[str]:
    """The text's lines without their ends, which are "\r\n", "\r" or "\n": the lines Python
    numbers in `ast` and an LSP client numbers in positions (not `str.splitlines`, which also
    breaks at form feeds and U+2028)."""
    if "\r" not in text:
        return text.split("\n")
    return LINE_END.split(text)


def lines_with_ends(text: str) -> list[str]:
    """The same lines, each with its end (the last may have none): they join to `text`."""
    return _LINE_WITH_END.findall(text)


def freezes_parameters(text: str) -> bool:
    """Does the file freeze some parameters somewhere? Then `[p for p in m.parameters() if
    p.requires_grad]` is a subset whose dtype the whole model's does not tell."""
    return "requires_grad_(False)" in text or "requires_grad = False" in text or "requires_grad=False" in text


class LineIndex:
    def __init__(self, text: str) -> None:
        self.lines = split_lines(text)
        self._ascii: dict[int, bool] = {}
        self.all_ascii = text.isascii()  # the usual case: byte columns are code-point columns
        self.freezes = freezes_parameters(text)

    def char_col(self, line: int, byte_col: int) -> int:
        if not 1 <= line <= len(self.lines):
            return byte_col
        ascii_line = self._ascii.get(line)
        if ascii_line is None:
            ascii_line = self._ascii[line] = self.lines[line - 1].isascii()
        if ascii_line:
            return byte_col
        text = self.lines[line - 1]
        return len(text.encode("utf-8")[:byte_col].decode("utf-8", errors="ignore"))

    def span(self, node: ast.AST) -> Span:
        other = node.__dict__.get("_dg_index")
        if other is not None and other is not self:
            return other.span(node)  # type: ignore[no-any-return]  # a node of an imported file: its own positions, with its path
        return self.own_span(node)

    def span_between(self, first: ast.AST, last: ast.AST) -> Span:
        """From the start of `first` to the end of `last` (a dict entry: its key to its value)."""
        a, b = self.span(first), self.span(last)
        return Span(a.line, a.col, b.end_line, b.end_col, a.file)

    def own_span(self, node: ast.AST) -> Span:
        try:  # every expression and statement has all four (the hot path: one per name)
            line, col = node.lineno, node.col_offset  # type: ignore[attr-defined]
            end_line, end_col = node.end_lineno or line, node.end_col_offset or 0  # type: ignore[attr-defined]
            if self.all_ascii:
                return Span(line, col, end_line, end_col)
        except AttributeError:
            line, col = getattr(node, "lineno", 1), getattr(node, "col_offset", 0)
            end_line, end_col = getattr(node, "end_lineno", None) or line, getattr(node, "end_col_offset", None) or 0
        ascii_flags = self._ascii
        if ascii_flags.get(line) is not True:
            col = self.char_col(line, col)
        if ascii_flags.get(end_line) is not True:
            end_col = self.char_col(end_line, end_col)
        return Span(line, col, end_line, end_col)

    def line_text(self, line: int) -> str:
        if 1 <= line <= len(self.lines):
            return self.lines[line - 1].rstrip("\r")
        return ""


@dataclass
class ParseFailure:
    message: str
    span: Span


def decode_source(data: bytes) -> str:
    """Decode a file as Python would (UTF-8, BOM allowed); raises UnicodeDecodeError."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    return data.decode("utf-8")


def parse(text: str, first_line: int = 1) -> ast.Module | ParseFailure:
    """Parse `text`, which starts at line `first_line` of its file (the incremental checker
    parses a file piece by piece; blank lines in front put the piece's lines in place)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\x00" in text:
        line = text.count("\n", 0, text.index("\x00")) + first_line
        return ParseFailure("cannot parse: the file contains a NUL byte", Span(line, 0, line, 0))
    if first_line > 1:
        text = "\n" * (first_line - 1) + text
    enabled = gc.isenabled()
    gc.disable()  # a parse allocates a million acyclic nodes: collecting during it is quadratic
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning for invalid escapes etc.
            return ast.parse(text)
    except SyntaxError as exc:
        line = exc.lineno or 1
        col = max((exc.offset or 1) - 1, 0)
        return ParseFailure(f"cannot parse: {exc.msg}", Span(line, col, line, col + 1))
    except RecursionError:
        return ParseFailure("cannot parse: the code is nested too deeply for Python's parser", Span(1, 0, 1, 0))
    except MemoryError:
        return ParseFailure("cannot parse: out of memory", Span(1, 0, 1, 0))
    except UnicodeError:  # a lone surrogate: text decoded from non-UTF-8 bytes with surrogateescape
        bad = next((i for i, c in enumerate(text) if "\ud800" <= c <= "\udfff"), 0)  # (blank lines in front count)
        line = text.count("\n", 0, bad) + 1
        col = bad - (text.rfind("\n", 0, bad) + 1)
        return ParseFailure("cannot parse: the text is not valid Unicode (a lone surrogate)", Span(line, col, line, col + 1))
    except ValueError as exc:
        return ParseFailure(f"cannot parse: {exc}", Span(1, 0, 1, 0))
    finally:
        if enabled:
            gc.enable()


def syntax_fact(node: ast.AST, key: str, compute: Callable[[], T]) -> T:
    """A fact about a node's syntax (a function passes a `dtype=` parameter, an `if` test compares
    devices, which names a function binds once), walked once and kept on the node: the
    interpreter asks at every call or branch it runs, and an imported module's tree is shared by
    the files of a folder check (`imports.load`). Trees never change, so the fact cannot go stale."""
    facts: dict[str, object] = node.__dict__.setdefault("_dg_facts", {})
    if key not in facts:
        facts[key] = compute()
    return facts[key]  # type: ignore[return-value]


def is_main_guard(test: ast.expr) -> bool:
    """`__name__ == "__main__"` (either way round)."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq):
        sides = [test.left, *test.comparators]
        names = [s.id for s in sides if isinstance(s, ast.Name)]
        consts = [s.value for s in sides if isinstance(s, ast.Constant)]
        return names == ["__name__"] and consts == ["__main__"]
    return False


def cuda_everywhere(tree: ast.AST) -> bool:
    """Whether the file calls `.cuda()` outside any `if` that tests a device, a GPU flag or CUDA
    (E2E-ASR's batches moved with `.cuda()` whatever `--cuda` says): then it runs only with a GPU,
    whatever flag it has. (A `map_location` lambda's `storage.cuda()` is not such a call.) Memoised
    on the tree (`parse.syntax_fact`): asked at every `if`."""
    return syntax_fact(tree, "cuda_everywhere", lambda: _walk_cuda_everywhere(tree))


def test_words(test: ast.expr) -> list[str]:
    """The names, attribute names and string constants an `if` test is written with."""
    words = [n.id for n in ast.walk(test) if isinstance(n, ast.Name)] + [n.attr for n in ast.walk(test) if isinstance(n, ast.Attribute)]
    return words + [n.value for n in ast.walk(test) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def _walk_cuda_everywhere(tree: ast.AST) -> bool:
    def guarded(test: ast.expr) -> bool:
        return any(k in w.lower() for w in test_words(test) for k in ("cuda", "gpu", "device", "is_available"))

    def found(node: ast.AST) -> bool:
        if isinstance(node, ast.Lambda):
            return False
        if isinstance(node, (ast.If, ast.IfExp)) and guarded(node.test):
            return False
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "cuda":
            return True
        return any(found(child) for child in ast.iter_child_nodes(node))

    return found(tree)
