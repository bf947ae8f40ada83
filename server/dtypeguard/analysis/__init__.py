"""Analysis: parse -> interpret -> rules -> findings, for one text.

`check_source(text)` is the one-shot check (CLI, fixes, tests); `Analyzer().check(text)` is the
same check for a document that is edited, reusing what its last check knew (the language
server keeps one per open document). Both return a `CheckResult`; everything above this layer
(fixes, hover, verify, the commands, the LSP) reads findings and facts from it, none re-derives
them. Modules: `check` (the full check and the rule pass), `incremental` (the `Analyzer`).
"""

from __future__ import annotations

from dtypeguard.analysis.check import (
    CheckResult,
    apply_rules,
    check_source,
    interpret,
    parse_failed,
)
from dtypeguard.analysis.incremental import Analyzer, split_chunks

__all__ = ["Analyzer", "CheckResult", "apply_rules", "check_source", "interpret", "parse_failed", "split_chunks"]
