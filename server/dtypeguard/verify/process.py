"""Supervising a process group that runs user code: bounded capture, time limit, cancel, kill.

Shared by cold runs (our own child) and warm runs (a grandchild forked by the worker): in both
cases we hold the read ends of three pipes (stdout, stderr, result channel) and know the
process group id. One loop drains every pipe (so a script printing megabytes never blocks),
watches for the exit, the deadline and the cancel event, and escalates SIGTERM -> SIGKILL on
the whole group. No threads: nothing is left blocked on a pipe that a stray grandchild holds.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import selectors
import signal
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Literal

TAIL_BYTES = 64 * 1024
CHANNEL_BYTES = 8 * 1024 * 1024
TERM_GRACE_S = 1.5
KILL_WAIT_S = 5.0
DRAIN_AFTER_EXIT_S = 0.5
TICK_S = 0.02

Reason = Literal["exited", "timeout", "cancelled"]


class TailBuffer:
    """Keeps the last `limit` bytes written to it and counts all of them."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self._data = bytearray()

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        self._data += chunk
        if len(self._data) > self.limit:
            del self._data[: len(self._data) - self.limit]

    @property
    def truncated(self) -> bool:
        return self.total > len(self._data)

    def bytes(self) -> bytes:
        return bytes(self._data)

    def text(self) -> str:
        return self._data.decode("utf-8", "replace")


@dataclass(frozen=True)
class Exited:
    """The supervised leader has exited; `returncode` is None when it could not be learned."""

    returncode: int | None


class Pipes:
    """Read ends of the captured pipes, drained through one selector."""

    def __init__(self, fds: Mapping[str, int], limits: Mapping[str, int]) -> None:
        self.buffers = {name: TailBuffer(limits.get(name, TAIL_BYTES)) for name in fds}
        self._fds = dict(fds)
        self._selector = selectors.DefaultSelector()
        for name, fd in fds.items():
            self._selector.register(fd, selectors.EVENT_READ, name)
        self._open = set(fds)
        self.listener: Callable[[bytes], None] | None = None  # sees the channel as it arrives

    def pump(self, timeout: float) -> None:
        """Read whatever is available (waiting at most `timeout`)."""
        if not self._open:
            time.sleep(max(0.0, timeout))
            return
        for key, _ in self._selector.select(max(0.0, timeout)):
            name = str(key.data)
            try:
                chunk = os.read(self._fds[name], 65536)
            except OSError:
                chunk = b""
            if chunk:
                self.buffers[name].feed(chunk)
                if name == "channel" and self.listener is not None:
                    with contextlib.suppress(Exception):  # progress only: never stops a run
                        self.listener(chunk)
            else:
                self._selector.unregister(self._fds[name])
                self._open.discard(name)

    def drain(self, limit_s: float) -> None:
        """After the exit: read until every pipe is at EOF, or `limit_s` has passed."""
        end = time.monotonic() + limit_s
        while self._open and time.monotonic() < end:
            self.pump(min(TICK_S, end - time.monotonic()))

    def close(self) -> None:
        self._selector.close()
        for fd in self._fds.values():
            with contextlib.suppress(OSError):
                os.close(fd)
        self._open.clear()


RUN_MARK = "DTYPEGUARD_VERIFY_RUN"  # in the environment of a run and all it starts


def kill_marked(mark: bytes, limit_s: float = 2.0) -> list[int]:
    """Linux: SIGKILL every process whose environment holds `mark` (KEY=token), until none
    is left. A script that leaves its process group (a daemon) still inherits the run's
    environment; one that also scrubs it escapes (docs/reliability.md). Returns the pids."""
    killed: list[int] = []
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        found = _marked(mark)
        if not found:
            break
        for pid in found:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        killed.extend(found)
        time.sleep(0.01)
    return killed


