"""Generated from every rule's bad examples (and the hazard samples): each fix a finding
offers parses and removes that finding; fix-all is idempotent and composes."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from dtypeguard.analysis import check_source
from dtypeguard.findings import Finding, FixSpec
from dtypeguard.fixes import apply_edits, edits_for_fix, fix_all, suppression_edit
from dtypeguard.fixes.api import GLOBAL_KINDS, ordered_candidates
from dtypeguard.fixes.textedit import diff_edits
from dtypeguard.rules import ALL_RULES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = [(r.code, i, src) for r in ALL_RULES for i, src in enumerate(r.examples.bad)]
SAMPLES = sorted((ROOT / "samples").rglob("*.py"))
TEXTS = [pytest.param(src, id=f"{code}-bad{i}") for code, i, src in EXAMPLES] + [
    pytest.param(p.read_text(encoding="utf-8"), id=f"sample-{p.parent.name}-{p.stem}") for p in SAMPLES
]
FIXES = [
    pytest.param(src, finding, spec, id=f"{code}-bad{i}-{finding.code}-L{finding.span.line}-{spec.kind}{'' if spec.safe else '-unsafe'}-{k}")
    for code, i, src in EXAMPLES
    for finding in check_source(src).findings
    for k, spec in enumerate(finding.fixes)
]


def _still_reported(text: str, finding: Finding, line: int) -> bool:
    return any(f.code == finding.code and f.span.line == line for f in check_source(text).findings)


def _line_after(old: str, new: str, line: int) -> int:
    """Where `line` of `old` went in `new` (fixes may insert or move lines above it)."""
    shift = 0
    for edit in diff_edits(old, new):
        if edit.span.end_line < line or (edit.span.end_line == line and edit.span.end_col == 0):
            shift += edit.new_text.count("\n") - (edit.span.end_line - edit.span.line)
    return line + shift


def test_every_fix_kind_a_rule_emits_has_a_transform() -> None:
    from dtypeguard.fixes.api import TRANSFORMS

    kinds = {spec.kind for _, finding, spec in (p.values for p in FIXES)}
    assert kinds <= set(TRANSFORMS)


@pytest.mark.parametrize(("src", "finding", "spec"), FIXES)
def test_fix_parses_and_removes_its_finding(src: str, finding: Finding, spec: FixSpec) -> None:
    edits = edits_for_fix(src, spec)
    if spec.kind in GLOBAL_KINDS or spec.safe:
        assert edits is not None, f"{spec.title}: not applicable"
    if edits is None:
        return
    new = apply_edits(src, edits)
    ast.parse(new)
    assert not _still_reported(new, finding, _line_after(src, new, finding.span.line))


def test_rules_with_a_fix_cover_the_issue() -> None:
    codes = {p.values[1].code for p in FIXES}
    assert {"DG001", "DG002", "DG003", "DG004", "DG005", "DG006", "DG007", "DG008", "DG009", "DG010", "DG012", "DG016", "DG017"} <= codes


def test_unmovable_default_says_why_in_the_note() -> None:
    src = next(s for c, _, s in EXAMPLES if c == "DG001" and "def setup" in s)
    finding = next(f for f in check_source(src).findings if f.code == "DG001")
    assert "inside a function `setup()`" in finding.note
    # the net built before the call then meets float64 zeros and fails as written: the block is safe
    assert [f.kind for f in finding.fixes] == ["insert_setup_block"] and finding.fixes[0].safe


@pytest.mark.parametrize("src", TEXTS)
@pytest.mark.parametrize("unsafe", [False, True], ids=["safe", "unsafe"])
def test_fix_all_is_idempotent_and_parses(src: str, unsafe: bool) -> None:
    once = fix_all(src, unsafe=unsafe)
    if check_source(src).parsed:
        ast.parse(once.text)
    else:
        assert once.text == src  # a file that does not parse is never touched
    twice = fix_all(once.text, unsafe=unsafe)
    assert twice.text == once.text and twice.applied == []
    assert [f.code for f in twice.remaining] == [f.code for f in once.remaining]
    # whatever is left either has no (allowed) fix or says why its fix was not applied
    explained = {(f.code, f.message) for f, _ in once.not_applied}
    for f in once.remaining:
        assert not any(x.safe or unsafe for x in f.fixes) or (f.code, f.message) in explained


@pytest.mark.parametrize("src", TEXTS)
def test_fix_all_equals_fixes_one_by_one(src: str) -> None:
    text = src
    for _ in range(30):
        candidates = ordered_candidates(check_source(text).findings, unsafe=False)
        applied = False
        for finding, spec in candidates:
            edits = edits_for_fix(text, spec)
            if edits:
                new = apply_edits(text, edits)
                gone = (finding.code, finding.message) not in {(f.code, f.message) for f in check_source(new).findings}
                if gone or spec.kind in GLOBAL_KINDS:
                    text, applied = new, True
                    break
        if not applied:
            break
    assert fix_all(src).text == text


def test_suppression_edit_adds_and_extends() -> None:
    src = "import numpy as np\nimport torch\nimport torch.nn as nn\nx = torch.from_numpy(np.random.rand(8, 3))   \nmodel = nn.Linear(3, 1)\ny = model(x)\n"
    finding = next(f for f in check_source(src).findings if f.code == "DG004")
    edit = suppression_edit(src, finding)
    once = apply_edits(src, [edit])
    assert once.splitlines()[3] == "x = torch.from_numpy(np.random.rand(8, 3))  # dtypeguard: ignore[DG004]"
    assert not [f for f in check_source(once).findings if f.code == "DG004"]
    other = once.replace("ignore[DG004]", "ignore[DG008]")
    assert apply_edits(other, [suppression_edit(other, finding)]).splitlines()[3] == "x = torch.from_numpy(np.random.rand(8, 3))  # dtypeguard: ignore[DG008, DG004]"
    assert apply_edits(once, [suppression_edit(once, finding)]) == once
    crlf = src.replace("\n", "\r\n")
    assert apply_edits(crlf, [suppression_edit(crlf, finding)]).split("\r\n")[3] == "x = torch.from_numpy(np.random.rand(8, 3))  # dtypeguard: ignore[DG004]"


def test_dtype_keyword_uses_the_name_the_file_gives_torch() -> None:
    """`import torch as T`: the fix writes `T.float32` (a bare `torch` would be a NameError);
    with no module name for torch (`from torch import tensor`) it converts with `.float()`."""
    aliased = "import numpy as np\nimport torch as T\nfrom torch import nn\nx = T.tensor(np.random.rand(8, 3))\nnn.Linear(3, 1)(x)\n"
    fixed = fix_all(aliased).text
    assert "x = T.tensor(np.random.rand(8, 3), dtype=T.float32)\n" in fixed
    bare = "import numpy as np\nfrom torch import nn, tensor\nx = tensor(np.random.rand(8, 3))\nnn.Linear(3, 1)(x)\n"
    fixed = fix_all(bare).text
    assert "x = tensor(np.random.rand(8, 3)).float()\n" in fixed
    for text in (fix_all(aliased).text, fixed):
        namespace: dict[str, object] = {}
        exec(compile(text, "<fixed>", "exec"), namespace)  # the fixed script really runs
        assert not check_source(text).findings


def test_a_wrapper_of_torch_tensor_is_fixed_at_its_call_without_guessing_its_parameters() -> None:
    """`def _tensor(data): return torch.tensor(data)`: the finding and the fix go to the call
    that passed float64 data, and the fix is `.float()` (the wrapper may take no `dtype=`)."""
    text = (
        "import numpy as np\nimport torch\nfrom torch import nn\n"
        "def _tensor(data):\n    return torch.tensor(data)\n"
        "feats = _tensor(np.random.rand(8, 3))\nlabels = _tensor(np.arange(8))\n"
        "nn.Linear(3, 1)(feats)\n"
    )
    assert [(f.code, f.span.line) for f in check_source(text).findings] == [("DG004", 6)]
    fixed = fix_all(text).text
    assert "feats = _tensor(np.random.rand(8, 3)).float()\n" in fixed
    exec(compile(fixed, "<fixed>", "exec"), {})  # the fixed script really runs
    assert not check_source(fixed).findings


def test_no_hard_coded_cuda_for_a_model_moved_only_when_cuda_is_there() -> None:
    """`if use_cuda: model = model.cuda()`: the model is on the GPU only sometimes, so moving the
    batch with `.to("cuda")` would break the CPU run: DG009 reports it with no automatic fix;
    with a device name the file defines, the fix uses that name."""
    conditional = (
        "import torch\nfrom torch import nn\nuse_cuda = torch.cuda.is_available()\nmodel = nn.Linear(4, 2)\n"
        "if use_cuda:\n    model = model.cuda()\nout = model(torch.rand(3, 4))\n"
    )
    findings = [f for f in check_source(conditional).findings if f.code == "DG009"]
    assert findings and all(not f.fixes for f in findings)
    named = (
        "import torch\nfrom torch import nn\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
        "model = nn.Linear(4, 2).to(device)\nout = model(torch.rand(3, 4))\n"
    )
    fixed = [spec for f in check_source(named).findings if f.code == "DG009" for spec in f.fixes]
    assert fixed and dict(fixed[0].params)["device"] == "device"


def test_a_legacy_call_restoring_a_cpu_default_is_not_replaced_by_a_guess() -> None:
    """llm.c's `from_pretrained`: a CUDA bfloat16 default for loading, then the old type back.
    The restore also moves the default device back to the CPU, which `set_default_dtype` alone
    would not; and its type is computed, so no dtype is guessed and "changes nothing" is not said."""
    src = (
        "import torch\n"
        "def load(cls):\n"
        "    original = torch.get_default_dtype()\n"
        "    torch.set_default_tensor_type(torch.cuda.BFloat16Tensor)\n"
        "    model = cls()\n"
        "    torch.set_default_tensor_type(torch.tensor([], dtype=original, device='cpu').type())\n"
        "    return model\n"
    )
    findings = {f.span.line: f for f in check_source(src).findings if f.code == "DG002"}
    assert set(findings) == {4, 6}
    restore = findings[6]
    assert not restore.fixes
    assert "changes nothing" not in restore.message
    assert "back to the CPU" in restore.message
    assert [f.kind for f in findings[4].fixes] == ["replace_default_tensor_type"]


def test_a_cpu_type_where_a_flag_is_off_does_not_say_it_moves_a_cuda_default_back() -> None:
    """DIoU-SSD (scan 44): the CUDA default is set under `if args.cuda:` and the CPU type under
    `if not args.cuda:`, the other value of the same flag: where the second runs the first did
    not, so no CUDA default is there to move back."""
    src = (
        "import argparse\nimport torch\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--cuda', default=True, type=bool)\nargs = parser.parse_args()\n"
        "if args.cuda:\n    torch.set_default_tensor_type('torch.cuda.FloatTensor')\n"
        "if not args.cuda:\n    torch.set_default_tensor_type('torch.FloatTensor')\n"
        "torch.set_default_tensor_type('torch.FloatTensor')\n"
    )
    findings = {f.span.line: f for f in check_source(src).findings if f.code == "DG002"}
    assert set(findings) == {7, 9, 10}
    assert "back to the CPU" not in findings[9].message
    assert "back to the CPU" in findings[10].message  # (after the flag's default: the CUDA type)


def test_a_fix_that_creates_a_finding_where_it_edits_is_not_applied() -> None:
    """tests/realworld b22: `Y` is both a layer's input (needs float) and a class-index target
    (needs long): `.float()` where it is made would make the target wrong, and the next round's
    `.long()` would undo it, round after round (the text once got `.float().long()` six times).
    The fixes where it is made are refused, that line is left as is, and the conversion goes
    where the layer uses it."""
    from dtypeguard.fixes.api import fix_all

    path = Path(__file__).resolve().parents[1] / "realworld/broken/b22_tabr_long_candidate_y_label_encoder.py"
    text = path.read_text(encoding="utf-8")
    result = fix_all(text, unsafe=True)
    assert ".long().float()" not in result.text and ".float().long()" not in result.text
    assert 'Y = torch.as_tensor(df["target"].to_numpy())  # root-cause\n' in result.text
    assert "self.label_encoder(candidate_y[context_idx][..., None].float())" in result.text, result.text
    assert not result.remaining, result.remaining


def test_a_map_location_given_to_the_outer_call_moves_into_torch_load() -> None:
    """tests/realworld5 h23: `model.load_state_dict(torch.load(p), map_location=dev)` (the
    keyword put on the wrong call): adding another `map_location` to `torch.load` would leave
    `load_state_dict` raising TypeError; the user's own keyword moves in instead."""
    src = (
        "import torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nmodel = torch.nn.Linear(2, 2)\n"
        "model.load_state_dict(torch.load('w.pt'), map_location=torch.device('cpu'))\n"
    )
    text = fix_all(src).text
    assert "model.load_state_dict(torch.load('w.pt', map_location=torch.device('cpu')))\n" in text, text
    assert not [f for f in check_source(text).findings if f.code == "DG010"]


