"""Issue 13, fixes that make the script run: safe fixes for hazards whose script fails as written
(a GradScaler over float16 parameters, a late `set_default_dtype` whose model then meets the
new dtype), `fused=True` for float16 Adam, and fixes that reach every use of a bad value (an
autocast result converted where it is made, a NumPy buffer made float32, a config's
`capturable`). Each fixed script runs here."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import torch

from dtypeguard.analysis import check_source
from dtypeguard.fixes.api import fix_all
from dtypeguard.rules.master_weights import KIND


def _run(text: str) -> dict[str, object]:
    """Run a fixed script here, leaving torch's global defaults as they were."""
    dtype = torch.get_default_dtype()
    scope: dict[str, object] = {"__name__": "__main__"}
    try:
        exec(compile(text, "<fixed>", "exec"), scope)
    finally:
        torch.set_default_dtype(dtype)
    return scope


def _fixes(src: str, code: str) -> list[tuple[str, bool]]:
    finding = next(f for f in check_source(src).findings if f.code == code)
    return [(x.kind, x.safe) for x in finding.fixes]


HALF_SCALER = '''\
import torch
from torch import nn

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
model.half()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu"{enabled})
x = torch.randn(32, 8)
for step in range(2):
    opt.zero_grad()
    out = model(x.half())
    loss = out.float().pow(2).mean()
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
'''


def test_master_weights_are_safe_when_a_gradscaler_steps_the_float16_model() -> None:
    """As written the first `scaler.step` raises "Attempting to unscale FP16 gradients": the
    master-weights fix cannot stop a run that worked, so `fix` applies it without --unsafe."""
    src = HALF_SCALER.format(enabled="")
    assert _fixes(src, "DG014") == [(KIND, True)]
    finding = next(f for f in check_source(src).findings if f.code == "DG014")
    assert "GradScaler needs float32 parameters" in finding.fixes[0].title and "twice the parameter memory" in finding.fixes[0].title
    result = fix_all(src)
    assert "model.half()" not in result.text and 'with torch.autocast(device_type="cpu", dtype=torch.float16):' in result.text
    assert not [f for f in result.remaining if f.code == "DG014"]
    assert fix_all(result.text).text == result.text
    scope = _run(result.text)
    assert all(p.dtype == torch.float32 and bool(torch.isfinite(p).all()) for p in scope["model"].parameters())  # type: ignore[attr-defined]


def test_master_weights_stay_unsafe_when_the_gradscaler_may_be_disabled() -> None:
    """`GradScaler(enabled=use_amp)`: a disabled scaler steps float16 gradients, the script may
    run as written. A float16 switch (`enabled=args.fp16`) is on whenever the model is float16."""
    maybe_off = HALF_SCALER.format(enabled=", enabled=use_amp").replace("import torch\n", "import torch\nuse_amp = False\n", 1)
    assert _fixes(maybe_off, "DG014") == [(KIND, False)]
    assert fix_all(maybe_off).text == maybe_off
    switch = HALF_SCALER.format(enabled=', enabled=precision == "fp16"').replace("import torch\n", 'import torch\nprecision = "fp16"\n', 1)
    assert _fixes(switch, "DG014") == [(KIND, True)]
    negated = HALF_SCALER.format(enabled=', enabled=precision != "fp16"').replace("import torch\n", 'import torch\nprecision = "fp16"\n', 1)
    assert _fixes(negated, "DG014") == [(KIND, False)]


def test_a_float16_part_under_a_gradscaler_is_made_float32_safely() -> None:
    src = (
        "import torch\nfrom torch import nn\n"
        "class Head(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(4, 8)\n"
        "        self.weight = nn.Parameter(torch.HalfTensor(3, 8).normal_())\n"
        "    def forward(self, x):\n        return self.fc(x) @ self.weight.float().t()\n"
        "model = Head()\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\nscaler = torch.amp.GradScaler('cpu')\n"
        "loss = model(torch.randn(2, 4)).pow(2).mean()\nscaler.scale(loss).backward()\nscaler.step(opt)\nscaler.update()\n"
    )
    assert _fixes(src, "DG014") == [(KIND, True)]
    fixed = fix_all(src).text
    assert "torch.FloatTensor(3, 8)" in fixed, fixed
    _run(fixed)


WRAPPED_HALF = """\
import torch
from torch import nn

class System(nn.Module):
    def __init__(self):
        super().__init__()
        self.model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    def training_step(self, x):
        return self.model(x).float().pow(2).mean()

system = System()
system.to(dtype=torch.half)
opt = torch.optim.SGD(system.parameters(), lr=0.1)
scaler = torch.amp.GradScaler("cpu")
for step in range(2):
    opt.zero_grad()
    with torch.autocast("cpu", dtype=torch.float16{enabled}):
        loss = system.training_step(torch.randn(4, 8))
    scaler.scale(loss).backward()
    scaler.step(opt)
    scaler.update()
"""


def test_master_weights_of_a_wrapper_whose_parts_already_run_under_autocast() -> None:
    """parseq (set 55): the optimizer steps a float16 wrapper whose own forward never runs; its
    part runs under autocast already, so removing the cast is the whole (safe) fix. Where a part
    runs outside autocast, nothing says float32 there is what the script expects: no fix."""
    src = WRAPPED_HALF.format(enabled="")
    assert _fixes(src, "DG014") == [(KIND, True)]
    result = fix_all(src)
    assert "system.to(dtype=torch.half)" not in result.text and result.text.count("torch.autocast") == 1
    assert not [f for f in result.remaining if f.code == "DG014"]
    scope = _run(result.text)
    assert all(p.dtype == torch.float32 and bool(torch.isfinite(p).all()) for p in scope["system"].parameters())  # type: ignore[attr-defined]
    outside = src.replace('    with torch.autocast("cpu", dtype=torch.float16):\n        loss', "    loss").replace("self.model(x)", "self.model(x.half())")
    assert "autocast" not in outside
    assert _fixes(outside, "DG014") == []

