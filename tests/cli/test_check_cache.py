"""The cache and the worker processes of `dtypeguard check` (issue 16, part 3): real
subprocesses on real files; the output must be the same byte for byte whatever is cached and
however many processes analyse."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.test_cross_module import DATA, MODELS, TRAIN

HAZARD = "import numpy as np\nimport torch\nfrom torch import nn\nx = torch.from_numpy(np.random.rand(4, 3))\nnn.Linear(3, 1)(x)\n"


def check(*args: str, cwd: Path | None = None, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dtypeguard", "check", "--no-color", *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=120)


def entries(cache: Path) -> list[Path]:
    """The per-file entries (not the packs of whole command lines)."""
    return sorted(p for p in cache.rglob("*.json") if not p.name.startswith(".tmp-") and p.parent.name != "packs")


def packs(cache: Path) -> list[Path]:
    return sorted(p for p in cache.rglob("packs/*.json") if not p.name.startswith(".tmp-"))


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    for name, text in {"data.py": DATA, "models.py": MODELS, "train.py": TRAIN, "hazard.py": HAZARD}.items():
        (root / name).write_text(text, encoding="utf-8")
    return root


def test_a_warm_run_reads_the_cache_and_prints_the_same(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cold = check("--cache-dir", str(cache), str(project))
    assert cold.returncode == 1 and "DG004" in cold.stdout
    assert len(entries(cache)) == 4 and (cache / ".gitignore").read_text().strip().endswith("*") and (cache / "CACHEDIR.TAG").is_file()
    warm = check("--cache-dir", str(cache), str(project))
    assert (warm.returncode, warm.stdout, warm.stderr) == (cold.returncode, cold.stdout, cold.stderr)
    uncached = check("--no-cache", str(project))
    assert (uncached.returncode, uncached.stdout, uncached.stderr) == (cold.returncode, cold.stdout, cold.stderr)
    # the warm run really took the result from the cache: a planted message shows, from the
    # pack of this command line while there is one, else from the entry files
    (pack,) = packs(cache)
    pack.write_text(pack.read_text().replace("DG004", "DG004-packed"))
    assert "DG004-packed" in check("--cache-dir", str(cache), str(project)).stdout
    for entry in entries(cache):
        entry.write_text(entry.read_text().replace("DG004", "DG004-planted"))
    pack.unlink()
    assert "DG004-planted" in check("--cache-dir", str(cache), str(project)).stdout
    assert packs(cache) == [pack]  # written again


def test_the_pack_serves_its_command_line_only(project: Path, tmp_path: Path) -> None:
    """One file and its folder are two command lines, two packs; each run reads its own."""
    cache = tmp_path / "cache"
    check("--cache-dir", str(cache), str(project))
    one = check("--cache-dir", str(cache), str(project / "train.py"))
    assert len(packs(cache)) == 2 and len(entries(cache)) == 4
    assert one.stdout == check("--cache-dir", str(cache), str(project / "train.py")).stdout


@pytest.mark.parametrize("damage", ["", "{", "[1, 2]", '{"key": 3}', "\x00\xff"])
def test_a_corrupt_or_partial_entry_is_recomputed_and_replaced(project: Path, tmp_path: Path, damage: str) -> None:
    cache = tmp_path / "cache"
    cold = check("--cache-dir", str(cache), str(project))
    for entry in [*entries(cache), *packs(cache)]:
        entry.write_text(damage, encoding="latin-1")
    again = check("--cache-dir", str(cache), str(project))
    assert (again.returncode, again.stdout, again.stderr) == (cold.returncode, cold.stdout, cold.stderr)
    assert all(json.loads(e.read_text())["key"] for e in entries(cache))  # rewritten whole
    assert all(json.loads(p.read_text())["entries"] for p in packs(cache))


def test_editing_an_imported_module_invalidates_the_importer(project: Path, tmp_path: Path) -> None:
    """train.py is unchanged, but its finding is rooted in data.py: fixing data.py clears it."""
    cache = tmp_path / "cache"
    train = str(project / "train.py")
    assert "root in data.py" in check("--cache-dir", str(cache), train).stdout
    (project / "data.py").write_text(DATA.replace("torch.from_numpy(self.x[i])", "torch.from_numpy(self.x[i]).float()"))
    fixed = check("--cache-dir", str(cache), train)
    assert fixed.returncode == 0 and "No dtype/device hazards" in fixed.stdout
    (project / "data.py").write_text(DATA)
    assert "root in data.py" in check("--cache-dir", str(cache), train).stdout


def test_an_imported_module_that_becomes_parsable_invalidates_the_importer(project: Path, tmp_path: Path) -> None:
    """The engine ignores an unparsable import (its result does not list it), yet fixing the
    syntax error changes the importer's findings: the cache must know it depends on it."""
    cache = tmp_path / "cache"
    (project / "data.py").write_text(DATA + "\ndef broken(:\n")
    train = str(project / "train.py")
    assert check("--cache-dir", str(cache), train).returncode == 0
    (project / "data.py").write_text(DATA)
    assert "root in data.py" in check("--cache-dir", str(cache), train).stdout


