"""didChange -> publishDiagnostics latency of `dtypeguard lsp` over stdio (debounce 0).

Opens a realistic ~2,000-line training file (bench/make_big_file.py), then sends one incremental
didChange at a time (a character typed into a comment) and times until the publishDiagnostics
for that version arrives. Also times `check_source` on the same text in-process, so the
server's own overhead (JSON-RPC, sync, conversion) can be told apart from the analysis.

    .venv/bin/python bench/bench_lsp.py [--lines 2000] [--iterations 40]
"""

from __future__ import annotations

import argparse
import json
import queue
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from make_big_file import big_training_file


def send(stream: IO[bytes], payload: dict[str, Any]) -> None:
    body = json.dumps(payload).encode()
    stream.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    stream.flush()


def reader(stream: IO[bytes], out: queue.Queue[tuple[float, dict[str, Any]]]) -> None:
    while True:
        length = 0
        while True:
            line = stream.readline()
            if not line:
                return
            if line in (b"\r\n", b"\n"):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        message = json.loads(stream.read(length))
        out.put((time.perf_counter(), message))


def wait_for(inbox: queue.Queue[tuple[float, dict[str, Any]]], pred: Any, timeout: float = 120.0) -> tuple[float, dict[str, Any]]:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("no matching message")
        stamp, message = inbox.get(timeout=left)
        if pred(message):
            return stamp, message


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--server-arg", action="append", default=[], help="extra `dtypeguard lsp` argument")
    parser.add_argument("--warm-wait", type=float, default=20.0, help="seconds between showing the lens and clicking it")
    args = parser.parse_args()

    text = big_training_file(args.lines)
    lines = text.split("\n")
    uri = "file:///tmp/dtypeguard_bench_lsp.py"
    proc = subprocess.Popen(
        [sys.executable, "-m", "dtypeguard", "lsp", *args.server_arg], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    inbox: queue.Queue[tuple[float, dict[str, Any]]] = queue.Queue()
    threading.Thread(target=reader, args=(proc.stdout, inbox), daemon=True).start()
    try:
        send(proc.stdin, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "processId": None, "rootUri": None, "capabilities": {},
            "initializationOptions": {"settings": {"debounceMs": 0}}}})
        wait_for(inbox, lambda m: m.get("id") == 1)
        send(proc.stdin, {"jsonrpc": "2.0", "method": "initialized", "params": {}})
        started = time.perf_counter()
        send(proc.stdin, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
            "uri": uri, "languageId": "python", "version": 1, "text": text}}})
        stamp, first = wait_for(inbox, lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == 1)
        print(f"open: {len(lines)} lines, {len(first['params']['diagnostics'])} diagnostics, first publish {1000 * (stamp - started):.0f} ms")

        # type into a comment at the end of the file (line stays valid Python)
        line0 = len(lines) - 1
        send_line = lines[line0]
        current = send_line + "# "
        latencies: list[float] = []
        version = 1
        version += 1
        send(proc.stdin, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line0, "character": len(send_line)},
                                          "end": {"line": line0, "character": len(send_line)}}, "text": "# "}]}})
        wait_for(inbox, lambda m, v=version: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == v)
        for i in range(args.iterations):
            version += 1
            char = "abcdefghij"[i % 10]
            col = len(current)
            t0 = time.perf_counter()
            send(proc.stdin, {"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": {"start": {"line": line0, "character": col},
                                              "end": {"line": line0, "character": col}}, "text": char}]}})
            stamp, _ = wait_for(inbox, lambda m, v=version: m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == v)
            latencies.append(1000 * (stamp - t0))
            current += char
        verify_times = bench_verify_click(proc.stdin, inbox, args.warm_wait)
        send(proc.stdin, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
        wait_for(inbox, lambda m: m.get("id") == 2)
        send(proc.stdin, {"jsonrpc": "2.0", "method": "exit"})
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()

    from dtypeguard.analysis import check_source

    final = "\n".join([*lines[:-1], current])
    engine: list[float] = []
    for _ in range(min(10, args.iterations)):
        t0 = time.perf_counter()
        check_source(final)
        engine.append(1000 * (time.perf_counter() - t0))
    median = statistics.median(latencies)
    p95 = percentile(latencies, 0.95)
    eng = statistics.median(engine)
    print(f"didChange -> publishDiagnostics over stdio, debounce 0, {args.iterations} edits:")
    print(f"  median {median:.0f} ms   p95 {p95:.0f} ms   min {min(latencies):.0f} ms   max {max(latencies):.0f} ms")
    print(f"check_source in-process on the same text: median {eng:.0f} ms")
    print(f"server overhead beyond the analysis (median): {median - eng:.0f} ms")
    print(f"target p95 < 50 ms: {'met' if p95 < 50 else 'NOT met'}")
    for label, seconds, summary in verify_times:
        print(f"verify click -> result ({label}): {seconds:.2f} s  [{summary}]")
    return 0


SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "fixed" / "h06_numpy_float64_linear.py"


def bench_verify_click(stdin: IO[bytes], inbox: queue.Queue[tuple[float, dict[str, Any]]], warm_wait: float) -> list[tuple[str, float, str]]:
    """Open a sample, ask for its lenses (which pre-warms the verify worker), wait as a user
    reading the code would, then time clicks on "Verify on CPU"."""
    uri = SAMPLE.as_uri()
    send(stdin, {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "python", "version": 1, "text": SAMPLE.read_text(encoding="utf-8")}}})
    send(stdin, {"jsonrpc": "2.0", "id": 50, "method": "textDocument/codeLens", "params": {"textDocument": {"uri": uri}}})
    wait_for(inbox, lambda m: m.get("id") == 50)
    time.sleep(warm_wait)
    out = []
    for i, label in enumerate((f"after {warm_wait:.0f} s of reading", "second click")):
        t0 = time.perf_counter()
        send(stdin, {"jsonrpc": "2.0", "id": 60 + i, "method": "workspace/executeCommand", "params": {
            "command": "dtypeguard.verify", "arguments": [uri, "cpu"]}})
        stamp, reply = wait_for(inbox, lambda m, n=60 + i: m.get("id") == n, timeout=180)
        out.append((label, stamp - t0, str((reply.get("result") or {}).get("summary", reply.get("error")))))
    return out


if __name__ == "__main__":
    raise SystemExit(main())