ADAM_HALF = '''\
import torch
from torch import nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2)).half()
opt = torch.optim.{cls}(model.parameters(), lr=1e-3{extra})
x = torch.randn(64, 8).half()
loss = model(x).float().pow(2).mean()
loss.backward()
opt.step()
'''


def test_float16_adam_gets_fused_as_the_safe_fix() -> None:
    """eps=1e-8 is 0 in float16: the default step divides by it (NaN). `fused=True` computes the
    same update in float32 and keeps the float16 storage: safe, and the step is finite."""
    src = ADAM_HALF.format(cls="Adam", extra="")
    assert ("set_kwarg", True) in _fixes(src, "DG012")
    fixed = fix_all(src).text
    assert "torch.optim.Adam(model.parameters(), lr=1e-3, fused=True)" in fixed, fixed
    assert fix_all(fixed).text == fixed
    scope = _run(fixed)
    assert all(bool(torch.isfinite(p).all()) for p in scope["model"].parameters())  # type: ignore[attr-defined]


def test_fused_is_not_offered_where_it_does_not_exist_nor_safe_behind_kwargs() -> None:
    nadam = ADAM_HALF.format(cls="NAdam", extra="")
    assert ("set_kwarg", True) not in _fixes(nadam, "DG012")
    finding = next(f for f in check_source(nadam).findings if f.code == "DG012")
    assert not [x for x in finding.fixes if x.param("name") == "fused"]  # NAdam has no `fused=`
    splat = ADAM_HALF.format(cls="Adam", extra=", **opts").replace("torch.manual_seed(0)\n", "torch.manual_seed(0)\nopts = {}\n")
    assert all(not safe for _, safe in _fixes(splat, "DG012"))
    explicit = ADAM_HALF.format(cls="Adam", extra=", fused=False")
    assert all(not safe for _, safe in _fixes(explicit, "DG012"))


def test_capturable_in_a_config_dict_is_turned_off_for_cpu_parameters() -> None:
    src = (
        "import torch\nfrom torch import nn\n"
        'cfg = {"name": "Adam", "kwargs": {"lr": 1e-2, "capturable": True}}\n'
        "model = nn.Linear(4, 1)\n"
        'opt = getattr(torch.optim, cfg["name"])(model.parameters(), **cfg["kwargs"])\n'
        "model(torch.randn(2, 4)).sum().backward()\nopt.step()\n"
    )
    fixed = fix_all(src).text
    assert '"capturable": False}' in fixed, fixed
    assert not [f for f in check_source(fixed).findings if f.code == "DG016"]
    _run(fixed)


def test_map_location_does_not_name_a_device_bound_after_the_load_runs() -> None:
    """tests/realworld15 r19 (Deforum): `device = ...` comes after the call that loads; naming
    it in `map_location=` was a NameError."""
    body = "import torch\ndef load(path):\n    return torch.load(path)\n"
    late = body + "state = load('sd-v1-4.ckpt')\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
    assert "    return torch.load(path, map_location='cpu')\n" in fix_all(late).text
    early = body.replace("def load", "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\ndef load") + "state = load('sd-v1-4.ckpt')\n"
    assert "    return torch.load(path, map_location=device)\n" in fix_all(early).text
    at_top = "import torch\nstate = torch.load('a.pt')\ndevice = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
    assert "state = torch.load('a.pt', map_location='cpu')\n" in fix_all(at_top).text


def test_an_autocast_result_used_outside_is_converted_where_it_is_made() -> None:
    src = (
        "import torch\nfrom torch import nn\n"
        "model = nn.Linear(8, 4)\nproj = torch.rand(4, 2)\n"
        "with torch.autocast('cpu', dtype=torch.bfloat16):\n    raw = model(torch.randn(3, 8))\n"
        "boxes = raw @ proj\n"
    )
    fixed = fix_all(src).text
    assert "    raw = model(torch.randn(3, 8)).float()\n" in fixed, fixed
    assert fix_all(fixed).text == fixed
    _run(fixed)


def test_an_autocast_activation_read_by_two_layers_is_converted_where_it_is_made() -> None:
    """DG017: converting at one use left the other (`projector(h2)`) failing."""
    src = (
        "import torch\nfrom torch import nn\n"
        "backbone = nn.Linear(8, 8)\nprojector = nn.Linear(8, 4)\n"
        "def encode(x):\n    with torch.autocast('cpu', dtype=torch.bfloat16):\n        feats = backbone(x)\n    return feats\n"
        "h1 = encode(torch.randn(2, 8))\nh2 = encode(torch.randn(2, 8))\n"
        "loss = (projector(h1) - projector(h2)).pow(2).mean()\nloss.backward()\n"
    )
    fixed = fix_all(src).text
    assert "        feats = backbone(x).float()\n" in fixed, fixed
    _run(fixed)


def test_an_autocast_call_that_returns_a_tuple_is_converted_at_its_use() -> None:
    """`feat, logits = student(x)` under autocast: `.float()` on the call would be on a tuple;
    the activation is converted where the float32 layer reads it."""
    src = (
        "import torch\nfrom torch import nn\n"
        "class Student(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.fc = nn.Linear(8, 8)\n"
        "    def forward(self, x):\n        f = self.fc(x)\n        return f, f.sum(-1)\n"
        "student = Student()\nalign = nn.Linear(8, 4)\n"
        "with torch.autocast('cpu', dtype=torch.bfloat16):\n    feat, logits = student(torch.randn(2, 8))\n"
        "out = align(feat)\n"
    )
    fixed = fix_all(src).text
    assert "    feat, logits = student(torch.randn(2, 8))\n" in fixed and "out = align(feat.float())\n" in fixed, fixed
    _run(fixed)