def test_two_roots_of_one_failure_on_one_line_are_both_fixed() -> None:
    """tests/realworld6 h04: a collate returns three `from_numpy` arrays, two of them float64,
    and the model concatenates them. Fixing the first leaves the same report at the second: that
    is another root, not a fix that failed, and the next round fixes it."""
    src = (
        "import numpy as np\nimport torch\nfrom torch import nn\n"
        "def collate(x, a, b):\n    return torch.from_numpy(x), torch.from_numpy(a), torch.from_numpy(b)\n"
        "x, a, b = collate(np.ones((2, 3), dtype=np.float32), np.ones((2, 3)), np.ones((2, 3)))\n"
        "out = nn.Linear(9, 1)(torch.cat([x, a, b], 1))\n"
    )
    result = fix_all(src)
    assert "torch.from_numpy(x), torch.from_numpy(a).float(), torch.from_numpy(b).float()" in result.text, result.text
    assert not [f for f in result.remaining if f.code == "DG004"], result.remaining


def test_a_map_location_of_the_users_own_function_stays_there() -> None:
    """`apply_weights(model, torch.load(p), map_location=device)`: the user's function takes its
    own `map_location`; only `load_state_dict`'s misplaced one moves into `torch.load`."""
    src = (
        "import torch\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
        "def apply_weights(model, state, map_location=None):\n    model.load_state_dict(state)\n    return model.to(map_location or 'cpu')\n"
        "model = apply_weights(torch.nn.Linear(2, 2), torch.load('w.pt'), map_location=device)\n"
    )
    text = fix_all(src).text
    assert "apply_weights(torch.nn.Linear(2, 2), torch.load('w.pt', map_location=" in text and "), map_location=device)" in text, text


