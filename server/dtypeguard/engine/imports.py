"""The project's own modules, found from an import statement, for analysis across files.

Real training code is split: the model in `models.py`, the data in `data.py`, the loop in
`train.py`. An import of a module that lives beside the file (or in a parent folder, a `src/`
folder, or, relative, in the file's package) is resolved to that file, which the interpreter
then runs the way Python does at import time (its top level, not its `__main__` block). A name
that is not found stays what it was before: a library symbol the analysis knows nothing about.

Spans made while running another file's code carry that file's path (`Span.file`), so a finding
can tell which file its root is in; `ModuleIndex` makes them.
"""

from __future__ import annotations

import ast
import functools
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from dtypeguard.engine.parse import LineIndex, ParseFailure, parse
from dtypeguard.findings import Span

# Names that are never the project's own module, even if a file of that name sits beside it.
_LIBRARIES = frozenset(sys.stdlib_module_names) | {
    "torch", "numpy", "pandas", "sklearn", "scipy", "torchvision", "torchaudio", "transformers", "lightning",
    "pytorch_lightning", "accelerate", "datasets", "tqdm", "PIL", "cv2", "matplotlib", "yaml", "wandb", "tensorboard",
}
MAX_MODULE_BYTES = 400_000  # a generated or vendored giant is not worth analysing at an import
_INDEX_KEY = "_dg_index"

Reader = Callable[[str], "str | None"]


def read_file(path: str) -> str | None:
    """The default reader: the file's text from disk, or None when it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    if len(data) > MAX_MODULE_BYTES:
        return None
    return data.decode("utf-8", errors="replace")


def resolve(importer: str, module: str | None, level: int, name: str | None = None) -> str | None:
    """The file an import refers to, when it is one of the project's own; None otherwise (see
    `_resolve`). Remembered while `shared_across_files` is on."""
    if _shared is None:
        return _resolve(importer, module, level, name)
    key = (importer, module, level, name)
    if key not in _shared.resolved:
        _shared.resolved[key] = _resolve(importer, module, level, name)
    return _shared.resolved[key]


def _resolve(importer: str, module: str | None, level: int, name: str | None = None) -> str | None:
    """The file an import refers to, when it is one of the project's own; None otherwise.

    `from .models import Net` (level 1, module "models"), `from . import models` (module None,
    name "models"), `import models` / `from models import Net` (level 0): searched beside the
    importing file, then in its parent folders (three at most, none above the project's root: the
    first folder up that holds `.git`, `pyproject.toml`, `setup.py` or `setup.cfg`, since what
    lies beside a checkout is not the project's own and differs from machine to machine) and
    their `src/` folders."""
    parts = [*(module.split(".") if module else []), *([name] if name else [])]
    if not parts or (level == 0 and parts[0] in _LIBRARIES):
        return None
    here = Path(importer).resolve().parent
    if level > 0:
        base = here
        for _ in range(level - 1):
            base = base.parent
        bases = [base]
    else:
        bases = []
        for folder in [here, *list(here.parents)[:3]]:
            bases += [folder, folder / "src"]
            if _is_project_root(folder):
                break
        bases += [Path(p) for p in path_additions(str(Path(importer).resolve()))]
    for base in bases:
        target = base.joinpath(*parts)
        for candidate in (target.with_suffix(".py"), target / "__init__.py"):
            if candidate.is_file() and candidate.resolve() != Path(importer).resolve():
                return str(candidate.resolve())
    return None


_ROOT_MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg")


def _is_project_root(folder: Path) -> bool:
    return any((folder / marker).exists() for marker in _ROOT_MARKERS)


def path_additions(importer: str) -> tuple[str, ...]:
    """The folders a script puts on `sys.path` itself, relative to its own place
    (`sys.path.insert(1, os.path.join(sys.path[0], '../utils'))`, `sys.path.append(
    str(Path(__file__).parent / "lib"))`): its imports are found there too (PANNs, scan 21)."""
    try:
        stat = os.stat(importer)
    except OSError:
        return ()
    return _path_additions(importer, stat.st_mtime_ns, stat.st_size)


@functools.lru_cache(maxsize=256)
def _path_additions(importer: str, mtime: int, size: int) -> tuple[str, ...]:
    del mtime, size  # (the cache key: the file as it is now)
    text = read_file(importer)
    if text is None or "sys.path" not in text:
        return ()
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return ()
    here = Path(importer).parent
    found: list[str] = []
    for node in ast.walk(tree):
        if not (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("insert", "append")
            and ast.unparse(node.func.value) == "sys.path" and node.args
        ):
            continue
        folder = _folder(node.args[-1], here)
        if folder is not None and folder.is_dir() and str(folder) not in found:
            found.append(str(folder.resolve()))
    return tuple(found)


_SCRIPT_DIR = frozenset({
    "sys.path[0]", "os.path.dirname(__file__)", "os.path.dirname(os.path.abspath(__file__))",
    "os.path.dirname(os.path.realpath(__file__))", "Path(__file__).parent", "Path(__file__).resolve().parent",
    "Path(__file__).absolute().parent", "pathlib.Path(__file__).parent", "pathlib.Path(__file__).resolve().parent",
})


def _folder(node: ast.expr, here: Path) -> Path | None:
    """A folder expression relative to the script's own folder, as written; None where it is not."""
    text = ast.unparse(node)
    if text in _SCRIPT_DIR:
        return here
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and not os.path.isabs(node.value):
        return here / node.value  # (a path relative to where it runs: its own folder, usually)
    if isinstance(node, ast.Call):
        name = ast.unparse(node.func)
        if name in ("os.path.abspath", "os.path.realpath", "os.path.normpath", "str", "Path", "pathlib.Path") and len(node.args) == 1:
            return _folder(node.args[0], here)
        if name == "os.path.dirname" and len(node.args) == 1:
            inner = _folder(node.args[0], here)
            return inner.parent if inner is not None else None
        if name == "os.path.join" and node.args:
            base = _folder(node.args[0], here)
            rest = [a.value for a in node.args[1:] if isinstance(a, ast.Constant) and isinstance(a.value, str)]
            return base.joinpath(*rest) if base is not None and len(rest) == len(node.args) - 1 else None
    if isinstance(node, ast.Attribute) and node.attr == "parent":
        inner = _folder(node.value, here)
        return inner.parent if inner is not None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div) and isinstance(node.right, ast.Constant) and isinstance(node.right.value, str):
        inner = _folder(node.left, here)
        return inner / node.right.value if inner is not None else None
    return None


