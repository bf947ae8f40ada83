"""Warm worker: imports torch once, then forks a fresh child for each verification.

Importing torch is most of the cost of a verification (seconds), running a script to its first
step is usually well under one. This process runs in the USER'S INTERPRETER (standard library +
torch only; started by path, never imported from the dtypeguard package), imports torch and
`torch.optim`, and then only forks: it must never run a torch op itself (a parent whose thread
pools started deadlocks its forked children) and never initialise CUDA (CUDA cannot be used in
a child forked after initialisation). The device mode is fixed at start, because
CUDA_VISIBLE_DEVICES cannot change after torch is imported.

Protocol over a SOCK_SEQPACKET Unix socket (``--sock FD``), one JSON object per message:
  worker -> runner  {"event": "ready", "pid", "torch_version", "import_torch_s"}
                    {"event": "no-torch", "message"}  (then it exits)
  runner -> worker  {"op": "ping"}                      -> {"event": "pong"}
                    {"op": "run", "path", "args", "alarm_s", "options"} with three fds attached
                    (the child's stdout, stderr and result channel write ends)
  worker -> runner  {"event": "started", "pid"} then {"event": "exit", "pid", "returncode"}
The child runs in its own session (its pid is its process group), so the runner can kill the
whole group on a timeout exactly as it does for a cold run.
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import json
import os
import select
import signal
import socket
import sys
import time
import traceback
from types import ModuleType
from typing import Any

# `python worker.py` put this package folder first on sys.path; it holds modules named like the
# standard library's (`cmd`), and the user's script must not see it. None of the imports above
# reads it.
_HERE = os.path.dirname(os.path.abspath(__file__))
if sys.path and os.path.abspath(sys.path[0] or ".") == _HERE:
    del sys.path[0]

MAX_MESSAGE = 1 << 20
# Imported lazily by the first `Optimizer(...)` construction (about as slow as torch itself);
# importing them runs no tensor op, so it is safe before fork.
WARM_IMPORTS = ("torch._dynamo",)


def load_harness() -> ModuleType:
    """Load harness.py from this folder under a private name (no package import needed)."""
    spec = importlib.util.spec_from_file_location(
        "_dtypeguard_harness", os.path.join(_HERE, "harness.py")
    )
    if spec is None or spec.loader is None:
        raise ImportError("cannot load the dtypeguard harness")
    module = importlib.util.module_from_spec(spec)
    saved = sys.dont_write_bytecode
    sys.dont_write_bytecode = True  # leave no __pycache__ behind in the install
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = saved
    return module


def send(sock: socket.socket, record: dict[str, Any]) -> bool:
    try:
        sock.send(json.dumps(record).encode())
        return True
    except OSError:
        return False


def _child(
    sock: socket.socket,
    harness: ModuleType,
    torch: ModuleType,
    request: dict[str, Any],
    fds: list[int],
    device: str,
) -> None:
    """In the forked child: new session, stdio onto the runner's pipes, then the harness."""
    try:
        os.setsid()
        sock.close()
        out_fd, err_fd, result_fd = fds
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        os.close(out_fd)
        os.close(err_fd)
        os.set_inheritable(result_fd, False)
        alarm = int(request.get("alarm_s") or 0)
        if alarm > 0:
            signal.alarm(alarm)  # backstop if the runner itself disappears
        harness.run_script(
            torch,
            str(request["path"]),
            [str(a) for a in request.get("args", [])],
            device,
            harness.Channel(result_fd),
            0.0,
            True,
            request.get("options") or None,
        )
    except BaseException:
        with contextlib.suppress(OSError):
            os.write(2, traceback.format_exc().encode())
    finally:
        os._exit(70)


def _wait_child(sock: socket.socket, pid: int) -> int | None:
    """Wait for the child while watching the socket; if the runner vanishes, kill the child."""
    while True:
        info = os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        if info is not None and info.si_pid == pid:
            break
        readable, _, _ = select.select([sock], [], [], 0.05)
        if readable:
            try:
                peek = sock.recv(MAX_MESSAGE, socket.MSG_PEEK)
            except OSError:
                peek = b""
            if not peek:  # runner closed its end
                _kill_group(pid, signal.SIGKILL)
                time.sleep(0.01)
            else:
                time.sleep(0.05)  # a message for later (e.g. a ping); keep waiting for the child
    _kill_group(pid, signal.SIGKILL)  # leftovers the script spawned, before the pid is reaped
    _, status = os.waitpid(pid, 0)
    _kill_strays()
    return os.waitstatus_to_exitcode(status)


PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h


