"""`run_verify`: run a training script up to its first optimizer step and say what happened.

This is the only place dtypeguard executes user code, and only on an explicit request. The
script runs in the chosen interpreter under `harness.py` (standard library + torch only), in
its own session with stdin closed, a time limit and bounded output capture (see
`process.py`); a warm worker (`warm.py`) can replace the torch import with a fork. The raw
facts the harness sends over its result channel become a `VerifyResult` here, with runtime
errors mapped to rule codes (`explain.py`) and silent hazards turned into warnings
(`step_checks.py`).
"""

from __future__ import annotations

import json
import math
import os
import re
import signal
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from dtypeguard.verify.explain import explain
from dtypeguard.verify.process import RawRun, run_group
from dtypeguard.verify.result import STATUSES, Status, VerifyResult, VerifyWarning
from dtypeguard.verify.step_checks import step_warnings
from dtypeguard.verify.through import (
    Scratch,
    apply_through,
    attach_static_fix,
    classify_limit,
    finish_scratch,
    map_paths,
    prepare_scratch,
    remove_scratch,
)
from dtypeguard.verify.warm import WarmWorker

__all__ = ["DEVICES", "HARNESS_FILE", "VerifyResult", "VerifyWarning", "WarmWorker", "run_verify"]

HARNESS_FILE = str(Path(__file__).with_name("harness.py"))
DEVICES = ("cpu", "cuda", "auto", "cuda-emulated")
ALARM_MARGIN_S = 30  # the script's own SIGALRM backstop, in case this process disappears
MAX_ALARM_S = 10**9
MAX_SOURCE_BYTES = 2 * 1024 * 1024
_FAULT_FRAME = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+)(?: in (?P<func>\S+))?')


def run_verify(
    path: str,
    device: str = "auto",
    python: str | None = None,
    timeout: float = 60.0,
    args: Sequence[str] = (),
    worker: WarmWorker | None = None,
    cancel_event: threading.Event | None = None,
    through: int = 0,
    progress: Callable[[str], None] | None = None,
    source: str | None = None,
) -> VerifyResult:
    """Run `path` until the first `step()` of any optimizer completes, then stop it; with
    `through` N > 0, run it to its end with every DataLoader capped at N batches (run-through).

    Never raises for anything the script does; a bad `device` or non-positive `timeout` is a
    ValueError. `cancel_event` (set from another thread) kills the run's process group.
    `progress` is called (from this thread) with each run-through phase as it is reached.
    The script runs in a scratch copy of its folder (through.py), never in the folder itself.
    `source`: run this text as if it were the file (an editor's unsaved buffer, a fixed copy):
    it is written to the scratch copy only; `path` itself is never written.
    """
    if device not in DEVICES:
        raise ValueError(f"device must be one of {', '.join(DEVICES)}, not {device!r}")
    if not (timeout > 0 and math.isfinite(timeout)):
        raise ValueError("timeout must be a positive, finite number of seconds")
    if through < 0:
        raise ValueError("through must be 0 (one step) or a positive number of batches")
    started = time.monotonic()
    file = os.path.abspath(path)
    interpreter = python or sys.executable
    if not os.path.isfile(file):
        return VerifyResult(
            status="error", device=device, duration_s=0.0, file=file,
            error_type="FileNotFoundError", message=f"no such file: {file}",
        )
    if cancel_event is not None and cancel_event.is_set():
        return VerifyResult(status="cancelled", device=device, duration_s=0.0, file=file)
    alarm_s = int(min(timeout, MAX_ALARM_S)) + ALARM_MARGIN_S  # signal.alarm takes 32 bits
    try:
        scratch = prepare_scratch(file)
    except OSError as exc:
        return VerifyResult(
            status="error", device=device, duration_s=0.0, file=file, error_type=type(exc).__name__,
            message=f"cannot make a scratch folder to run the script in: {exc}",
        )
    try:
        if source is not None:
            with open(scratch.script, "w", encoding="utf-8") as handle:
                handle.write(source)
        result = _run_in(scratch, file, device, interpreter, python, timeout, args, worker,
                         cancel_event, through, progress, alarm_s, started, source)
    except BaseException:
        remove_scratch(scratch)
        raise
    result.written = finish_scratch(scratch)
    result.scratch_dir = scratch.root if result.written else None
    return result