def test_a_float64_numpy_buffer_beside_float32_ones_is_made_float32() -> None:
    """DG008: the tensor read from the buffer is sliced into two targets that are combined; the
    buffer's `dtype=` is the one place that fixes both (and `np` is the file's name for numpy)."""
    src = (
        "import numpy as onp\nimport torch\nfrom torch import nn\n"
        "buf_state = onp.zeros((16, 4), dtype=onp.float32)\nbuf_other = onp.zeros((16, 2))\n"
        "buf_other[:] = onp.random.rand(16, 2)\n"
        "def sample():\n    other = torch.as_tensor(buf_other)\n    return other[:, 0:1], other[:, 1:2], torch.as_tensor(buf_state)\n"
        "critic = nn.Linear(4, 1)\nopt = torch.optim.SGD(critic.parameters(), lr=0.1)\n"
        "reward, mask, state = sample()\nq = critic(state)\ntarget = reward + mask * q.detach()\n"
        "loss = nn.MSELoss()(q, target) + nn.MSELoss()(q * 2, target)\nloss.backward()\nopt.step()\n"
    )
    result = fix_all(src)
    assert "buf_other = onp.zeros((16, 2), dtype=onp.float32)\n" in result.text, result.text
    assert not [f for f in result.remaining if f.code == "DG008"]
    _run(result.text)


def test_a_tensor_type_looked_up_in_a_table_is_replaced() -> None:
    src = (
        "import torch\nTYPES = {'cpu': 'torch.FloatTensor', 'cuda': 'torch.cuda.FloatTensor'}\n"
        "def setup():\n    device = 'cuda' if torch.cuda.is_available() else 'cpu'\n    torch.set_default_tensor_type(TYPES[device])\n"
        "setup()\nx = torch.zeros(2)\n"
    )
    fixed = fix_all(src).text
    assert "    torch.set_default_dtype(torch.empty(0).type(TYPES[device]).dtype)\n" in fixed, fixed
    assert not [f for f in check_source(fixed).findings if f.code == "DG002"]
    _run(fixed)


def test_a_late_default_dtype_whose_model_then_fails_gets_the_setup_block_safely() -> None:
    """The model built before `set_default_dtype(torch.float64)` is called with a float64 tensor
    made after it: that forward raises as written, so the setup block (the dtype the script
    chose, from the start) is safe; a script whose model never meets the new dtype keeps it unsafe."""
    src = (
        "import torch\nimport torch.nn as nn\n"
        "rnn = nn.GRU(4, 4)\n"
        "def setup_common():\n    torch.set_default_dtype(torch.float64)\n    torch.manual_seed(0)\n"
        "setup_common()\n"
        "out, h = rnn(torch.zeros(3, 1, 4), torch.zeros(1, 1, 4))\n"
    )
    assert _fixes(src, "DG001") == [("insert_setup_block", True)]
    fixed = fix_all(src).text
    assert fixed != src and "torch.set_default_dtype(torch.float64)\n" in fixed.split("rnn = ")[0], fixed
    _run(fixed)
    quiet = src.replace("torch.zeros(3, 1, 4), torch.zeros(1, 1, 4)", "torch.zeros(3, 1, 4, dtype=torch.float32)")
    assert _fixes(quiet, "DG001") == [("insert_setup_block", False)]


def test_a_late_default_dtype_whose_tensors_then_meet_an_old_buffer_in_a_matmul_is_safe() -> None:
    """tests/realworld20 w01: a mel filterbank buffer made before the late float64 default meets,
    in `torch.matmul`, a signal made after it; matmuls do not promote, so it raises as written
    and the setup block is safe. The fixed script runs."""
    src = (
        "import torch\nimport torch.nn as nn\n"
        "class Mel(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.register_buffer('fb', torch.rand(5, 3))\n"
        "    def forward(self, power):\n        return torch.matmul(power, self.fb)\n"
        "mel = Mel()\n"
        "def exact():\n    torch.set_default_dtype(torch.float64)\n"
        "exact()\n"
        "t = torch.arange(20) / 4\n"
        "OUT = mel(torch.sin(t).reshape(4, 5))\n"
    )
    assert _fixes(src, "DG001") == [("insert_setup_block", True)]
    fixed = fix_all(src).text
    assert "torch.set_default_dtype(torch.float64)\n" in fixed.split("class Mel")[0], fixed
    assert _run(fixed)["OUT"].dtype == torch.float64  # type: ignore[attr-defined]


CHECKPOINT_WITH = '''\
import {imp}
import os
import tempfile
from dataclasses import dataclass

import torch
from torch import nn


@dataclass
class Cfg:
    hidden: int = 8
    {extra}

def save(path):
    model = nn.Linear(4, 2)
    args = {namespace}(lr=1e-3, name="run")
    torch.save({{"args": args, "cfg": Cfg(), "model": model.state_dict()}}, path)


def load(path):
    # restore the run
    ckpt = torch.load(path)
    return ckpt["args"].lr, ckpt["cfg"].hidden


path = os.path.join(tempfile.mkdtemp(), "ckpt.pt")
save(path)
LOADED = load(path)
'''


