"""Analysis across the project's own modules: a hazard whose root is in an imported file is
reported in the importing file, at its place there, with the root as related information
(tests of issue 16's cross-module analysis, on small real projects written to tmp_path)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dtypeguard.analysis import check_source

DATA = '''\
import numpy as np
import torch
from torch.utils.data import Dataset


class Points(Dataset):
    def __init__(self, n=16):
        self.x = np.random.rand(n, 4)
        self.y = np.random.randint(0, 2, n)

    def __len__(self):
        return len(self.x)

    def __getitem__(self, i):
        return torch.from_numpy(self.x[i]), int(self.y[i])
'''
MODELS = '''\
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def build():
    return Net().double()


if __name__ == "__main__":
    torch.set_default_dtype(torch.float64)
'''
CONFIG = '''\
import torch

torch.set_default_tensor_type("torch.cuda.FloatTensor")
'''
TRAIN = '''\
import torch
from torch import nn
from torch.utils.data import DataLoader

from data import Points
from models import Net

model = Net()
opt = torch.optim.Adam(model.parameters())
for x, y in DataLoader(Points(), batch_size=4):
    loss = nn.functional.cross_entropy(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
'''


def _project(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _check(path: Path) -> list[tuple[int, str]]:
    result = check_source(path.read_text(encoding="utf-8"), str(path))
    assert not result.internal_error
    return [(f.span.line, f.code) for f in result.findings]


def test_a_float64_dataset_from_another_file_is_reported_where_it_fails_with_its_root(tmp_path: Path) -> None:
    root = _project(tmp_path, {"data.py": DATA, "models.py": MODELS, "train.py": TRAIN})
    train = root / "train.py"
    result = check_source(train.read_text(), str(train))
    [finding] = result.findings
    assert (finding.code, finding.span.line, finding.span.file) == ("DG004", 11, "")
    assert "root in data.py:15" in finding.message
    assert finding.related[0].span.file == str((root / "data.py").resolve()) and finding.related[0].span.line == 15
    assert not finding.fixes  # the conversion belongs in data.py: not an edit of train.py
    assert set(result.dependencies) == {str((root / "data.py").resolve()), str((root / "models.py").resolve())}


def test_the_fixed_dataset_in_the_other_file_clears_the_finding(tmp_path: Path) -> None:
    root = _project(tmp_path, {"data.py": DATA.replace("torch.from_numpy(self.x[i])", "torch.from_numpy(self.x[i]).float()"), "models.py": MODELS, "train.py": TRAIN})
    assert _check(root / "train.py") == []


def test_without_the_other_file_nothing_is_known(tmp_path: Path) -> None:
    root = _project(tmp_path, {"models.py": MODELS, "train.py": TRAIN})  # no data.py: `Points` is unknown
    assert _check(root / "train.py") == []


def test_a_module_above_the_projects_root_is_not_the_projects_own(tmp_path: Path) -> None:
    # data.py one folder above the checkout (its pyproject.toml marks the root) is someone else's:
    # what lies beside a checkout differs from machine to machine; without the marker it is found
    _project(tmp_path, {"data.py": DATA, "proj/pkg/models.py": MODELS, "proj/pkg/train.py": TRAIN})
    train = tmp_path / "proj" / "pkg" / "train.py"
    assert [code for _, code in _check(train)] == ["DG004"]
    (tmp_path / "proj" / "pyproject.toml").write_text("[project]\nname = 'proj'\n", encoding="utf-8")
    assert _check(train) == []
    (tmp_path / "proj" / "pkg" / "data.py").write_text(DATA, encoding="utf-8")  # below the root: the project's own
    assert [code for _, code in _check(train)] == ["DG004"]


def test_a_module_of_a_folder_without_init_is_imported_from_its_parent(tmp_path: Path) -> None:
    # SSL4EO-S12 (scan 29): `from models.dino import utils` where models/ and models/dino/ have
    # no `__init__.py` (namespace packages): the module file is the project's own
    utils = "import torch\n\n\ndef restart_from_checkpoint(p):\n    return torch.load(p, map_location='cpu')\n"
    train = (
        "import argparse\nimport torch\nfrom models.dino import utils\n\nargs = argparse.ArgumentParser().parse_args()\n"
        "torch.save({'model': torch.nn.Linear(2, 2).state_dict(), 'args': args}, 'checkpoint.pth')\n"
        "checkpoint = utils.restart_from_checkpoint('checkpoint.pth')\n"
    )
    root = _project(tmp_path, {"models/dino/utils.py": utils, "train.py": train})
    assert _check(root / "train.py") == [(6, "DG011")]


def test_a_double_model_from_a_module_import_and_a_cuda_default_set_by_a_config_module(tmp_path: Path) -> None:
    root = _project(tmp_path, {
        "models.py": MODELS,
        "cfg.py": CONFIG,
        "train.py": "import torch\nimport models\nmodel = models.build()\nx = torch.rand(3, 4)\nout = model(x)\n",
        "loader.py": (
            "import torch\nfrom torch.utils.data import DataLoader, TensorDataset\nfrom cfg import *\n"
            "loader = DataLoader(TensorDataset(torch.rand(8, 3)), batch_size=4, shuffle=True)\n"
        ),
    })
    assert _check(root / "train.py") == [(5, "DG004")]
    assert (4, "DG003") in _check(root / "loader.py")


def test_a_star_import_brings_the_modules_public_names_and_its_torch(tmp_path: Path) -> None:
    """pytorch-deeplab-xception (scan 14): `torch` comes into train.py only through
    `from modeling.deeplab import *`, so its `torch.load` is torch's; `__all__` limits the names."""
    root = _project(tmp_path, {
        "modeling.py": "import torch\nfrom torch import nn\n\ndef build():\n    return nn.Linear(4, 2).double()\n",
        "listed.py": "import torch\nfrom torch import nn\n__all__ = ['build']\n\ndef build():\n    return nn.Linear(4, 2).double()\n",
        "train.py": (
            "import argparse\nfrom modeling import *\nparser = argparse.ArgumentParser()\nparser.add_argument('--resume', default=None)\n"
            "args = parser.parse_args()\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nmodel = build()\n"
            "out = model(torch.rand(3, 4))\nif args.resume is not None:\n    checkpoint = torch.load(args.resume)\n"
        ),
        "only_listed.py": "import numpy as np\nfrom listed import *\nmodel = build()\nout = model(torch.rand(3, 4))\n",
    })
    assert _check(root / "train.py") == [(8, "DG004"), (10, "DG010")]
    assert _check(root / "only_listed.py") == []  # `torch` is not in `__all__`: `torch.rand` is not known here