def _marked(mark: bytes) -> list[int]:
    try:
        names = os.listdir("/proc")
    except OSError:
        return []
    me, found = os.getpid(), []
    for name in names:
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open(f"/proc/{name}/environ", "rb") as f:
                environ = f.read()
            with open(f"/proc/{name}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[-1].split()[:1]
        except OSError:
            continue
        if state != [b"Z"] and mark in environ.split(b"\0"):
            found.append(int(name))
    return found


def kill_group(pgid: int, sig: int) -> None:
    """Signal a whole process group; a group that is already gone is fine."""
    if pgid <= 1:
        return
    with contextlib.suppress(OSError):
        os.killpg(pgid, sig)


def child_exit(pid: int) -> Exited | None:
    """Poll our own child WITHOUT reaping it, so its pid (= its group id) stays reserved
    until the leftovers of its group are killed."""
    try:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
    except ChildProcessError:
        return Exited(None)
    if info is None or info.si_pid != pid:
        return None
    if info.si_code == os.CLD_EXITED:
        return Exited(info.si_status)
    return Exited(-info.si_status)


def supervise(
    pipes: Pipes,
    poll_exit: Callable[[], Exited | None],
    pgid: int,
    timeout: float,
    cancel_event: threading.Event | None,
    term_grace: float = TERM_GRACE_S,
) -> tuple[Reason, Exited | None]:
    """Drain `pipes` until the process exits, the deadline passes or `cancel_event` is set.

    On a timeout or cancel the group gets SIGTERM (the harness then reports where the script
    was), then SIGKILL after `term_grace`. Returns why it stopped and the exit (None if the
    process could not be seen exiting even after SIGKILL).
    """
    deadline = time.monotonic() + timeout
    reason: Reason = "exited"
    while True:
        exited = poll_exit()
        if exited is not None:
            return "exited", exited
        if cancel_event is not None and cancel_event.is_set():
            reason = "cancelled"
            break
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            reason = "timeout"
            break
        pipes.pump(min(TICK_S, remaining))
    for sig, wait_s in ((signal.SIGTERM, term_grace), (signal.SIGKILL, KILL_WAIT_S)):
        kill_group(pgid, sig)
        end = time.monotonic() + wait_s
        while time.monotonic() < end:
            exited = poll_exit()
            if exited is not None:
                return reason, exited
            pipes.pump(TICK_S)
    return reason, None


@dataclass
class RawRun:
    """What one supervised run left behind, before interpretation."""

    reason: Reason
    exited: Exited | None
    stdout: TailBuffer
    stderr: TailBuffer
    channel: bytes
    notes: list[str]


LIMITS: dict[str, int] = {"stdout": TAIL_BYTES, "stderr": TAIL_BYTES, "channel": CHANNEL_BYTES}


def open_pipes() -> tuple[dict[str, int], dict[str, int]]:
    """Three pipes (stdout, stderr, result channel): read ends for us, write ends for the child."""
    read_ends: dict[str, int] = {}
    write_ends: dict[str, int] = {}
    try:
        for name in ("stdout", "stderr", "channel"):
            r, w = os.pipe()
            read_ends[name] = r
            write_ends[name] = w
    except OSError:
        close_all(read_ends)
        close_all(write_ends)
        raise
    return read_ends, write_ends


def close_all(fds: Mapping[str, int]) -> None:
    for fd in fds.values():
        with contextlib.suppress(OSError):
            os.close(fd)


def finish(pipes: Pipes, reason: Reason, exited: Exited | None, notes: list[str]) -> RawRun:
    """Collect what is still in the pipes after the exit and release them."""
    pipes.drain(DRAIN_AFTER_EXIT_S)
    pipes.close()
    return RawRun(
        reason=reason,
        exited=exited,
        stdout=pipes.buffers["stdout"],
        stderr=pipes.buffers["stderr"],
        channel=pipes.buffers["channel"].bytes(),
        notes=notes,
    )


def run_group(
    build_argv: Callable[[int], list[str]],
    env: Mapping[str, str],
    cwd: str,
    timeout: float,
    cancel_event: threading.Event | None,
    listener: Callable[[bytes], None] | None = None,
) -> RawRun:
    """Start `build_argv(result_fd)` in a new session (stdin closed) and supervise it; raises
    OSError when the interpreter cannot be started. `listener` sees the result channel's bytes
    as they arrive (progress)."""
    import subprocess

    read_ends, write_ends = open_pipes()
    channel_fd = write_ends["channel"]
    mark = f"{RUN_MARK}={secrets.token_hex(12)}"
    env = {**env, RUN_MARK: mark.partition("=")[2]}
    try:
        proc = subprocess.Popen(
            build_argv(channel_fd),
            stdin=subprocess.DEVNULL,
            stdout=write_ends["stdout"],
            stderr=write_ends["stderr"],
            pass_fds=(channel_fd,),
            start_new_session=True,
            env=dict(env),
            cwd=cwd,
        )
    except OSError:
        close_all(read_ends)
        raise
    finally:
        close_all(write_ends)
    pipes = Pipes(read_ends, LIMITS)
    pipes.listener = listener
    notes: list[str] = []
    try:
        reason, exited = supervise(pipes, lambda: child_exit(proc.pid), proc.pid, timeout, cancel_event)
    except BaseException:  # e.g. KeyboardInterrupt in the CLI: release the pipes, then kill
        pipes.close()
        raise
    finally:
        kill_group(proc.pid, signal.SIGKILL)  # whatever the script left running in its group
        try:
            proc.wait(timeout=KILL_WAIT_S)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process immune to SIGKILL
            notes.append(f"process {proc.pid} did not exit after SIGKILL")
        kill_marked(mark.encode())  # and what left the group (a daemon: fork, setsid, fork)
    if exited is None and proc.returncode is not None:
        exited = Exited(proc.returncode)
    return finish(pipes, reason, exited, notes)
