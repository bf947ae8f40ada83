"""The language server survives abuse, over stdio with a real (raw JSON-RPC) client: random
incremental edit storms end with diagnostics for the final text, garbage and cancellations get
LSP errors, a broken pyproject.toml is one clear message, memory stays bounded over 10,000
edits, and a client that vanishes mid-verify takes the server AND the verify processes with it.

(`tests/lsp/` covers the polite cases: bad requests, malformed params, an append-only storm,
stdin closed without a verify running.)"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from dtypeguard.analysis import check_source
from tests.reliability.support import (
    FUZZ,
    ROOT,
    RawServer,
    alive,
    descendants,
    kill_all,
    read_pids,
    rss_kib,
    wait_gone,
)

H06 = ROOT / "samples" / "hazards" / "h06_numpy_float64_linear.py"
STORM_EDITS = 600 * FUZZ
MEMORY_EDITS = 10_000
MEMORY_LIMIT_MB = 150


# ---------------------------------------------------------------------------- helpers
def utf16_position(text: str, offset: int) -> dict[str, int]:
    """An offset as an LSP position: lines end at \\r\\n, \\r or \\n (the spec's, and every
    client's, terminators: NOT form feed or U+2028), UTF-16 columns."""
    line = 0
    start = 0
    i = 0
    while i < offset:
        char = text[i]
        if char == "\n" or (char == "\r" and text[i + 1 : i + 2] != "\n"):
            line += 1
            start = i + 1
        i += 1
    column = sum(2 if ord(c) > 0xFFFF else 1 for c in text[start:offset])
    return {"line": line, "character": column}


def key_of(diags: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return sorted(
        (d["code"], d["range"]["start"]["line"], d["range"]["start"]["character"], d["range"]["end"]["line"])
        for d in diags if d.get("source") == "dtypeguard"
    )


def expected_key(text: str) -> list[tuple[Any, ...]]:
    """What the server must publish for `text` (ASCII lines: code points == UTF-16 units)."""
    lines = text.split("\n")
    out = []
    for f in check_source(text).findings:
        line0 = min(f.span.line - 1, len(lines) - 1)
        prefix = lines[line0][: f.span.col]
        out.append((f.code, line0, sum(2 if ord(c) > 0xFFFF else 1 for c in prefix), min(f.span.end_line - 1, len(lines) - 1)))
    return sorted(out)


@pytest.fixture
def server() -> Any:
    srv = RawServer()
    yield srv
    srv.close()


# ---------------------------------------------------------------------------- edit storms
def test_form_feed_and_unicode_line_separators_do_not_split_lines(server: RawServer) -> None:
    """A form feed or U+2028 inside a comment is not a line break for the client; an
    incremental edit below it must land where the client meant it."""
    server.initialize()
    uri = (ROOT / "tests" / "reliability" / "ff_doc.py").as_uri()
    text = "x = 1  # page\x0cbreak \u2028 \x85 \x1c\ny = 2\n"
    server.open(uri, text)
    server.published(uri, 1)
    body = "import torch\nimport numpy as np\nfrom torch import nn\nm = nn.Linear(3, 1)\nm(torch.from_numpy(np.zeros((2, 3))))"
    start = utf16_position(text, text.index("y = 2"))
    end = utf16_position(text, text.index("y = 2") + 5)
    server.change(uri, 2, [{"range": {"start": start, "end": end}, "text": body}])
    final = text.replace("y = 2", body)
    assert key_of(server.published(uri, 2)) == expected_key(final)
    assert any(code == "DG004" for code, *_ in expected_key(final))


def test_random_incremental_storm_ends_with_the_final_texts_diagnostics(server: RawServer) -> None:
    """Hundreds of random incremental edits (inserts, deletes, replacements across lines,
    astral characters, CRLF) sent within about a second: the last publish is for the last
    version and equals the analysis of the text the client has."""
    server.initialize()
    uri = (ROOT / "tests" / "reliability" / "storm_doc.py").as_uri()
    text = H06.read_text(encoding="utf-8")
    server.open(uri, text)
    server.published(uri, 1)
    rng = random.Random(7)
    pieces = ["x", " ", "\n", "(", ")", "torch.", "é", "𝄞", "\r\n", "model(inputs)\n", "'", "#", ":", "\t", "ab"]
    version = 1
    started = time.monotonic()
    for _ in range(STORM_EDITS):
        version += 1
        a = rng.randrange(len(text) + 1)
        b = min(len(text), a + rng.choice([0, 0, 1, 2, 5, 40]))
        if text[a - 1 : a + 1] == "\r\n" or text[b - 1 : b + 1] == "\r\n":
            b = a = min(a, b)  # never split a CRLF (the client would not either)
            if text[a - 1 : a + 1] == "\r\n":
                a = b = a + 1
        new = rng.choice(pieces) if rng.random() < 0.7 else ""
        server.change(uri, version, [{"range": {"start": utf16_position(text, a), "end": utf16_position(text, b)}, "text": new}])
        text = text[:a] + new + text[b:]
    sent_s = time.monotonic() - started
    # bring it back to a parseable hazard, so the comparison is about findings, not only DG000
    version += 1
    end = utf16_position(text, len(text))
    server.change(uri, version, [{"range": {"start": {"line": 0, "character": 0}, "end": end}, "text": H06.read_text(encoding="utf-8")}])
    final_text = H06.read_text(encoding="utf-8")
    assert key_of(server.published(uri, version, timeout=60)) == expected_key(final_text)
    # and the storm text itself, published as-is (one more full change, then compare)
    version += 1
    server.change(uri, version, [{"text": text}])
    got = key_of(server.published(uri, version, timeout=60))
    want = expected_key(text)
    if check_source(text).parsed:
        assert got == want
    else:  # the last good findings stay published, plus the one DG000 of this text
        assert [k for k in got if k[0] == "DG000"] == want
    versions = [m["params"]["version"] for m in server.received if m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri]
    assert versions == sorted(versions), "an older version was published after a newer one"
    print(f"\nstorm: {STORM_EDITS} random incremental edits sent in {sent_s:.2f} s; final diagnostics match")
    assert sent_s < 30


def test_incremental_text_matches_the_clients_text_after_a_storm(server: RawServer) -> None:
    """The strongest check of incremental sync: after random edits, the server's fix-all edit,
    applied to OUR copy of the text, gives exactly what fix-all gives on our copy."""
    from dtypeguard.fixes.api import fix_all

    server.initialize()
    uri = (ROOT / "tests" / "reliability" / "sync_doc.py").as_uri()
    text = "# header \x0c form feed \u2028 line sep \x85\n" + H06.read_text(encoding="utf-8")
    server.open(uri, text)
    server.published(uri, 1)
    rng = random.Random(11)
    version = 1
    lines_added = ["\n", "# 𝄞 comment\n", "#\x0c\u2028 x\x85\n", "\x0c\n", "# é\r\n"]
    for _ in range(200):
        version += 1
        # comment and blank lines at line starts: the text keeps parsing, so fixes stay offered
        starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
        at = rng.choice(starts[:-1] or [0])
        new = rng.choice(lines_added)
        server.change(uri, version, [{"range": {"start": utf16_position(text, at), "end": utf16_position(text, at)}, "text": new}])
        text = text[:at] + new + text[at:]
    server.published(uri, version, timeout=60)
    answer = server.call("workspace/executeCommand", {"command": "dtypeguard.fixAll", "arguments": [uri]})
    assert answer.get("result", {}).get("applied") is True, answer
    edit = server.wait(lambda m: m.get("method") == "workspace/applyEdit")
    changes = edit["params"]["edit"].get("changes") or {}
    edits = changes.get(uri) or [e for dc in edit["params"]["edit"].get("documentChanges", []) for e in dc["edits"]]
    assert edits
    ours = apply_lsp_edits(text, edits)
    assert ours == fix_all(text).text, "the server's copy of the document diverged from the client's"


def apply_lsp_edits(text: str, edits: list[dict[str, Any]]) -> str:
    def offset(pos: dict[str, int]) -> int:
        line = 0
        i = 0
        while line < pos["line"] and i < len(text):
            if text[i] == "\n" or (text[i] == "\r" and text[i + 1 : i + 2] != "\n"):
                line += 1
            i += 1
        units = 0
        while i < len(text) and units < pos["character"] and text[i] not in "\r\n":
            units += 2 if ord(text[i]) > 0xFFFF else 1
            i += 1
        return i

    spans = sorted(((offset(e["range"]["start"]), offset(e["range"]["end"]), e["newText"]) for e in edits), reverse=True)
    for start, end, new in spans:
        text = text[:start] + new + text[end:]
    return text


# ---------------------------------------------------------------------------- bad input
def test_garbage_cancellations_and_unknown_documents_are_answered(server: RawServer) -> None:
    server.initialize()
    uri = H06.as_uri()
    server.open(uri, H06.read_text(encoding="utf-8"))
    server.published(uri, 1)
    ghost = (ROOT / "nowhere" / "ghost.py").as_uri()
    pos = {"line": 0, "character": 0}
    doc = {"uri": ghost}
    requests: list[tuple[str, Any]] = [
        ("textDocument/hover", {"textDocument": doc, "position": pos}),
        ("textDocument/codeLens", {"textDocument": doc}),
        ("textDocument/inlayHint", {"textDocument": doc, "range": {"start": pos, "end": pos}}),
        ("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": -5, "character": -1}}),
        ("textDocument/hover", {"textDocument": {"uri": uri}, "position": {"line": 2**31 - 1, "character": 2**31 - 1}}),
        ("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {"start": {"line": 9, "character": 0}, "end": {"line": 2, "character": 0}}, "context": {"diagnostics": []}}),
        ("textDocument/hover", None),
        ("textDocument/hover", []),
        ("textDocument/codeAction", {"textDocument": {"uri": uri}}),
        ("codeAction/resolve", {"title": "x", "data": "not a dict"}),
        ("codeAction/resolve", {"title": "x", "data": {"uri": ghost}}),
        ("workspace/executeCommand", {"command": "dtypeguard.fixAll", "arguments": [ghost]}),
        ("workspace/executeCommand", {"command": "dtypeguard.fixAll", "arguments": [{"uri": uri}]}),
        ("workspace/executeCommand", {"command": "dtypeguard.verify", "arguments": ["untitled:Untitled-1", "cpu"]}),
        ("no/suchMethod", {"x": 1}),
    ]
    ids = {server.request(method, params): method for method, params in requests}
    # notifications that must be ignored, not fatal
    server.notify("textDocument/didChange", {"textDocument": {"uri": ghost, "version": 3}, "contentChanges": [{"text": "x"}]})
    server.notify("textDocument/didClose", {"textDocument": {"uri": ghost}})
    server.notify("textDocument/didOpen", {"textDocument": {"uri": 5}})
    server.notify("$/cancelRequest", {"id": 987654})
    server.notify("$/somethingUnknown", {})
    server.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 2},
                                             "contentChanges": [{"range": {"start": {"line": 500, "character": 3}, "end": {"line": 900, "character": 0}}, "text": "# appended\n"}]})
    # framing garbage: a body that is not JSON, then a valid request after it
    server.raw(b"Content-Length: 9\r\n\r\n{not json")
    for msg_id, method in ids.items():
        answer = server.answer(msg_id)
        if "error" in answer:
            assert isinstance(answer["error"]["code"], int) and answer["error"]["message"], answer
        else:
            assert method in ("textDocument/codeAction", "textDocument/hover", "workspace/executeCommand") or answer.get("result") is None, (method, answer)
    # a request cancelled right after it was sent is answered (result or RequestCancelled)
    slow = [server.request("textDocument/codeAction", {"textDocument": {"uri": uri}, "range": {"start": pos, "end": {"line": 40, "character": 0}}, "context": {"diagnostics": []}}) for _ in range(20)]
    for msg_id in slow:
        server.notify("$/cancelRequest", {"id": msg_id})
    for msg_id in slow:
        answer = server.answer(msg_id)
        assert "result" in answer or answer["error"]["code"] in (-32800, -32603), answer
    # the document survived all of it: it is the sample plus the appended comment at its end
    lens = server.call("textDocument/codeLens", {"textDocument": {"uri": uri}})
    assert lens.get("result"), "the server still serves the open document"
    assert server.proc.poll() is None