def test_relative_imports_in_a_package_and_its_main_block_not_run(tmp_path: Path) -> None:
    root = _project(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/layers.py": "import numpy as np\nimport torch\n\ndef basis():\n    return torch.from_numpy(np.linspace(0, 1, 4))\n",
        "pkg/models.py": (
            "import torch\nfrom torch import nn\nfrom .layers import basis\n\nclass Net(nn.Module):\n    def __init__(self):\n"
            "        super().__init__()\n        self.fc = nn.Linear(4, 1)\n        self.register_buffer('b', basis())\n\n"
            "    def forward(self, x):\n        return self.fc(x * self.b)\n"
        ),
        "train.py": "import torch\nfrom pkg.models import Net\nNet()(torch.rand(2, 4))\n",
        "clean.py": "import torch\nfrom torch import nn\nimport models\nnn.Linear(4, 2)(torch.rand(2, 4))\n",  # models.py's main block (float64 default) does not run
        "models.py": MODELS,
    })
    assert _check(root / "train.py") == [(3, "DG004")]
    assert _check(root / "clean.py") == []


def test_an_import_cycle_and_a_broken_module_stay_unknown(tmp_path: Path) -> None:
    root = _project(tmp_path, {
        "a.py": "import torch\nfrom b import g\n\ndef f():\n    return torch.rand(2)\n",
        "b.py": "from a import f\n\ndef g():\n    return f()\n",
        "broken.py": "def (:\n",
        "main.py": "from a import f\nfrom broken import h\nimport torch\ny = f() + torch.rand(2)\n",
    })
    assert _check(root / "main.py") == []


def test_a_hazard_wholly_inside_the_imported_file_is_that_files_own(tmp_path: Path) -> None:
    root = _project(tmp_path, {
        "helpers.py": "import numpy as np\nimport torch\nfrom torch import nn\nnn.Linear(4, 2)(torch.from_numpy(np.random.rand(3, 4)))\n",
        "main.py": "import torch\nimport helpers\nx = torch.rand(2)\n",
    })
    assert _check(root / "main.py") == []
    assert _check(root / "helpers.py") == [(4, "DG004")]