def test_namespaces_and_plain_config_objects_are_allowlisted_and_load_with_weights_only() -> None:
    """DG011's safe fix allowlists exactly the refused classes (argparse's Namespace as the file
    names it, the file's own plain class) once at the top of the file, after the imports and the
    class (the allowlist is process-wide; scan 8's Deformable-DETR had it put inside one of two
    branches that load): the fixed script loads, still with weights_only=True, and the load is
    untouched. (The script runs in its own process: pickle finds `Cfg` in its `__main__`.)"""
    for imp, namespace, allowed in (("argparse", "argparse.Namespace", "argparse.Namespace"), ("argparse as ap", "ap.Namespace", "ap.Namespace")):
        src = CHECKPOINT_WITH.format(imp=imp, namespace=namespace, extra="")
        assert _fixes(src, "DG011") == [("allow_globals", True), ("add_kwarg", False)]
        result = fix_all(src)
        assert f"\n\n\ntorch.serialization.add_safe_globals([{allowed}, Cfg])\n\n\ndef save(path):\n" in result.text
        assert "    # restore the run\n    ckpt = torch.load(path)\n" in result.text
        assert "weights_only" not in result.text and not [f for f in result.remaining if f.code == "DG011"]
        ran = subprocess.run([sys.executable, "-c", result.text + "print(LOADED)\n"], capture_output=True, text=True, timeout=120)
        assert ran.returncode == 0 and ran.stdout.strip() == "(0.001, 8)", ran.stderr[-2000:]
        assert fix_all(result.text).text == result.text


def test_an_allowlist_in_one_branch_leaves_the_other_load_reported_and_the_fix_covers_both() -> None:
    """A registration written in the `--frozen_weights` branch does not cover the `--resume`
    load (DG011 stays, at the checkpoint entry); the fix's top-level allowlist covers both."""
    src = (
        "import argparse\nimport torch\nimport torch.nn as nn\n\n\n"
        "def main(args):\n    model = nn.Linear(2, 2)\n"
        "    if args.frozen_weights is not None:\n        torch.serialization.add_safe_globals([argparse.Namespace])\n"
        "        model.load_state_dict(torch.load(args.frozen_weights, map_location='cpu')['model'])\n"
        "    if args.resume:\n        model.load_state_dict(torch.load(args.resume, map_location='cpu')['model'])\n"
        "    torch.save({'model': model.state_dict(), 'args': args}, 'checkpoint.pth')\n\n\n"
        "parser = argparse.ArgumentParser()\nparser.add_argument('--frozen_weights', default=None)\nparser.add_argument('--resume', default='')\n"
        "main(parser.parse_args())\n"
    )
    assert [(f.code, f.span.line) for f in check_source(src).findings] == [("DG011", 13)]
    fixed = fix_all(src)
    assert fixed.text.startswith("import argparse\nimport torch\nimport torch.nn as nn\n\ntorch.serialization.add_safe_globals([argparse.Namespace])\n\n\ndef main(args):")
    assert not [f for f in fixed.remaining if f.code == "DG011"]


def test_an_argparse_imported_only_under_the_main_guard_is_imported_by_the_allowlist_fix(tmp_path: Path) -> None:
    """tracking_wo_bnw (scan 39) imports argparse only under `if __name__ == "__main__":`, which
    runs after the top of the file: an allowlist at the top naming `argparse.Namespace` raised
    NameError at import. The fix imports argparse itself there; the fixed script saves, then
    loads its own checkpoint again on a second run."""
    ckpt = tmp_path / "ck.pth"
    src = (
        "import os\nimport torch\n\n\ndef main(args):\n    if os.path.exists(args.resume):\n"
        "        checkpoint = torch.load(args.resume, map_location='cpu')\n"
        "    torch.save({'w': torch.zeros(2), 'args': args}, args.resume)\n\n\n"
        "if __name__ == '__main__':\n    import argparse\n    parser = argparse.ArgumentParser()\n"
        f"    parser.add_argument('--resume', default={str(ckpt)!r})\n    main(parser.parse_args())\n"
    )
    fixed = fix_all(src)
    assert "import torch\n\nimport argparse\ntorch.serialization.add_safe_globals([argparse.Namespace])\n\n\ndef main(args):" in fixed.text, fixed.text
    assert not [f for f in fixed.remaining if f.code == "DG011"]
    for _ in range(2):  # the second run loads what the first saved
        ran = subprocess.run([sys.executable, "-c", fixed.text], capture_output=True, text=True, timeout=120)
        assert ran.returncode == 0, ran.stderr[-2000:]
    assert fix_all(fixed.text).text == fixed.text


def test_objects_with_their_own_pickling_get_no_allowlist_fix() -> None:
    src = CHECKPOINT_WITH.format(imp="argparse", namespace="argparse.Namespace", extra="def __reduce__(self):\n        return (Cfg, ())\n")
    assert _fixes(src, "DG011") == [("add_kwarg", False)]
    assert "add_safe_globals" not in fix_all(src).text


WRAPPER_FITTED_LATER = """import torch


class Wrapper:
    def __init__(self, n):
        self.n = n

    def fit(self):
        self.model = torch.nn.Linear(self.n, 2)

    def savemodel(self, path):
        torch.save(self, path)

    @classmethod
    def loadmodel(cls, path):
        return torch.load(path, map_location="cpu")
"""


def test_a_class_whose_methods_add_attributes_later_gets_no_allowlist_fix() -> None:
    """Scan 35 (GRU4Rec's `savemodel`): the object is saved from a method, and `fit()` adds a torch
    module to it, so the pickle holds `Linear` too. Allowing `Wrapper` alone did not load it and
    hid the finding; only the unsafe `weights_only=False` is offered. The driver below shows that
    the class-only allowlist really fails (so the test would catch its return)."""
    assert _fixes(WRAPPER_FITTED_LATER, "DG011") == [("add_kwarg", False)]
    assert "add_safe_globals" not in fix_all(WRAPPER_FITTED_LATER).text
    driver = (
        WRAPPER_FITTED_LATER
        + "import os, tempfile\nw = Wrapper(4)\nw.fit()\np = os.path.join(tempfile.mkdtemp(), 'w.pt')\nw.savemodel(p)\n"
        + "torch.serialization.add_safe_globals([Wrapper])\nWrapper.loadmodel(p)\n"
    )
    ran = subprocess.run([sys.executable, "-c", driver], capture_output=True, text=True, timeout=120)
    assert ran.returncode != 0 and "Weights only load failed" in ran.stderr
    unsafe = fix_all(WRAPPER_FITTED_LATER, unsafe=True).text
    assert 'torch.load(path, map_location="cpu", weights_only=False)' in unsafe


