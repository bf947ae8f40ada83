"""Run-through mode (`verify --through`) and the scratch working folder, with real subprocesses
and real torch: errors after the first step, checkpoints loaded back, DataLoader caps, limits,
progress, cancellation, and a user folder that stays untouched."""

from __future__ import annotations

import hashlib
import json
import shutil
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from verify_support import SCRIPTS, cli

from dtypeguard.verify.runner import VerifyResult, WarmWorker, run_verify

THROUGH = SCRIPTS / "through"
SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def line_of(name: str, marker: str) -> int:
    for number, text in enumerate((THROUGH / name).read_text().splitlines(), start=1):
        if marker in text:
            return number
    raise AssertionError(f"{marker} not in {name}")


def snapshot(folder: Path) -> dict[str, str]:
    """Every entry under `folder` with a digest of its content (folders and links marked)."""
    out: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        rel = str(path.relative_to(folder))
        if path.is_symlink():
            out[rel] = "link"
        elif path.is_dir():
            out[rel] = "dir"
        else:
            out[rel] = hashlib.sha1(path.read_bytes()).hexdigest()
    return out


@pytest.fixture(scope="module")
def user_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A user's project folder holding writes_files.py, its data and files it must not touch."""
    folder = tmp_path_factory.mktemp("project")
    shutil.copy(THROUGH / "writes_files.py", folder / "train.py")
    (folder / "data.csv").write_text("1,2\n3,4\n")
    (folder / "checkpoint.pt").write_bytes(b"the user's own checkpoint")
    (folder / "log.txt").write_text("old log\n")
    (folder / "sub").mkdir()
    (folder / "sub" / "existing.txt").write_text("keep me\n")
    return folder