def test_cli_json_and_text_name_the_other_file(tmp_path: Path) -> None:
    root = _project(tmp_path, {"data.py": DATA, "models.py": MODELS, "train.py": TRAIN})
    run = [sys.executable, "-m", "dtypeguard", "check"]
    out = subprocess.run([*run, "--format", "json", "train.py"], cwd=root, capture_output=True, text=True, timeout=60)
    assert out.returncode == 1, out.stderr
    [finding] = json.loads(out.stdout)
    assert finding["path"] == "train.py" and finding["line"] == 11
    assert finding["related"][0]["path"].endswith("data.py") and finding["related"][0]["line"] == 15
    text = subprocess.run([*run, "--no-color", "train.py"], cwd=root, capture_output=True, text=True, timeout=60).stdout
    assert "= data.py:15: the fix goes here" in text
    sarif = json.loads(subprocess.run([*run, "--format", "sarif", "train.py"], cwd=root, capture_output=True, text=True, timeout=60).stdout)
    related = sarif["runs"][0]["results"][0]["relatedLocations"]
    assert related[0]["physicalLocation"]["artifactLocation"]["uri"].endswith("data.py")


def test_the_root_in_another_file_is_that_files_finding_too(tmp_path: Path) -> None:
    """Issue 16: a finding is also shown in the file where the fix goes, with the failing line
    of the file that runs it as related information."""
    root = _project(tmp_path, {"data.py": DATA, "models.py": MODELS, "train.py": TRAIN})
    train = root / "train.py"
    [theirs] = check_source(train.read_text(), str(train)).elsewhere
    assert (theirs.code, Path(theirs.span.file).name, theirs.span.line) == ("DG004", "data.py", 15)
    assert "(when train.py runs it)" in theirs.message and not theirs.fixes
    fails = [r for r in theirs.related if r.message.startswith("fails here")]
    assert fails and fails[0].span.file == str(train.resolve()) and fails[0].span.line == 11
    fixed = DATA.replace("torch.from_numpy(self.x[i])", "torch.from_numpy(self.x[i]).float()")
    (root / "data.py").write_text(fixed, encoding="utf-8")
    assert check_source(train.read_text(), str(train)).elsewhere == []


def test_cli_folder_check_shows_the_root_once_in_its_file_and_only_if_checked(tmp_path: Path) -> None:
    root = _project(tmp_path, {"data.py": DATA, "models.py": MODELS, "train.py": TRAIN, "eval.py": TRAIN})
    run = [sys.executable, "-m", "dtypeguard", "check", "--format", "json"]
    for extra in (["--no-cache"], ["--cache-dir", str(tmp_path / "c")], ["--cache-dir", str(tmp_path / "c")]):  # cold, then warm
        out = subprocess.run([*run, *extra, "."], cwd=root, capture_output=True, text=True, timeout=120)
        found = sorted((Path(f["path"]).name, f["line"], f["code"]) for f in json.loads(out.stdout))
        assert found == [("data.py", 15, "DG004"), ("eval.py", 11, "DG004"), ("train.py", 11, "DG004")], out.stderr
        [data] = [f for f in json.loads(out.stdout) if f["path"].endswith("data.py")]
        assert any(r["path"].endswith(("train.py", "eval.py")) and r["line"] == 11 for r in data["related"])
    alone = subprocess.run([*run, "--no-cache", "train.py"], cwd=root, capture_output=True, text=True, timeout=60)
    assert [Path(f["path"]).name for f in json.loads(alone.stdout)] == ["train.py"]


def test_from_a_package_import_its_module(tmp_path: Path) -> None:
    """`from train import trainer_adapter` imports the package's module when the package's
    `__init__` does not define the name (FlagPerf's layout, tests/realworld29 p08)."""
    root = _project(tmp_path, {
        "train/__init__.py": "",
        "train/adapter.py": "def to_fp16(model):\n    model.half()\n    return model\n",
        "main.py": (
            "import torch\nfrom torch import nn\nfrom train import adapter\n"
            "model = adapter.to_fp16(nn.Linear(4, 2))\nmodel(torch.rand(3, 4))\n"
        ),
    })
    assert _check(root / "main.py") == [(5, "DG004")]