def test_the_command_line_configuration_is_part_of_the_key(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    hazard = str(project / "hazard.py")
    assert check("--cache-dir", str(cache), hazard).returncode == 1
    assert check("--cache-dir", str(cache), "--ignore", "DG004", hazard).returncode == 0
    (project / "pyproject.toml").write_text('[tool.dtypeguard]\nignore = ["DG004"]\n')
    assert check("--cache-dir", str(cache), hazard).returncode == 0
    (project / "pyproject.toml").unlink()
    assert check("--cache-dir", str(cache), hazard).returncode == 1


def test_a_changed_engine_source_invalidates_every_entry(project: Path, tmp_path: Path) -> None:
    """The key holds a fingerprint of the package's files: a copy of the package with one rule's
    message edited (same version) must not be served the old results."""
    import dtypeguard

    package = Path(dtypeguard.__file__).parent
    copy = tmp_path / "site" / "dtypeguard"
    copy.parent.mkdir()
    import shutil

    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(copy.parent)}
    cache = tmp_path / "cache"
    hazard = str(project / "hazard.py")
    first = check("--cache-dir", str(cache), hazard, env=env)
    assert "DG004" in first.stdout
    rule = next(p for p in (copy / "rules").glob("dg004*.py"))
    text = rule.read_text()
    rule.write_text(text + "\n# an edit of the engine\n")
    before = set(entries(cache))
    second = check("--cache-dir", str(cache), hazard, env=env)
    assert second.stdout == first.stdout and set(entries(cache)) > before  # recomputed: a new entry