def test_broken_pyproject_is_one_clear_message_and_diagnostics_still_come(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.dtypeguard\nselect = ["DG004"\n', encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "pyproject.toml").write_text(
        '[tool.dtypeguard]\nselect = ["DG004", "DG999"]\nignore = "DG008,NOPE"\ncolour = 1\nseverity = { DG004 = "loud", XX1 = "hint" }\n'
        '[tool.dtypeguard.per-file-ignores]\n"*.py" = 3\n',
        encoding="utf-8",
    )
    srv = RawServer(cwd=tmp_path)
    try:
        srv.initialize(root=tmp_path)
        text = H06.read_text(encoding="utf-8")
        broken_uri = (tmp_path / "train.py").as_uri()
        srv.open(broken_uri, text)
        diags = srv.published(broken_uri, 1)
        assert any(d["code"] == "DG004" for d in diags), "analysis goes on with the defaults"
        shown = [m["params"]["message"] for m in srv.received if m.get("method") == "window/showMessage"]
        assert len(shown) == 1, shown
        assert "pyproject.toml" in shown[0] and "cannot read configuration" in shown[0]
        # a pyproject with bad values: each problem names its key; analysis still runs
        bad_uri = (tmp_path / "sub" / "train.py").as_uri()
        srv.open(bad_uri, text)
        diags = srv.published(bad_uri, 1)
        assert diags, "diagnostics still published"
        logs = " | ".join(m["params"]["message"] for m in srv.received if m.get("method") == "window/logMessage")
        for key in ("DG999", "colour", "NOPE", "severity.DG004", "XX1", "per-file-ignores"):
            assert key in logs, f"{key} is not named in: {logs}"
        # reopening (a new version) does not repeat the messages
        srv.notify("textDocument/didChange", {"textDocument": {"uri": broken_uri, "version": 2}, "contentChanges": [{"text": text + "\n"}]})
        srv.published(broken_uri, 2)
        again = [m for m in srv.received if m.get("method") == "window/showMessage"]
        assert len(again) == 2, [m["params"]["message"] for m in again]  # one per pyproject, once each
    finally:
        srv.close()


# ---------------------------------------------------------------------------- resources
def test_memory_stays_bounded_over_10000_edits(server: RawServer, record_property: Any) -> None:
    """10,000 incremental edits in bursts (each burst analysed), after a warm-up: the server's
    resident memory grows by less than MEMORY_LIMIT_MB; no verify process is ever started
    without an explicit request."""
    server.initialize()
    uri = (ROOT / "tests" / "reliability" / "memory_doc.py").as_uri()
    text = H06.read_text(encoding="utf-8")
    server.open(uri, text)
    server.published(uri, 1)
    end_line = text.count("\n")
    version = 1

    def burst(count: int) -> None:
        nonlocal version
        for i in range(count):
            version += 1
            # type a statement at the end, then delete it again: the text stays the same size
            if i % 2 == 0:
                change = {"range": {"start": {"line": end_line, "character": 0}, "end": {"line": end_line, "character": 0}},
                          "text": f"z{version} = model(inputs)\n"}
            else:
                change = {"range": {"start": {"line": end_line, "character": 0}, "end": {"line": end_line + 1, "character": 0}}, "text": ""}
            server.change(uri, version, [change])
        server.published(uri, version, timeout=60)

    for _ in range(5):
        burst(100)
    base = rss_kib(server.pid)
    started = time.monotonic()
    for _ in range(MEMORY_EDITS // 250):
        burst(250)
    elapsed = time.monotonic() - started
    final = rss_kib(server.pid)
    growth_mb = (final - base) / 1024
    record_property("rss_growth_mb", round(growth_mb, 1))
    print(f"\nRSS {base / 1024:.1f} MB -> {final / 1024:.1f} MB (+{growth_mb:.1f} MB) over {MEMORY_EDITS} edits in {elapsed:.1f} s")
    assert growth_mb < MEMORY_LIMIT_MB
    assert not descendants(server.pid), "a process was started without a verify request"


# ---------------------------------------------------------------------------- vanished client
VERIFY_SCRIPT = """
import os, signal, sys, time
from pathlib import Path

pids = Path(__file__).with_suffix(".pids")
signal.signal(signal.SIGTERM, signal.SIG_IGN)
for _ in range(2):
    if os.fork() == 0:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        with open(pids, "a") as fh:
            fh.write(f"{os.getpid()}\\n")
        while True:
            time.sleep(0.05)
with open(pids, "a") as fh:
    fh.write(f"{os.getpid()}\\n")
import torch
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
while True:
    time.sleep(0.05)
"""


def test_vanished_client_ends_server_and_every_verify_process(tmp_path: Path, record_property: Any) -> None:
    script = tmp_path / "train.py"
    pidfile = script.with_suffix(".pids")  # absolute: verify runs a scratch copy elsewhere
    script.write_text(VERIFY_SCRIPT.replace('Path(__file__).with_suffix(".pids")', f"Path({str(pidfile)!r})"), encoding="utf-8")
    srv = RawServer(cwd=tmp_path)
    spawned: set[int] = set()
    try:
        srv.initialize({"verifyTimeout": 300}, root=tmp_path)
        uri = script.as_uri()
        srv.open(uri, VERIFY_SCRIPT)
        srv.published(uri, 1)
        srv.request("workspace/executeCommand", {"command": "dtypeguard.verify", "arguments": [uri, "cpu"]})
        deadline = time.monotonic() + 120
        while len(read_pids(pidfile)) < 3 and time.monotonic() < deadline:
            spawned |= descendants(srv.pid)
            time.sleep(0.05)
        script_pids = read_pids(pidfile)
        assert len(script_pids) == 3, "the verify script never started"
        spawned |= descendants(srv.pid) | set(script_pids)
        assert all(alive(p) for p in script_pids)
        closed = time.monotonic()
        srv.stdin.close()  # the editor vanished: no shutdown, no exit
        srv.proc.wait(timeout=15)
        server_gone = time.monotonic() - closed
        left = wait_gone(spawned, 15.0)
        all_gone = time.monotonic() - closed
        record_property("vanish_server_s", round(server_gone, 2))
        record_property("vanish_all_s", round(all_gone, 2))
        print(f"\nclient vanished: server gone in {server_gone:.2f} s, all {len(spawned)} verify processes in {all_gone:.2f} s")
        assert not left, f"processes outlived the server: {left}"
        assert all_gone < 5.0
    finally:
        kill_all(p for p in spawned | set(read_pids(pidfile)) if alive(p))
        srv.kill()
