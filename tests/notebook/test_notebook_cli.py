"""`dtypeguard check|fix|verify` on .ipynb as a user runs them: real subprocesses, real files."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.notebook.support import SAMPLES, cells_of, markdown, notebook_json, write_notebook

CROSS_CELL = [
    "import torch\nfrom torch import nn",
    "model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))",
    "torch.set_default_dtype(torch.float64)",
    "x = torch.randn(16, 4)\ny = torch.randn(16, 1)",
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\nloss = ((model(x) - y) ** 2).mean()\nloss.backward()\nopt.step()",
]


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "dtypeguard", *args], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write_notebook(tmp_path / "train.ipynb", [markdown("# Train"), "%matplotlib inline", *CROSS_CELL])
    write_notebook(tmp_path / "clean.ipynb", cells_of((SAMPLES / "clean" / "cnn_dataloader.py").read_text()))
    (tmp_path / ".ipynb_checkpoints").mkdir()
    write_notebook(tmp_path / ".ipynb_checkpoints" / "train-checkpoint.ipynb", CROSS_CELL)
    return tmp_path


def test_check_reports_the_cell_and_the_line_inside_it(folder: Path) -> None:
    proc = run("check", "--no-color", str(folder / "train.ipynb"))
    assert proc.returncode == 1, proc.stderr
    # cells: 1 markdown, 2 %matplotlib, 3 imports, 4 model, 5 set_default_dtype, 6 data, 7 step
    assert f"{folder / 'train.ipynb'}:cell 5:1:1: DG001" in proc.stdout
    assert "runs after the model was built (line 1 of cell 4)" in proc.stdout
    assert "   1 | torch.set_default_dtype(torch.float64)" in proc.stdout  # the cell's own line
    assert "No dtype/device hazards" not in proc.stdout


def test_a_folder_walk_includes_notebooks_but_not_checkpoints(folder: Path) -> None:
    proc = run("check", "--format", "json", str(folder))
    items = json.loads(proc.stdout)
    assert {Path(i["path"]).name for i in items} == {"train.ipynb"}
    assert "Found" not in proc.stdout
    proc = run("check", "--no-color", str(folder))
    assert "in 2 files" in proc.stdout


def test_json_and_sarif_name_the_cell(folder: Path) -> None:
    items = json.loads(run("check", "--format", "json", str(folder / "train.ipynb")).stdout)
    dg001 = next(i for i in items if i["code"] == "DG001")
    assert (dg001["cell"], dg001["line"], dg001["column"]) == (5, 1, 1)
    assert dg001["related"][0]["cell"] == 4
    sarif = json.loads(run("check", "--format", "sarif", str(folder / "train.ipynb")).stdout)
    results = sarif["runs"][0]["results"]
    result = next(r for r in results if r["ruleId"] == "DG001")
    assert result["properties"]["cell"] == 5
    assert result["locations"][0]["logicalLocations"][0]["name"] == "cell 5"
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 1


@pytest.mark.parametrize(
    ("content", "words"),
    [('{"cells": [}', "not JSON"), ('{"nbformat": 3, "worksheets": []}', "nbformat 3"), ('{"nbformat": 4}', "no `cells` list")],
)
def test_a_malformed_notebook_is_one_error_finding_never_an_all_clear(tmp_path: Path, content: str, words: str) -> None:
    path = tmp_path / "bad.ipynb"
    path.write_text(content)
    proc = run("check", "--no-color", str(path))
    assert proc.returncode == 1
    assert f"{path}:1:1: DG000" in proc.stdout and words in proc.stdout
    assert "No dtype/device hazards" not in proc.stdout
    items = json.loads(run("check", "--format", "json", str(path)).stdout)
    assert [(i["code"], i["cell"]) for i in items] == [("DG000", None)]
    before = path.read_bytes()
    assert run("fix", str(path)).returncode == 1
    assert path.read_bytes() == before


def _normalised(text: str) -> object:
    return json.loads(text)


def test_fix_rewrites_only_the_changed_cells_and_round_trips(folder: Path) -> None:
    path = folder / "train.ipynb"
    before_text = path.read_text()
    proc = run("fix", "--diff", str(path))
    assert proc.returncode == 1 and "a/" in proc.stdout and ":cell 5" in proc.stdout
    assert path.read_text() == before_text  # --diff writes nothing
    proc = run("fix", str(path))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Fixed 1 finding in 1 file (DG001 x1)" in proc.stderr
    before, after = json.loads(before_text), json.loads(path.read_text())
    assert {k: v for k, v in before.items() if k != "cells"} == {k: v for k, v in after.items() if k != "cells"}
    changed = []
    for i, (a, b) in enumerate(zip(before["cells"], after["cells"], strict=True)):
        assert {k: v for k, v in a.items() if k != "source"} == {k: v for k, v in b.items() if k != "source"}
        if a["source"] != b["source"]:
            changed.append(i)
    assert changed == [2, 4]  # the imports cell (it gains the call) and the call's old cell
    assert "".join(after["cells"][4]["source"]) == ""
    assert "torch.set_default_dtype(torch.float64)" in "".join(after["cells"][2]["source"])
    assert after["cells"][1]["source"] == ["%matplotlib inline"]
    assert path.read_text().endswith("}\n") and path.read_text().startswith('{\n "cells": [')
    assert run("check", str(path)).returncode == 0
    assert not [p for p in folder.iterdir() if "dtypeguard-tmp" in p.name]
    # running it again changes nothing
    once = path.read_bytes()
    assert run("fix", str(path)).returncode == 0 and path.read_bytes() == once


def test_fix_on_a_correct_notebook_does_not_touch_the_file(folder: Path) -> None:
    path = folder / "clean.ipynb"
    before = path.read_bytes()
    stat = path.stat()
    assert run("fix", str(path)).returncode == 0
    assert path.read_bytes() == before and path.stat().st_mtime_ns == stat.st_mtime_ns


@pytest.mark.slow
def test_verify_maps_the_error_to_its_cell_and_writes_nothing_in_the_folder(folder: Path) -> None:
    path = folder / "train.ipynb"
    listing = sorted(os.listdir(folder))
    proc = run("verify", "--device", "cpu", "--format", "json", "--timeout", "90", str(path))
    result = json.loads(proc.stdout)
    assert proc.returncode == 1, proc.stderr
    assert result["status"] == "error" and result["error_type"] == "RuntimeError"
    assert result["file"] == str(path) and result["path"] == str(path)
    assert (result["cell"], result["line"]) == (7, 2)  # loss = ((model(x) - y) ** 2).mean()
    assert "line 2 of cell 7" in result["summary"] and result["rule"] == "DG004"
    assert f'File "{path}", line 2 of cell 7' in result["traceback"]
    assert sorted(os.listdir(folder)) == listing
    proc = run("verify", "--device", "cpu", str(path))
    # the text report names the file relative to the working folder unless that climbs two levels
    shown = os.path.relpath(path)
    shown = str(path) if shown.startswith(os.path.join("..", "..")) else shown
    assert f"{shown}:cell 7:2: error: RuntimeError" in proc.stdout, proc.stdout


@pytest.mark.slow
def test_verify_runs_a_fixed_notebook_to_its_step_in_the_notebook_folder(folder: Path) -> None:
    path = folder / "train.ipynb"
    (folder / "data.txt").write_text("4\n")
    cells = [*CROSS_CELL[:2], "features = int(open('data.txt').read())  # relative to the notebook, as in Jupyter", *CROSS_CELL[3:]]
    write_notebook(path, ["!echo this shell line is not run", *cells])
    proc = run("verify", "--device", "cpu", "--format", "json", str(path), cwd=SAMPLES)
    result = json.loads(proc.stdout)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert result["status"] == "ok" and result["step"]["optimizer"] == "SGD"
    assert "this shell line is not run" not in result["stdout_tail"]


def test_verify_refuses_a_malformed_notebook_clearly(tmp_path: Path) -> None:
    path = tmp_path / "bad.ipynb"
    path.write_text(notebook_json(["x = 1"])[:40])
    proc = run("verify", "--device", "cpu", str(path))
    assert proc.returncode == 2 and "not JSON" in proc.stderr


def test_a_notebook_in_another_language_is_said_to_be_skipped(tmp_path: Path) -> None:
    path = tmp_path / "r.ipynb"
    nb = json.loads(notebook_json(["x <- c(1, 2)"]))
    nb["metadata"] = {"kernelspec": {"language": "R", "name": "ir"}, "language_info": {"name": "R"}}
    path.write_text(json.dumps(nb))
    proc = run("check", str(path))
    assert proc.returncode == 0 and "kernel language is r, not Python" in proc.stderr


def test_a_place_in_an_imported_module_keeps_its_own_file_and_line(tmp_path: Path) -> None:
    """The related place of a root in `helpers.py` is that file's line, not the cell line that
    happens to have the same number in the joined script (scan 7: tacotron2's inference.ipynb
    showed utils.py:8 as "line 7 of cell 3", the notebook's `import sys`)."""
    (tmp_path / "helpers.py").write_text("import torch\n\n\n\n\n\ndef make_mask(n):\n    mask = torch.ones(n, n)\n    return mask\n")
    write_notebook(tmp_path / "nb.ipynb", [
        "import torch\nfrom helpers import make_mask",
        "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n\n\nx = torch.randn(4, 4).to(device)",
        "y = x + make_mask(4)",
    ])
    out = run("check", "--no-cache", str(tmp_path / "nb.ipynb")).stdout
    assert "DG009" in out, out
    assert f"{tmp_path / 'helpers.py'}:8: the fix goes here" in out, out
    assert "of cell 2: the fix goes here" not in out, out


def test_fix_counts_a_notebooks_unsafe_only_finding_as_such_in_its_summary(tmp_path: Path) -> None:
    """A whole-model save (DG011, only an unsafe fix) left in a notebook: the closing count says
    it has an unsafe fix, as the finding's own line does (scan 10 saw "without a fix")."""
    nb = tmp_path / "save.ipynb"
    write_notebook(nb, ["import torch\nfrom torch import nn", "model = nn.Linear(2, 2)\ntorch.save(model, 'm.pt')", "again = torch.load('m.pt')"])
    before = nb.read_text()
    proc = run("fix", str(nb))
    assert "(an unsafe fix exists: --unsafe-fixes)" in proc.stdout
    assert "1 finding left: 1 with only an unsafe fix" in proc.stderr, proc.stderr
    assert nb.read_text() == before
