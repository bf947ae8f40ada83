"""Every test gets its own `dtypeguard check` cache folder: a `check` subprocess run by a test
must neither write `.dtypeguard_cache` into the folder pytest runs from nor see another test's
entries. Likewise its own XDG cache home, where the language server writes the rule pages its
diagnostics link (rule_docs.py), never the developer's ~/.cache."""

from __future__ import annotations

from pathlib import Path

import pytest

# the real-world sets are scripts to analyse and run, not tests (a script may be named `*_test.py`)
collect_ignore_glob = ["realworld*/broken/*", "realworld*/correct/*", "realworld*/tools/*", "realworld*/check.py", "realworld/repo_fp/*"]


@pytest.fixture(autouse=True)
def _own_check_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("dtypeguard_cache")
    monkeypatch.setenv("DTYPEGUARD_CACHE_DIR", str(folder))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg_cache")))
    return folder