_TRICK = (
    "import torch\n"
    "from torch import nn\n"
    "\n"
    "# the trick\n"
    "if torch.cuda.is_available():\n"
    "    torch.set_default_tensor_type('torch.cuda.FloatTensor')\n"
    "else:\n"
    "    torch.set_default_tensor_type('torch.FloatTensor')\n"
    "\n"
)


def test_the_cuda_default_trick_becomes_a_device_the_models_move_to() -> None:
    """Issue 13 point 4 (samples/blog_mnist_trick.py): the block that chose a CUDA default
    becomes the explicit device it stood for, and that name is used: the model it placed moves
    there (a Net's layers move with it), the input the model meets follows (DG009's fix), and
    no `set_default_dtype(torch.float32)` is written where float32 already is the default."""
    src = _TRICK + (
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.fc = nn.Linear(4, 2)\n"
        "    def forward(self, x):\n"
        "        return self.fc(x)\n"
        "\n"
        "net = Net()\n"
        "x = torch.from_numpy(__import__('numpy').ones((3, 4), dtype='float32'))\n"
        "out = net(x)\n"
    )
    result = fix_all(src)
    assert "set_default_tensor_type" not in result.text and "set_default_dtype" not in result.text, result.text
    assert 'device = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n' in result.text
    assert "net = Net().to(device)\n" in result.text and "out = net(x.to(device))\n" in result.text, result.text
    assert "self.fc = nn.Linear(4, 2)\n" in result.text  # a part moves with its model
    assert not check_source(result.text).findings
    namespace: dict[str, object] = {}
    exec(compile(result.text, "<fixed>", "exec"), namespace)  # runs on this CPU machine
    assert str(namespace["out"].device) == "cpu"  # type: ignore[attr-defined]


