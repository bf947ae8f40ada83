"""Shared by the packaging tests: paths, and the extension's packaging scripts as modules."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

REPO = Path(__file__).resolve().parents[2]
VERSION = str(json.loads((REPO / "package.json").read_text(encoding="utf-8"))["version"])
TARGETS = ("linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64")
PYTHONS = ["3.10", "3.11", "3.12", "3.13", "3.14"]


def script(name: str) -> ModuleType:
    """extension/scripts/<name>.py imported as a module (the scripts are not a package)."""
    path = REPO / "extension" / "scripts" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(f"dtypeguard_scripts_{name}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