class ModuleIndex(LineIndex):
    """The line index of an imported file: its spans carry the file's path."""

    def __init__(self, text: str, path: str, boundary: list[Span]) -> None:
        super().__init__(text)
        self.path = path
        self.boundary = boundary  # the checked file's calls being run (the interpreter's stack)
        self.entered: dict[Span, Span] = {}  # a span made here -> the checked file's call that ran it

    def reuse(self, boundary: list[Span]) -> None:
        """Serve another analysis (the next checked file): its stack, none of this one's entries."""
        self.boundary = boundary
        self.entered = {}

    def span(self, node: ast.AST) -> Span:
        s = LineIndex.own_span(self, node)
        made = Span(s.line, s.col, s.end_line, s.end_col, self.path)
        if self.boundary and made not in self.entered:
            self.entered[made] = self.boundary[-1]
        return made


def mark(tree: ast.Module, index: ModuleIndex) -> None:
    """Tie every node of an imported file's tree to its index, so that `LineIndex.span` of the
    importing file gives that file's positions for them."""
    for node in ast.walk(tree):
        node.__dict__[_INDEX_KEY] = index


def foreign(node: ast.AST) -> bool:
    """Whether a node belongs to another file than the one being checked."""
    return _INDEX_KEY in node.__dict__


def load(path: str, text: str, boundary: list[Span]) -> tuple[ast.Module, ModuleIndex] | None:
    """An imported file's tree, every node marked with its `ModuleIndex` (whose `boundary` is
    the importing interpreter's stack); None when the text does not parse.

    While `shared_across_files` is on, a file imported again with the same text (by the next
    checked file: every model of a package imports the package's layers) reuses the tree and
    its index, with the index's per-analysis state reset: parsing and marking a module costs
    more than running its top level. The engine never changes a tree, and the analyses of one
    process run one after the other, so the reuse cannot be seen in any result."""
    shared = _shared
    key = (path, text)
    if shared is not None and key in shared.modules:
        loaded = shared.modules.pop(key)
        shared.modules[key] = loaded  # the most recently used last
        if loaded is not None:
            loaded[1].reuse(boundary)
        return loaded
    tree = parse(text)
    result = None
    if not isinstance(tree, ParseFailure):
        index = ModuleIndex(text, path, boundary)
        mark(tree, index)
        result = (tree, index)
    if shared is not None and len(text) <= _SHARED_TEXT_BUDGET:
        while shared.modules and shared.size + len(text) > _SHARED_TEXT_BUDGET:
            oldest = next(iter(shared.modules))
            del shared.modules[oldest]
            shared.size -= len(oldest[1])
        shared.size += len(text)
        shared.added += 1
        shared.modules[key] = result
    return result


def shared_tree(path: str, text: str) -> ast.Module | None:
    """The tree `load` keeps for this file and text, if it keeps one."""
    loaded = _shared.modules.get((path, text)) if _shared is not None else None
    return loaded[0] if loaded is not None else None


def shared_added() -> int:
    """How many imported files `load` has kept so far (0 when not sharing)."""
    return _shared.added if _shared is not None else 0


def shared_memo() -> Memo | None:
    """The memo of imports' effects while `shared_across_files` is on; None otherwise."""
    return _shared.memo if _shared is not None else None


_SHARED_TEXT_BUDGET = 6_000_000  # characters of module text whose trees are kept (a tree and its marks take about 80 bytes a character); the least recently used go first


class Memo:
    """What imports did, by the machine they started from (`engine.import_memo`): the most
    recently kept `MEMO_ENTRIES`, older ones forgotten first."""

    def __init__(self) -> None:
        self.entries: dict[object, object] = {}
        self.hits = 0
        self.size = 0 if os.environ.get("DTYPEGUARD_IMPORT_MEMO") == "0" else MEMO_ENTRIES  # "0": off, to compare

    def get(self, key: object) -> object | None:
        found = self.entries.get(key)
        if found is not None:
            self.hits += 1
        return found

    def put(self, key: object, value: object) -> None:
        self.entries[key] = value
        while len(self.entries) > self.size:
            del self.entries[next(iter(self.entries))]


MEMO_ENTRIES = 64  # (256: 2% faster on timm, +55 MB peak; 16: 5% slower)


class _Shared:
    def __init__(self) -> None:
        self.resolved: dict[tuple[str, str | None, int, str | None], str | None] = {}
        self.modules: dict[tuple[str, str], tuple[ast.Module, ModuleIndex] | None] = {}
        self.size = 0  # characters of the texts kept
        self.added = 0
        self.memo = Memo()


_shared: _Shared | None = None


@contextmanager
def shared_across_files() -> Iterator[None]:
    """Within it, import resolutions and imported files' trees are remembered from one checked
    file to the next (`dtypeguard check` over a folder, where the files do not change while it
    runs); the language server, whose files do change, never turns this on."""
    global _shared
    saved, _shared = _shared, _Shared()
    try:
        yield
    finally:
        _shared = saved