HALF_ATTENTION = '''\
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim=8):
        super().__init__()
        self.qk = nn.Linear(dim, 2 * dim)

    def forward(self, x, pad):
        q, k = self.qk(x).chunk(2, dim=-1)
        scores = q @ k.transpose(1, 2)
        scores = scores.masked_fill(pad[:, None, :], -1e9)
        return scores.softmax(-1)


model = Attention().half()
x = torch.randn(2, 5, 8).half()
pad = torch.zeros(2, 5, dtype=torch.bool)
pad[:, -1] = True
OUT = model(x, pad)
'''


def test_an_overflowing_mask_value_becomes_the_dtypes_own_minimum() -> None:
    """DG018's safe fix: `-1e9` (beyond float16's range: the forward raises) becomes
    `torch.finfo(scores.dtype).min`; the fixed forward runs and the padded key gets no weight."""
    assert _fixes(HALF_ATTENTION, "DG018") == [("replace_expression", True)]
    result = fix_all(HALF_ATTENTION)
    assert "scores.masked_fill(pad[:, None, :], torch.finfo(scores.dtype).min)" in result.text
    out = _run(result.text)["OUT"]
    assert isinstance(out, torch.Tensor) and out.dtype == torch.float16 and float(out[..., -1].abs().max()) == 0.0
    assert fix_all(result.text).text == result.text


FLOAT_IDS = '''\
import torch

lookup = torch.randn(4, 4)


def collate(samples):
    return torch.Tensor([s["class_id"] for s in samples])


ids = collate([{"class_id": 1}, {"class_id": 3}])
PICKED = lookup[ids[:, None], ids[None, :]]
'''


def test_float_class_ids_from_the_legacy_constructor_become_long_where_made() -> None:
    """DG005 on a float index: `torch.Tensor(list)` is float32; `.long()` where it is made, and the lookup runs."""
    assert _fixes(FLOAT_IDS, "DG005") == [("append_call", True)]
    result = fix_all(FLOAT_IDS)
    assert 'torch.Tensor([s["class_id"] for s in samples]).long()' in result.text
    picked = _run(result.text)["PICKED"]
    assert isinstance(picked, torch.Tensor) and tuple(picked.shape) == (2, 2)


NUMPY_METRIC = '''\
import os
import tempfile

import numpy as np
import torch
from torch import nn


def evaluate(scores):
    return np.mean(scores), np.argmax(scores), {unknown}


path = os.path.join(tempfile.mkdtemp(), "best.pt")
model = nn.Linear(4, 2)
acc, best_epoch, cmc = evaluate(np.array([0.5, 0.75, 0.25]))
rank1 = cmc[0]
state = {{"model": model.state_dict(), "acc": acc, "rank1": rank1}}
state["epoch"] = best_epoch
torch.save(state, path)
ckpt = torch.load(path)
LOADED = (ckpt["acc"], ckpt["epoch"], ckpt["rank1"])
'''


