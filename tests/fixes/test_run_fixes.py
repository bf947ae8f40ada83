"""Fixes that make scripts run (issue 13): each test names the real-world script it was
written from, and the fixed text is checked (and run where it needs no GPU)."""

from __future__ import annotations

import torch

from dtypeguard.analysis import check_source
from dtypeguard.fixes import fix_all


def _run(text: str) -> None:
    """Run a fixed script here, leaving torch's global defaults as they were."""
    dtype = torch.get_default_dtype()
    try:
        exec(compile(text, "<fixed>", "exec"), {"__name__": "__main__"})
    finally:
        torch.set_default_dtype(dtype)

TWO_MODELS = (
    "import torch\nimport torch.nn as nn\n\n"
    "class Calc:\n"
    "    def __init__(self, dtype):\n"
    "        torch.set_default_dtype(dtype)\n"
    "        self.model = nn.Linear(3, 1)\n\n"
    "    def run(self, rows):\n"
    "        x = torch.tensor(rows)\n"
    "        return self.model(x)\n\n"
    "c32 = Calc(torch.float32)\n"
    "c64 = Calc(torch.float64)\n"
    "c64.run([[1.0, 2.0, 3.0]])\n"
    "c32.run([[1.0, 2.0, 3.0]])\n"
)


def test_an_input_for_models_of_two_dtypes_follows_the_model() -> None:
    """tests/realworld a12 (MACE calculators): the same line feeds a float32 and a float64
    model; `dtype=torch.float32` would break the float64 one, so the input takes the dtype of
    the model the line calls."""
    finding = next(f for f in check_source(TWO_MODELS).findings if f.code == "DG004")
    assert dict(finding.fixes[0].params)["value"] == "next(self.model.parameters()).dtype"
    fixed = fix_all(TWO_MODELS).text
    assert "x = torch.tensor(rows, dtype=next(self.model.parameters()).dtype)\n" in fixed, fixed
    _run(fixed)


def test_an_input_for_one_model_dtype_keeps_the_plain_conversion() -> None:
    one = TWO_MODELS.replace("c64 = Calc(torch.float64)\nc64.run([[1.0, 2.0, 3.0]])\n", "torch.set_default_dtype(torch.float64)\n")
    finding = next(f for f in check_source(one).findings if f.code == "DG004")
    assert dict(finding.fixes[0].params)["value"] == "torch.float32"


RUNTIME_TYPE = (
    "import torch\n"
    "from torch.utils.data import DataLoader\n\n"
    "def set_precision(data_type):\n"
    "    if torch.cuda.is_available():\n"
    "        tensor_type = {'float32': 'torch.cuda.FloatTensor', 'float64': 'torch.cuda.DoubleTensor'}[data_type]\n"
    "    else:\n"
    "        tensor_type = {'float32': 'torch.FloatTensor', 'float64': 'torch.DoubleTensor'}[data_type]\n"
    "    torch.set_default_tensor_type(tensor_type)  # keep me\n\n"
    "set_precision('float64')\n"
    "x = torch.ones(2)\n"
    "loader = DataLoader(list(range(4)), batch_size=2, shuffle=True)\n"
    "RESULT.append((x.dtype, x.device.type, [b.tolist() for b in loader] and 'iterated'))\n"
)


def test_a_tensor_type_chosen_at_run_time_gets_the_drop_in_pair() -> None:
    """tests/realworld7 h17 (torchquad) and realworld6 h16 (Llama.build): the legacy type is a
    variable (a name or a CUDA/CPU type picked by `is_available()`), so no dtype can be named;
    the fix reads dtype and device from the type itself and keeps what the script did."""
    finding = next(f for f in check_source(RUNTIME_TYPE).findings if f.code == "DG002")
    assert [(f.kind, f.safe) for f in finding.fixes] == [("replace_tensor_type_call", True)]
    fixed = fix_all(RUNTIME_TYPE).text
    assert (
        "    torch.set_default_dtype(torch.empty(0).type(tensor_type).dtype)  # keep me\n"
        "    torch.set_default_device(\"cuda\" if torch.empty(0).type(tensor_type).is_cuda else None)\n"
    ) in fixed, fixed
    assert "set_default_tensor_type" not in fixed
    assert not check_source(fixed).findings
    results: list[object] = []
    dtype = torch.get_default_dtype()
    try:
        exec(compile(fixed, "<fixed>", "exec"), {"RESULT": results})
    finally:
        torch.set_default_dtype(dtype)
        torch.set_default_device(None)
    assert results == [(torch.float64, "cuda" if torch.cuda.is_available() else "cpu", "iterated")]


