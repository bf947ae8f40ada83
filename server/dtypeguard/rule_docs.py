"""Rule documentation as files an editor can open from a diagnostic's code.

A diagnostic links its rule's explanation (LSP `codeDescription.href`, the hover's link). A web
address would go stale or point nowhere (the project publishes none), and the reference must
be the one of the installed version: so each rule's section (`rules_cmd.rule_section`, the same
text as docs/rules.md) is written once per version into the user's cache folder
(`$XDG_CACHE_HOME/dtypeguard/rules/<version>/DG004.md`, never the project's folders) and linked as
a `file:` URI. If the cache cannot be written there is no link, never a broken one.
"""

from __future__ import annotations

import os
import tempfile
from functools import cache
from pathlib import Path

from dtypeguard import __version__
from dtypeguard.rules import BY_CODE


def docs_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dtypeguard" / "rules" / __version__


@cache
def rule_doc_uri(code: str) -> str | None:
    """The `file:` URI of the rule's reference page, written if missing or out of date."""
    from dtypeguard.rules_cmd import rule_section

    rule = BY_CODE.get(code)
    if rule is None:
        return None
    text = "\n".join([f"# {rule.code}: {rule.name}", "", *rule_section(rule)[2:]]) + "\n"
    for folder in (docs_dir(), Path(tempfile.gettempdir()) / f"dtypeguard-rules-{os.getuid()}" / __version__):
        path = folder / f"{code}.md"
        try:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                folder.mkdir(parents=True, exist_ok=True)
                partial = path.with_suffix(f".{os.getpid()}.tmp")
                partial.write_text(text, encoding="utf-8")
                os.replace(partial, path)  # a reader never sees half a page
            return path.as_uri()
        except OSError:
            continue
    return None
