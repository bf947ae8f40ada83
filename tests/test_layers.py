"""Import direction: the house has layers, and a lower layer never imports a higher one.

Every `import` in `server/dtypeguard` counts, including the ones inside functions (a lazy
import is still a dependency; it only moves the cost). Imports under `if TYPE_CHECKING:` count
too: they are cheap to keep in order and a loop there is a loop a reader has to untangle.

Two checks:
- the layer order below (a module may import its own layer or any lower one);
- no cycle between components (top-level modules and subpackages, each taken as a whole), so
  "fixes -> analysis -> rules -> fixes" cannot come back through a lazy import.

Adding a module: put it in `LAYERS` at the lowest layer whose imports it needs. See
docs/ARCHITECTURE.md for what each layer is for.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "server" / "dtypeguard"

# Lowest first. A component is `dtypeguard.<name>`: a top-level module or a whole subpackage.
LAYERS: list[tuple[str, set[str]]] = [
    ("base", {"dtypeguard", "quick", "findings", "files"}),
    ("engine", {"engine"}),
    ("rules", {"rules"}),
    ("analysis", {"config", "analysis"}),
    ("fixes | hover", {"fixes", "hover"}),
    ("verify", {"verify"}),
    (
        "commands",
        {
            "notebook",
            "check_results",
            "check_cache",
            "check_pool",
            "check_cmd",
            "fix_cmd",
            "verify_cmd",
            "rules_cmd",
            "rule_docs",
        },
    ),
    ("lsp", {"lsp"}),
    ("entry", {"cli", "__main__"}),  # names every command, the language server's too
]
LAYER_OF = {comp: i for i, (_, comps) in enumerate(LAYERS) for comp in comps}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _component(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else parts[0]


def _imports(path: Path) -> set[str]:
    """The dtypeguard modules `path` imports, relative imports resolved."""
    module = _module_name(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join([*base, *([node.module] if node.module else [])])
            else:
                target = node.module or ""
            found.add(target)
            found.update(f"{target}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _MODULE_NAME.match(node.value):
            # a module named in a string, for `importlib.import_module` (the CLI's command table)
            found.add(node.value)
    return {m for m in found if m == "dtypeguard" or m.startswith("dtypeguard.")}


def _module_names() -> set[str]:
    return {_module_name(path) for path in ROOT.rglob("*.py")}


_MODULE_NAME = re.compile(r"^dtypeguard(\.[a-z_0-9]+)+$")


def _graph() -> dict[str, set[str]]:
    """Component -> the components it imports (itself left out)."""
    files = sorted(ROOT.rglob("*.py"))
    components = {_component(_module_name(path)) for path in files}
    graph: dict[str, set[str]] = {comp: set() for comp in components}
    for path in files:
        comp = _component(_module_name(path))
        graph[comp].update(
            dep for dep in map(_component, _imports(path)) if dep in components and dep != comp
        )
    return graph


def test_every_component_has_a_layer() -> None:
    missing = sorted(set(_graph()) - set(LAYER_OF))
    assert not missing, f"put these in a layer in tests/test_layers.py: {missing}"


def test_no_lower_layer_imports_a_higher_one() -> None:
    bad = [
        f"{comp} ({LAYERS[LAYER_OF[comp]][0]}) imports {dep} ({LAYERS[LAYER_OF[dep]][0]})"
        for comp, deps in sorted(_graph().items())
        for dep in sorted(deps)
        if comp in LAYER_OF and dep in LAYER_OF and LAYER_OF[dep] > LAYER_OF[comp]
    ]
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_no_import_cycles() -> None:
    graph = _graph()
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                cycles.append([*path[path.index(dep) :], dep])
            elif dep not in state:
                visit(dep)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_the_graph_is_read() -> None:
    """Guard the test itself: a known edge must be seen, or the checks above pass vacuously."""
    graph = _graph()
    assert "engine" in graph["rules"]
    assert "rules" in graph["analysis"]


def _module_graph() -> dict[str, set[str]]:
    """Module -> the modules it imports (a name that is an attribute, not a module, left out)."""
    names = _module_names()
    return {
        _module_name(path): {m for m in _imports(path) if m in names and m != _module_name(path)}
        for path in sorted(ROOT.rglob("*.py"))
    }


def test_no_import_cycles_between_modules() -> None:
    """Inside a package too: `values -> interpreter -> values` is a loop a reader must untangle.
    A package's `__init__` that re-exports its modules (lazily, for start-up time) is the one
    allowed way back: a module importing its own package's `__init__` is not an edge."""
    graph = _module_graph()
    for module, deps in graph.items():
        graph[module] = {d for d in deps if not module.startswith(d + ".")}
    cycles: list[list[str]] = []
    state: dict[str, int] = {}
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                cycles.append([*path[path.index(dep) :], dep])
            elif dep not in state:
                visit(dep)
        path.pop()
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def test_a_module_named_in_a_string_counts() -> None:
    """The CLI imports its commands by name (`importlib.import_module`): those count as imports."""
    assert "lsp" in _graph()["cli"]


def test_the_architecture_document_names_every_module() -> None:
    """docs/ARCHITECTURE.md's module index stays current: a new module is named there (a rule
    module is covered by `rules/dgNNN_<slug>.py`), and a module it names still exists."""
    doc = (ROOT.parent.parent / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    modules = {p.relative_to(ROOT).as_posix() for p in ROOT.rglob("*.py") if "__pycache__" not in p.parts}
    missing = sorted(m for m in modules if not re.match(r"rules/dg\d{3}_", m) and f"`{m}`" not in doc)
    assert not missing, f"name these in docs/ARCHITECTURE.md's module index: {missing}"
    index = doc[doc.index("## Modules") :].split("\n## ", 1)[0]
    gone = sorted(set(re.findall(r"^  - `([\w/]+\.py)`", index, re.M)) - modules)
    assert not gone, f"docs/ARCHITECTURE.md names modules that do not exist: {gone}"
