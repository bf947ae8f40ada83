"""Client side of the warm worker (`worker.py`): start it, hand it runs, notice when it is gone.

A verification through the worker costs a fork instead of a torch import. The runner treats the
worker as an optimisation only: whenever it is dead, hung, still importing past the deadline,
or was started for another interpreter or device mode, `run()` returns None and the runner
falls back to a cold run. Runs are serialised (one fork at a time).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from dtypeguard.verify.process import (
    LIMITS,
    Exited,
    Pipes,
    RawRun,
    close_all,
    finish,
    kill_group,
    open_pipes,
    supervise,
)

WORKER_FILE = str(Path(__file__).with_name("worker.py"))
MAX_MESSAGE = 1 << 20
START_TIMEOUT_S = 180.0
REPLY_TIMEOUT_S = 5.0
EXIT_REPORT_WAIT_S = 5.0


class WarmWorker:
    """A process in the user's interpreter that has imported torch and forks one child per run.

    `device` is fixed for the worker's life ("cpu" hides CUDA from it before torch is imported).
    """

    def __init__(
        self, python: str | None = None, device: str = "cpu", env: Mapping[str, str] | None = None
    ) -> None:
        if device not in ("cpu", "cuda", "auto", "cuda-emulated"):
            raise ValueError(f"device must be cpu, cuda, auto or cuda-emulated, not {device!r}")
        self.python = python or sys.executable
        self.device = device
        self.env = dict(env) if env is not None else None  # None: this process's environment
        self.info: dict[str, Any] | None = None  # the worker's "ready" message
        self.failure: str | None = None  # why it is not usable, once known
        self._proc: subprocess.Popen[bytes] | None = None
        self._sock: socket.socket | None = None
        self._lock = threading.RLock()

    # ------------------------------------------------------------------ life cycle
    def start(self, wait: bool = True, timeout: float = START_TIMEOUT_S) -> None:
        """Launch the worker; with `wait`, block until torch is imported (or `timeout`)."""
        with self._lock:
            if self._proc is not None:
                self.close()
            self.failure = None
            self.info = None
            self._eof = False
            ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
            env = dict(os.environ if self.env is None else self.env)
            if self.device == "cpu":
                env["CUDA_VISIBLE_DEVICES"] = ""
            try:
                self._proc = subprocess.Popen(
                    [self.python, WORKER_FILE, "--sock", str(theirs.fileno()), "--device", self.device],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                    pass_fds=(theirs.fileno(),),
                    start_new_session=True,
                    env=env,
                )
            except OSError as exc:
                ours.close()
                self.failure = f"cannot start {self.python}: {exc}"
                return
            finally:
                theirs.close()
            self._sock = ours
        if wait:
            self.wait_ready(timeout)

    def wait_ready(self, timeout: float = START_TIMEOUT_S) -> bool:
        """True once the worker has imported torch; False (and `failure` set) if it cannot."""
        with self._lock:
            if self.info is not None:
                return self.alive
            if self._sock is None:
                self.failure = self.failure or "not started"
                return False
            message = self._recv(timeout)
            if message is None:
                if self.alive and not self._eof:  # still importing: keep it, try again later
                    self.failure = f"still starting after {timeout:g} s"
                    return False
                self._fail(self._exit_text())
                return False
            if message.get("event") == "ready":
                self.info = message
                self._torch_stamp = _stamp(str(message.get("torch_file") or ""))
                return True
            self._fail(str(message.get("message") or f"unexpected message {message}"))
            return False

    def ensure_started(self) -> None:
        """Start the worker again (in the background) if it is not running, e.g. after a
        failure made the runner fall back to cold runs."""
        with self._lock:
            if not self.alive:
                self.start(wait=False)

    @property
    def ready(self) -> bool:
        """Torch is imported and the worker takes runs."""
        return self.info is not None and self.alive

    @property
    def emulated_cuda(self) -> bool:
        """This interpreter's torch is a CPU-only build (its ready message said so): a cuda run
        there is emulated. False while unknown (not ready yet)."""
        return self.info is not None and self.info.get("torch_cuda") is None

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None and self._sock is not None

    @property
    def stale(self) -> bool:
        """True when the torch the worker imported was replaced on disk (e.g. pip upgraded it):
        its forks would run the old code."""
        info = self.info
        if info is None or not info.get("torch_file"):
            return False
        return _stamp(str(info["torch_file"])) != self._torch_stamp

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    def matches(self, python: str | None, device: str) -> bool:
        """Whether this worker can serve a run for `python` in `device` mode."""
        wanted = python or sys.executable
        # abspath, not realpath: a venv's python is a symlink to the base interpreter, but it
        # is another environment (other packages).
        return device == self.device and os.path.abspath(wanted) == os.path.abspath(self.python)

    def close(self) -> None:
        """Stop the worker now. It holds nothing worth a graceful exit (each run's child is in
        its own session and already reaped), so its group gets SIGKILL at once."""
        with self._lock:
            if self._sock is not None:
                self._sock.close()
                self._sock = None
            proc, self._proc = self._proc, None
            if proc is not None:
                kill_group(proc.pid, signal.SIGKILL)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    proc.wait(timeout=5.0)

    def __enter__(self) -> WarmWorker:
        if self._proc is None:
            self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ one run
    def run(
        self,
        path: str,
        args: list[str],
        timeout: float,
        cancel_event: threading.Event | None,
        alarm_s: int,
        options: Mapping[str, Any] | None = None,
        listener: Callable[[bytes], None] | None = None,
    ) -> RawRun | None:
        """Run `path` in a forked child; None when the worker cannot (the caller runs cold).
        `options` go to the harness (run-through, scratch folder); `listener` sees the result
        channel as it arrives."""
        with self._lock:
            if not self.wait_ready(min(timeout, START_TIMEOUT_S)) or not self._ping():
                return None
            if self.stale:
                self._fail("torch changed on disk since the worker started")
                return None
            sock = self._sock
            assert sock is not None
            read_ends, write_ends = open_pipes()
            request = {"op": "run", "path": path, "args": list(args), "alarm_s": alarm_s,
                       "options": dict(options or {})}
            try:
                socket.send_fds(
                    sock,
                    [json.dumps(request).encode()],
                    [write_ends["stdout"], write_ends["stderr"], write_ends["channel"]],
                )
            except OSError as exc:
                close_all(read_ends)
                self._fail(f"lost the worker: {exc}")
                return None
            finally:
                close_all(write_ends)
            started = self._recv(REPLY_TIMEOUT_S)
            if started is None or started.get("event") != "started":
                close_all(read_ends)
                self._fail("the worker did not start the run")
                return None
            pid = int(started["pid"])
            pipes = Pipes(read_ends, LIMITS)
            pipes.listener = listener
            notes: list[str] = []
            seen: list[Exited] = []

            def poll_exit() -> Exited | None:
                if not seen:
                    message = self._recv(0.0)
                    if message is not None and message.get("event") == "exit":
                        code = message.get("returncode")
                        seen.append(Exited(code if isinstance(code, int) else None))
                    elif not self.alive or self._eof:
                        kill_group(pid, signal.SIGKILL)  # orphaned child: it is ours to end
                        notes.append("the warm worker died during the run")
                        seen.append(Exited(None))
                return seen[0] if seen else None

            try:
                reason, exited = supervise(pipes, poll_exit, pid, timeout, cancel_event)
            except BaseException:  # e.g. KeyboardInterrupt in the CLI: never leave the child
                kill_group(pid, signal.SIGKILL)
                pipes.close()
                raise
            if exited is None:  # the worker never reported the exit: do not trust it again
                kill_group(pid, signal.SIGKILL)
                self._fail("the worker did not report the end of a run")
            elif not self.alive:
                self._fail(self._exit_text())
            return finish(pipes, reason, exited, notes)

    # ------------------------------------------------------------------ plumbing
    _eof = False
    _torch_stamp: tuple[int, int] | None = None

    def _recv(self, timeout: float) -> dict[str, Any] | None:
        """One message, waiting at most `timeout` (0: only if one is already there)."""
        sock = self._sock
        if sock is None:
            return None
        end = time.monotonic() + timeout
        while True:
            try:
                sock.settimeout(max(0.0, end - time.monotonic()) if timeout > 0 else 0.0)
                data = sock.recv(MAX_MESSAGE)
            except (BlockingIOError, TimeoutError):
                return None
            except OSError:
                self._eof = True
                return None
            if not data:
                self._eof = True
                return None
            try:
                message = json.loads(data)
            except ValueError:
                continue
            if isinstance(message, dict):
                return message
            if time.monotonic() >= end:
                return None

    def _ping(self) -> bool:
        sock = self._sock
        if sock is None or not self.alive:
            self._fail(self._exit_text())
            return False
        try:
            sock.settimeout(REPLY_TIMEOUT_S)
            sock.send(b'{"op": "ping"}')
        except OSError as exc:
            self._fail(f"lost the worker: {exc}")
            return False
        reply = self._recv(REPLY_TIMEOUT_S)
        if reply is None or reply.get("event") != "pong":
            self._fail("the worker does not answer")
            return False
        return True

    def _exit_text(self) -> str:
        code = self._proc.poll() if self._proc is not None else None
        if code is None:
            return "the worker is not running"
        return f"the worker exited with code {code}"

    def _fail(self, why: str) -> None:
        """Remember why, and stop the worker: a half-working worker is worse than a cold run."""
        self.failure = why
        self.close()


def _stamp(path: str) -> tuple[int, int] | None:
    """Identity of a file's current version (inode, mtime): a reinstall changes it."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_mtime_ns)
