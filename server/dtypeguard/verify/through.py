"""Runner side of run-through mode, the scratch working directory, and the honest limits.

Run-through (`verify --through`) runs the whole script with every DataLoader capped at a few
batches (the harness side is `harness_through.py`): the first step is reported as in a one-step
run, then the phases reached after it and the first error after it, and every checkpoint the
script saved is loaded back the way a resume would load it.

Both modes run the script in a scratch folder (`Scratch`), never in the user's folder: a script
that saves `checkpoint.pt` (or creates `runs/`) before or after its first step must not
overwrite the user's files. The scratch folder mirrors the script's folder: real directories,
symbolic links to the user's files, and a private copy of the script (so `__file__` and
`Path(__file__).resolve().parent` both point into the scratch folder). Relative reads resolve
through the links; the harness breaks a link before anything writes to it. A folder that wrote
nothing is removed; otherwise it is kept (the last `KEEP_SCRATCH` per script) and its path is
reported, so the user can look at what the run wrote.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dtypeguard.verify.explain import HINTS
from dtypeguard.verify.result import VerifyResult, VerifyWarning

DEFAULT_BATCHES = 2
MIRROR_ENTRIES = 5000  # beyond this many entries, folders are linked whole (made real on write)
KEEP_SCRATCH = 3
SCRATCH_PARENT = "dtypeguard-verify"
_MISSING_FILE = re.compile(r"No such file or directory: '(?P<path>[^']+)'")
_NEEDS_GPU = (
    "Torch not compiled with CUDA enabled",
    "Found no NVIDIA driver",
    "No CUDA GPUs are available",
    "CUDA driver initialization failed",
    "no CUDA-capable device is detected",
)
CHECKPOINT_FIX = (
    "store plain Python values in the checkpoint (float(x) for a NumPy scalar, x.tolist() for "
    "an array, vars(args) for an argparse Namespace), or allowlist the classes with "
    "torch.serialization.add_safe_globals([...]) before loading, or load a file you trust with "
    "torch.load(path, weights_only=False)."
)


# --------------------------------------------------------------------------- scratch folder
@dataclass(frozen=True)
class Scratch:
    root: str  # the scratch folder (realpath)
    script: str  # the private copy of the script inside it
    original_dir: str  # the script's own folder (realpath)


def prepare_scratch(file: str) -> Scratch:
    """A fresh scratch folder mirroring `file`'s folder; raises OSError if it cannot be made."""
    source = os.path.realpath(os.path.dirname(file))
    parent = os.path.join(tempfile.gettempdir(), f"{SCRATCH_PARENT}-{os.getuid()}")
    os.makedirs(parent, mode=0o700, exist_ok=True)
    stem = scratch_stem(file)
    root = os.path.realpath(tempfile.mkdtemp(prefix=f"{stem}-", dir=parent))
    script_name = os.path.basename(file)
    budget = MIRROR_ENTRIES
    pending = [("", source)]
    while pending:
        rel, folder = pending.pop()
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            src = os.path.join(folder, name)
            dst = os.path.join(root, rel, name)
            if rel == "" and name == script_name:
                continue
            budget -= 1
            if budget > 0 and os.path.isdir(src) and not os.path.islink(src):
                os.mkdir(dst)
                pending.append((os.path.join(rel, name), src))
            else:
                with contextlib.suppress(OSError):
                    os.symlink(src, dst)
    copy = os.path.join(root, script_name)
    shutil.copyfile(file, copy)
    return Scratch(root=root, script=copy, original_dir=source)


def finish_scratch(scratch: Scratch) -> list[str]:
    """What the run wrote (relative paths, at most 20); removes the folder when nothing."""
    written: list[str] = []
    for folder, dirs, files in os.walk(scratch.root):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(folder, d))]:
            path = os.path.join(folder, name)
            if path == scratch.script or os.path.islink(path):
                continue
            written.append(os.path.relpath(path, scratch.root))
        for name in dirs:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, scratch.root)
            if not os.path.islink(path) and not os.path.isdir(os.path.join(scratch.original_dir, rel)):
                written.append(rel + os.sep)  # a folder the run created
    if not written:
        remove_scratch(scratch)
        return []
    _prune(scratch)
    return sorted(written)[:20]