def test_the_cuda_default_trick_keeps_the_dtype_line_where_it_changes_something() -> None:
    src = "import torch\ntorch.set_default_dtype(torch.float64)\n" + _TRICK.replace("import torch\n", "", 1) + "model = torch.nn.Linear(2, 2)\n"
    text = fix_all(src).text
    assert "torch.set_default_dtype(torch.float32)\n" in text and "model = torch.nn.Linear(2, 2).to(device)\n" in text, text


def test_the_cuda_default_trick_with_nothing_placed_goes_with_its_comment() -> None:
    text = fix_all(_TRICK + "print('no model here')\n").text
    assert text == "import torch\nfrom torch import nn\n\nprint('no model here')\n", text


@pytest.mark.parametrize("rest", [
    pytest.param("def train(m):\n    pass\ntrain(torch.nn.Linear(2, 2))\n", id="model-not-held-by-a-name"),
    pytest.param("h = torch.zeros(2)\nmodel = torch.nn.Linear(2, 2)\nout = model(h)\n", id="tensor-made-on-the-default-device"),
])
def test_the_cuda_default_trick_moves_nothing_it_cannot_move_whole(rest: str) -> None:
    """A model no plain assignment holds cannot be moved where it is made, and a tensor a torch
    factory made on the CUDA default would stay behind on the CPU: the block then becomes the
    setup block with no `.to(device)` anywhere, so everything stays together (on the CPU)."""
    text = fix_all(_TRICK + rest).text
    assert ".to(device)" not in text and "set_default_tensor_type" not in text, text
    assert 'device = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n' in text


