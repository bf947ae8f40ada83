"""Imports inside `dtypeguard.lsp` go one way: `cmd` -> `server` (wiring) -> handlers ->
session -> the rest. Handler modules may use each other, and so may the modules below the
session, as long as nothing loops.

Read from the source with `ast` (every import, inside functions and `TYPE_CHECKING` blocks
too), so a handler module that reaches back into `server.py`, a session that imports a handler,
or any loop fails here before it confuses a reader (docs/lsp-contract.md, "Inside the server").
"""

from __future__ import annotations

import ast
from pathlib import Path

import dtypeguard.lsp

LSP = Path(dtypeguard.lsp.__file__).parent
WIRING = {"server"}
HANDLERS = {"lifecycle", "sync", "configuration", "diagnostics", "hover", "inlay", "actions", "lens", "verify", "fixverify", "workspace"}
SESSION = {"session"}
BELOW = {"documents", "notebooks", "verifier", "settings", "convert", "background"}
LAYER = {"cmd": 4, **dict.fromkeys(WIRING, 3), **dict.fromkeys(HANDLERS, 2), **dict.fromkeys(SESSION, 1), **dict.fromkeys(BELOW, 0)}


def _lsp_imports(module: str) -> set[str]:
    """The `dtypeguard.lsp` modules `module` imports."""
    tree = ast.parse((LSP / f"{module}.py").read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            parts = name.split(".")
            if parts[:2] == ["dtypeguard", "lsp"] and len(parts) > 2 and parts[2] in LAYER:
                out.add(parts[2])
    out.discard(module)
    return out


def test_every_module_has_a_layer() -> None:
    modules = {p.stem for p in LSP.glob("*.py")} - {"__init__"}
    assert modules == set(LAYER), "a new module in lsp/: give it a layer here and a line in docs/lsp-contract.md"


def test_imports_go_down() -> None:
    wrong = []
    for module, layer in LAYER.items():
        for imported in _lsp_imports(module):
            below = LAYER[imported] < layer
            sideways = LAYER[imported] == layer and (module in HANDLERS or module in BELOW)
            if not (below or sideways):
                wrong.append(f"{module} imports {imported}")
    assert wrong == []


def test_no_import_loops() -> None:
    graph = {module: _lsp_imports(module) for module in LAYER}
    visiting: list[str] = []
    done: set[str] = set()

    def visit(module: str) -> None:
        assert module not in visiting, f"import loop: {' -> '.join([*visiting[visiting.index(module):], module])}"
        if module in done:
            return
        visiting.append(module)
        for imported in sorted(graph[module]):
            visit(imported)
        visiting.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)
