"""The low-precision training fix (DG012/DG013/DG014, unsafe): the whole-model cast goes, the
forward and the loss run under `torch.autocast`, written with the file's name for torch; and
the fixed scripts really train: one step is finite and moves more than 90% of the parameter
elements, which stay float32."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from dtypeguard.analysis import check_source
from dtypeguard.fixes.api import fix_all
from dtypeguard.rules.master_weights import KIND

RUNNER = Path(__file__).with_name("run_until_step.py")

ALIAS_BF16 = '''\
import torch as T
from torch import nn

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2))
model = model.to(T.bfloat16)
opt = T.optim.AdamW(model.parameters(), lr=1e-3)
x = T.randn(32, 8, dtype=T.bfloat16)
y = T.randint(0, 2, (32,))
for step in range(3):
    opt.zero_grad()
    out = model(x)
    loss = nn.functional.cross_entropy(out, y)
    loss.backward()
    opt.step()
'''

HALF_STATEMENT_FP16 = '''\
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
net.half()
optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
x = torch.randn(32, 8).half()
y = torch.randn(32, 1).half()


def train_step():
    optimizer.zero_grad()
    pred = net(x)
    loss = F.mse_loss(pred, y)
    loss.backward()
    optimizer.step()
    return loss


train_step()
'''

DEVICE_AND_DTYPE = '''\
import torch
from torch import nn

device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
unet = nn.Linear(4, 4)
unet.to(device, dtype=torch.float16)
optimizer = torch.optim.AdamW(unet.parameters(), lr=1e-4, eps=1e-4)
scaler = torch.amp.GradScaler(device.type)
x = torch.randn(2, 4, device=device, dtype=torch.float16)
pred = unet(x)
loss = pred.float().pow(2).mean()
scaler.scale(loss).backward()
scaler.step(optimizer)
scaler.update()
'''


def fixed(src: str) -> str:
    result = fix_all(src, unsafe=True)
    assert not [f for f in result.remaining if f.code in ("DG012", "DG013", "DG014")], result.remaining
    return result.text


def test_alias_of_torch_is_reused_and_the_loss_is_inside() -> None:
    new = fixed(ALIAS_BF16)
    assert "model = model.to(T.bfloat16)\n" not in new
    assert (
        "    with T.autocast(device_type=\"cpu\", dtype=T.bfloat16):\n"
        "        out = model(x)\n"
        "        loss = nn.functional.cross_entropy(out, y)\n"
        "    loss.backward()\n"
    ) in new
    assert "torch." not in new


def test_half_statement_is_removed_and_fp16_forward_is_wrapped_in_a_function() -> None:
    new = fixed(HALF_STATEMENT_FP16)
    assert "net.half()" not in new and "net = nn.Sequential(" in new
    assert (
        "    optimizer.zero_grad()\n"
        "    with torch.autocast(device_type=\"cpu\", dtype=torch.float16):\n"
        "        pred = net(x)\n"
        "        loss = F.mse_loss(pred, y)\n"
        "    loss.backward()\n"
    ) in new


def test_device_move_is_kept_when_the_dtype_goes() -> None:
    new = fixed(DEVICE_AND_DTYPE)
    assert "unet.to(device)\n" in new
    assert 'with torch.autocast(device_type="cuda" if torch.cuda.is_available() else "cpu", dtype=torch.float16):\n    pred = unet(x)\n' in new
    assert fix_all(new, unsafe=True).text == new  # idempotent


def test_the_fix_is_unsafe_and_says_what_changes() -> None:
    finding = next(f for f in check_source(HALF_STATEMENT_FP16).findings if f.code == "DG012")
    spec = finding.fixes[0]
    assert spec.kind == KIND and not spec.safe
    assert "float32" in spec.title and "checkpoints" in spec.title and "GradScaler" in spec.title
    safe = fix_all(HALF_STATEMENT_FP16).text  # not applied without --unsafe-fixes (only the safe `fused=True` is)
    assert "net.half()" in safe and "autocast" not in safe and "lr=1e-3, fused=True)" in safe


def test_no_fix_when_the_model_is_never_called_in_the_file() -> None:
    src = "import torch\nfrom torch import nn\nmodel = nn.Linear(4, 1).half()\nopt = torch.optim.Adam(model.parameters(), lr=1e-3)\n"
    finding = next(f for f in check_source(src).findings if f.code == "DG012")
    assert KIND not in [x.kind for x in finding.fixes]


def test_the_fixed_scripts_train(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    paths = []
    for name, src in (("alias_bf16.py", ALIAS_BF16), ("half_fp16.py", HALF_STATEMENT_FP16), ("device_dtype.py", DEVICE_AND_DTYPE)):
        path = tmp_path / name
        path.write_text(fixed(src), encoding="utf-8")
        paths.append(str(path))
    proc = subprocess.run([sys.executable, str(RUNNER), *paths], capture_output=True, text=True, timeout=240, cwd=tmp_path)
    records = {Path(r["path"]).name: r for r in map(json.loads, (line for line in proc.stdout.splitlines() if line.startswith("{")))}
    for name in ("alias_bf16.py", "half_fp16.py"):
        record = records[name]
        assert record["status"] == "stepped", record
        assert record["params_finite"] and record["loss_finite"], record
        assert record["param_dtypes"] == ["float32"] and record["changed_share"] > 0.9, record
    # GradScaler may skip its first step(s) (inf gradients at scale 65536): what matters is no error
    assert records["device_dtype.py"]["status"] in ("stepped", "no_step"), records["device_dtype.py"]
