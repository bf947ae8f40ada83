"""Finding the Python files a CLI path names: folders are walked, junk and .gitignore skipped.

Jupyter notebooks (`.ipynb`) count as Python files (`dtypeguard.notebook` reads them);
Jupyter's `.ipynb_checkpoints` copies do not."""

from __future__ import annotations

import fnmatch
import os
from collections.abc import Iterator
from pathlib import Path

# ruff's default excludes (tools and environments, not code the user writes) and a few caches
SKIP_DIRS = frozenset({
    ".bzr", ".direnv", ".eggs", ".git", ".git-rewrite", ".hg", ".mypy_cache", ".nox", ".pants.d", ".pytype",
    ".ruff_cache", ".svn", ".tox", ".venv", "__pypackages__", "_build", "buck-out", "dist", "node_modules", "venv",
    "__pycache__", ".pytest_cache", "build", ".e2e", ".ipynb_checkpoints",
})


def _gitignore_patterns(root: Path) -> list[str]:
    patterns: list[str] = []
    for folder in (root, *root.parents):
        ignore = folder / ".gitignore"
        if ignore.is_file():
            try:
                lines = ignore.read_text(encoding="utf-8", errors="replace").splitlines()
            except OSError:
                continue
            patterns += [ln.strip().rstrip("/") for ln in lines if ln.strip() and not ln.startswith(("#", "!"))]
        if (folder / ".git").exists():
            break
    return patterns


def _ignored(rel: str, name: str, patterns: list[str]) -> bool:
    for pattern in patterns:
        pat = pattern.lstrip("/")
        if fnmatch.fnmatch(name, pat) or fnmatch.fnmatch(rel, pat):
            return True
    return False


def iter_python_files(paths: list[str]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_file():
            yield path
            continue
        if not path.is_dir():
            raise FileNotFoundError(raw)
        patterns = _gitignore_patterns(path.resolve())
        top = os.path.join(str(path), "")  # (string joins: pathlib was a third of a warm run)
        for dirpath, dirnames, filenames in os.walk(path):
            rel = dirpath[len(top):] if dirpath.startswith(top) else ""
            dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS and not (patterns and _ignored(os.path.join(rel, d), d, patterns)))
            for name in sorted(filenames):
                if name.endswith((".py", ".pyi", ".ipynb")) and not (patterns and _ignored(os.path.join(rel, name), name, patterns)):
                    yield Path(dirpath, name)
