"""Helpers for the notebook tests: scripts cut into cells, notebooks written as nbformat 4."""

from __future__ import annotations

import ast
import itertools
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def cells_of(script: str) -> list[str]:
    """Cut a script into cells at top-level statements (each cell starts with a statement;
    the first cell also holds what comes before it), so joining the cells with newlines gives
    the script back line for line."""
    tree = ast.parse(script)
    starts = sorted({min([n.lineno, *(d.lineno for d in getattr(n, "decorator_list", []))]) for n in tree.body})
    lines = script.split("\n")
    if lines and lines[-1] == "":
        lines = lines[:-1]
    if not starts:
        return ["\n".join(lines)]
    starts[0] = 1
    bounds = [*starts, len(lines) + 1]
    return ["\n".join(lines[a - 1 : b - 1]) for a, b in itertools.pairwise(bounds)]


def notebook_json(cells: Sequence[str | dict[str, Any]], counts: Sequence[int | None] | None = None, as_lists: bool = True) -> str:
    """An nbformat 4 notebook: strings are code cells, dicts are cells as given."""
    out: list[dict[str, Any]] = []
    for i, cell in enumerate(cells):
        if isinstance(cell, dict):
            out.append(cell)
            continue
        source: Any = cell.splitlines(keepends=True) if as_lists else cell
        out.append({
            "cell_type": "code",
            "execution_count": counts[i] if counts is not None else None,
            "id": f"cell-{i}",
            "metadata": {"tags": [f"t{i}"]},
            "outputs": [{"name": "stdout", "output_type": "stream", "text": [f"output of cell {i}\n"]}],
            "source": source,
        })
    nb = {
        "cells": out,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python", "version": "3.11.7"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def markdown(text: str) -> dict[str, Any]:
    return {"cell_type": "markdown", "id": "md", "metadata": {}, "source": text}


def write_notebook(path: Path, cells: Sequence[str | dict[str, Any]], **kwargs: Any) -> Path:
    path.write_text(notebook_json(cells, **kwargs), encoding="utf-8")
    return path