def test_a_hazard_inside_imported_code_that_a_call_here_runs_is_shown_at_that_call(tmp_path: Path) -> None:
    """The model made here is halved and stepped by Adam in the imported trainer (as guided-diffusion's
    TrainLoop steps a model converted elsewhere, tests/realworld30 q01): shown here at the innermost call that ran that code, with
    the root in the other file; a `torch.load` without `map_location` in imported code stays that
    file's own (whether its file came from a GPU does not depend on what this file passes; and
    what it loads is not known to be weights, test below)."""
    root = _project(tmp_path, {
        "trainer.py": (
            "import torch\n\n\nclass TrainLoop:\n    def __init__(self, model):\n"
            "        self.opt = torch.optim.AdamW(model.half().parameters(), lr=1e-4)\n\n"
            "    def load(self, path):\n        return torch.load(path)\n"
        ),
        "main.py": (
            "import torch\nfrom torch import nn\nfrom trainer import TrainLoop\n\n\n"
            "def main():\n    model = nn.Linear(4, 2)\n    loop = TrainLoop(model)\n"
            "    device = 'cuda' if torch.cuda.is_available() else 'cpu'\n    loop.load('w.pt')\n\n\nmain()\n"
        ),
    })
    main = root / "main.py"
    result = check_source(main.read_text(), str(main))
    [finding] = result.findings
    assert (finding.code, finding.span.line) == ("DG012", 8)  # `loop = TrainLoop(model)`, not `main()`
    assert "root in trainer.py:6" in finding.message
    assert [(Path(f.span.file).name, f.span.line, f.code) for f in result.elsewhere] == [("trainer.py", 6, "DG012")]


def test_a_config_modules_entry_that_reaches_an_optimizer_built_from_a_call_here(tmp_path: Path) -> None:
    """`capturable=True` written in a config module (an AttrDict) and read by an optimizer factory
    of another module that the script calls (tests/realworld33 ab12): shown at that call, rooted
    at the config's entry, and in the config module where the fix goes."""
    root = _project(tmp_path, {
        "config.py": (
            "class AttrDict(dict):\n    def __getattr__(self, name):\n        return self[name]\n\n\n"
            "trainer = AttrDict(optimizer=AttrDict(type='Adam', kwargs=AttrDict(lr=1e-3, capturable=True)))\n"
        ),
        "optim.py": (
            "import torch\n\n\ndef build_optimizer(cfg, model):\n"
            "    return getattr(torch.optim, cfg.optimizer.type)(model.parameters(), **cfg.optimizer.kwargs)\n"
        ),
        "main.py": (
            "import torch\nfrom torch import nn\nfrom config import trainer\nfrom optim import build_optimizer\n\n"
            "model = nn.Linear(4, 2).to('cuda' if torch.cuda.is_available() else 'cpu')\n"
            "opt = build_optimizer(trainer, model)\n"
        ),
    })
    main = root / "main.py"
    result = check_source(main.read_text(), str(main))
    [finding] = result.findings
    assert (finding.code, finding.span.line) == ("DG016", 7)
    assert "root in config.py:6" in finding.message
    assert [(Path(f.span.file).name, f.span.line) for f in result.elsewhere] == [("config.py", 6)]


def test_a_device_chosen_in_a_module_of_the_project_makes_the_script_one_that_runs_on_both(tmp_path: Path) -> None:
    """set 33 ab03 (VMGP): `from device import device`, where device.py asks
    torch.cuda.is_available(): the script runs on a GPU machine and on a CPU-only one, so its
    `torch.load` without `map_location` is reported (as it is when the script asks itself). A
    helper module's own CUDA check, whose device the script never takes, still is no evidence."""
    device = "import torch\n\nif torch.cuda.is_available():\n    device = torch.device('cuda:0')\nelse:\n    device = torch.device('cpu')\n"
    main = "import torch\nfrom device import device\n\nstate = torch.load('model.pt')\nx = torch.zeros(2).to(device)\n"
    root = _project(tmp_path, {"device.py": device, "main.py": main, "other.py": main.replace("from device import device", "import device").replace(".to(device)", "")})
    assert _check(root / "main.py") == [(4, "DG010")]
    assert _check(root / "other.py") == []


def test_a_device_helper_function_of_the_project_that_the_script_calls_makes_it_one_that_runs_on_both(tmp_path: Path) -> None:
    """adaptive_voice_conversion (scan 43): `from utils import cc`, whose `cc(net)` moves the model
    to CUDA when available: the script calls it, so it runs on both, and its `torch.load` without
    `map_location` is reported. A helper that is imported but never called is still no evidence."""
    utils = "import torch\n\n\ndef cc(net):\n    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n    return net.to(device)\n"
    main = "import sys\nimport torch\nfrom torch import nn\nfrom utils import cc\n\nmodel = cc(nn.Linear(2, 2))\nmodel.load_state_dict(torch.load(sys.argv[1]))\n"
    root = _project(tmp_path, {"utils.py": utils, "main.py": main, "other.py": main.replace("cc(nn.Linear(2, 2))", "nn.Linear(2, 2)")})
    assert _check(root / "main.py") == [(7, "DG010")]
    assert _check(root / "other.py") == []