def _become_subreaper() -> bool:
    """Linux: a process a run orphans (a script that forks twice and calls setsid() to leave
    its process group, as daemons do) is re-parented to this worker instead of to init, so
    `_kill_strays` can find it. Elsewhere such a daemon escapes (docs/reliability.md)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except Exception:
        return False


def _children() -> list[int]:
    """This process's children (running or not yet reaped), from /proc."""
    me = os.getpid()
    found: list[int] = []
    try:
        names = os.listdir("/proc")
    except OSError:
        return found
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1 and int(fields[1]) == me:
            found.append(int(name))
    return found


def _kill_strays(limit_s: float = 2.0) -> None:
    """After a run: kill and reap every child this worker still has (between runs it has
    none of its own: they are a run's orphans), then the orphans those leave, in turn."""
    end = time.monotonic() + limit_s
    while time.monotonic() < end:
        strays = _children()
        if not strays:
            return
        for pid in strays:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)
        for pid in strays:
            with contextlib.suppress(OSError):
                os.waitpid(pid, os.WNOHANG)
        time.sleep(0.005)


def _kill_group(pgid: int, sig: int) -> None:
    with contextlib.suppress(OSError):
        os.killpg(pgid, sig)


def _cuda_initialised(torch: ModuleType) -> bool:
    try:
        return bool(torch.cuda.is_initialized())
    except Exception:
        return False


def serve(sock: socket.socket, harness: ModuleType, torch: ModuleType, device: str) -> int:
    while True:
        try:
            message, fds, _flags, _addr = socket.recv_fds(sock, MAX_MESSAGE, 3)
        except OSError:
            return 0
        if not message:
            for fd in fds:
                os.close(fd)
            return 0  # the runner closed the socket: we are done
        try:
            request = json.loads(message)
        except ValueError:
            request = {}
        op = request.get("op")
        if op == "run" and len(fds) == 3 and _cuda_initialised(torch):
            for fd in fds:
                os.close(fd)
            send(sock, {"event": "refused", "message": "CUDA was initialised in the worker"})
            return 4  # forked children could not use CUDA: the runner falls back to cold runs
        if op == "run" and len(fds) == 3:
            pid = os.fork()
            if pid == 0:
                _child(sock, harness, torch, request, fds, device)
            for fd in fds:
                os.close(fd)
            if not send(sock, {"event": "started", "pid": pid}):
                _kill_group(pid, signal.SIGKILL)
            returncode = _wait_child(sock, pid)
            send(sock, {"event": "exit", "pid": pid, "returncode": returncode})
        else:
            for fd in fds:
                os.close(fd)
            send(sock, {"event": "pong" if op == "ping" else "bad-request"})


def main(argv: list[str]) -> int:
    sock_fd = int(argv[argv.index("--sock") + 1])
    device = argv[argv.index("--device") + 1]
    sock = socket.socket(fileno=sock_fd)
    _become_subreaper()
    if device == "cpu":
        os.environ["CUDA_VISIBLE_DEVICES"] = ""  # must precede `import torch`
    started = time.perf_counter()
    try:
        torch = importlib.import_module("torch")
        importlib.import_module("torch.optim")  # imports only; nothing that computes
        importlib.import_module("torch.nn")
    except ImportError as exc:
        send(sock, {"event": "no-torch", "message": f"{sys.executable} cannot import torch: {exc}"})
        return 3
    import_s = time.perf_counter() - started
    # Only with CUDA hidden: an import that asked torch.cuda.is_available() would initialise the
    # CUDA driver here, and a driver initialised before fork() is unusable in the children.
    # Not before a fork on a CUDA build asked for the GPU: nothing there may touch the driver.
    # Emulated CUDA (asked for, or a CPU-only build asked for cuda) runs on the CPU like "cpu".
    no_gpu = device == "cuda-emulated" or (device == "cuda" and getattr(torch.version, "cuda", None) is None)
    for name in WARM_IMPORTS if device == "cpu" or no_gpu else ():
        with contextlib.suppress(Exception):  # an optional speed-up only
            importlib.import_module(name)
    warm_s = time.perf_counter() - started - import_s
    harness = load_harness()
    if no_gpu:
        with contextlib.suppress(Exception):  # an optional speed-up only
            harness.load_emulation()
    send(
        sock,
        {
            "event": "ready",
            "pid": os.getpid(),
            "torch_version": str(torch.__version__),
            "import_torch_s": round(import_s, 4),
            "warm_imports_s": round(warm_s, 4),
            "python": sys.executable,
            "torch_file": str(getattr(torch, "__file__", "")),
            # known without touching a driver: with a CPU-only torch, cuda runs are emulated
            "torch_cuda": getattr(torch.version, "cuda", None),
        },
    )
    return serve(sock, harness, torch, device)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
