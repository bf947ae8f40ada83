"""The notebook model: cells joined in order give the findings of the joined script, mapped
to cells; magics neutralised in place; bad notebooks give one DG000; fixes cut back into cells."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dtypeguard.analysis import check_source
from dtypeguard.fixes import fix_all
from dtypeguard.notebook import (
    NotebookError,
    build_script,
    check_cells,
    check_notebook,
    execution_order_notes,
    fix_notebook,
    read_notebook,
)
from tests.notebook.support import SAMPLES, cells_of, markdown, notebook_json

SCRIPTS = [*sorted((SAMPLES / "hazards").glob("*.py")), SAMPLES / "blog_mnist_trick.py"]
CLEAN = sorted((SAMPLES / "clean").glob("*.py")) + sorted((SAMPLES / "fixed").glob("*.py"))


def _script_positions(cells: list[str]) -> list[int]:
    starts, line = [], 1
    for cell in cells:
        starts.append(line)
        line += len(cell.split("\n"))
    return starts


@pytest.mark.parametrize("path", SCRIPTS + CLEAN, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_notebook_gets_the_findings_of_the_script_its_cells_join_into(path: Path) -> None:
    script = path.read_text(encoding="utf-8")
    cells = cells_of(script)
    assert "\n".join(cells).rstrip("\n") == script.rstrip("\n")
    assert len(cells) > 3
    # a markdown cell first: cell indexes count every cell, as the editor shows them
    nb = check_notebook(notebook_json([markdown("# Training"), *cells]), str(path))
    starts = _script_positions(cells)
    got = sorted((f.finding.code, starts[f.cell - 1] + f.finding.span.line - 1, f.finding.span.col, f.finding.span.end_col) for f in nb.findings)
    want = sorted((f.code, f.span.line, f.span.col, f.span.end_col) for f in check_source(script, str(path)).findings)
    assert got == want
    if path in CLEAN:
        assert got == []
    else:
        assert got


def test_the_set_default_cell_after_the_model_cell_is_a_cross_cell_hazard() -> None:
    cells = [
        "import torch\nfrom torch import nn",
        "model = nn.Linear(4, 2)",
        "torch.set_default_dtype(torch.float64)",
        "x = torch.randn(8, 4)\nloss = model(x).sum()",
    ]
    nb = check_cells(list(enumerate(cells)), None, None)
    by_code = {f.finding.code: f for f in nb.findings}
    assert set(by_code) == {"DG001", "DG004"}
    dg001 = by_code["DG001"]
    assert (dg001.cell, dg001.finding.span.line, dg001.finding.span.col) == (2, 1, 0)
    assert "(line 1 of cell 2)" in dg001.finding.message  # the model's cell, 1-based as shown
    assert 1 in dg001.related_cells
    dg004 = by_code["DG004"]
    assert dg004.cell == 3 and dg004.finding.span.line == 1
    assert "line 2 of cell 4" in dg004.finding.message  # where the forward pass fails


def test_magics_and_shell_lines_are_neutralised_without_moving_anything() -> None:
    cells = [
        "%matplotlib inline\n!pip install torch\nimport numpy as np\nimport torch\nfrom torch import nn",
        "files = !ls data\nfor f in range(2):\n    !echo hi\n%time model = nn.Linear(3, 1)",
        "torch.tensor?\nmodel = nn.Linear(3, 1)\nx = torch.from_numpy(np.random.rand(4, 3))\nmodel(x)",
    ]
    nb = check_cells(list(enumerate(cells)), None, None)
    assert [(f.cell, f.finding.code, f.finding.span.line, f.finding.span.col) for f in nb.findings] == [(2, "DG004", 3, 4)]
    script = nb.script
    assert script is not None
    assert len(script.text.split("\n")) == 1 + sum(len(c.split("\n")) + 1 for c in cells)
    assert script.split(script.text) == {}  # the magics come back as they were


def test_a_shell_line_continued_by_backslashes_is_one_magic() -> None:
    """`!python merge.py \\` with its options on indented lines (Chinese-LLaMA-Alpaca's and nerf_pl's
    notebooks; IPython joins them into one shell call): no DG000 for the indented lines, at the top
    level or inside a block, and the lines come back as written."""
    cells = [
        "import numpy as np\nimport torch\nfrom torch import nn",
        "!python merge.py \\\n    --base_model llama \\\n    --output_dir out",
        "for i in range(2):\n    !echo {i} \\\n        --flag\n    print(i)",
        "model = nn.Linear(3, 1)\nmodel(torch.from_numpy(np.random.rand(4, 3)))",
    ]
    nb = check_cells(list(enumerate(cells)), None, None)
    assert [(f.cell, f.finding.code) for f in nb.findings] == [(3, "DG004")]
    script = nb.script
    assert script is not None
    assert script.split(script.text) == {}


def test_automagic_lines_are_magics_and_python_lines_of_those_names_stay_python() -> None:
    """llama-recipes (scan 17): `pip install ...` without `!` or `%` is IPython's automagic (the
    kernel runs it as `%pip`), not a parse error; `ls = ...` is Python and stays Python."""
    cells = [
        "pip install torch numpy\nimport numpy as np\nimport torch\nfrom torch import nn",
        "cd data\nls = [1, 2]\nmodel = nn.Linear(3, 1)\nmodel(torch.from_numpy(np.random.rand(4, 3)))",
    ]
    nb = check_cells(list(enumerate(cells)), None, None)
    assert [(f.cell, f.finding.code, f.finding.span.line) for f in nb.findings] == [(1, "DG004", 4)]
    script = nb.script
    assert script is not None
    assert script.split(script.text) == {}


def test_a_non_python_cell_magic_is_left_out_and_a_broken_cell_gets_its_own_dg000() -> None:
    cells = [
        "import numpy as np\nimport torch\nfrom torch import nn",
        "%%bash\necho $((1 + 2))\nfor x in a b; do echo $x; done",
        "def broken(:\n    pass",
        "x = torch.from_numpy(np.random.rand(4, 3))\nnn.Linear(3, 1)(x)",
    ]
    nb = check_cells(list(enumerate(cells)), None, None)
    assert [(f.cell, f.finding.code, f.finding.span.line) for f in nb.findings] == [(2, "DG000", 1), (3, "DG004", 1)]
    assert nb.findings[0].finding.message.startswith("cell 3: ")


def test_ipython_wildcard_search_and_a_wholly_indented_cell_are_not_parse_errors() -> None:
    """`torch.*Tensor?` is IPython's wildcard search; a cell whose every line carries the first
    line's indent runs (IPython's `leading_indent`), so neither gets a DG000 (scan 42). A cell
    indented from its second line on fails in IPython too, and keeps its DG000."""
    cells = [
        "import torch\ntorch.*Tensor?",
        " x = 1\n x",
        "import torch\n device = 'cpu'",
    ]
    nb = check_cells(list(enumerate(cells)), None, None)
    assert [(f.cell, f.finding.code, f.finding.span.line) for f in nb.findings] == [(2, "DG000", 2)]


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"cells": [', "not JSON"),
        ("[1, 2]", "not an object"),
        ('{"nbformat": 3, "nbformat_minor": 0, "worksheets": []}', "nbformat 3"),
        ('{"nbformat": 4, "metadata": {}}', "no `cells` list"),
        ('{"nbformat": 4, "cells": [{"cell_type": "code", "source": 5}]}', "cell 1 is not text"),
        ('{"nbformat": 4, "cells": [{"cell_type": "nonsense", "source": ""}]}', "cell_type"),
        ("", "not JSON"),
    ],
)
def test_a_malformed_notebook_gets_one_clear_error_finding(text: str, words: str) -> None:
    nb = check_notebook(text, "nb.ipynb")
    assert len(nb.findings) == 1
    finding = nb.findings[0].finding
    assert finding.code == "DG000" and words in finding.message
    with pytest.raises(NotebookError, match=words.split()[0]):
        read_notebook(text)


def test_an_empty_notebook_and_markdown_only_have_nothing_to_report() -> None:
    assert check_notebook(notebook_json([])).findings == []
    assert check_notebook(notebook_json([markdown("torch.set_default_dtype(torch.float64)")])).findings == []
    assert check_notebook(notebook_json(["", "   \n"])).findings == []


def test_execution_counts_that_disagree_with_the_order_are_noted_on_the_affected_cells() -> None:
    notes = execution_order_notes([(0, 1), (1, 5), (2, None), (3, 2), (4, 6)])
    assert set(notes) == {1, 3}
    assert "[5]" in notes[1] and "cell 4 below it ran earlier ([2])" in notes[1]
    assert "cell 2 above it ran later ([5])" in notes[3]
    assert execution_order_notes([(0, 1), (1, 2), (2, None), (3, 7)]) == {}
    nb = check_notebook(notebook_json(["import torch", "x = 1", "y = 2"], counts=[3, 1, 2]))
    assert set(nb.order_notes) == {0, 1, 2}


def test_fixing_a_notebook_moves_the_set_default_call_into_the_setup_cell_and_keeps_the_rest() -> None:
    path = SAMPLES / "hazards" / "h04_default_dtype_after_model.py"
    script = path.read_text(encoding="utf-8")
    cells = cells_of(script)
    cells.insert(1, "%matplotlib inline")
    text = notebook_json([markdown("# H04"), *cells], counts=[None, *range(1, len(cells) + 1)])
    result = fix_notebook(text, str(path))
    assert result.error == "" and [f.code for f in result.applied] == ["DG001"]
    assert result.remaining == []
    before, after = json.loads(text), json.loads(result.text)
    changed = [i for i, (a, b) in enumerate(zip(before["cells"], after["cells"], strict=True)) if a != b]
    assert changed == sorted(result.changed)
    for a, b in zip(before["cells"], after["cells"], strict=True):
        assert {k: v for k, v in a.items() if k != "source"} == {k: v for k, v in b.items() if k != "source"}
    assert before["metadata"] == after["metadata"] and before["nbformat"] == after["nbformat"]
    sources = ["".join(c["source"]) for c in after["cells"]]
    moved = "torch.set_default_dtype(torch.float64)  # expect: DG001"
    old_cell = next(i for i, c in enumerate(before["cells"]) if moved in "".join(c["source"]))
    new_cell = next(i for i, s in enumerate(sources) if moved in s)
    assert sources[old_cell] == "" and new_cell < old_cell
    assert "from torch import nn" in sources[new_cell]  # the setup place: right after the imports
    assert check_notebook(result.text).findings == []
    assert after["cells"][2]["source"] == ["%matplotlib inline"]  # the magic is back, as it was


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_fixing_cells_gives_the_fixed_script(path: Path) -> None:
    script = path.read_text(encoding="utf-8")
    cells = cells_of(script)
    built = build_script(list(enumerate(cells)))
    sources = built.split(fix_all(built.text, str(path)).text)
    new = "\n".join(sources.get(i, c) for i, c in enumerate(cells)) + "\n"
    expected = fix_all(script, str(path)).text
    # a statement moved out of a cell leaves the cell empty (one blank line in the join)
    assert new == expected or [ln for ln in new.split("\n") if ln] == [ln for ln in expected.split("\n") if ln]


def test_fix_leaves_a_correct_notebook_byte_identical() -> None:
    text = notebook_json(cells_of((SAMPLES / "clean" / "cnn_dataloader.py").read_text()))
    result = fix_notebook(text)
    assert result.text == text and result.changed == {} and result.remaining == []


def test_with_sources_keeps_string_sources_strings_and_the_file_format() -> None:
    text = notebook_json(["import torch\nx = 1\n", "y = 2"], as_lists=False)
    nb = read_notebook(text)
    out = json.loads(nb.with_sources({1: "y = 3"}))
    assert out["cells"][1]["source"] == "y = 3" and out["cells"][0]["source"] == "import torch\nx = 1\n"
    assert nb.with_sources({}) == text


def test_editing_one_cell_leaves_the_script_text_of_the_others_alone() -> None:
    """The language server's incremental analysis reuses the chunks of cells that did not change."""
    cells = ["%matplotlib inline\nimport torch", "model = torch.nn.Linear(3, 1)", "x = torch.randn(4, 3)"]
    before = build_script(list(enumerate(cells))).text.split("\n")
    cells[1] = "model = torch.nn.Linear(3, 2)"
    after = build_script(list(enumerate(cells))).text.split("\n")
    assert [i for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b] == [4]