def _run_in(
    scratch: Scratch,
    file: str,
    device: str,
    interpreter: str,
    python: str | None,
    timeout: float,
    args: Sequence[str],
    worker: WarmWorker | None,
    cancel_event: threading.Event | None,
    through: int,
    progress: Callable[[str], None] | None,
    alarm_s: int,
    started: float,
    source: str | None = None,
) -> VerifyResult:
    """The run itself, cold or warm, from the scratch copy of the script."""
    run_file = scratch.script
    options: dict[str, Any] = {"workdir": scratch.root}
    if through:
        options["through"] = through
    listener = _phase_listener(progress) if progress is not None else None
    notes: list[str] = []
    raw: RawRun | None = None
    mode: str = "cold"
    if worker is not None:
        if worker.matches(python, device):
            raw = worker.run(run_file, list(args), timeout, cancel_event, alarm_s, options, listener)
            if raw is None:
                notes.append(f"warm worker unavailable ({worker.failure}); ran cold")
            else:
                mode = "warm"
        else:
            notes.append(f"warm worker is for {worker.python} in {worker.device} mode; ran cold")
    if raw is None:
        if cancel_event is not None and cancel_event.is_set():
            return VerifyResult(status="cancelled", device=device, duration_s=0.0, file=file)
        env = dict(os.environ)
        if device == "cpu":
            env["CUDA_VISIBLE_DEVICES"] = ""  # before torch is imported: CUDA is invisible

        def argv(result_fd: int) -> list[str]:
            return [
                interpreter, HARNESS_FILE, "--result-fd", str(result_fd), "--device", device,
                "--alarm", str(alarm_s), "--workdir", scratch.root,
                *(["--through", str(through)] if through else []), "--", run_file, *args,
            ]

        try:
            raw = run_group(argv, env, scratch.root, timeout, cancel_event, listener)
        except OSError as exc:
            return VerifyResult(
                status="error", device=device, duration_s=time.monotonic() - started, file=file,
                error_type=type(exc).__name__, python=interpreter,
                message=f"cannot start the interpreter {interpreter}: {exc.strerror or exc}",
            )
    raw.notes[:0] = notes
    result = interpret(raw, file, device, timeout, time.monotonic() - started, interpreter, run_file, source)
    result.mode = "warm" if mode == "warm" else "cold"
    if through:
        facts, _events = parse_channel(raw.channel)
        apply_through(result, raw.channel, facts, through)
        if result.status == "timeout" and result.through and result.through.get("steps"):
            where = f"; it was at line {result.line}" if result.line is not None else ""
            result.message = f"the run-through did not end within {timeout:g} s, after {result.through['steps']} step(s){where}"
    map_paths(result, scratch, file)
    classify_limit(result)
    if through:
        attach_static_fix(result, source if source is not None else _source(file))
    return result


def _phase_listener(progress: Callable[[str], None]) -> Callable[[bytes], None]:
    """Calls `progress(phase)` for each `phase` record in the channel's bytes as they come."""
    pending = bytearray()

    def listen(chunk: bytes) -> None:
        pending.extend(chunk)
        *lines, rest = bytes(pending).split(b"\n")
        pending[:] = rest
        for line in lines:
            if b'"phase"' not in line:
                continue
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and record.get("event") == "phase":
                progress(str(record.get("phase")))

    return listen


def parse_channel(data: bytes) -> tuple[dict[str, Any], set[str]]:
    """Merge the harness's JSON-lines records in order; also return which events were seen."""
    merged: dict[str, Any] = {}
    events: set[str] = set()
    for line in data.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict):
            event = str(record.pop("event", ""))
            events.add(event)
            if event != "phase":  # run-through progress (through.phases), not the outcome
                merged.update(record)
    return merged, events