def test_a_run_time_tensor_type_is_unsafe_with_legacy_constructors_and_not_offered_for_a_call() -> None:
    legacy = RUNTIME_TYPE.replace("x = torch.ones(2)\n", "x = torch.Tensor([1.0, 2.0])\n")
    finding = next(f for f in check_source(legacy).findings if f.code == "DG002")
    assert [(f.kind, f.safe) for f in finding.fixes] == [("replace_tensor_type_call", False)]
    called = RUNTIME_TYPE.replace("torch.set_default_tensor_type(tensor_type)", "torch.set_default_tensor_type(pick(tensor_type))")
    finding = next(f for f in check_source(called).findings if f.code == "DG002")
    assert not finding.fixes


CAPTURABLE = (
    "import torch\nimport torch.nn as nn\n"
    "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
    "model = nn.Sequential(nn.Linear(4, 4), nn.Linear(4, 1)).to(device)\n"
    "groups = [{'params': model[0].parameters(), 'capturable': True}, {'params': model[1].parameters()}]\n"
    "opt = torch.optim.Adam(groups, lr=1e-3)\n"
    "model(torch.randn(2, 4, device=device)).sum().backward()\n"
    "opt.step()\n"
)


def test_capturable_in_a_parameter_group_follows_cuda() -> None:
    """tests/realworld7 h29: a group dict sets `"capturable": True` for a model that falls back
    to the CPU: the flag becomes `torch.cuda.is_available()` (unchanged on a GPU), and the
    script steps on the CPU."""
    finding = next(f for f in check_source(CAPTURABLE).findings if f.code == "DG016")
    assert [(f.kind, f.safe) for f in finding.fixes] == [("replace_expression", True)]
    fixed = fix_all(CAPTURABLE).text
    assert "{'params': model[0].parameters(), 'capturable': torch.cuda.is_available()}" in fixed, fixed
    assert not check_source(fixed).findings
    _run(fixed)


def test_capturable_on_cpu_parameters_is_turned_off_and_a_keyword_follows_cuda() -> None:
    cpu = CAPTURABLE.replace(".to(device)", "")
    fixed = fix_all(cpu).text
    assert "'capturable': False}" in fixed, fixed
    two = CAPTURABLE.replace("{'params': model[1].parameters()}", "{'params': model[1].parameters(), 'capturable': True}")
    assert not next(f for f in check_source(two).findings if f.code == "DG016").fixes  # which group is meant: not guessed
    keyword = CAPTURABLE.replace("groups, lr=1e-3", "model.parameters(), lr=1e-3, capturable=True").replace(", 'capturable': True}", "}")
    fixed = fix_all(keyword).text
    assert "torch.optim.Adam(model.parameters(), lr=1e-3, capturable=torch.cuda.is_available())" in fixed, fixed
    _run(fixed)


HALF_LSTM = (
    "import torch\nimport torch.nn as nn\n"
    "class Net(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.lstm = nn.LSTM(8, 8, batch_first=True)\n"
    "        self.out = nn.Linear(8, 4)\n"
    "    def forward(self, x):\n"
    "        h, _ = self.lstm(x)\n"
    "        return self.out(h).float()\n"
    "model = Net().half()\n"
    "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
    "scaler = torch.amp.GradScaler('cuda' if torch.cuda.is_available() else 'cpu')\n"
    "x = torch.randn(2, 5, 8)\n"
    "loss = model(x).pow(2).mean()\n"
    "scaler.scale(loss).backward()\n"
    "scaler.step(opt)\n"
    "scaler.update()\n"
)


def test_float16_master_weights_for_an_lstm_leave_the_cpu_forward_in_float32() -> None:
    """tests/realworld5 h30 (FunMusic): after the unsafe master-weights fix, float16 autocast
    on the CPU fails inside the LSTM ("could not create a primitive descriptor for the LSTM
    forward propagation primitive"); on the CPU autocast then uses bfloat16, which it can run
    (and which takes the float16 input the DG004 fix gives it)."""
    fixed = fix_all(HALF_LSTM, unsafe=True).text
    assert "dtype=torch.float16 if torch.cuda.is_available() else torch.bfloat16):\n" in fixed, fixed
    _run(fixed)
    plain = fix_all(HALF_LSTM.replace("nn.LSTM(8, 8, batch_first=True)", "nn.GRU(8, 8, batch_first=True)"), unsafe=True).text
    assert "dtype=torch.float16):\n" in plain, plain