def test_cells_that_contain_marker_text_do_not_confuse_the_split() -> None:
    cells = ["import torch\n# %% [dtypeguard cell 2 nb]", "x = 1  # dtypeguard-magic-nb 0", "%time y = 2"]
    script = build_script(list(enumerate(cells)))
    assert script.nonce != "nb"
    assert script.split(script.text) == {}
    assert check_cells(list(enumerate(cells)), None, None).findings == []


def test_raw_cells_are_not_code() -> None:
    raw = {"cell_type": "raw", "id": "r", "metadata": {}, "source": "torch.set_default_dtype(torch.float64)"}
    text = notebook_json(["import torch\nfrom torch import nn", "model = nn.Linear(2, 2)", raw])
    assert check_notebook(text).findings == []


def test_a_code_cell_an_editor_marked_as_another_language_is_not_python() -> None:
    """VS Code keeps a cell's own language in `metadata.vscode.languageId`: a shell script or
    sample console output kept in a code cell (Time-Series-Library's tutorial) is not Python,
    and a cell marked "python" is."""

    def cell(language: str, source: str) -> dict[str, object]:
        return {"cell_type": "code", "execution_count": None, "id": language, "metadata": {"vscode": {"languageId": language}}, "outputs": [], "source": source}

    text = notebook_json([
        "import numpy as np\nimport torch\nfrom torch import nn",
        cell("shellscript", "python -u run.py \\\n  --task_name long_term_forecast \\\n  --is_training 1"),
        cell("plaintext", "Epoch: 1 cost time: 30.09\nEpoch: 1, Steps: 264 | Train Loss: 0.49"),
        cell("python", "x = torch.from_numpy(np.random.rand(4, 3))\nnn.Linear(3, 1)(x)"),
    ])
    assert [(f.cell, f.finding.code) for f in check_notebook(text).findings] == [(3, "DG004")]