CKPT_UTILS = '''\
import argparse
import torch


def save_model(model, args, path):
    torch.save({"model": model.state_dict(), "args": args}, path)


def auto_load_model(path):
    return torch.load(path, map_location="cpu")
'''
CKPT_MAIN = '''\
import argparse
import torch
import utils

args = argparse.Namespace(lr=0.1)
model = torch.nn.Linear(2, 2)
utils.save_model(model, args, "checkpoint.pth")
finetune = torch.load("checkpoint.pth", map_location="cpu")
resumed = utils.auto_load_model("checkpoint.pth")
'''


def test_one_root_in_another_file_failing_twice_here_is_one_finding_that_names_both(tmp_path: Path) -> None:
    """VideoMAE: the Namespace saved by utils.py fails the load at line 8 and the load inside
    `auto_load_model`, called at line 9: one finding (one root, one fix), at the first, with the
    other failing place and the call here that reaches it related; the text output shows both."""
    root = _project(tmp_path, {"utils.py": CKPT_UTILS, "main.py": CKPT_MAIN})
    main = root / "main.py"
    [finding] = check_source(main.read_text(), str(main)).findings
    assert (finding.code, finding.span.line) == ("DG011", 8)
    assert ("utils.py", 10, True) in [(Path(r.span.file).name, r.span.line, r.fails) for r in finding.related if r.span.file]
    assert any(r.span.line == 9 and not r.span.file and r.message == "fails inside the code this call runs" for r in finding.related)
    text = subprocess.run([sys.executable, "-m", "dtypeguard", "check", "--no-color", "main.py"], cwd=root, capture_output=True, text=True, timeout=60).stdout
    assert "= line 8: fails here" in text and "utils.py:10: fails here" in text and "= line 9: fails inside the code this call runs" in text, text


def test_a_load_without_map_location_in_a_helper_the_script_calls_is_the_helpers_finding(tmp_path: Path) -> None:
    """scan 11 (FastSpeech2): `utils/model.py`'s get_model loads a checkpoint without
    `map_location`; train.py, which picks the CPU where there is no GPU, calls it. The finding
    is the helper's (the fix goes there), shown in that file in a folder check, not in train.py;
    a helper whose load runs at import, or that no script calls, is not reported from here; nor
    a load of a file the helper's own class writes (a dataset's processed cache), nor one whose
    value does not reach a `load_state_dict` (what it holds is not known to be weights)."""
    helper = (
        "import torch\n\n\ndef get_model(path, device):\n    model = torch.nn.Linear(2, 2).to(device)\n"
        "    model.load_state_dict(torch.load(path))\n    return model\n"
    )
    train = "import torch\nfrom utils.model import get_model\n\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nmodel = get_model('ckpt.pt', device)\n"
    root = _project(tmp_path, {"utils/__init__.py": "", "utils/model.py": helper, "train.py": train, "other.py": "import torch\nimport utils.model\n"})
    result = check_source(train, str(root / "train.py"))
    assert result.findings == []
    [theirs] = result.elsewhere
    assert (theirs.code, Path(theirs.span.file).name, theirs.span.line) == ("DG010", "model.py", 6)
    assert "(when train.py runs it)" in theirs.message and not theirs.fixes
    assert check_source((root / "other.py").read_text(), str(root / "other.py")).elsewhere == []
    out = subprocess.run([sys.executable, "-m", "dtypeguard", "check", "--no-cache", "--format", "json", "."], cwd=root, capture_output=True, text=True, timeout=120)
    found = sorted((f["path"], f["line"], f["code"]) for f in json.loads(out.stdout))
    assert found == [(str(Path("utils/model.py")), 6, "DG010")], out.stderr
    # `fix` over the folder edits each file from its own analysis: the helper's finding is listed
    # as left, with the script that finds it, not dropped from the count (scans 15 and 16); with
    # `--diff` on stderr, so that stdout is a patch (scan 31)
    fixed = subprocess.run([sys.executable, "-m", "dtypeguard", "fix", "--diff", "."], cwd=root, capture_output=True, text=True, timeout=120)
    assert f"{Path('utils/model.py')}:6:" in fixed.stderr and "(when train.py runs it)" in fixed.stderr and fixed.stdout == "", fixed.stderr
    assert "1 finding left without a fix." in fixed.stderr and fixed.returncode == 1, fixed.stderr
    cache = (
        "import os\nimport torch\n\n\nclass Points:\n    def __init__(self, path):\n        if not os.path.exists(path):\n"
        "            torch.save(torch.zeros(3), path)\n        self.x = torch.load(path)\n\n\n"
        "def get_table(fname):\n    return torch.load(fname)\n"
    )
    user = "import torch\nfrom cache import Points, get_table\n\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\nx = Points('p.pt').x.to(device)\nt = get_table('t.pt')\n"
    root = _project(tmp_path / "b", {"cache.py": cache, "user.py": user})
    assert check_source(user, str(root / "user.py")).elsewhere == []


