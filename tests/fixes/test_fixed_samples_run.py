"""The real bar: every hazard sample that has a fix, after `dtypeguard fix`, runs for real up
to its first optimizer step without an error, with a finite loss and finite parameters.

`fix` runs as a subprocess on copies; the fixed scripts run in one more subprocess (torch is
imported once; see run_until_step.py). Samples whose only fixes are unsafe are fixed with
`--unsafe-fixes`, which is what such a fix is for.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dtypeguard.analysis import check_source

ROOT = Path(__file__).resolve().parents[2]
HAZARDS = sorted((ROOT / "samples" / "hazards").glob("*.py"))
RUNNER = Path(__file__).with_name("run_until_step.py")


def _kind(path: Path) -> str:
    fixes = [x for f in check_source(path.read_text(encoding="utf-8")).findings for x in f.fixes]
    if any(x.safe for x in fixes):
        return "safe"
    return "unsafe" if fixes else "none"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    if not HAZARDS:
        pytest.skip("no samples/hazards yet")
    pytest.importorskip("torch")
    tmp = tmp_path_factory.mktemp("fixed")
    groups: dict[str, list[Path]] = {"safe": [], "unsafe": [], "none": []}
    for sample in HAZARDS:
        (tmp / sample.name).write_bytes(sample.read_bytes())
        groups[_kind(sample)].append(tmp / sample.name)
    for kind, flags in (("safe", []), ("unsafe", ["--unsafe-fixes"])):
        if groups[kind]:
            proc = subprocess.run([sys.executable, "-m", "dtypeguard", "fix", *flags, *map(str, groups[kind])], capture_output=True, text=True, timeout=120)
            assert proc.returncode in (0, 1), proc.stderr
    everything = [str(p) for p in sorted(tmp.glob("*.py"))]
    proc = subprocess.run([sys.executable, str(RUNNER), *everything], capture_output=True, text=True, timeout=240, cwd=tmp)
    results = {Path(r["path"]).name: r for r in map(json.loads, proc.stdout.splitlines())}
    for name in results:
        results[name]["kind"] = next(k for k, ps in groups.items() if any(p.name == name for p in ps))
    ok = [n for n, r in results.items() if r["status"] == "stepped" and r["loss_finite"] and r["params_finite"]]
    fixable = [n for n, r in results.items() if r["kind"] != "none"]
    print(f"\nfixed samples that step cleanly: {len([n for n in fixable if n in ok])}/{len(fixable)}; all hazard samples: {len(ok)}/{len(results)}")
    shutil.rmtree(tmp, ignore_errors=True)
    return results


@pytest.mark.parametrize("sample", [p.name for p in HAZARDS if _kind(p) != "none"])
def test_fixed_sample_steps_with_a_finite_loss(runs: dict[str, dict[str, Any]], sample: str) -> None:
    result = runs[sample]
    assert result["status"] == "stepped", result.get("error", result)
    assert result["loss_finite"], result
    assert result["params_finite"], result


@pytest.mark.parametrize(("sample", "dtype"), [("h13_fp16_adam_eps.py", "float16"), ("h14_bf16_adam_stalls.py", "float32"), ("h22_half_model_gradscaler.py", "float32")])
def test_fixed_low_precision_sample_really_trains(runs: dict[str, dict[str, Any]], sample: str, dtype: str) -> None:
    """The master-weights fix (unsafe for bfloat16 training; safe under a GradScaler, which fails
    as written): float32 parameters. float16 Adam's safe fix, `fused=True`, keeps them float16.
    Either way the step moves (nearly) all of them."""
    result = runs[sample]
    assert result["status"] == "stepped", result.get("error", result)
    assert result["param_dtypes"] == [dtype], result
    assert result["changed_share"] > 0.9, result