def remove_scratch(scratch: Scratch) -> None:
    shutil.rmtree(scratch.root, ignore_errors=True)  # unlinks the links, never follows them
    with contextlib.suppress(OSError):
        os.rmdir(os.path.dirname(scratch.root))  # only if empty


def _prune(scratch: Scratch) -> None:
    """Keep the newest KEEP_SCRATCH scratch folders of this script."""
    parent = os.path.dirname(scratch.root)
    stem = os.path.basename(scratch.root).rsplit("-", 1)[0]
    try:
        mine = [os.path.join(parent, n) for n in os.listdir(parent) if n.rsplit("-", 1)[0] == stem]
    except OSError:
        return
    mine.sort(key=lambda p: os.stat(p).st_mtime if os.path.exists(p) else 0.0)
    for old in mine[:-KEEP_SCRATCH]:
        if old != scratch.root:
            shutil.rmtree(old, ignore_errors=True)


def scratch_stem(file: str) -> str:
    """The scratch folder's name prefix for `file`: its name and a digest of its path (tests find
    a run's processes by it)."""
    base = re.sub(r"[^A-Za-z0-9_.]", "_", os.path.splitext(os.path.basename(file))[0])[:40]
    digest = hashlib.sha1(os.path.realpath(file).encode()).hexdigest()[:8]
    return f"{base}_{digest}"


def map_paths(result: VerifyResult, scratch: Scratch, file: str) -> None:
    """Report the user's file and folder, not the scratch copy."""
    real_file = os.path.realpath(file)

    def fix(text: str | None) -> str | None:
        if not text:
            return text
        return text.replace(scratch.script, real_file).replace(scratch.root + os.sep, scratch.original_dir + os.sep)

    result.path = fix(result.path)
    result.traceback = fix(result.traceback)
    result.message = fix(result.message)
    if result.through is not None:
        for phase in result.through.get("phases", []):
            if isinstance(phase.get("path"), str):
                phase["path"] = fix(phase["path"])


# --------------------------------------------------------------------------- run-through facts
def phases(channel: bytes) -> list[dict[str, Any]]:
    """The harness's `phase` records, in order."""
    found: list[dict[str, Any]] = []
    for line in channel.splitlines():
        try:
            record = json.loads(line)
        except ValueError:
            continue
        if isinstance(record, dict) and record.get("event") == "phase":
            record.pop("event")
            found.append(record)
    return found


def apply_through(result: VerifyResult, channel: bytes, facts: Mapping[str, Any], batches: int) -> None:
    """Fill `result.through` and the checkpoint warnings from the harness's records."""
    reached = phases(channel)
    steps = facts.get("through_steps")
    result.through = {
        "batches": batches,
        "phases": reached,
        "steps": steps if isinstance(steps, int) else sum(1 for p in reached if p.get("phase") == "step"),
        "after_step": bool(facts.get("after_step")),
        "ended": result.status == "ok",
        "checkpoints": [],
    }
    warned: set[tuple[object, object]] = set()
    for phase in reached:
        if phase.get("phase") != "save":
            continue
        checks = phase.get("roundtrip") or []
        result.through["checkpoints"].append(
            {"file": phase.get("file"), "line": phase.get("line"), "checks": checks}
        )
        warning = checkpoint_warning(phase, checks, result.torch_version)
        site = (phase.get("line"), phase.get("file"))
        if warning is not None and site not in warned:  # once per torch.save line and file
            warned.add(site)
            result.warnings.append(warning)


