"""Fix-then-runs on the real-world sets: copy each broken script, apply `dtypeguard fix` (safe
fixes; `--unsafe` adds the others), then run the original and the fixed copy up to their first
optimizer step (tests/fixes/run_until_step.py: torch imported once, each script stopped right
after its first `step()`), and count the fixed copies that reach a finite step.

Usage: .venv/bin/python bench/fix_then_run.py [--unsafe] [SET_DIR ...]
(default: every tests/realworld*/ set). Prints one line per script and the totals.
"""

from __future__ import annotations

import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
RUNNER = ROOT / "tests/fixes/run_until_step.py"


def run_all(paths: list[pathlib.Path]) -> dict[str, dict[str, object]]:
    out: dict[str, dict[str, object]] = {}
    for start in range(0, len(paths), 10):  # a script that hangs or kills its process costs one batch
        batch = paths[start:start + 10]
        try:
            proc = subprocess.run([sys.executable, str(RUNNER), *map(str, batch)], capture_output=True, text=True, timeout=300)
            lines = proc.stdout.splitlines()
        except subprocess.TimeoutExpired as exc:
            lines = (exc.stdout or b"").decode(errors="replace").splitlines() if isinstance(exc.stdout, bytes) else (exc.stdout or "").splitlines()
        for line in lines:
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if isinstance(record, dict) and "path" in record:  # scripts print too
                out[str(record["path"])] = record
        for path in batch:
            out.setdefault(str(path), {"path": str(path), "status": "crashed"})
    return out


def ok(record: dict[str, object]) -> bool:
    return record.get("status") == "stepped" and bool(record.get("params_finite")) and bool(record.get("loss_finite", True))


def outcome_kind(src: pathlib.Path) -> str:
    """What the script's header records for its original run: "cuda-only" (it runs on CPU and
    fails only on a GPU: no CPU run can judge a fix), "silent" (it runs, with a wrong result),
    or "error" (it raises on CPU)."""
    head = src.read_text(encoding="utf-8")[:3000]
    line = next((ln for ln in head.splitlines() if ln.startswith("outcome:")), "")
    if "cuda-only" in line:
        return "cuda-only"
    return "silent" if line.removeprefix("outcome:").strip().startswith("ok") else "error"


def silent_symptom(record: dict[str, object]) -> str:
    """What a silent hazard leaves in a run that did not raise: a float64 loss over parameters
    that are not float64 (data or targets promoted it), a first step that moved under half of
    the weights it had gradients for (bf16 updates rounded away), or a call of the deprecated
    `set_default_tensor_type`. Non-finite steps are `ok`'s business."""
    dtypes = record.get("param_dtypes") or []
    if record.get("loss_dtype") == "float64" and "float64" not in dtypes:  # type: ignore[operator]
        return "float64 loss"
    share = record.get("changed_share")
    if isinstance(share, float) and share < 0.5:
        return f"step moved {share:.0%} of the weights"
    if record.get("legacy_default_calls"):
        return "set_default_tensor_type called"
    return ""


def runs(record: dict[str, object], kind: str) -> bool:
    """The fixed script runs: a finite first step, or, for a script whose hazard is an error
    and that never steps (inference, evaluation), it completes without raising. For a silent
    case, the silent symptom must be gone too (a script that never steps must complete)."""
    if kind == "silent":
        return (ok(record) or record.get("status") == "no_step") and not silent_symptom(record)
    return ok(record) or (kind == "error" and record.get("status") == "no_step")


def main() -> int:
    unsafe = "--unsafe" in sys.argv
    sets = [pathlib.Path(a) for a in sys.argv[1:] if not a.startswith("--")] or sorted(ROOT.glob("tests/realworld*/"))
    work = pathlib.Path(tempfile.mkdtemp(prefix="fix-then-run-"))
    originals, fixed = [], []
    for folder in sets:
        for src in sorted((folder / "broken").glob("*.py")):
            for kind, bucket in (("orig", originals), ("fixed", fixed)):
                dest = work / kind / folder.name / src.name
                dest.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(src, dest)
                bucket.append(dest)
    subprocess.run([sys.executable, "-m", "dtypeguard", "fix", *(["--unsafe-fixes"] if unsafe else []), str(work / "fixed")], capture_output=True, text=True)
    before, after = run_all(originals), run_all(fixed)
    ran_before = ran_after = broke = changed = 0
    for orig, new in zip(originals, fixed, strict=True):
        a, b = before[str(orig)], after[str(new)]
        edited = orig.read_text() != new.read_text()
        changed += edited
        ran_before += ok(a)
        ran_after += ok(b)
        broke += (ok(a) and not ok(b)) or (a.get("status") in ("stepped", "no_step") and b.get("status") == "error")  # ran (even wrongly), now raises
        print(f"{orig.parent.name}/{orig.name}: before {a.get('status')}{'' if ok(a) else ' (not ok)'}, "
              f"after {'fix ' if edited else 'no fix '}{b.get('status')}{'' if ok(b) else ' (not ok)'}")
    total = len(originals)
    print(f"\n{total} broken scripts; {changed} changed by `fix{' --unsafe-fixes' if unsafe else ''}`")
    print(f"reach a finite first step: before {ran_before}/{total} ({ran_before / total:.2f}), after {ran_after}/{total} ({ran_after / total:.2f}); "
          f"ran before (or completed, wrongly) but raised after: {broke}")
    # the measure: CPU-reproducible and silent cases only (a cuda-only script runs on CPU either way)
    judged = [(o, n, k) for o, n in zip(originals, fixed, strict=True) if (k := outcome_kind(o)) != "cuda-only"]
    fixed_runs = sum(runs(after[str(n)], k) for _, n, k in judged)
    ran = sum(runs(before[str(o)], k) for o, _, k in judged)
    print(f"CPU-reproducible and silent cases: {len(judged)}; run (finite step, or an erroring script that now completes; silent: symptom gone): "
          f"before {ran}/{len(judged)}, after {fixed_runs}/{len(judged)} ({fixed_runs / max(len(judged), 1):.2f})")
    for o, n, k in judged:
        if not runs(after[str(n)], k):
            record = after[str(n)]
            print(f"  not run after fix: {o.parent.name}/{o.name} ({k}): {record.get('status')} {silent_symptom(record) if k == 'silent' else ''}"
                  f"{str(record.get('error', ''))[:120]}")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