@pytest.fixture(scope="module")
def runs(worker: WarmWorker, user_folder: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The runs the tests below assert on, made once, three at a time."""
    before = snapshot(user_folder)

    def warm(name: str, *args: str, through: int = 2, **kw: object) -> Callable[[], VerifyResult]:
        return lambda: run_verify(str(THROUGH / name), device="cpu", timeout=120.0, worker=worker,
                                  through=through, args=list(args), **kw)  # type: ignore[arg-type]

    phases: list[str] = []
    jobs: dict[str, Callable[[], object]] = {
        "one_step_writes": lambda: run_verify(str(user_folder / "train.py"), device="cpu", timeout=120.0),
        "eval_one_hot": warm("eval_one_hot.py", progress=phases.append),
        "eval_one_hot_step": warm("eval_one_hot.py", through=0),
        "ckpt": warm("ckpt_namespace.py"),
        "load_back": warm("load_back.py"),
        "file": warm("limits.py", "file"),
        "gpu": warm("limits.py", "gpu"),
        "input": warm("limits.py", "input"),
        "h09": lambda: run_verify(str(SAMPLES / "hazards" / "h09_cross_entropy_float_labels.py"), device="cpu",
                                  timeout=120.0, worker=worker, through=2),
    }
    tmp = tmp_path_factory.mktemp("through_cli")
    jobs["cli"] = lambda: cli("--device", "cpu", "--through", "--format", "json", str(THROUGH / "ckpt_namespace.py"), tmp=tmp)
    # the warm worker serves one run at a time: cold runs and the CLI overlap with them
    with ThreadPoolExecutor(max_workers=3) as pool:
        futures = {name: pool.submit(job) for name, job in jobs.items()}
        out: dict[str, object] = {name: f.result() for name, f in futures.items()}
    out["before"] = before
    out["after"] = snapshot(user_folder)
    out["phases"] = phases
    return out


def result(runs: dict[str, object], name: str) -> VerifyResult:
    value = runs[name]
    assert isinstance(value, VerifyResult)
    return value


def test_a_script_writing_into_its_folder_leaves_it_untouched(runs: dict[str, object]) -> None:
    """One-step mode: before the fix the script ran with its own folder as cwd and overwrote
    checkpoint.pt, appended to log.txt and created runs/ and beside.txt there."""
    res = result(runs, "one_step_writes")
    assert res.status == "ok", (res.message, res.stderr_tail)
    assert "read 2 rows" in res.stdout_tail  # a relative read still finds data.csv
    assert runs["after"] == runs["before"]
    assert res.scratch_dir is not None
    scratch = Path(res.scratch_dir)
    assert (scratch / "checkpoint.pt").read_bytes() != b"the user's own checkpoint"
    assert (scratch / "log.txt").read_text() == "old log\nrun\n"  # appended to a private copy
    assert (scratch / "sub" / "existing.txt").read_text() == "overwritten\n"
    assert (scratch / "runs" / "exp1" / "events.txt").is_file()
    assert (scratch / "beside.txt").is_file()
    assert {"checkpoint.pt", "log.txt", "beside.txt"} <= set(res.written)


def test_error_in_eval_after_training_is_reported_at_its_line(runs: dict[str, object]) -> None:
    res = result(runs, "eval_one_hot")
    assert res.status == "error"
    assert res.line == line_of("eval_one_hot.py", "EVAL-LINE")
    assert res.path is not None and res.path.endswith("eval_one_hot.py") and "dtypeguard-verify" not in res.path
    assert res.through is not None and res.through["after_step"] is True
    names = [p["phase"] for p in res.through["phases"]]
    assert names.index("step") < names.index("eval")
    assert res.step is not None and res.step["optimizer"] == "SGD"  # the first step, as today
    assert "after the first step" in res.summary()
    assert res.rule == "DG006"  # one-hot integer target read as class probabilities
    # the one-step verify of the same script says ok: the error is only past the first step
    assert result(runs, "eval_one_hot_step").status == "ok"


def test_dataloaders_are_capped_and_batches_unchanged(runs: dict[str, object]) -> None:
    res = result(runs, "eval_one_hot")
    # 1000 batches of 4 per epoch in the script: 2 per pass, each still 4 rows wide
    assert "epoch 0 batches 2 len 2 shape (4, 4)" in res.stdout_tail
    assert res.through is not None and res.through["steps"] == 2
    assert res.through["batches"] == 2


def test_progress_reports_phases_as_they_are_reached(runs: dict[str, object]) -> None:
    phases = runs["phases"]
    assert isinstance(phases, list)
    assert phases[:1] == ["step"] and "eval" in phases


def test_checkpoint_round_trip_catches_an_unloadable_resume(runs: dict[str, object]) -> None:
    """The script never loads last.pt; the round-trip does, with torch's defaults."""
    res = result(runs, "ckpt")
    assert res.status == "ok", (res.message, res.stderr_tail)
    assert res.through is not None and res.through["ended"]
    assert not any(p["phase"] == "load" for p in res.through["phases"])
    warnings = [w for w in res.warnings if w.kind == "checkpoint"]
    assert len(warnings) == 1  # clean.pt (plain values) loads back fine
    warning = warnings[0]
    assert warning.rule == "DG011"
    assert warning.line == line_of("ckpt_namespace.py", "SAVE-LINE")
    assert "argparse.Namespace" in warning.message
    assert "numpy" in warning.message
    assert warning.hint is not None and "add_safe_globals" in warning.hint and "weights_only=False" in warning.hint
    checkpoints = {Path(c["file"]).name: c for c in res.through["checkpoints"]}
    assert checkpoints["clean.pt"]["checks"][0]["ok"] is True
    assert checkpoints["last.pt"]["checks"][0]["ok"] is False


def test_an_error_message_is_plain_text(runs: dict[str, object]) -> None:
    """torch's weights_only error bolds a sentence with terminal escapes: the report drops them."""
    res = result(runs, "load_back")
    assert (res.status, res.error_type, res.rule) == ("error", "UnpicklingError", "DG011")
    assert res.line == line_of("load_back.py", "LOAD-LINE")
    assert res.message is not None and "do those steps only if you trust" in res.message
    assert "\x1b" not in res.message and "\x1b" not in (res.traceback or "")


def test_error_carries_the_static_finding_fix(runs: dict[str, object]) -> None:
    res = result(runs, "h09")
    assert (res.status, res.rule) == ("error", "DG006")
    assert res.static_fix is not None and res.static_fix["code"] == "DG006"
    assert "int64" in res.static_fix["title"]
    assert res.through is not None and res.through["after_step"] is False


def test_limits_name_why(runs: dict[str, object]) -> None:
    missing = result(runs, "file")
    assert (missing.status, missing.limit) == ("error", "missing-file")
    assert missing.line == line_of("limits.py", "FILE-LINE")
    assert missing.limit_message is not None and "data/train.csv" in missing.limit_message
    gpu = result(runs, "gpu")
    assert gpu.limit == "needs-gpu", (gpu.error_type, gpu.message)
    assert gpu.line == line_of("limits.py", "GPU-LINE")
    waits = result(runs, "input")
    assert waits.limit == "needs-input", (waits.error_type, waits.traceback)
    assert waits.line == line_of("limits.py", "INPUT-LINE")


def test_cli_through_json(runs: dict[str, object]) -> None:
    proc = runs["cli"]
    assert proc.returncode == 0, proc.stderr  # type: ignore[attr-defined]
    data = json.loads(proc.stdout)  # type: ignore[attr-defined]
    assert data["through"]["ended"] is True
    assert data["warnings"][0]["rule"] == "DG011"
    assert data["scratch_dir"] and "last.pt" in data["written"]
    assert data["summary"].startswith("Ran through on cpu")


def test_cancel_and_timeout_after_the_step(worker: WarmWorker) -> None:
    cancel = threading.Event()

    def progress(phase: str) -> None:
        if phase == "eval":
            cancel.set()

    res = run_verify(str(THROUGH / "forever_after_step.py"), device="cpu", timeout=60.0, worker=worker,
                     through=2, cancel_event=cancel, progress=progress)
    assert res.status == "cancelled"
    assert res.duration_s < 30
    slow = run_verify(str(THROUGH / "forever_after_step.py"), device="cpu", timeout=3.0, worker=worker, through=2)
    assert slow.status == "timeout"
    assert slow.line == line_of("forever_after_step.py", "LOOP-LINE")
    assert slow.message is not None and "after 1 step(s)" in slow.message


def test_a_checkpoint_saved_every_epoch_is_reported_once() -> None:
    """`torch.save(..., "checkpoint.pt")` in each of three epochs: one report row, not three."""
    from dtypeguard.verify.report import format_text
    from dtypeguard.verify.result import VerifyResult

    check = {"check": "defaults", "ok": False, "error_type": "UnpicklingError"}
    saved = {"file": "/tmp/x/checkpoint.pt", "line": 15, "checks": [check]}
    result = VerifyResult(status="ok", device="cpu", duration_s=1.0, file="train.py",
                          through={"steps": 6, "batches": 2, "phases": [], "checkpoints": [saved, dict(saved), dict(saved)]})
    rows = [line for line in format_text(result).splitlines() if line.strip().startswith("checkpoint")]
    assert rows == ["  checkpoint   checkpoint.pt (line 15) loaded back: defaults FAILS (UnpicklingError)"]
