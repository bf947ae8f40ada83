"""The rule pages diagnostics link (rule_docs.py): written to the user's cache for this version,
the same text as docs/rules.md, and no link at all when nothing can be written."""

from __future__ import annotations

import tempfile
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

from dtypeguard import rule_docs

ROOT = Path(__file__).resolve().parents[2]


def _path(uri: str) -> Path:
    return Path(unquote(urlparse(uri).path))


def test_a_page_per_rule_in_the_cache_with_the_reference_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    rule_docs.rule_doc_uri.cache_clear()
    uri = rule_docs.rule_doc_uri("DG004")
    assert uri is not None and uri.startswith("file:///")
    page = _path(uri)
    assert page.parent == tmp_path / "dtypeguard" / "rules" / rule_docs.__version__
    reference = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    section = reference.split("## DG004\n", 1)[1].split("\n## ", 1)[0].strip()
    assert section in page.read_text(encoding="utf-8")
    assert rule_docs.rule_doc_uri("DG999") is None


def test_an_unwritable_cache_falls_back_then_gives_no_link(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    blocked = tmp_path / "not-a-folder"
    blocked.write_text("a file where the cache folder would go")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocked))
    rule_docs.rule_doc_uri.cache_clear()
    uri = rule_docs.rule_doc_uri("DG011")
    assert uri is not None and str(_path(uri)).startswith(tempfile.gettempdir())
    monkeypatch.setattr(tempfile, "gettempdir", lambda: str(blocked))
    rule_docs.rule_doc_uri.cache_clear()
    assert rule_docs.rule_doc_uri("DG011") is None  # no link rather than a broken one
    rule_docs.rule_doc_uri.cache_clear()