def test_numpy_numbers_in_a_checkpoint_become_python_numbers_where_they_are_put_in() -> None:
    """DG011's safe fix at the root: the NumPy number an entry holds is saved as the Python number
    it stands for (`float(...)` of a float64 mean, `int(...)` of an argmax, `np.asarray(...).item()`
    where the dtype is not known), in a dict display and in `state["epoch"] = ...`; the fixed script
    loads with weights_only=True and reads the same numbers."""
    src = NUMPY_METRIC.format(unknown="np.cumsum(np.load(os.environ['CMC']))")
    assert _fixes(src, "DG011")[0] == ("plain_number", True)
    result = fix_all(src)
    assert '"acc": float(acc), "rank1": np.asarray(rank1).item()}' in result.text and 'state["epoch"] = int(best_epoch)' in result.text, result.text
    assert not [f for f in result.remaining if f.code == "DG011"]
    runnable = result.text.replace("np.cumsum(np.load(os.environ['CMC']))", "np.cumsum(np.array([0.5, 0.25]))")
    ran = subprocess.run([sys.executable, "-c", runnable + "print(LOADED)\n"], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and ran.stdout.strip() == "(0.5, 1, 0.5)", ran.stderr[-2000:]
    assert fix_all(result.text).text == result.text


BEST_OF_A_FLOAT_AND_A_METRIC = '''\
import os
import sys
import tempfile

import numpy as np
import torch
from torch import nn


def validate(scores):
    return np.mean(np.asarray(scores, dtype=os.environ.get("DTYPE", "float64")))


path = os.path.join(tempfile.mkdtemp(), "best.pt")
model = nn.Linear(4, 2)
best_pred = 0.0
if "--val" in sys.argv:
    best_pred = max(best_pred, validate([0.5, 0.75]))
torch.save({"state_dict": model.state_dict(), "best_pred": best_pred}, path)
ckpt = torch.load(path)
print(ckpt["best_pred"])
'''


def test_a_best_value_that_is_a_python_float_or_a_numpy_metric_is_saved_as_a_number_on_both_paths() -> None:
    """Scan 14 (pytorch-deeplab-xception): `best_pred` is 0.0 without validation and a NumPy
    metric with it; `.item()` would fail on the float, `np.asarray(...).item()` saves the Python
    number on both paths and the weights-only load reads it."""
    result = fix_all(BEST_OF_A_FLOAT_AND_A_METRIC)
    assert '"best_pred": np.asarray(best_pred).item()}' in result.text, result.text
    for args in ([], ["--val"]):
        ran = subprocess.run([sys.executable, "-c", result.text, *args], capture_output=True, text=True, timeout=120)
        assert ran.returncode == 0 and ran.stdout.strip() in ("0.0", "0.625"), ran.stderr[-2000:]
    before = subprocess.run([sys.executable, "-c", BEST_OF_A_FLOAT_AND_A_METRIC, "--val"], capture_output=True, text=True, timeout=120)
    assert before.returncode != 0 and "Weights only load failed" in before.stderr


HALF_MODEL_NORMALISED_INPUT = '''\
import numpy as np
import torch
from torch import nn

model = nn.Conv2d(3, 4, 3).half().eval()
mean = torch.tensor([0.485, 0.456, 0.406]).view(1, 3, 1, 1)
frames = np.random.default_rng(0).integers(0, 256, size=(2, 8, 8, 3), dtype=np.uint8)
x = torch.from_numpy(frames).permute(0, 3, 1, 2).float() / 255.0
with torch.no_grad():
    OUT = model(x - mean)
'''


def test_an_input_widened_again_on_its_way_is_converted_where_it_is_used() -> None:
    """tests/realworld22 y22: converting after the `.float()` cast would be undone by the float32
    mean it is normalised with, so that fix fails its check and the conversion at the forward's
    argument is used instead; the fixed script runs its half model."""
    result = fix_all(HALF_MODEL_NORMALISED_INPUT)
    assert "    OUT = model((x - mean).half())\n" in result.text, result.text
    assert not [f for f in result.remaining if f.code == "DG004"]
    assert _run(result.text)["OUT"].dtype == torch.float16  # type: ignore[attr-defined]


FACTORY_FLAGS = '''\
import torch
from torch import nn


def build_optimizer(params, lr=1e-3, **kwargs):
    return torch.optim.AdamW(params, lr=lr, **kwargs)


model = nn.Linear(4, 2)
opt = build_optimizer(model.parameters(), lr=0.1, fused=True, foreach=True)
model(torch.zeros(3, 4)).sum().backward()
opt.step()
STEPPED = True
'''


def test_flags_passed_through_a_factorys_kwargs_are_fixed_where_the_caller_wrote_them() -> None:
    """DG016 is rooted at the caller's keyword (the factory forwards `**kwargs`), and its fix
    drops `foreach=True` there: the factory stays as it is and the fixed script steps."""
    finding = next(f for f in check_source(FACTORY_FLAGS).findings if f.code == "DG016")
    assert finding.span.line == 10
    result = fix_all(FACTORY_FLAGS)
    assert "opt = build_optimizer(model.parameters(), lr=0.1, fused=True)\n" in result.text, result.text
    assert "return torch.optim.AdamW(params, lr=lr, **kwargs)\n" in result.text
    assert _run(result.text)["STEPPED"] is True


LOCAL_DEVICE = '''\
import torch
from torch import nn


class Predictor:
    def __init__(self, model):
        self.model = model

    def score(self, x):
        return self.model(x)


def main():
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    model = nn.Linear(4, 2).to(device)
    return Predictor(model).score(torch.zeros(3, 4))


OUT = main()
'''


def test_a_device_move_is_not_written_where_the_device_name_is_not_visible() -> None:
    """tests/realworld23 z14: the input left on the CPU is in a method, the `device` variable is
    `main()`'s local: `x.to(device)` there would raise NameError, so no fix is written (the
    original runs on CPU; the fixed copy must too)."""
    result = fix_all(LOCAL_DEVICE)
    assert ".to(device))" not in result.text.split("def main")[0], result.text
    assert _run(result.text)["OUT"].shape == (3, 2)  # type: ignore[attr-defined]


CONFIG_FOREACH = '''\
from types import SimpleNamespace

import torch
from torch import nn


def build(model, cfg):
    kwargs = {"lr": 0.1}
    if cfg.fused is not None:
        kwargs["fused"] = cfg.fused
    if cfg.foreach is not None:
        kwargs["foreach"] = cfg.foreach
    return torch.optim.AdamW(model.parameters(), **kwargs)


model = nn.Linear(4, 2)
opt = build(model, SimpleNamespace(fused=True, foreach=True))
model(torch.zeros(3, 4)).sum().backward()
opt.step()
STEPPED = True
'''

DIFFERENTIABLE_FOREACH = '''\
from types import SimpleNamespace

import torch
from torch import nn

cfg = {"differentiable": True, "foreach": True}
model = nn.Linear(4, 2)
params = [p.clone() for p in model.parameters()]  # fast weights: a differentiable inner loop
for p in params:
    p.retain_grad()
opt = torch.optim.Adam(params, lr=0.1, differentiable=cfg["differentiable"], foreach=cfg["foreach"])
(torch.zeros(3, 4) @ params[0].T + params[1]).pow(2).sum().backward(retain_graph=True)
opt.step()
STEPPED = True
'''


def test_foreach_from_a_config_is_turned_off_where_it_is_written() -> None:
    """tests/realworld24 o15, realworld26 b22: `foreach` comes from a config value, so there is no
    `foreach=True` to drop; its value becomes `False` where it is written (the options dict's entry,
    the optimizer's keyword). `foreach` chooses how the update is computed, not what: safe."""
    for src, line in ((CONFIG_FOREACH, '        kwargs["foreach"] = False\n'), (DIFFERENTIABLE_FOREACH, "foreach=False)\n")):
        with pytest.raises((RuntimeError, AssertionError)):
            _run(src)
        result = fix_all(src)
        assert line in result.text, result.text
        assert not [f for f in result.remaining if f.code == "DG016"]
        assert _run(result.text)["STEPPED"] is True


FLOAT_QUADRUPLES = '''\
import numpy as np
import torch
from torch import nn

quads = torch.from_numpy(np.array([[1, 2, 3, 24.0], [0, 1, 2, 48.0]]))
ent, rel = nn.Parameter(torch.randn(5, 4)), nn.Parameter(torch.randn(3, 4))
s, r, o = quads[:, 0], quads[:, 1], quads[:, 2]
s_emb = ent[s]
r_emb = rel[r]
OUT = s_emb + r_emb
'''


def test_each_float_index_taken_from_one_array_is_converted() -> None:
    """tests/realworld21 x06: `s` and `r` are both float64 columns used as indices; converting `s`
    uncovers the same hazard in `r` on the same line, which is the next round's to fix, not a
    clash that undoes the first fix."""
    with pytest.raises(IndexError):
        _run(FLOAT_QUADRUPLES)
    result = fix_all(FLOAT_QUADRUPLES)
    assert "s, r, o = quads[:, 0].long(), quads[:, 1].long(), quads[:, 2]\n" in result.text, result.text
    assert _run(result.text)["OUT"].shape == (2, 4)  # type: ignore[attr-defined]


CACHED_UNDER_AUTOCAST = '''\
import torch
import torch.nn.functional as F
from torch import nn


class Matcher(nn.Module):
    def __init__(self):
        super().__init__()
        self.text_proj = nn.Linear(8, 4)
        self.cached = None

    def encode_text(self, tokens):
        return F.normalize(self.text_proj(tokens), dim=-1)

    def cache(self, tokens):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            self.cached = self.encode_text(tokens)


m = Matcher()
m.cache(torch.rand(3, 8))
OUT = torch.rand(2, 4) @ m.cached.t()
'''


def test_an_autocast_result_passed_on_as_an_argument_is_converted_there() -> None:
    """tests/realworld26 b14: the bfloat16 projection made under autocast is normalised and
    cached, then meets float32 outside; `.float()` goes on the projection, inside the call that
    normalises it (an argument is one tensor a method can be appended to)."""
    with pytest.raises(RuntimeError):
        _run(CACHED_UNDER_AUTOCAST)
    result = fix_all(CACHED_UNDER_AUTOCAST)
    assert "return F.normalize(self.text_proj(tokens).float(), dim=-1)\n" in result.text, result.text
    assert _run(result.text)["OUT"].dtype == torch.float32  # type: ignore[attr-defined]


REFUSED_OPERANDS = {
    # bert4torch's CRF (set 51): a long attention mask given to masked_select
    "a long mask": ("scores = torch.randn(2, 3)\nmask = torch.ones(2, 3, dtype=torch.long)\nkept = scores.masked_select(mask)\n", "mask.bool()", True),
    # mvpose (set 51): argmax of a bool row
    "a bool row": ("row = torch.tensor([0.1, 0.9, 0.4]) > 0.5\npid = row.argmax()\n", "row.int().argmax()", True),
    # accuracies kept as int64 counts, averaged
    "int64 counts": ("hits = torch.tensor([3, 4, 5])\navg = hits.mean()\n", "hits.float().mean()", True),
    # LIME's perturbation of token ids (set 51)
    "ids perturbed": ("ids = torch.tensor([[1, 2, 3]])\nnoisy = ids + torch.randn_like(ids)\n", "torch.randn_like(ids.float())", True),
    # a Transformer padding mask of ints: 1 may mark the tokens to keep, so `.bool()` is unsafe
    "an int padding mask": (
        "layer = torch.nn.TransformerEncoderLayer(4, 1, 8, batch_first=True)\npad = torch.zeros(1, 3, dtype=torch.long)\n"
        "out = layer(torch.randn(1, 3, 4), src_key_padding_mask=pad)\n", "src_key_padding_mask=pad.bool()", False,
    ),
}


@pytest.mark.parametrize("name", list(REFUSED_OPERANDS))
def test_an_operand_torch_refuses_is_converted_where_it_is_given(name: str) -> None:
    """Each script raises as written; the conversion at the refused operand makes it run. Safe
    where the values keep their meaning (a 0/1 mask, counts, the first True); a padding mask
    only with --unsafe."""
    body, edited, safe = REFUSED_OPERANDS[name]
    src = "import torch\n" + body
    with pytest.raises((RuntimeError, AssertionError)):
        _run(src)
    safe_only = fix_all(src).text
    assert (edited in safe_only) if safe else safe_only == src
    fixed = fix_all(src, unsafe=True)
    assert edited in fixed.text and not fixed.remaining
    _run(fixed.text)


SET_FLOAT64_STORAGE = """import numpy as np
import torch
import torch.nn as nn

lin = nn.Linear(4, 4)
sigma = np.sqrt(6.0 / 8)
m = np.random.rand(4, 4).astype("float32") * 2 * sigma - sigma
with torch.no_grad():
    lin.weight.set_(torch.tensor(m))
print(lin.weight.dtype)
"""


def test_a_parameter_given_float64_storage_gets_it_converted_where_it_is_handed_over() -> None:
    """GRU4Rec (scan 35): NumPy 2 makes `float32 array * np.float64` float64, and `Parameter.set_`
    refuses it. The safe fix converts the new storage to the parameter's dtype at the call; the
    fixed script runs and keeps a float32 weight (the original raises)."""
    original = subprocess.run([sys.executable, "-c", SET_FLOAT64_STORAGE], capture_output=True, text=True, timeout=120)
    assert original.returncode != 0 and "Could not set tensor of type double to a tensor of type float" in original.stderr
    result = fix_all(SET_FLOAT64_STORAGE)
    assert "    lin.weight.set_(torch.tensor(m).float())\n" in result.text
    assert not result.remaining
    ran = subprocess.run([sys.executable, "-c", result.text], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and ran.stdout.strip() == "torch.float32", ran.stderr[-2000:]
    assert fix_all(result.text).text == result.text


INT_FILL_PARAMETER = """import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self, n, initial_log_std=0):
        super().__init__()
        self.fc = nn.Linear(4, n)
        self.log_std = nn.Parameter(torch.full((n,), fill_value=initial_log_std))
        self.mask = nn.Parameter(torch.ones(n).byte())


print(Policy(2).log_std.dtype)
"""


def test_an_integer_parameter_from_an_int_fill_is_made_float_and_a_cast_mask_is_left_to_the_user() -> None:
    """skrl's `torch.full(..., fill_value=initial_log_std)` with an int default (set 70): torch
    inferred int64 from the fill, so `.float()` is the safe fix and the script then makes its
    parameter; NeuralBabyTalk's `.byte()` mask made a Parameter gets `.float()` only as unsafe
    (it may want `requires_grad=False` or a buffer)."""
    fixes = {(f.span.line, f.code): [(x.safe, x.title.split(":")[0]) for x in f.fixes] for f in check_source(INT_FILL_PARAMETER).findings}
    assert fixes == {
        (9, "DG005"): [(True, "Make the parameter floating point")],
        (10, "DG005"): [(False, "Make the parameter floating point")],
    }
    result = fix_all(INT_FILL_PARAMETER)
    assert "torch.full((n,), fill_value=initial_log_std).float())" in result.text and "torch.ones(n).byte())\n" in result.text
    unsafe = fix_all(INT_FILL_PARAMETER, unsafe=True)
    ran = subprocess.run([sys.executable, "-c", unsafe.text], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and ran.stdout.strip() == "torch.float32", ran.stderr[-2000:]


CUDA_IN_THE_CPU_BRANCH = """import torch

model = torch.nn.Linear(4, 2)
if torch.cuda.is_available():
    model.cuda()
for batch in [(torch.randn(3, 4), torch.zeros(3))]:
    if torch.cuda.is_available():
        batch = [x.cuda() for x in batch]
    else:
        batch = [x.cuda() for x in batch]
    x, y = batch
    print(tuple(model(x).shape))
"""


def test_a_cuda_call_in_the_branch_without_a_gpu_is_dropped_and_the_script_runs_on_the_cpu() -> None:
    """CharCNN's evaluate (scan 36): both branches of `torch.cuda.is_available()` move the batch
    with `.cuda()`. The safe fix drops the call in the `else` only; this machine has no GPU, so
    the original raises and the fixed copy runs."""
    original = subprocess.run([sys.executable, "-c", CUDA_IN_THE_CPU_BRANCH], capture_output=True, text=True, timeout=120)
    assert original.returncode != 0 and "Torch not compiled with CUDA enabled" in original.stderr
    result = fix_all(CUDA_IN_THE_CPU_BRANCH)
    assert "    if torch.cuda.is_available():\n        batch = [x.cuda() for x in batch]\n    else:\n        batch = [x for x in batch]\n" in result.text
    assert not result.remaining
    ran = subprocess.run([sys.executable, "-c", result.text], capture_output=True, text=True, timeout=120)
    assert ran.returncode == 0 and ran.stdout.strip() == "(3, 2)", ran.stderr[-2000:]


def test_a_file_python_reads_but_libcst_does_not_says_so_and_is_left_as_it_is() -> None:
    """Scan 37 (fine_tune_wm811.py): one block indented with spaces inside tab-indented code.
    Python accepts it, libcst's tokenizer does not; the fix is not applied, and the reason says
    what happened instead of "the file does not parse"."""
    text = 'import argparse\nimport torch\n\n\ndef main():\n\targs = argparse.ArgumentParser().parse_args()\n\tif args:\n            args.n = 9\n\tckpt = torch.load("c.pth")\n\ttorch.save({"opt": args}, "c.pth")\n'
    compile(text, "tabs.py", "exec")  # (Python reads it)
    result = fix_all(text, unsafe=True)
    assert result.text == text
    reasons = {why for _, why in result.not_applied}
    assert reasons and all("libcst cannot read this file's layout" in why for why in reasons), reasons


def test_a_numpy_number_passed_as_a_keyword_into_a_saved_kwargs_dict_is_made_a_python_number(tmp_path: Path) -> None:
    """simple-faster-rcnn (scan 38): `trainer.save(best_map=best_map)` stores `**kwargs` in the
    checkpoint, and the NumPy float64 mean refuses a weights-only load. The safe fix converts the
    keyword's value where it is passed (it had been announced, then refused as "no checkpoint
    entry"); the fixed script saves and loads."""
    src = (
        "import numpy as np\nimport torch\n\n\ndef save(**kwargs):\n    torch.save({'other_info': kwargs}, 'ckpt')\n    return 'ckpt'\n\n\n"
        "best_map = np.nanmean(np.array([0.5, 0.7]))\npath = save(best_map=best_map)\nstate = torch.load(path)\nprint(state['other_info']['best_map'])\n"
    )
    result = fix_all(src)
    assert "path = save(best_map=float(best_map))\n" in result.text and not result.remaining
    ran = subprocess.run([sys.executable, "-c", result.text], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert ran.returncode == 0 and ran.stdout.strip() == "0.6", ran.stderr[-2000:]
    before = subprocess.run([sys.executable, "-c", src], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert before.returncode != 0 and "Weights only load failed" in before.stderr


RECAST_INPUT = '''\
import numpy as np
import torch
from torch import nn

clips = torch.tensor(np.zeros((4, 8), dtype=np.float32))
model = nn.Linear(8, 2)
OUT = model(clips.double())
'''


def test_an_input_cast_to_the_wrong_dtype_at_the_call_gets_the_right_cast() -> None:
    """EfficientNet-3D (set 94): `model(images.double())` of float32 images; the cast is what makes
    the wrong dtype, so the fix changes the cast (`.double()` -> `.float()`), not the images where
    they were made (converting them there would be undone by the cast)."""
    result = fix_all(RECAST_INPUT)
    assert "OUT = model(clips.float())\n" in result.text, result.text
    assert not result.remaining
    assert _run(result.text)["OUT"].dtype == torch.float32  # type: ignore[attr-defined]