WORKER_UTILS = '''\
import numpy as np
import torch


def save_checkpoint(model, ckpt_dir):
    torch.save({"model": model.state_dict()}, ckpt_dir / "main.pt")


def load_checkpoint(model, ckpt_path):
    model.load_state_dict(torch.load(ckpt_path, map_location="cpu")["model"])


def save_worker_state(ckpt_dir, rank):
    torch.save({"rng_np": np.random.get_state()}, ckpt_dir / f"worker_{rank}.pt")


def load_worker_state(ckpt_dir, rank):
    np.random.set_state(torch.load(ckpt_dir / f"worker_{rank}.pt")["rng_np"])


def load_pretrained(model, path):
    model.load_state_dict(torch.load(str(path + "/ckpt.pt"), map_location="cpu")["model"])
'''
WORKER_TRAIN = '''\
from pathlib import Path

import torch
from utils import load_checkpoint, load_pretrained, load_worker_state, save_checkpoint, save_worker_state


def train(model, exp_dir, resume_from, pretrained):
    if pretrained:
        load_pretrained(model, pretrained)
    if resume_from:
        ckpt_dir = Path(resume_from)
        load_checkpoint(model, ckpt_dir / "main.pt")
        load_worker_state(ckpt_dir, 0)
    save_checkpoint(model, exp_dir / "latest")
    save_worker_state(exp_dir / "latest", 0)
'''


def test_a_save_whose_folder_is_unknown_is_matched_to_loads_by_the_name_it_spells(tmp_path: Path) -> None:
    """scan 20 (llm-baselines): the worker file `ckpt_dir / f"worker_{rank}.pt"` (under a folder
    the analysis cannot follow) pickles NumPy's RNG state. The loads of `.../main.pt` and
    `path + "/ckpt.pt"` read other files: only the call that loads a `worker_*.pt` is reported."""
    root = _project(tmp_path, {"utils.py": WORKER_UTILS, "train.py": WORKER_TRAIN})
    assert _check(root / "train.py") == [(13, "DG011")]
    assert _check(root / "utils.py") == [(14, "DG011")]


def test_a_module_found_through_the_scripts_own_sys_path_insert(tmp_path: Path) -> None:
    """PANNs (scan 21): `sys.path.insert(1, os.path.join(sys.path[0], '../utils'))`, then
    `from data_generator import TrainSampler`: the sampler's NumPy state is followed into the
    checkpoint the script saves and loads."""
    root = _project(tmp_path, {
        "utils/data_generator.py": (
            "import numpy as np\n\n\nclass TrainSampler:\n    def __init__(self, n):\n        self.indexes = np.arange(n)\n\n"
            "    def state_dict(self):\n        return {'indexes': self.indexes}\n"
        ),
        "pytorch/main.py": (
            "import os\nimport sys\nsys.path.insert(1, os.path.join(sys.path[0], '../utils'))\nimport torch\n"
            "from data_generator import TrainSampler\n\nsampler = TrainSampler(10)\n"
            "torch.save({'iteration': 0, 'sampler': sampler.state_dict()}, 'checkpoint.pth')\ncheckpoint = torch.load('checkpoint.pth')\n"
        ),
    })
    assert _check(root / "pytorch" / "main.py") == [(8, "DG011")]


def test_a_gpu_count_division_in_an_imported_helper_means_the_run_has_a_gpu(tmp_path: Path) -> None:
    """tabsyn's CoDi sampler (scan 22): `get_dataset` in another file divides by
    `torch.cuda.device_count()`; past that call the run has a GPU, so a load without
    `map_location` after it is not a CPU-only hazard. Before the call it is."""
    root = _project(tmp_path, {
        "dataload.py": "import torch\n\n\ndef get_dataset(batch_size):\n    if batch_size % torch.cuda.device_count() != 0:\n        raise ValueError('batch')\n    return []\n",
        "sample.py": (
            "import torch\nfrom dataload import get_dataset\n\ndevice = torch.device('cuda:0' if torch.cuda.is_available() else 'cpu')\n"
            "early = torch.load('early.pt')\ndata = get_dataset(4096)\nstate = torch.load('model.pt')\n"
        ),
    })
    assert _check(root / "sample.py") == [(5, "DG010")]