def test_a_cuda_default_that_tensors_in_another_file_rely_on_is_kept_in_todays_calls(tmp_path: Path) -> None:
    """scan 12 (aster.pytorch): the model's decoder, in lib/, makes `torch.zeros(...)` on the CUDA
    default. An explicit `device` would leave those on the CPU and no edit of main.py can move
    them (8 new DG009 after the old fix), so the legacy call becomes the two calls that keep the
    defaults where there is a GPU. (Made in the same file, the explicit device still applies and
    the next round moves them: the tests above.)"""
    (tmp_path / "decoder.py").write_text(
        "import torch\nfrom torch import nn\n\n\nclass Decoder(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.fc = nn.Linear(4, 4)\n\n    def forward(self, n):\n        state = torch.zeros(n, 4)\n        return self.fc(state)\n",
        encoding="utf-8",
    )
    src = (
        "import sys\nsys.path.append('./')\n\nimport torch\nfrom decoder import Decoder\n\n\n"
        "def main(use_cuda):\n    if use_cuda:\n        torch.set_default_tensor_type('torch.cuda.FloatTensor')\n"
        "    model = Decoder()\n    return model(2)\n\n\nmain(torch.cuda.is_available())\n"
    )
    path = str(tmp_path / "main.py")
    result = fix_all(src, path)
    assert '        torch.set_default_dtype(torch.float32)\n        torch.set_default_device("cuda" if torch.cuda.is_available() else "cpu")\n' in result.text, result.text
    assert "set_default_tensor_type" not in result.text
    before = {f.code for f in check_source(src, path).findings}
    assert {f.code for f in check_source(result.text, path).findings} <= before - {"DG002"}


