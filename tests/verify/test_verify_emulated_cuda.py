"""Emulated CUDA (verify/emulated_cuda.py): real scripts in real subprocesses with real torch.

`--device cuda-emulated` forces the emulation, so these tests mean the same on a machine with a
GPU; one CLI test checks that plain `--device cuda` falls back to it when no GPU is usable.
Each hazard test pins the error type, torch's wording and the script line, and the matching
fixed script must run to its step: an emulation that raised everywhere (or nowhere) fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from dtypeguard.verify.runner import run_verify  # noqa: E402
from dtypeguard.verify.warm import WarmWorker  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
SAME_DEVICE = "Expected all tensors to be on the same device"


@pytest.fixture(scope="module")
def worker() -> Iterator[WarmWorker]:
    w = WarmWorker(device="cuda-emulated")
    w.start()
    yield w
    w.close()


def _run(tmp_path: Path, worker: WarmWorker, source: str) -> dict[str, object]:
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(source).lstrip())
    result = run_verify(str(script), device="cuda-emulated", timeout=60, worker=worker)
    return result.to_json()


def _line_of(source: str, marker: str = "# fails-here") -> int:
    for number, line in enumerate(textwrap.dedent(source).lstrip().splitlines(), 1):
        if marker in line:
            return number
    raise AssertionError(marker)


MODEL = """
import torch, torch.nn as nn
dev = torch.device("cuda" if torch.cuda.is_available() else "cpu")
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)   # built before the move, as many scripts do
model.cuda()
"""


def test_ok_run_is_marked_emulated_and_steps_on_cuda(tmp_path: Path, worker: WarmWorker) -> None:
    out = _run(tmp_path, worker, MODEL + """
x = torch.randn(16, 4).to(dev)
y = torch.randint(0, 2, (16,), device="cuda:0")
assert x.device == torch.device("cuda:0") and x.is_cuda and str(x.device) == "cuda:0"
assert (x * torch.tensor(2.0)).device.type == "cuda"   # a CPU 0-dim tensor is a scalar
loss = nn.functional.cross_entropy(model(x), y)
loss.backward()
assert model[0].weight.grad.device.type == "cuda"
opt.step()
""")
    assert out["status"] == "ok", out
    assert out["emulated"] is True and out["not_checked"]
    step = out["step"]
    assert isinstance(step, dict)
    assert step["param_devices"] == {"cuda:0": 4}
    assert step["params_changed"] == 4  # the optimizer's parameters are the moved ones


def test_cross_device_forward_raises_torchs_error_at_the_line(tmp_path: Path, worker: WarmWorker) -> None:
    source = MODEL + """
x = torch.randn(16, 4)
loss = model(x).sum()   # fails-here
loss.backward(); opt.step()
"""
    out = _run(tmp_path, worker, source)
    assert out["status"] == "error" and out["error_type"] == "RuntimeError"
    assert str(out["message"]).startswith(SAME_DEVICE + ", but got mat1 is on cpu")
    assert out["line"] == _line_of(source)
    fixed = _run(tmp_path, worker, source.replace("x = torch.randn(16, 4)", "x = torch.randn(16, 4).to(dev)"))
    assert fixed["status"] == "ok", fixed


def test_loss_and_inplace_update_check_devices(tmp_path: Path, worker: WarmWorker) -> None:
    source = MODEL + """
x = torch.randn(16, 4, device=dev)
target = torch.randn(16, 2)
loss = ((model(x) - target) ** 2).mean()   # fails-here
"""
    out = _run(tmp_path, worker, source)
    assert out["status"] == "error"
    assert out["message"] == SAME_DEVICE + ", but found at least two devices, cuda:0 and cpu!"
    assert out["line"] == _line_of(source)
    inplace = MODEL + """
w = model[0].weight
with torch.no_grad():
    w.add_(torch.ones(8, 4))   # fails-here
