"""Shared pieces of the reliability suite: fuzz budgets, input generators, process checks and a
raw JSON-RPC client for the language server (no pytest-lsp: the abuse tests need to close
stdin, read /proc/<pid>, and send what a well-behaved client never would)."""

from __future__ import annotations

import ast
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterable
from pathlib import Path
from typing import IO, Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").rglob("*.py"))
CORPUS = sorted((ROOT / "tests" / "corpus").rglob("*.py"))
SERVER_COMMAND = [sys.executable, "-m", "dtypeguard", "lsp"]

# `make test` runs every property test with its default budget; `make fuzz` sets
# DTYPEGUARD_FUZZ_EXAMPLES (a multiplier, e.g. 20) for a much longer run.
FUZZ = max(1, int(os.environ.get("DTYPEGUARD_FUZZ_EXAMPLES", "1") or "1"))


def examples(default: int) -> int:
    return default * FUZZ


def fuzz_settings(default: int) -> settings:
    return settings(
        max_examples=examples(default),
        deadline=None,
        derandomize=FUZZ == 1,  # `make test` is reproducible; `make fuzz` explores
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large],
        database=None,
    )


# ---------------------------------------------------------------------------- torch programs
def _rule_lines() -> list[str]:
    """Every single-line statement of every rule's examples: the vocabulary of the hazards."""
    from dtypeguard.rules import ALL_RULES

    out: list[str] = []
    for rule in ALL_RULES:
        for src in (*rule.examples.bad, *rule.examples.good):
            for line in src.splitlines():
                stripped = line.split("  # <-")[0].rstrip()
                if stripped and not line[:1].isspace() and not stripped.endswith(":"):
                    try:
                        ast.parse(stripped)
                    except SyntaxError:
                        continue
                    out.append(stripped)
    return sorted(set(out))


RULE_LINES = _rule_lines()
def _snippets() -> list[str]:
    """Every rule example whole (bad and good): self-contained, so each brings its hazard."""
    from dtypeguard.rules import ALL_RULES

    out = []
    for rule in ALL_RULES:
        for src in (*rule.examples.bad, *rule.examples.good):
            try:
                ast.parse(src)
            except SyntaxError:
                continue
            out.append(src.replace("  # <-", "").rstrip("\n"))
    return out


SNIPPETS = _snippets()
HEADERS = [
    "import torch", "import numpy as np", "import torch.nn as nn", "from torch import nn",
    "import torch.nn.functional as F", "from torch.utils.data import DataLoader, TensorDataset",
]
OPENERS = [
    "if cond:", "for i in range(2):", "while flag:", "with torch.autocast('cpu', dtype=torch.bfloat16):",
    "try:", "def step():", "class M(nn.Module):\n    def forward(self, x):", "with torch.no_grad():",
    "async def run():", "match mode:\n    case 'train':", "if a:\n    pass\nelif b:",
]
CLOSERS = {"try:": ("except Exception:", "pass")}


@st.composite
def torch_programs(draw: st.DrawFn) -> str:
    """Valid programs made of hazard snippets and statements in random order, nested in
    random blocks (the engine must follow them; the fixes must edit them in place)."""
    lines = [h for h in HEADERS if draw(st.booleans())]
    stack: list[tuple[str, int]] = []  # (opener, indentation of its body)

    def indent() -> str:
        return " " * (stack[-1][1] if stack else 0)

    def close(n: int) -> None:
        for _ in range(n):
            opener, body = stack.pop()
            handler = CLOSERS.get(opener.split("\n")[-1])
            if handler:
                lines.append(" " * (body - 4) + handler[0])
                lines.append(" " * body + handler[1])

    for _ in range(draw(st.integers(1, 12))):
        choice = draw(st.integers(0, 9))
        if choice <= 1 and len(stack) < 4:
            opener = draw(st.sampled_from(OPENERS))
            base = indent()
            parts = opener.split("\n")
            lines += [base + part for part in parts]
            body = len(base) + len(parts[-1]) - len(parts[-1].lstrip()) + 4
            stack.append((opener, body))
            lines.append(indent() + draw(st.sampled_from(RULE_LINES)))
        elif choice == 2 and stack:
            close(draw(st.integers(1, len(stack))))
        elif choice <= 5:
            lines += [indent() + line if line else "" for line in draw(st.sampled_from(SNIPPETS)).split("\n")]
        else:
            lines.append(indent() + draw(st.sampled_from(RULE_LINES)))
    close(len(stack))
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------- mutations
def mutate(text: str, ops: Iterable[tuple[int, int, int]]) -> str:
    """States a file passes through while typed: each (op, where, what) deletes a line,
    truncates, inserts a character, duplicates, dedents, cuts the file, swaps two lines."""
    lines = text.splitlines(keepends=True)
    chars = ["(", ")", ":", "'", '"', '"""', "\\", "\t", " ", "\n", "torch.", ".to(", "é", "𝄞",
             "\x00", "\r", "\ufeff", "#", "@", "lambda", "[", "{", ",", "=", "if x", "\x0c"]
    for op, where, what in ops:
        if not lines:
            break
        i = where % len(lines)
        kind = op % 7
        if kind == 0:
            del lines[i]
        elif kind == 1:
            lines[i] = lines[i][: what % (len(lines[i]) + 1)]
        elif kind == 2:
            pos = what % (len(lines[i]) + 1)
            lines[i] = lines[i][:pos] + chars[what % len(chars)] + lines[i][pos:]
        elif kind == 3:
            lines.insert(i, lines[i])
        elif kind == 4:
            lines[i] = lines[i].lstrip()
        elif kind == 5:
            lines = lines[: i + 1]
        else:
            j = what % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
    return "".join(lines)