GRU_MODELS = '''
import torch
import torch.nn as nn


class ObservationCell(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru_d = nn.Linear(3, 3)

    def forward(self, h, X_obs, i_obs):
        temp = h.clone()
        temp[i_obs] = self.gru_d(X_obs) + h[i_obs]
        return temp


class Jumps(nn.Module):
    def __init__(self):
        super().__init__()
        self.gru_obs = ObservationCell()

    def forward(self, X, obs_idx{extra}):
        h = torch.zeros(5, 3, device=X.device)
        for start in range(0, 3, 2):
            i_obs = obs_idx[start:start + 2]
            h = self.gru_obs(h, X[i_obs], i_obs)
        return h{use}
'''

GRU_TRAIN = """
import numpy as np
import torch
from models import Jumps
device = torch.device("cuda")
model = Jumps().to(device)
X = torch.randn(5, 3).to(device)
obs_idx = torch.tensor(np.array([0, 2, 4]))
h = model(X, obs_idx)
"""


@pytest.mark.parametrize(("extra", "use", "reported"), [("", "", False), ("", "[:3] + obs_idx.float().unsqueeze(1)", True)])
def test_an_index_that_an_imported_forward_hands_to_its_sub_module_meets_any_device(tmp_path: Path, extra: str, use: str, reported: bool) -> None:
    """gru_ode_bayes (scan 32): the training script passes a CPU `obs_idx` to a CUDA model
    whose forward, in another file, slices it and hands the slice to a sub-module that only
    indexes with it; indexing takes a CPU index on any device. Used in arithmetic, it clashes."""
    root = _project(tmp_path, {"models.py": GRU_MODELS.format(extra=extra, use=use), "train.py": GRU_TRAIN})
    codes = [code for _, code in _check(root / "train.py")]
    assert codes == (["DG009"] if reported else [])


AGENT = """
import torch
import torch.nn as nn


class Base:
    def __init__(self, use_cuda=True):
        self.use_cuda = use_cuda and torch.cuda.is_available()


class Agent(Base):
    def __init__(self, use_cuda=True):
        super().__init__(use_cuda)
        self.actor = nn.Linear(4, 2)
        if self.use_cuda:
            self.actor.cuda()

    def action(self, state):
        out = self.actor(torch.tensor([state], device="cuda" if self.use_cuda else "cpu"))
        if self.use_cuda:
            return out.data.cpu().numpy()[0]
        else:
            return out.data.numpy()[0]
"""


def test_super_init_of_a_class_in_an_imported_file_runs(tmp_path: Path) -> None:
    """Scan 33's agents: `super().__init__(use_cuda)` in a class of an imported file sets the
    flag that guards the move; without it the `else:` arm's `.numpy()` looked reachable on a GPU."""
    root = _project(tmp_path, {"agent.py": AGENT, "run.py": "from agent import Agent\nprint(Agent().action([0.1, 0.2, 0.3, 0.4]))\n"})
    assert _check(root / "run.py") == []


def test_a_hard_coded_cuda_in_a_helper_module_is_shown_at_the_forward_it_feeds(tmp_path: Path) -> None:
    """cycleGAN's `utils.cuda(xs)` (scan 36) moves the batch with `.cuda()` while the script keeps
    its network where `--gpu_ids` says: the finding is the script's, at the forward the moved
    input reaches, rooted at the helper's `.cuda()` (no fix here: the edit is in utils.py); and
    utils.py reports it as its own, when main.py runs it."""
    root = _project(tmp_path, {
        "utils.py": "import torch\n\n\ndef cuda(xs):\n    return [x.cuda() for x in xs]\n",
        "main.py": (
            "import torch\nimport utils\n\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\n"
            "net = torch.nn.BatchNorm2d(3).to(device)\na, b = utils.cuda([torch.randn(1, 3, 4, 4), torch.randn(1, 3, 4, 4)])\nnet(a)\n"
        ),
    })
    main = root / "main.py"
    [finding] = check_source(main.read_text(), str(main)).findings
    assert (finding.code, finding.span.line, finding.span.file) == ("DG009", 7, "")
    assert "root in utils.py:5" in finding.message and not finding.fixes
    assert finding.related[0].span.file == str((root / "utils.py").resolve()) and finding.related[0].span.line == 5
    run = subprocess.run([sys.executable, "-m", "dtypeguard", "check", "--no-cache", "--format", "json", str(root)], capture_output=True, text=True, timeout=120)
    shown = {(Path(f["path"]).name, f["line"], f["code"]) for f in json.loads(run.stdout)}
    assert shown == {("main.py", 7, "DG009"), ("utils.py", 5, "DG009")}, run.stdout