def interpret(
    raw: RawRun, file: str, device: str, timeout: float, duration: float, python: str,
    run_file: str | None = None,
    source: str | None = None,
) -> VerifyResult:
    """Turn the raw run (channel records, exit, captured output) into a VerifyResult."""
    facts, events = parse_channel(raw.channel)
    returncode = raw.exited.returncode if raw.exited is not None else None
    result = VerifyResult(
        status="error",
        device=str(facts.get("device") or device),
        duration_s=duration,
        file=file,
        returncode=returncode,
        torch_version=_str(facts.get("torch_version")),
        python=_str(facts.get("python")) or python,
        import_torch_s=_float(facts.get("import_torch_s")),
        time_to_step_s=_float(facts.get("time_to_step_s")),
        stdout_tail=raw.stdout.text(),
        stderr_tail=raw.stderr.text(),
        stdout_bytes=raw.stdout.total,
        stderr_bytes=raw.stderr.total,
        notes=[*raw.notes, *([str(facts["world_note"])] if facts.get("world_note") else [])],
    )
    for key in ("step", "first_forward", "loss"):
        value = facts.get(key)
        setattr(result, key, value if isinstance(value, dict) else None)
    memory = facts.get("memory")
    result.memory = memory if isinstance(memory, dict) else {}
    _emulation(result, facts)
    _locate(result, facts)
    if returncode is not None and returncode < 0:
        try:
            result.signal = signal.Signals(-returncode).name
        except ValueError:
            result.signal = f"signal {-returncode}"

    if raw.reason == "timeout":
        result.status = "timeout"
        where = f"; it was at line {result.line}" if result.line is not None and "stopped" in events else ""
        result.message = f"no optimizer step within {timeout:g} s{where}"
        if "script" not in events:
            result.message += " (it was still starting: importing torch)"
    elif raw.reason == "cancelled":
        result.status = "cancelled"
        result.message = "cancelled"
    elif "result" in events:
        status = str(facts.get("status"))
        result.status = _status(status)
        result.error_type = _str(facts.get("error_type"))
        result.message = _plain(_str(facts.get("message")))
        result.traceback = _plain(_str(facts.get("traceback")))
        exit_code = facts.get("exit_code")
        result.exit_code = exit_code if isinstance(exit_code, (int, str)) else None
    elif returncode is not None and returncode < 0:
        result.status = "crashed"
        result.message = f"the process was killed by {result.signal} before any optimizer step"
        _locate_fault(result, raw.stderr.text(), run_file or file)
    elif "script" not in events:
        result.status = "error"
        last = raw.stderr.text().strip().splitlines()[-1:] or [f"exit code {returncode}"]
        result.message = f"the verify harness could not start in {python}: {last[0]}"
    else:
        result.status = "no-step"
        result.exit_code = returncode
        result.message = (
            f"the process exited with code {returncode} before any optimizer step() "
            "(os._exit() or a fatal error outside Python)"
        )

    if result.status == "error" and result.message:
        found = explain(result.error_type, result.message, result.traceback, source if source is not None else _source(file))
        if found is not None:
            result.rule = found.code
            result.rule_name = found.name
            result.hint = found.text()
    if result.status == "ok":
        result.warnings = step_warnings(result.step, result.loss)
    return result


_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _plain(text: str | None) -> str | None:
    """torch's messages carry terminal escapes (the weights_only error bolds a sentence); a
    report, a hover or a log file shows them as `[1m` noise, so they are dropped."""
    return _ANSI.sub("", text) if text else text


def _emulation(result: VerifyResult, facts: dict[str, Any]) -> None:
    """Emulated CUDA (harness + emulated_cuda.py) marks its runs so no report passes one off as
    a GPU run."""
    if facts.get("emulated") is True:
        result.emulated = True
        listed = facts.get("not_checked")
        result.not_checked = [str(x) for x in listed] if isinstance(listed, list) else []


def _locate(result: VerifyResult, facts: dict[str, Any]) -> None:
    line = facts.get("line")
    result.line = line if isinstance(line, int) else None
    result.path = _str(facts.get("path"))
    result.function = _str(facts.get("function"))
    result.code_line = _str(facts.get("code_line"))


def _locate_fault(result: VerifyResult, stderr: str, file: str) -> None:
    """faulthandler prints the crashing thread's stack most recent call first: take the first
    frame that is in the script."""
    real = os.path.realpath(file)
    for match in _FAULT_FRAME.finditer(stderr):
        if os.path.realpath(match.group("path")) == real:
            result.path = real
            result.line = int(match.group("line"))
            result.function = match.group("func")
            return


def _source(file: str) -> str:
    try:
        with open(file, encoding="utf-8", errors="replace") as handle:
            return handle.read(MAX_SOURCE_BYTES)
    except OSError:
        return ""


def _status(value: str) -> Status:
    for status in STATUSES:
        if status == value:
            return status
    return "error"


def _str(value: object) -> str | None:
    return value if isinstance(value, str) else None


def _float(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