def test_a_factory_made_under_a_later_default_dtype_is_made_in_the_weight_dtype() -> None:
    """tests/realworld8 i01 (SLAYER): a kernel buffer is made in float32, then the default
    becomes float64, and `torch.zeros(shape)` input made after that meets the float32 kernel in
    `F.conv1d`: the factory call gets `dtype=` of the weight."""
    src = (
        "import torch\nimport torch.nn.functional as F\n"
        "kernel = torch.tensor([0.5, 1.0, 0.5]).reshape(1, 1, -1)\n"
        "def configure():\n    torch.set_default_dtype(torch.float64)\n"
        "configure()\n"
        "spikes = torch.zeros((2, 1, 10))\n"
        "out = F.conv1d(spikes, kernel)\n"
    )
    finding = next(f for f in check_source(src).findings if f.code == "DG004")
    assert [(f.kind, f.span.line) for f in finding.fixes] == [("add_kwarg", 7)]
    fixed = fix_all(src).text
    assert "spikes = torch.zeros((2, 1, 10), dtype=torch.float32)\n" in fixed, fixed
    _run(fixed)


HARD_CODED = (
    "import torch\nimport torch.nn as nn\n"
    "class Head(nn.Module):\n"
    "    def __init__(self):\n"
    "        super().__init__()\n"
    "        self.box = nn.Linear(4, 4)\n"
    "    def bias(self, boxes):\n"
    "        b = boxes.sigmoid()\n"
    "        coords = torch.arange(0, 4, device='cuda', dtype=torch.float32) / 4\n"
    "        return coords.view(1, -1) - b.reshape(-1, 4)[:, :4]\n"
    "    def forward(self, x):\n"
    "        return self.bias(self.box(x))\n"
    "Head()(torch.randn(2, 4))\n"
)


def test_a_hard_coded_cuda_tensor_is_made_on_the_device_of_the_tensor_it_meets() -> None:
    """tests/realworld2 d10 (SAM3 decoder): `torch.arange(..., device="cuda")` in a model that
    runs on the CPU: the tensor is made on the device of the operand it is combined with
    (`b.device`: `b.reshape(...)[...]` keeps b's device), on a GPU as on the CPU."""
    finding = next(f for f in check_source(HARD_CODED).findings if f.code == "DG009")
    assert [(f.kind, f.safe, dict(f.params)["value"]) for f in finding.fixes] == [("set_kwarg", True, "b.device")]
    fixed = fix_all(HARD_CODED).text
    assert "coords = torch.arange(0, 4, device=b.device, dtype=torch.float32) / 4\n" in fixed, fixed
    _run(fixed)


def test_a_hard_coded_cuda_tensor_meeting_a_rebound_or_moved_name_is_not_guessed() -> None:
    moved = HARD_CODED.replace("b.reshape(-1, 4)[:, :4]", "b.cpu().reshape(-1, 4)[:, :4]")
    rebound = HARD_CODED.replace("        return coords.view", "        b = b * 2\n        return coords.view")
    for src in (moved, rebound):
        finding = next(f for f in check_source(src).findings if f.code == "DG009")
        assert not finding.fixes, src


def test_an_in_place_clamp_of_indices_gets_integer_bounds() -> None:
    """tests/realworld5 h14 (YOLOv5 build_targets): `gj.clamp_(0, gain[3] - 1)` on int64 indices
    with a float 0-dim bound fails; both clamps on the line get `int(...)` bounds (one finding a
    line: the second is fixed in the next round)."""
    src = (
        "import torch\ngain = torch.ones(7)\ngain[2:6] = 5.0\ngij = (torch.rand(5, 2) * 8).long()\ngi, gj = gij.T\n"
        "idx = (gj.clamp_(0, gain[3] - 1), gi.clamp_(min=0, max=gain[2] - 1))\n"
    )
    fixed = fix_all(src).text
    assert "idx = (gj.clamp_(0, int(gain[3] - 1)), gi.clamp_(min=0, max=int(gain[2] - 1)))\n" in fixed, fixed
    _run(fixed)
    vector = src.replace("gain[3] - 1", "gain[2:4] - 1").replace("gain[2] - 1", "gain[2:4] - 1")
    assert all(not f.fixes for f in check_source(vector).findings if f.code == "DG004")


def test_a_factory_on_the_usual_default_meeting_a_float64_weight_is_left_alone() -> None:
    """tests/realworld9 j06: `torch.randn(...)` (the usual float32 default) meets a float64
    NumPy filter in `F.conv2d`: the filter is what is odd, so only it is converted; giving the
    input `dtype=torch.float64` too made the two fixes undo each other."""
    src = (
        "import numpy as np\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"
        "class Smooth(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.w = torch.from_numpy(np.random.rand(1, 1, 3, 3))\n"
        "        self.psi = nn.Conv2d(1, 1, 3)\n"
        "    def forward(self, x):\n"
        "        return self.psi(F.conv2d(x, self.w))\n"
        "def main():\n"
        "    x = torch.randn(2, 1, 8, 8)\n"
        "    Smooth()(x)\n"
        "main()\n"
    )
    fixed = fix_all(src).text
    assert "self.w = torch.from_numpy(np.random.rand(1, 1, 3, 3)).float()\n" in fixed, fixed
    assert "x = torch.randn(2, 1, 8, 8)\n" in fixed, fixed
    _run(fixed)