def test_the_setup_block_goes_after_the_import_that_binds_torch() -> None:
    src = "import sys\nsys.path.append('./')\nimport os\nimport torch\n\n\ndef main():\n    torch.set_default_tensor_type('torch.cuda.FloatTensor')\n"
    text = fix_all(src).text
    assert "set_default_tensor_type" not in text and "device = torch.device(" in text, text
    assert text.index("import torch\n") < text.index("device = torch.device("), text
    exec(compile(text, "<fixed>", "exec"), {"__name__": "__main__"})


def test_a_legacy_type_given_as_the_type_itself_is_written_out_unless_legacy_constructors_follow_it(tmp_path: Path) -> None:
    """scan 13 (TabSurvey's DeepGBM): `set_default_tensor_type(torch.cuda.FloatTensor)` (the type,
    not its name) becomes the two calls written out, not `torch.empty(0).type(...)` read back.
    With a legacy `torch.Tensor(4)` in the file, which follows the legacy CUDA type but not
    `set_default_device`, the pair would split tensors across devices on a GPU: the fix is then
    the setup block that keeps everything together."""
    (tmp_path / "net.py").write_text(
        "import torch\nfrom torch import nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.fc = nn.Linear(4, 4)\n\n    def forward(self, n):\n        return self.fc(torch.zeros(n, 4))\n",
        encoding="utf-8",
    )
    src = "import torch\nfrom net import Net\n\n\ndef main():\n    if torch.cuda.is_available():\n        torch.set_default_tensor_type(torch.cuda.FloatTensor)\n    return Net()(2)\n\n\nmain()\n"
    path = str(tmp_path / "main.py")
    [fix] = next(f for f in check_source(src, path).findings if f.code == "DG002").fixes
    assert fix.safe and fix.kind == "replace_tensor_type_call", fix
    text = fix_all(src, path).text
    assert '        torch.set_default_dtype(torch.float32)\n        torch.set_default_device("cuda" if torch.cuda.is_available() else "cpu")\n' in text, text
    legacy = src.replace("    return Net()", "    bias = torch.Tensor(4)\n    return Net()")
    [fix] = next(f for f in check_source(legacy, path).findings if f.code == "DG002").fixes
    assert fix.kind == "replace_default_tensor_type", fix


def test_the_unguarded_cuda_default_trick_runs_on_a_cpu_only_machine_after_the_fix() -> None:
    """tests/realworld34 ac01 (the blog's trick without a CUDA check, on a CPU-only install): the
    legacy call raises "Torch not compiled with CUDA enabled"; the fixed script runs on the CPU."""
    src = (
        "import torch\nfrom torch import nn\n\ntorch.set_default_tensor_type('torch.cuda.FloatTensor')\n\n\n"
        "class Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 2)\n\n"
        "    def forward(self, x):\n        return self.fc(x + torch.zeros(4))\n\n\nout = Net()(torch.randn(3, 4))\n"
    )
    text = fix_all(src).text
    assert "set_default_tensor_type" not in text, text
    namespace: dict[str, object] = {}
    try:
        exec(compile(text, "<fixed>", "exec"), namespace)
    finally:
        import torch

        torch.set_default_device(None)
    assert str(namespace["out"].device) == "cpu"  # type: ignore[attr-defined]


