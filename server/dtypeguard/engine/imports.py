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
import sys
from collections.abc import Callable
from pathlib import Path

from dtypeguard.engine.parse import LineIndex
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
    """The file an import refers to, when it is one of the project's own; None otherwise.

    `from .models import Net` (level 1, module "models"), `from . import models` (module None,
    name "models"), `import models` / `from models import Net` (level 0): searched beside the
    importing file, then in its parent folders (three at most) and their `src/` folders."""
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
    for base in bases:
        target = base.joinpath(*parts)
        for candidate in (target.with_suffix(".py"), target / "__init__.py"):
            if candidate.is_file() and candidate.resolve() != Path(importer).resolve():
                return str(candidate.resolve())
    return None


class ModuleIndex(LineIndex):
    """The line index of an imported file: its spans carry the file's path."""

    def __init__(self, text: str, path: str, boundary: list[Span]) -> None:
        super().__init__(text)
        self.path = path
        self.boundary = boundary  # the checked file's calls being run (the interpreter's stack)
        self.entered: dict[Span, Span] = {}  # a span made here -> the checked file's call that ran it

    def span(self, node: ast.AST) -> Span:
        s = LineIndex.own_span(self, node)
        made = Span(s.line, s.col, s.end_line, s.end_col, self.path)
        if self.boundary and made not in self.entered:
            self.entered[made] = self.boundary[0]
        return made


def mark(tree: ast.Module, index: ModuleIndex) -> None:
    """Tie every node of an imported file's tree to its index, so that `LineIndex.span` of the
    importing file gives that file's positions for them."""
    for node in ast.walk(tree):
        node.__dict__[_INDEX_KEY] = index


def foreign(node: ast.AST) -> bool:
    """Whether a node belongs to another file than the one being checked."""
    return _INDEX_KEY in node.__dict__
