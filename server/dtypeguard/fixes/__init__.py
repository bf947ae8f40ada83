"""Quick fixes: each finding's `FixSpec` turned into a libcst transform that keeps the user's
formatting, comments and blank lines, and into minimal `TextEdit`s for the language server.

The public names load lazily, so importing this package does not pay for libcst; the CLI and
LSP import what they need from here. The ast-only placement helpers that a rule also asks while
checking live below, in `dtypeguard.engine.source` (rules never import fixes).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from dtypeguard.fixes.api import FixAllResult, edits_for_fix, fix_all, setup_block_edits
    from dtypeguard.fixes.suppress import suppression_edit
    from dtypeguard.fixes.textedit import apply_edits

_EXPORTS = {
    "FixAllResult": "dtypeguard.fixes.api",
    "edits_for_fix": "dtypeguard.fixes.api",
    "fix_all": "dtypeguard.fixes.api",
    "setup_block_edits": "dtypeguard.fixes.api",
    "suppression_edit": "dtypeguard.fixes.suppress",
    "apply_edits": "dtypeguard.fixes.textedit",
}

__all__ = ["FixAllResult", "apply_edits", "edits_for_fix", "fix_all", "setup_block_edits", "suppression_edit"]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'dtypeguard.fixes' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