def test_a_helper_that_returns_what_it_loads_is_reported_when_the_caller_loads_it_into_a_module(tmp_path: Path) -> None:
    """CSI's `utils.load_checkpoint` (scan 37) returns `torch.load(path)`; the script, which runs on
    the CPU where there is no GPU, puts it into the model. That is the helper's finding (the fix,
    `map_location`, goes there), shown in utils.py; a caller that keeps the value as data does not
    make it one."""
    utils = "import torch\n\n\ndef load_checkpoint(path):\n    return torch.load(path)\n"
    main = (
        "import sys\nimport torch\nimport torch.nn as nn\nimport utils\n\n"
        "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\nmodel = nn.Linear(4, 2).to(device)\n"
        "model.load_state_dict(utils.load_checkpoint(sys.argv[1]))\n"
    )
    data = "import sys\nimport torch\nimport utils\n\ndevice = 'cuda' if torch.cuda.is_available() else 'cpu'\ntable = utils.load_checkpoint(sys.argv[1])\nprint(table)\n"
    root = _project(tmp_path, {"utils.py": utils, "main.py": main, "data.py": data})
    result = check_source(main, str(root / "main.py"))
    assert result.findings == []
    [theirs] = result.elsewhere
    assert (theirs.code, Path(theirs.span.file).name, theirs.span.line) == ("DG010", "utils.py", 5)
    assert "(when main.py runs it)" in theirs.message
    assert check_source(data, str(root / "data.py")).elsewhere == []


def test_a_checkpoint_saved_by_a_helper_of_another_module_is_one_this_run_wrote(tmp_path: Path) -> None:
    """mrdbourke's notebooks (scan 42): `utils.save_model(model, path)` then `torch.load(path)`
    a few cells later reads a file this machine wrote; a load of a file nobody saved still warns."""
    helpers = "import torch\n\ndef save_model(model, path):\n    torch.save(model.state_dict(), path)\n"
    main = (
        "import torch\nimport torch.nn as nn\nimport helpers\n"
        'device = "cuda" if torch.cuda.is_available() else "cpu"\n'
        'model = nn.Linear(2, 2).to(device)\nhelpers.save_model(model, "m.pth")\n'
        'loaded = nn.Linear(2, 2)\nloaded.load_state_dict(torch.load("m.pth"))\n'
        'other = torch.load("pretrained.pth")\n'
    )
    root = _project(tmp_path, {"helpers.py": helpers, "main.py": main})
    assert _check(root / "main.py") == [(9, "DG010")]


def test_a_helpers_load_followed_by_the_scripts_cuda_move_on_every_path_has_no_cpu_run(tmp_path: Path) -> None:
    """CBIM (scan 45): utils.py's resume helper loads without `map_location`; train.py calls it, then moves the
    network with `net.cuda()` on every path (its only availability test is in a pretrained loader reached with
    an option). No CPU-only run gets past `net.cuda()`, so the load is not a CPU hazard. Moved only under an
    option, it is."""
    helper = (
        "import torch\n\n\ndef resume(net, path):\n    net.load_state_dict(torch.load(path))\n\n\n"
        "def load_from(net, path):\n    device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
        "    net.load_state_dict(torch.load(path, map_location=device))\n"
    )
    train = (
        "import argparse\nimport torch\nfrom utils import load_from, resume\n\nparser = argparse.ArgumentParser()\n"
        "parser.add_argument('--pretrain', action='store_true')\nparser.add_argument('--gpu', action='store_true')\n"
        "args = parser.parse_args()\nnet = torch.nn.Linear(2, 2)\nif args.pretrain:\n    load_from(net, 'pre.pt')\n"
        "resume(net, 'latest.pt')\n{move}\n"
    )
    root = _project(tmp_path, {"utils.py": helper, "train.py": train.format(move="net.cuda()")})
    assert check_source((root / "train.py").read_text(), str(root / "train.py")).elsewhere == []
    (root / "train.py").write_text(train.format(move="if args.gpu:\n    net.cuda()"))
    [theirs] = check_source((root / "train.py").read_text(), str(root / "train.py")).elsewhere
    assert (theirs.code, Path(theirs.span.file).name, theirs.span.line) == ("DG010", "utils.py", 5)