def checkpoint_warning(phase: Mapping[str, Any], checks: list[Any], torch_version: str | None) -> VerifyWarning | None:
    """A warning for the first failed load-back of one saved checkpoint."""
    for check in checks:
        if not isinstance(check, dict) or check.get("ok") is not False:
            continue
        line = phase.get("line")
        where = f" saved at line {line}" if isinstance(line, int) else ""
        name = os.path.basename(str(phase.get("file") or "checkpoint"))
        unsafe = [str(g) for g in check.get("unsafe_globals") or []]
        if check.get("check") == "defaults":
            how = f"torch.load({name!r}) with the defaults of torch {torch_version or ''}".replace(" )", ")")
            if check.get("weights_only_default"):
                how += " (weights_only=True)"
        else:
            how = f"torch.load({name!r}, map_location={check.get('map_location')!r})"
        holds = f"; it holds {', '.join(unsafe)}" if unsafe else ""
        message = (
            f"the checkpoint{where} cannot be loaded back: {how} fails with "
            f"{check.get('error_type')}{holds}: {_telling_line(str(check.get('message') or ''))}"
        )
        weights_only = "weights_only" in str(check.get("message") or "").lower() or bool(unsafe)
        return VerifyWarning(
            kind="checkpoint",
            rule="DG011" if weights_only else None,
            message=message,
            hint=CHECKPOINT_FIX if weights_only else None,
            line=line if isinstance(line, int) else None,
        )
    return None


# --------------------------------------------------------------------------- honest limits
def classify_limit(result: VerifyResult) -> None:
    """Name why a run could not go on when the cause is the environment, not a dtype bug:
    a file the script reads does not exist, it needs a GPU, or it waits on input."""
    if result.status != "error":
        return
    message = result.message or ""
    error = result.error_type or ""
    if error == "FileNotFoundError" or (error in ("OSError", "IOError") and "No such file" in message):
        match = _MISSING_FILE.search(message)
        what = f" {match.group('path')}" if match else ""
        result.limit = "missing-file"
        result.limit_message = (
            f"the script reads{what}, which does not exist next to it (verify runs it in a "
            "scratch copy of its folder; relative paths resolve to the script's folder)"
        )
    elif any(text in message for text in _NEEDS_GPU) or (
        error == "AssertionError" and "CUDA" in message
    ):
        result.limit = "needs-gpu"
        result.limit_message = "the script needs a CUDA GPU, and this run has none (try --device cuda on a GPU machine)"
    elif error == "EOFError" and ("input(" in (result.traceback or "") or "stdin" in (result.traceback or "") or "reading a line" in message):
        result.limit = "needs-input"
        result.limit_message = "the script waits on input (stdin); verify runs it with stdin closed"


def attach_static_fix(result: VerifyResult, source: str) -> None:
    """The static finding of the same rule as the runtime error (at its line if there is one
    there, else the nearest before it) with the quick fix `dtypeguard fix` would apply."""
    if result.status != "error" or not result.rule or not source:
        return
    try:
        from dtypeguard.analysis import check_source

        findings = check_source(source, result.file).findings
    except Exception:  # the analysis is a bonus here, never a reason to lose the run's result
        return
    same = [f for f in findings if f.code == result.rule and f.fixes and not f.span.file]
    if not same:
        return
    line = result.line or 0
    same.sort(key=lambda f: (f.span.line != line, f.span.line > line, abs(line - f.span.line)))
    finding = same[0]
    result.static_fix = {"code": finding.code, "line": finding.span.line, "title": finding.fixes[0].title,
                         "safe": finding.fixes[0].safe}


def hint_for(rule: str | None) -> str | None:
    return HINTS.get(rule) if rule else None


def _telling_line(text: str) -> str:
    """torch's weights-only message starts with boilerplate: take the line naming the cause."""
    for line in text.splitlines():
        if "Unsupported global" in line or "WeightsUnpickler error" in line:
            return _first_line(line)
    return _first_line(text)


def _first_line(text: str, limit: int = 240) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    line = lines[0] if lines else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"
