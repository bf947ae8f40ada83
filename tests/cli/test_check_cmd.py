"""`dtypeguard check` as a user runs it: a real subprocess, real files, real exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

HAZARD = "import numpy as np\nimport torch\nfrom torch import nn\nx = torch.from_numpy(np.random.rand(4, 3))\nnn.Linear(3, 1)(x)\n"
CLEAN = "import torch\nfrom torch import nn\nnn.Linear(3, 1)(torch.randn(4, 3))\n"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dtypeguard", *args], capture_output=True, text=True, cwd=cwd, timeout=60)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "train.py").write_text(HAZARD)
    (tmp_path / "ok.py").write_text(CLEAN)
    return tmp_path


def test_text_output_shows_location_code_message_and_source(project: Path) -> None:
    proc = run("check", str(project / "train.py"))
    assert proc.returncode == 1
    assert f"{project / 'train.py'}:4:5: DG004 [error]" in proc.stdout  # where the fix goes
    assert "x = torch.from_numpy(np.random.rand(4, 3))" in proc.stdout and "^^^^" in proc.stdout
    assert "Found 1 finding in 1 file" in proc.stdout


@pytest.mark.parametrize("before", ["# section\f\n", "# a \u2028 in a comment\n", ""])
@pytest.mark.parametrize("end", ["\n", "\r", "\r\n"])
def test_the_source_line_shown_is_the_finding_line(tmp_path: Path, before: str, end: str) -> None:
    """Form feeds and U+2028 do not end lines (str.splitlines would say they do); \\r does."""
    path = tmp_path / "train.py"
    path.write_bytes((before + HAZARD).replace("\n", end).encode("utf-8"))
    proc = run("check", str(path))
    line = 4 + before.count("\n")
    assert f"train.py:{line}:5: DG004" in proc.stdout
    assert f"{line:>4} | x = torch.from_numpy(np.random.rand(4, 3))" in proc.stdout, proc.stdout


def test_clean_file_exits_zero(project: Path) -> None:
    proc = run("check", str(project / "ok.py"))
    assert proc.returncode == 0, proc.stdout
    assert "No dtype/device hazards found" in proc.stdout


def test_json_format_has_the_documented_keys(project: Path) -> None:
    proc = run("check", "--format", "json", str(project))
    items = json.loads(proc.stdout)
    assert proc.returncode == 1 and len(items) == 1
    item = items[0]
    assert {"path", "line", "column", "end_line", "end_column", "code", "severity", "message"} <= item.keys()
    assert (item["line"], item["column"], item["end_line"], item["end_column"]) == (4, 5, 4, 43)
    assert item["code"] == "DG004" and item["severity"] == "error"


def test_sarif_format(project: Path) -> None:
    data = json.loads(run("check", "--format", "sarif", str(project)).stdout)
    assert data["version"] == "2.1.0"
    assert data["runs"][0]["results"][0]["ruleId"] == "DG004"


def test_select_and_ignore(project: Path) -> None:
    assert run("check", "--ignore", "DG004", str(project)).returncode == 0
    assert run("check", "--select", "DG001", str(project)).returncode == 0
    assert run("check", "--select", "DG004", str(project)).returncode == 1


def test_pyproject_configuration_and_bad_keys(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.dtypeguard]\nignore = ["DG004", "DG999"]\ncolour = 1\n')
    proc = run("check", str(project))
    assert proc.returncode == 0
    assert "unknown rule code 'DG999'" in proc.stderr and "unknown key `colour`" in proc.stderr


def test_each_file_takes_the_nearest_pyproject_of_its_real_folder(tmp_path: Path) -> None:
    """Nested projects and a symlinked file: the configuration is the nearest pyproject.toml
    above the file's resolved path (a folder's lookup is shared with its subfolders)."""
    (tmp_path / "pyproject.toml").write_text('[tool.dtypeguard]\nignore = ["DG004"]\n')
    for sub in ("a/deep/er", "b/deep"):
        (tmp_path / sub).mkdir(parents=True)
        (tmp_path / sub / "train.py").write_text(HAZARD)
    (tmp_path / "b" / "pyproject.toml").write_text("[project]\nname = 'b'\n")  # nearest: defaults
    outside = tmp_path.parent / f"{tmp_path.name}-outside"
    outside.mkdir()
    (outside / "real.py").write_text(HAZARD)
    (tmp_path / "a" / "linked.py").symlink_to(outside / "real.py")
    proc = run("check", "--no-cache", str(tmp_path))
    reported = {line.split(":")[0] for line in proc.stdout.splitlines() if ": DG004 " in line}
    assert reported == {str(tmp_path / "b/deep/train.py"), str(tmp_path / "a/linked.py")}, proc.stdout


def test_broken_toml_falls_back_to_defaults(project: Path) -> None:
    (project / "pyproject.toml").write_text("[tool.dtypeguard\nignore = \n")
    proc = run("check", str(project))
    assert proc.returncode == 1 and "cannot read configuration" in proc.stderr


def test_per_file_ignores(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.dtypeguard.per-file-ignores]\n"train.py" = ["DG004"]\n')
    assert run("check", str(project)).returncode == 0


def test_suppression_comments(tmp_path: Path) -> None:
    path = tmp_path / "t.py"
    path.write_text(HAZARD.replace("(x)\n", "(x)  # dtypeguard: ignore[DG004]\n"))
    assert run("check", str(path)).returncode == 0
    path.write_text(HAZARD.replace("(x)\n", "(x)  # dtypeguard: ignore[DG001]\n"))
    assert run("check", str(path)).returncode == 1
    path.write_text(HAZARD.replace("(x)\n", "(x)  # dtypeguard: ignore\n"))
    assert run("check", str(path)).returncode == 0


def test_folders_skip_venv_node_modules_and_gitignored(tmp_path: Path) -> None:
    for folder in (".venv", "node_modules", "generated", "src"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "t.py").write_text(HAZARD)
    (tmp_path / ".gitignore").write_text("generated/\n")
    items = json.loads(run("check", "--format", "json", str(tmp_path)).stdout)
    assert [Path(i["path"]).parent.name for i in items] == ["src"]


def test_syntax_error_is_one_clear_finding(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("import torch\nx = torch.zeros(3\nprint(x)\n")
    proc = run("check", "--format", "json", str(path))
    items = json.loads(proc.stdout)
    assert proc.returncode == 1 and [i["code"] for i in items] == ["DG000"]
    assert "cannot parse" in items[0]["message"] and "Traceback" not in proc.stderr


def test_non_utf8_file_is_reported_and_skipped(tmp_path: Path) -> None:
    bad = tmp_path / "latin.py"
    bad.write_bytes(b"x = '\xe9t\xe9'\n")
    proc = run("check", str(bad))
    assert proc.returncode == 2 and "not UTF-8" in proc.stderr and "Traceback" not in proc.stderr
    (tmp_path / "train.py").write_text(HAZARD)
    proc = run("check", str(tmp_path))  # the rest is still checked
    assert proc.returncode == 1 and "DG004" in proc.stdout and "not UTF-8" in proc.stderr


def test_missing_path_is_usage_error(tmp_path: Path) -> None:
    proc = run("check", str(tmp_path / "nope.py"))
    assert proc.returncode == 2 and "no such file" in proc.stderr


def test_check_never_writes(project: Path) -> None:
    before = {p: p.read_bytes() for p in project.iterdir()}
    run("check", str(project))
    assert {p: p.read_bytes() for p in project.iterdir()} == before


def test_rules_command_and_markdown_reference_is_current() -> None:
    proc = run("rules")
    assert proc.returncode == 0 and "DG004" in proc.stdout
    reference = Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    assert reference.read_text(encoding="utf-8") == run("rules", "--markdown").stdout, "regenerate: dtypeguard rules --markdown > docs/rules.md"


def test_the_table_of_codes_is_generated_from_the_rules() -> None:
    """docs/rule-codes.md (the "where" column the held-out sets mark roots by) comes from each
    rule's `reported_at` and `hazards`: every rule says where it reports, and the file is current."""
    from dtypeguard.rules import ALL_RULES

    assert all(r.reported_at for r in ALL_RULES), [r.code for r in ALL_RULES if not r.reported_at]
    table = Path(__file__).resolve().parents[2] / "docs" / "rule-codes.md"
    assert table.read_text(encoding="utf-8") == run("rules", "--codes").stdout, "regenerate: dtypeguard rules --codes > docs/rule-codes.md"