# ---------------------------------------------------------------------------- processes
def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie counts as gone: it holds no memory and runs nothing)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def wait_gone(pids: Iterable[int], wait_s: float) -> list[int]:
    """The pids still alive after waiting up to `wait_s`."""
    pids = list(pids)
    end = time.monotonic() + wait_s
    while True:
        left = [p for p in pids if alive(p)]
        if not left or time.monotonic() >= end:
            return left
        time.sleep(0.02)


def descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry.name))
    out: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in out:
                out.add(child)
                todo.append(child)
    return out


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


def read_pids(path: Path) -> list[int]:
    try:
        return [int(p) for p in path.read_text().split()]
    except (OSError, ValueError):
        return []


def kill_all(pids: Iterable[int]) -> None:
    """Test cleanup: SIGKILL whatever is left of the processes a test started (by pid)."""
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


# ---------------------------------------------------------------------------- raw LSP client
class RawServer:
    """`dtypeguard lsp` over stdio with a reader thread; every message is kept in order."""

    def __init__(self, cwd: Path | None = None, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(
            SERVER_COMMAND, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            cwd=cwd or ROOT, env=env,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.stdin: IO[bytes] = self.proc.stdin
        self.received: list[dict[str, Any]] = []
        self._next_id = 100
        self._lock = threading.Lock()
        self._write_lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, args=(self.proc.stdout,), daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def _read(self, stream: IO[bytes]) -> None:
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
            body = stream.read(length)
            if len(body) < length:
                return
            message = json.loads(body)
            with self._lock:
                self.received.append(message)
            if "id" in message and "method" in message:  # a request from the server: answer it
                result: Any = {"applied": True} if message["method"] == "workspace/applyEdit" else None
                try:
                    self.send({"id": message["id"], "result": result})
                except OSError:
                    return

    def raw(self, data: bytes) -> None:
        with self._write_lock:
            self.stdin.write(data)
            self.stdin.flush()

    def send(self, payload: dict[str, Any]) -> None:
        body = json.dumps({"jsonrpc": "2.0", **payload}).encode()
        self.raw(b"Content-Length: %d\r\n\r\n" % len(body) + body)

    def notify(self, method: str, params: Any) -> None:
        self.send({"method": method, "params": params})

    def request(self, method: str, params: Any) -> int:
        self._next_id += 1
        self.send({"id": self._next_id, "method": method, "params": params})
        return self._next_id

    def answer(self, msg_id: int, timeout: float = 30.0) -> dict[str, Any]:
        return self.wait(lambda m: m.get("id") == msg_id and "method" not in m, timeout)

    def call(self, method: str, params: Any, timeout: float = 30.0) -> dict[str, Any]:
        return self.answer(self.request(method, params), timeout)

    def wait(self, predicate: Any, timeout: float = 30.0) -> dict[str, Any]:
        end = time.monotonic() + timeout
        with self._lock:
            for message in self.received:
                if predicate(message):
                    return message
        seen = len(self.received)
        while time.monotonic() < end:
            with self._lock:
                fresh = self.received[seen:]
                seen = len(self.received)
            for message in fresh:
                if predicate(message):
                    return message
            if self.proc.poll() is not None and not fresh:
                raise AssertionError(f"the server exited with {self.proc.returncode}")
            time.sleep(0.01)
        raise AssertionError(f"no matching message within {timeout} s")

    def published(self, uri: str, version: int, timeout: float = 30.0) -> list[dict[str, Any]]:
        message = self.wait(
            lambda m: m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == uri and m["params"].get("version") == version,
            timeout,
        )
        return list(message["params"]["diagnostics"])

    def initialize(self, settings: dict[str, Any] | None = None, root: Path = ROOT) -> dict[str, Any]:
        answer = self.call("initialize", {
            "processId": os.getpid(), "rootUri": root.as_uri(), "capabilities": {},
            "initializationOptions": {"settings": {"debounceMs": 0, **(settings or {})}},
        })
        self.notify("initialized", {})
        return answer

    def open(self, uri: str, text: str, version: int = 1) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "python", "version": version, "text": text}})

    def change(self, uri: str, version: int, changes: list[dict[str, Any]]) -> None:
        self.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes})

    def close(self, timeout: float = 10.0) -> None:
        """Polite end (shutdown + exit), then make sure the process is gone."""
        try:
            if self.proc.poll() is None:
                self.call("shutdown", None, timeout)
                self.notify("exit", None)
                self.proc.wait(timeout)
        except (AssertionError, OSError, subprocess.TimeoutExpired):
            pass
        finally:
            self.kill()

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