"""
    out = _run(tmp_path, worker, inplace)
    assert out["status"] == "error" and out["line"] == _line_of(inplace)
    assert str(out["message"]).startswith(SAME_DEVICE)


def test_what_an_h200_showed_stack_conv3d_and_causal_masks(tmp_path: Path, worker: WarmWorker) -> None:
    """Outcomes seen on a real GPU (H200, torch 2.11): a CPU 0-dim tensor passes in `a * b` but
    not in `torch.stack` (CUDA's stack is a cat); a CPU input to a CUDA Conv3d is a
    NotImplementedError; a causal CPU mask given to a Transformer stack is dropped and runs,
    while the same mask given to one layer fails."""
    stack = """
import torch
a = torch.tensor(1.0, device="cuda")
b = torch.tensor(0.0)
c = a * b + b
s = torch.stack([a, b])   # fails-here
"""
    out = _run(tmp_path, worker, stack)
    assert out["status"] == "error" and out["line"] == _line_of(stack), out
    assert out["message"] == (SAME_DEVICE + ", but got tensors is on cpu, different from other tensors on cuda:0 "
                              "(when checking argument in method wrapper_CUDA_cat)")
    conv3d = """
import torch, torch.nn as nn
conv = nn.Conv3d(1, 2, 3).cuda()
y = conv(torch.randn(1, 1, 4, 4, 4))   # fails-here
"""
    out = _run(tmp_path, worker, conv3d)
    assert out["status"] == "error" and out["error_type"] == "NotImplementedError" and out["line"] == _line_of(conv3d), out
    assert str(out["message"]).startswith("Could not run 'aten::slow_conv3d_forward' with arguments from the 'CUDA' backend")
    masks = """
import torch, torch.nn as nn
q = torch.randn(5, 2, 8, device="cuda")
mask = torch.triu(torch.full((5, 5), float("-inf")), diagonal=1)
stack = nn.TransformerDecoder(nn.TransformerDecoderLayer(8, 2, 16), 1).cuda()
out = stack(q, q, tgt_mask=mask)
layer = nn.TransformerDecoderLayer(8, 2, 16).cuda()
out = layer(q, q, tgt_mask=mask)   # fails-here
"""
    out = _run(tmp_path, worker, masks)
    assert out["status"] == "error" and out["line"] == _line_of(masks), out
    assert str(out["message"]).startswith(SAME_DEVICE)


def test_module_moves_back_to_the_cpu_while_an_error_is_handled(tmp_path: Path, worker: WarmWorker) -> None:
    """Lightning's teardown calls `.cpu()` while the traceback still holds the parameters: a GPU
    run moves them (it never swaps), so the script's own error is the one reported."""
    source = MODEL + """
try:
    model(torch.randn(3, 4))   # fails-here
except RuntimeError:
    model.cpu()
    raise
"""
    out = _run(tmp_path, worker, source)
    assert out["status"] == "error" and out["line"] == _line_of(source), out
    assert str(out["message"]).startswith(SAME_DEVICE)


def test_numpy_of_a_cuda_tensor(tmp_path: Path, worker: WarmWorker) -> None:
    for call in ("t.numpy()", "np.asarray(t)"):
        source = f"""
import numpy as np, torch
t = torch.ones(3).cuda()
a = {call}   # fails-here
"""
        out = _run(tmp_path, worker, source)
        assert out["status"] == "error" and out["error_type"] == "TypeError", out
        assert out["message"] == ("can't convert cuda:0 device type tensor to numpy. Use "
                                  "Tensor.cpu() to copy the tensor to host memory first.")
        assert out["line"] == _line_of(source)


def test_rnn_hidden_state_on_the_cpu(tmp_path: Path, worker: WarmWorker) -> None:
    source = """
import torch, torch.nn as nn
rnn = nn.GRU(4, 8).to("cuda")
x = torch.randn(5, 3, 4, device="cuda")
h = torch.zeros(1, 3, 8)
out, h = rnn(x, h)   # fails-here
"""
    out = _run(tmp_path, worker, source)
    assert out["status"] == "error"
    assert out["message"] == ("Input and hidden tensors are not at the same device, found input "
                              "tensor at cuda:0 and hidden tensor at cpu")
    assert out["line"] == _line_of(source)


def test_packed_sequences_keep_their_lengths_on_the_cpu(tmp_path: Path, worker: WarmWorker) -> None:
    """CUDA packing reads `lengths`/`batch_sizes` on the host: a CUDA input with CPU lengths is
    how it must be called (a deepparse-style encoder), not a device mismatch."""
    out = _run(tmp_path, worker, """
import torch, torch.nn as nn
lstm = nn.LSTM(4, 8, batch_first=True).to("cuda")
x = torch.randn(3, 5, 4, device="cuda")
packed = nn.utils.rnn.pack_padded_sequence(x, [5, 3, 4], batch_first=True, enforce_sorted=False)
assert packed.data.is_cuda and packed.batch_sizes.device.type == "cpu"
out, (h, c) = lstm(packed)
padded, lengths = nn.utils.rnn.pad_packed_sequence(out, batch_first=True)
assert padded.is_cuda and lengths.device.type == "cpu" and h.is_cuda
opt = torch.optim.SGD(lstm.parameters(), lr=0.1)
padded.sum().backward()
opt.step()
""")
    assert out["status"] == "ok", out
    step = out["step"]
    assert isinstance(step, dict) and step["params_changed"] == 4  # gradients flow through the padding
    assert "cuDNN" not in str(out.get("stderr_tail", ""))  # a GPU run does not warn about it


def test_module_to_with_a_device_keyword(tmp_path: Path, worker: WarmWorker) -> None:
    """`model.to(device=device)` moves the parameters like `model.to(device)` (MobileSAM's
    `mobile_sam.to(device=device)`): the keyword must not be read as a CPU allocation."""
    source = """
import torch, torch.nn as nn
model = nn.Conv2d(3, 4, 3)
model.to(device="cuda", dtype=torch.float64)
assert model.weight.is_cuda and model.weight.dtype == torch.float64
x = torch.rand(1, 3, 8, 8, device="cuda", dtype=torch.float64)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model(x).sum().backward()
opt.step()
"""
    out = _run(tmp_path, worker, source)
    assert out["status"] == "ok", out


def test_default_device_cuda_breaks_shuffled_dataloader(tmp_path: Path, worker: WarmWorker) -> None:
    source = """
import torch
from torch.utils.data import DataLoader, TensorDataset
torch.set_default_device("cuda")
data = TensorDataset(torch.randn(8, 2), torch.randn(8, 1))
for xb, yb in DataLoader(data, batch_size=4, shuffle=True):   # fails-here
    pass
"""
    out = _run(tmp_path, worker, source)
    assert out["status"] == "error"
    assert out["message"] == "Expected a 'cuda' device type for generator but found 'cpu'"
    assert out["line"] == _line_of(source)
    fixed = source.replace("shuffle=True)", "shuffle=True, generator=torch.Generator(device='cuda'))")
    fixed += "model = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    fixed += "model(xb).sum().backward(); opt.step()\n"
    out = _run(tmp_path, worker, fixed)
    assert out["status"] == "ok", out


def test_torch_cuda_looks_like_one_gpu_and_amp_steps(tmp_path: Path, worker: WarmWorker) -> None:
    out = _run(tmp_path, worker, """
import torch, torch.nn as nn
assert torch.cuda.is_available() and torch.cuda.device_count() == 1
assert torch.cuda.current_device() == 0 and "Emulated" in torch.cuda.get_device_name(0)
assert torch.cuda.get_device_capability() == (8, 0)
torch.manual_seed(0); torch.cuda.manual_seed_all(0); torch.cuda.synchronize(); torch.cuda.empty_cache()
assert torch.cuda.memory_allocated() >= 0
torch.backends.cudnn.benchmark = True
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    pass
model = nn.Linear(4, 2).to(torch.device("cuda:0"))
opt = torch.optim.Adam(model.parameters())
scaler = torch.amp.GradScaler("cuda")
x = (0.1 * torch.randn(8, 4)).to(next(model.parameters()))  # .to(other_tensor)
with torch.amp.autocast("cuda"):
    y = model(x)
assert y.dtype == torch.float16 and y.device.type == "cuda"
scaler.scale(1e-3 * y.float().pow(2).mean()).backward()
scaler.step(opt)
scaler.update()
""")
    assert out["status"] == "ok", out
    step = out["step"]
    assert isinstance(step, dict) and step["param_devices"] == {"cuda:0": 2}


def test_compile_for_cuda_is_reported_as_not_emulated(tmp_path: Path, worker: WarmWorker) -> None:
    source = """
import torch, torch.nn as nn
model = torch.compile(nn.Linear(4, 2).cuda())
y = model(torch.randn(3, 4, device="cuda"))   # fails-here
"""
    out = _run(tmp_path, worker, source)
    assert out["status"] == "cannot-emulate", out
    assert str(out["message"]).startswith("cannot emulate torch.compile for CUDA")
    assert out["line"] == _line_of(source)


def test_checkpoint_saved_from_cuda_loads_on_the_emulated_gpu(tmp_path: Path, worker: WarmWorker) -> None:
    out = _run(tmp_path, worker, """
import torch, torch.nn as nn
model = nn.Linear(4, 2).cuda()
torch.save(model.state_dict(), "ckpt.pt")
state = torch.load("ckpt.pt")
assert state["weight"].device.type == "cuda", state["weight"].device
cpu_state = torch.load("ckpt.pt", map_location="cpu")
assert cpu_state["weight"].device.type == "cpu"
model.load_state_dict(state)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
model(torch.randn(3, 4).cuda()).sum().backward(); opt.step()
""")
    assert out["status"] == "ok", out


def test_cli_device_cuda_falls_back_to_emulation_without_a_gpu(tmp_path: Path) -> None:
    if torch.cuda.is_available():
        pytest.skip("a real GPU is used for --device cuda here")
    script = tmp_path / "s.py"
    script.write_text("import torch\nt = torch.ones(2, device='cuda')\nt.numpy()\n")
    env = dict(os.environ, PYTHONPATH=str(ROOT / "server"))
    proc = subprocess.run(
        [sys.executable, "-m", "dtypeguard", "verify", "--device", "cuda", "--format", "json", str(script)],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    )
    out = json.loads(proc.stdout)
    assert out["emulated"] is True and out["device"] == "cuda"
    assert out["status"] == "error" and out["error_type"] == "TypeError" and out["line"] == 3
    text = subprocess.run(
        [sys.executable, "-m", "dtypeguard", "verify", "--device", "cuda", str(script)],
        capture_output=True, text=True, env=env, timeout=120, check=False,
    ).stdout
    assert "emulated CUDA (values computed on CPU)" in text


def test_legacy_cuda_tensor_types_make_cuda_tensors(tmp_path: Path, worker: WarmWorker) -> None:
    """PyTorch-GAN's `Tensor = torch.cuda.FloatTensor if cuda else torch.FloatTensor`: on a GPU the
    legacy CUDA types make CUDA tensors of their dtype (set 35's correct ad_c03 runs so); a CPU
    model meeting one fails as on a GPU."""
    source = MODEL + """
Tensor = torch.cuda.FloatTensor if torch.cuda.is_available() else torch.FloatTensor
valid = Tensor(16, 1).fill_(1.0)
labels = torch.cuda.LongTensor([0, 1])
assert valid.is_cuda and valid.dtype == torch.float32 and tuple(valid.shape) == (16, 1)
assert labels.is_cuda and labels.dtype == torch.int64 and labels.tolist() == [0, 1]
assert isinstance(valid, torch.cuda.FloatTensor) and not isinstance(valid, torch.cuda.LongTensor)
assert not isinstance(torch.zeros(1), torch.cuda.FloatTensor)
x = Tensor(16, 4).normal_()
"""
    steps = source + """
loss = nn.functional.mse_loss(model(x), valid.expand(16, 2))
loss.backward()
opt.step()
"""
    out = _run(tmp_path, worker, steps)
    assert out["status"] == "ok", out
    fails = source + """
cpu_model = nn.Linear(4, 1)
cpu_model(x)   # fails-here
"""
    out = _run(tmp_path, worker, fails)
    assert out["status"] == "error" and SAME_DEVICE in str(out["message"]), out
    assert out["line"] == _line_of(fails)


def test_data_parallel_scatters_and_gathers_on_the_emulated_device(tmp_path: Path, worker: WarmWorker) -> None:
    """`nn.DataParallel(model).cuda()` (set 40's pytorch-pose): its scatter and gather are CUDA
    copies a CPU build lacks (`torch._C._scatter`); a GPU run moves the CPU batch to cuda:0, runs
    the module there and steps. A target left on the CPU still meets the output on the GPU."""
    source = """
import torch, torch.nn as nn
model = nn.DataParallel(nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))).cuda()
opt = torch.optim.SGD(model.parameters(), lr=0.1)
out = model(torch.randn(16, 4))
assert out.device == torch.device("cuda:0")
target = torch.randn(16, 2)
loss = nn.functional.mse_loss(out, target)   # fails-here
loss.backward()
opt.step()
"""
    out = _run(tmp_path, worker, source)
    assert out["status"] == "error" and out["line"] == _line_of(source), out
    assert SAME_DEVICE in str(out["message"]), out
    fixed = _run(tmp_path, worker, source.replace("target = torch.randn(16, 2)", "target = torch.randn(16, 2).cuda()"))
    assert fixed["status"] == "ok", fixed
    step = fixed["step"]
    assert isinstance(step, dict) and step["param_devices"] == {"cuda:0": 4} and step["params_changed"] == 4, step