def test_the_cuda_default_trick_is_no_safe_fix_where_the_code_also_moves_models_itself() -> None:
    """NeuS (scan 20): the runner moves its networks to `torch.device('cuda')` itself, and tensors
    torch makes on the CUDA default (its renderer's `torch.linspace`, a legacy `torch.Tensor`)
    rely on the default; a model passed on unnamed cannot be moved here. Replacing the default
    would leave those tensors on the CPU beside CUDA networks: only an unsafe fix is offered."""
    src = (
        "import torch\n"
        "def render(net, n):\n"
        "    z = torch.linspace(0.0, 1.0, n)\n"
        "    return net(z.expand(2, n))\n"
        "def train(net):\n"
        "    net = net.to(torch.device('cuda'))\n"
        "    return render(net, 4)\n"
        "if __name__ == '__main__':\n"
        "    torch.set_default_tensor_type('torch.cuda.FloatTensor')\n"
        "    train(torch.nn.Linear(4, 4))\n"
    )
    (finding,) = [f for f in check_source(src).findings if f.code == "DG002"]
    assert finding.fixes and not any(fix.safe for fix in finding.fixes), finding.fixes
    assert fix_all(src).text == src  # (the safe fixes change nothing)


def test_a_cuda_default_tensor_type_is_no_safe_fix_where_a_legacy_constructor_runs() -> None:
    """yolact (scan 23): `torch.Tensor(priors, device=x.device)` follows only the CUDA tensor
    type; with `set_default_dtype` and an explicit device in its place the legacy constructor
    makes CPU tensors (and raises given a CUDA device), so the replacement is not offered as safe."""
    source = (
        "import torch\nimport torch.nn as nn\n\n\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.conv = nn.Conv2d(3, 4, 3)\n\n    def forward(self, x):\n        y = self.conv(x)\n"
        "        return y, torch.Tensor([0.5, 0.5, 1.0, 1.0], device=y.device)\n\n\n"
        "net = Net().cuda()\ntorch.set_default_tensor_type('torch.cuda.FloatTensor')\ny = net(torch.zeros((1, 3, 8, 8)))\n"
    )
    [finding] = [f for f in check_source(source).findings if f.code == "DG002"]
    assert finding.fixes and not any(fix.safe for fix in finding.fixes), finding.fixes


def test_the_shuffle_generator_under_a_cuda_tensor_type_names_the_device_itself() -> None:
    """yolact (scan 23): `torch.get_default_device()` is the CPU under `set_default_tensor_type`
    (it follows `set_default_device` only), so the generator the fix passes tests CUDA itself."""
    source = (
        "import torch\nfrom torch.utils.data import DataLoader\n"
        "if torch.cuda.is_available():\n    torch.set_default_tensor_type('torch.cuda.FloatTensor')\n"
        "loader = DataLoader(list(range(10)), batch_size=2, shuffle=True)\n"
    )
    [finding] = [f for f in check_source(source).findings if f.code == "DG003"]
    values = [dict(fix.params).get("value", "") for fix in finding.fixes]
    assert "torch.Generator(device='cuda' if torch.cuda.is_available() else 'cpu')" in values, values
    assert all("get_default_device" not in v for v in values)


def test_a_cuda_default_set_inside_a_launcher_function_is_no_safe_fix() -> None:
    """ALAE (scan 25): `_run(...)` sets the CUDA default tensor type, then calls the entry script's
    `train`, whose models and forward-time tensors are in other files; nothing made here after the
    call shows what relies on it, so dropping it is not offered as safe."""
    source = (
        "import torch\n\n\ndef _run(fn, no_cuda, args):\n    if not no_cuda:\n"
        "        torch.set_default_tensor_type('torch.cuda.FloatTensor')\n    fn(**args)\n"
    )
    [finding] = [f for f in check_source(source).findings if f.code == "DG002"]
    assert finding.fixes and not any(fix.safe for fix in finding.fixes), finding.fixes