def test_no_cache_writes_nothing_and_the_default_folder_is_in_the_working_folder(project: Path, tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DTYPEGUARD_CACHE_DIR"}
    check("--no-cache", str(project), cwd=tmp_path, env=env)
    assert not (tmp_path / ".dtypeguard_cache").exists()
    check(str(project), cwd=tmp_path, env=env)
    assert len(entries(tmp_path / ".dtypeguard_cache")) == 4
    assert not [p for p in project.iterdir() if p.name.startswith(".")]  # nothing in the checked folder


def test_an_unwritable_cache_folder_is_not_used(project: Path, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    out = check("--cache-dir", str(blocker / "cache"), str(project))
    assert (out.returncode, out.stderr) == (1, "") and "DG004" in out.stdout


def test_any_number_of_jobs_gives_the_same_output(tmp_path: Path) -> None:
    root = tmp_path / "many"
    root.mkdir()
    for k in range(12):  # enough files for the pool to be used with 2 and 3 workers
        (root / f"m{k:02}.py").write_text(HAZARD if k % 3 == 0 else TRAIN if k % 3 == 1 else MODELS)
    (root / "bad.py").write_bytes(b"\xff\xfe not utf-8")
    (root / "syntax.py").write_text("def f(:\n")
    runs = [check("--no-cache", "--jobs", str(n), "--format", fmt, str(root)) for n in (1, 2, 3) for fmt in ("text", "json")]
    text, json_ = runs[0::2], runs[1::2]
    assert text[0].returncode == 1 and text[0].stdout.count("DG004") >= 4 and "not UTF-8" in text[0].stderr
    for group in (text, json_):
        assert {(r.returncode, r.stdout, r.stderr) for r in group} == {(group[0].returncode, group[0].stdout, group[0].stderr)}


def test_concurrent_runs_on_one_cache_both_print_the_right_result(project: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    expected = check("--no-cache", str(project))
    cmd = [sys.executable, "-m", "dtypeguard", "check", "--no-color", "--cache-dir", str(cache), str(project)]
    procs = [subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert (proc.returncode, out, err) == (expected.returncode, expected.stdout, expected.stderr)
    assert not list(cache.rglob(".tmp-*"))
    warm = check("--cache-dir", str(cache), str(project))
    assert warm.stdout == expected.stdout


def test_jobs_must_be_a_count(project: Path) -> None:
    out = check("--jobs", "-1", str(project))
    assert out.returncode == 2 and "--jobs" in out.stderr


def test_an_unreadable_notebook_prints_the_same_from_the_cache(tmp_path: Path) -> None:
    """Its DG000 counts in no cell: the file's text (not JSON) is no line to show, cached or not
    (the cache once read the file's first line back as the finding's source line)."""
    root = tmp_path / "nb"
    root.mkdir()
    (root / "broken.ipynb").write_text("<html>not a notebook</html>\n", encoding="utf-8")
    cache = tmp_path / "cache"
    uncached = check("--no-cache", "--jobs", "1", str(root))
    assert "DG000" in uncached.stdout and "<html>" not in uncached.stdout
    cold = check("--cache-dir", str(cache), str(root))
    warm = check("--cache-dir", str(cache), str(root))
    for run in (cold, warm):
        assert (run.returncode, run.stdout, run.stderr) == (uncached.returncode, uncached.stdout, uncached.stderr)


def _aged(project: Path, seconds: float = 2.2) -> None:
    """Wait until the project's files are older than the cache's racy margin (`RACY_NS`): only
    then may a run trust their signatures instead of reading them."""
    import time

    time.sleep(seconds)


def test_a_warm_run_trusts_unchanged_signatures_but_sees_a_same_size_edit(project: Path, tmp_path: Path) -> None:
    """Files older than the racy margin are remembered by signature (not read again); an edit of
    the same size with the mtime put back still changes the ctime, so it is read and re-analysed."""
    hazard = project / "hazard.py"
    hazard.write_text(HAZARD + "# padding padding\n")
    cache = tmp_path / "cache"
    _aged(project)
    cold = check("--cache-dir", str(cache), str(project))
    warm = check("--cache-dir", str(cache), str(project))
    assert (warm.returncode, warm.stdout, warm.stderr) == (cold.returncode, cold.stdout, cold.stderr) and "hazard.py" in cold.stdout
    (pack,) = packs(cache)
    seen = json.loads(pack.read_text())["seen"]
    assert {Path(p).name for p in seen["files"]} == {"data.py", "models.py", "train.py", "hazard.py"}
    assert {Path(p).name for p in seen["deps"]} >= {"data.py", "models.py"}  # (asked on the warm run)
    before = hazard.stat()
    hazard.write_text(HAZARD.replace("(x)\n", "(x.float())\n") + "# padding\n")  # the same size
    os.utime(hazard, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the mtime put back
    assert hazard.stat().st_size == before.st_size and hazard.stat().st_mtime_ns == before.st_mtime_ns
    after = check("--cache-dir", str(cache), str(project))
    assert "hazard.py" not in after.stdout and after.stdout == check("--no-cache", str(project)).stdout


def test_the_signature_memo_in_process(tmp_path: Path) -> None:
    """`Cache.known_digest` answers from the pack only for a file whose signature is unchanged
    and that was settled (older than the racy margin) when it was seen."""
    from dtypeguard.check_cache import Cache, bytes_digest, signature
    from dtypeguard.check_results import Outcome

    f = tmp_path / "a.py"
    f.write_text("x = 1\n")
    for racy, remembered in ((0, True), (10**12, False)):
        folder = tmp_path / f"cache{racy}"
        first = Cache(folder, "run", racy_ns=racy)
        digest = bytes_digest(f.read_bytes())
        first.saw(f, signature(f), digest)
        first.put("k" * 40, Outcome([]))
        first.close()
        again = Cache(folder, "run", racy_ns=racy)
        assert again.known_digest(f) == (digest if remembered else None)
    f.write_text("x = 2\n")  # same size, new ctime
    assert Cache(tmp_path / "cache0", "run", racy_ns=0).known_digest(f) is None