CUDA_CALLS = (
    "import torch\nimport torch.nn as nn\n"
    "device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')\n"
    "def train():\n"
    "    net = nn.Linear(4, 2)\n"
    "    opt = torch.optim.SGD(net.parameters(), lr=0.1)\n"
    "    for _ in range(2):\n"
    "        x, y = torch.randn(3, 4), torch.tensor([0, 1, 1])\n"
    "        x = x.cuda()\n"
    "        y = y.cuda()\n"
    "        loss = nn.functional.cross_entropy(net(x), y)\n"
    "        opt.zero_grad()\n"
    "        loss.backward()\n"
    "        opt.step()\n"
    "    print(torch.cuda.is_available())\n"
    "train()\n"
)


def test_hard_coded_cuda_calls_use_the_scripts_device() -> None:
    """tests/realworld a09 (YOLACT): batches moved with `.cuda()` in a script whose `device`
    falls back to the CPU (here written by the DG002 fix): every `.cuda()` becomes
    `.to(device)` and the model goes to `device` too; `torch.cuda.is_available()` stays."""
    finding = next(f for f in check_source(CUDA_CALLS).findings if f.code == "DG009")
    assert (finding.fixes[0].kind, finding.fixes[0].safe) == ("cuda_to_device", True)
    fixed = fix_all(CUDA_CALLS).text
    assert "    net = nn.Linear(4, 2).to(device)\n" in fixed, fixed
    assert "        x = x.to(device)\n        y = y.to(device)\n" in fixed, fixed
    assert "print(torch.cuda.is_available())" in fixed
    _run(fixed)
    shadowed = CUDA_CALLS.replace("def train():", "def train(device=None):")
    assert all(f.kind != "cuda_to_device" for d in check_source(shadowed).findings for f in d.fixes)


LOADER_WITH_DTYPE = (
    "import torch\nimport torch.nn as nn\n\n"
    "def from_pretrained(torch_dtype):\n"
    "    return nn.Linear(4, 2).to(torch_dtype)\n\n"
    "model = from_pretrained(torch_dtype=torch.float16)\n"
    "optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)\n"
    "for step in range(2):\n"
    "    loss = model(torch.randn(8, 4).half()).float().pow(2).mean()\n"
    "    optimizer.zero_grad()\n"
    "    loss.backward()\n"
    "    optimizer.step()\n"
)


def test_a_dtype_keyword_of_the_scripts_own_loader_becomes_float32_not_dropped() -> None:
    """tests/realworld13 p26: the master-weights fix dropped `torch_dtype=` from a loader of the
    script's own whose parameter has no default, and the fixed script raised TypeError; the
    keyword now says float32."""
    fixed = fix_all(LOADER_WITH_DTYPE, "s.py", unsafe=True).text
    assert "from_pretrained(torch_dtype=torch.float32)" in fixed
    _run(fixed)


CHOSEN_TYPE = (
    "import torch\n\n"
    "def train(use_cuda, half):\n"
    "    torch.set_default_tensor_type('torch.cuda.FloatTensor' if use_cuda else 'torch.FloatTensor')\n"
    "    x = torch.ones(2)\n"
    "    torch.set_default_tensor_type('torch.DoubleTensor' if half else 'torch.FloatTensor')\n"
    "    RESULT.append((x.dtype, x.device.type))\n\n"
    "train(torch.cuda.is_available(), False)\n"
)


def test_a_choice_between_two_named_tensor_types_becomes_two_plain_calls() -> None:
    """tests/realworld21 x22 (RTFM): `set_default_tensor_type("torch.cuda.FloatTensor" if
    use_cuda else "torch.FloatTensor")` names both types, so the pair of modern calls names the
    dtype and picks the device with the same test; two dtypes keep the drop-in pair."""
    fixed = fix_all(CHOSEN_TYPE).text
    assert (
        "    torch.set_default_dtype(torch.float32)\n"
        "    torch.set_default_device(\"cuda\" if use_cuda else None)\n"
    ) in fixed, fixed
    assert "torch.set_default_dtype(torch.empty(0).type('torch.DoubleTensor' if half else 'torch.FloatTensor').dtype)\n" in fixed, fixed
    assert "set_default_tensor_type" not in fixed and not check_source(fixed).findings
    results: list[object] = []
    dtype = torch.get_default_dtype()
    try:
        exec(compile(fixed, "<fixed>", "exec"), {"RESULT": results})
    finally:
        torch.set_default_dtype(dtype)
        torch.set_default_device(None)
    assert results == [(torch.float32, "cuda" if torch.cuda.is_available() else "cpu")]
