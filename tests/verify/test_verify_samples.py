"""Each sample in samples/manifest.json verifies as the manifest says (run warm, to stay fast).

The manifest is written alongside the samples: `{"path", "expect", "cpu": {"status", "line",
"error_type", "message"}, "warning"}` per entry (`warning`: the kind of step warning expected,
"nonfinite" or "stalled"); this test skips cleanly when the file is absent."""

from __future__ import annotations

import json
from typing import Any

import pytest
from verify_support import REPO

from dtypeguard.verify.runner import WarmWorker, run_verify

MANIFEST = REPO / "samples" / "manifest.json"


def _entries() -> list[dict[str, Any]]:
    if not MANIFEST.is_file():
        return []
    data = json.loads(MANIFEST.read_text())
    entries = data.get("samples", data) if isinstance(data, dict) else data
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("cpu"), dict)]


ENTRIES = _entries()


@pytest.mark.skipif(not MANIFEST.is_file(), reason="samples/manifest.json does not exist yet")
@pytest.mark.parametrize("entry", ENTRIES, ids=[str(e.get("path")) for e in ENTRIES])
def test_sample_matches_manifest(entry: dict[str, Any], worker: WarmWorker) -> None:
    expected = entry["cpu"]
    res = run_verify(str(MANIFEST.parent / entry["path"]), device="cpu", worker=worker, timeout=60.0)
    assert res.status == expected["status"], res.summary()
    if expected.get("line") is not None:
        assert res.line == expected["line"]
    if expected.get("error_type"):
        assert res.error_type == expected["error_type"]
    if expected.get("message"):
        assert expected["message"] in (res.message or "")
    warning = entry.get("warning")
    if warning:
        assert warning in {w.kind for w in res.warnings}, res.warnings
    expected_rules = {code for code in entry.get("expect", []) if code in ("DG012", "DG013")}
    assert expected_rules <= {w.rule for w in res.warnings}, res.warnings
    if expected["status"] == "ok" and not warning:
        assert res.warnings == [], res.warnings


def test_manifest_is_absent_or_has_entries() -> None:
    if not MANIFEST.is_file():
        pytest.skip("samples/manifest.json does not exist yet")
    assert ENTRIES, "samples/manifest.json has no entries with a 'cpu' expectation"
