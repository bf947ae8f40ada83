"""Each fix kind on small inputs, with the exact text it must produce: comments, odd
formatting and CRLF line endings survive, and only what must change changes."""

from __future__ import annotations

import pytest

from dtypeguard.engine.source import MARKER, move_blocker
from dtypeguard.findings import FixSpec, Span
from dtypeguard.fixes import apply_edits, edits_for_fix, setup_block_edits
from dtypeguard.fixes.api import fixed_text, why_not


def fix(kind: str, span: tuple[int, int, int, int], **params: str) -> FixSpec:
    return FixSpec(kind, kind, Span(*span), True, tuple(params.items()))


def apply(text: str, spec: FixSpec) -> str:
    """Through the LSP path (minimal edits), checked against the whole-text path."""
    edits = edits_for_fix(text, spec)
    assert edits is not None, why_not(text, spec)
    new = apply_edits(text, edits)
    assert new == fixed_text(text, spec)
    return new


CASES = [
    pytest.param(
        "x = torch.from_numpy(a)  # data\n", fix("append_call", (1, 4, 1, 23), method="float"),
        "x = torch.from_numpy(a).float()  # data\n", id="append-call",
    ),
    pytest.param(
        "z = f(\n    a + b,  # c\n)\n", fix("append_call", (2, 4, 2, 9), method="long"),
        "z = f(\n    (a + b).long(),  # c\n)\n", id="append-call-parenthesizes",
    ),
    pytest.param(
        "x = torch.from_numpy(\n    arr,\n)\r\n".replace("\n", "\r\n").replace("\r\r", "\r"), fix("append_call", (1, 4, 3, 1), method="float"),
        "x = torch.from_numpy(\r\n    arr,\r\n).float()\r\n", id="append-call-crlf-multiline",
    ),
    pytest.param(
        "t = torch.tensor(arr)\n", fix("add_kwarg", (1, 4, 1, 21), name="dtype", value="torch.float32"),
        "t = torch.tensor(arr, dtype=torch.float32)\n", id="add-kwarg",
    ),
    pytest.param(
        "opt = Adam(\n    params,\n    lr=1e-3,  # lr\n)\n", fix("add_kwarg", (1, 6, 4, 1), name="fused", value="True"),
        "opt = Adam(\n    params,\n    lr=1e-3,  # lr\n    fused=True,\n)\n", id="add-kwarg-one-per-line",
    ),
    pytest.param(
        "opt = Adam(params,\n           lr=1)\n", fix("add_kwarg", (1, 6, 2, 16), name="fused", value="True"),
        "opt = Adam(params,\n           lr=1,\n           fused=True)\n", id="add-kwarg-aligned",
    ),
    pytest.param(
        "state = torch.load(path)\r\nx = 1\r\n", fix("add_kwarg", (1, 8, 1, 24), name="map_location", value="device"),
        "state = torch.load(path, map_location=device)\r\nx = 1\r\n", id="add-kwarg-crlf",
    ),
    pytest.param(
        "opt = Adam(p, eps=1e-8)  # old\n", fix("set_kwarg", (1, 6, 1, 23), name="eps", value="1e-4"),
        "opt = Adam(p, eps=1e-4)  # old\n", id="set-kwarg-replaces",
    ),
    pytest.param(
        "opt = Adam(p)\n", fix("set_kwarg", (1, 6, 1, 13), name="fused", value="True"),
        "opt = Adam(p, fused=True)\n", id="set-kwarg-adds",
    ),
    pytest.param(
        "opt = Adam(p, foreach=True, fused=True)\n", fix("remove_kwarg", (1, 6, 1, 39), name="foreach"),
        "opt = Adam(p, fused=True)\n", id="remove-kwarg-middle",
    ),
    pytest.param(
        "opt = Adam(p,\n           fused=True,\n           foreach=True)\n", fix("remove_kwarg", (1, 6, 3, 24), name="foreach"),
        "opt = Adam(p,\n           fused=True)\n", id="remove-kwarg-last",
    ),
    pytest.param(
        "for i, (xb, yb) in enumerate(loader):\n    # forward\n    out = model(xb)\n", fix("to_device", (3, 16, 3, 18), device="device"),
        "for i, (xb, yb) in enumerate(loader):\n    xb = xb.to(device)\n    # forward\n    out = model(xb)\n", id="to-device-at-unpacking",
    ),
    pytest.param(
        "def f():\r\n    for xb, yb in loader:\r\n        out = model(xb)\r\n", fix("to_device", (3, 20, 3, 22), device="device"),
        "def f():\r\n    for xb, yb in loader:\r\n        xb = xb.to(device)\r\n        out = model(xb)\r\n", id="to-device-crlf",
    ),
    pytest.param(
        "out = model(batch['x'])\n", fix("to_device", (1, 12, 1, 22), device="device"),
        "out = model(batch['x'].to(device))\n", id="to-device-expression",
    ),
    pytest.param(
        '"""Doc."""\nimport torch\nfrom torch import nn\n\n\ndef build():\n    return nn.Linear(2, 2)\n\n\nmodel = build()\n# doubles from here on\ntorch.set_default_dtype(torch.float64)  # late\nx = torch.randn(2, 2)\n',
        fix("move_to_setup", (12, 0, 12, 38)),
        '"""Doc."""\nimport torch\nfrom torch import nn\n\n# doubles from here on\ntorch.set_default_dtype(torch.float64)  # late\n\n\ndef build():\n    return nn.Linear(2, 2)\n\n\nmodel = build()\nx = torch.randn(2, 2)\n',
        id="move-to-setup",
    ),
    pytest.param(
        "import torch\r\ntorch.set_default_tensor_type('torch.FloatTensor')  # old\r\n", fix("replace_default_tensor_type", (2, 0, 2, 50), dtype="float32"),
        "import torch\r\ntorch.set_default_dtype(torch.float32)  # old\r\n", id="replace-cpu-type",
    ),
    pytest.param(
        "from torch import set_default_tensor_type, DoubleTensor\nset_default_tensor_type(DoubleTensor)\n", fix("replace_default_tensor_type", (2, 0, 2, 37), dtype="float64"),
        "from torch import set_default_tensor_type, DoubleTensor\nimport torch\ntorch.set_default_dtype(torch.float64)\n", id="replace-adds-import",
    ),
    pytest.param(
        'import torch as T\n\n# the trick\nif T.cuda.is_available():\n    T.set_default_tensor_type("torch.cuda.FloatTensor")\nelse:\n    T.set_default_tensor_type("torch.FloatTensor")\n\nmodel = T.nn.Linear(2, 2)\n',
        fix("replace_default_tensor_type", (5, 4, 5, 55), dtype="float32", cuda="1"),
        f'import torch as T\n\n# the trick\n{MARKER}\nT.set_default_dtype(T.float32)\ndevice = T.device("cuda" if T.cuda.is_available() else "cpu")\n\nmodel = T.nn.Linear(2, 2)\n',
        id="replace-cuda-block-becomes-setup-block",
    ),
    pytest.param(
        "import torch\nfrom torch import nn\nx = torch.zeros(3)\ndef f():\n    torch.set_default_dtype(torch.float64)\n",
        fix("insert_setup_block", (5, 4, 5, 42), dtype="float64"),
        f'import torch\nfrom torch import nn\n\n{MARKER}\ntorch.set_default_dtype(torch.float64)\n\nx = torch.zeros(3)\ndef f():\n    torch.set_default_dtype(torch.float64)\n',
        id="insert-setup-block",  # no `device` name: nothing would use it
    ),
    pytest.param(
        "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.adv = torch.linspace(0, 1, 5)[..., None]  # phase\n",
        fix("register_buffer", (4, 8, 4, 16)),
        'class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.register_buffer("adv", torch.linspace(0, 1, 5)[..., None], persistent=False)  # phase\n',
        id="register-buffer",
    ),
]


@pytest.mark.parametrize(("text", "spec", "expected"), CASES)
def test_fix_kind_exact_output(text: str, spec: FixSpec, expected: str) -> None:
    assert apply(text, spec) == expected


def test_edits_are_minimal() -> None:
    text = "import torch\n" + "y = 1\n" * 50 + "x = torch.from_numpy(a)\n" + "z = 2\n" * 50
    edits = edits_for_fix(text, fix("append_call", (52, 4, 52, 23), method="float"))
    assert edits is not None and len(edits) == 1
    assert edits[0].span == Span(52, 23, 52, 23) and edits[0].new_text == ".float()"


@pytest.mark.parametrize(
    ("text", "spec", "reason"),
    [
        ("x = torch.from_numpy(a).float()\n", fix("append_call", (1, 4, 1, 31), method="float"), "already"),
        ("t = torch.tensor(a, dtype=torch.float64)\n", fix("add_kwarg", (1, 4, 1, 40), name="dtype", value="torch.float32"), "already passes"),
        ("opt = Adam(p)\n", fix("remove_kwarg", (1, 6, 1, 13), name="foreach"), "does not pass"),
        ("x = 1\n", fix("append_call", (9, 0, 9, 3), method="float"), "no expression"),
        ("x = (\n", fix("append_call", (1, 0, 1, 1), method="float"), "does not parse"),
        ("x = 1\n", fix("no_such_kind", (1, 0, 1, 1)), "no transform"),
        ("for xb in loader:\n    xb = xb.to(device)\n    model(xb)\n", fix("to_device", (3, 10, 3, 12), device="device"), "already moved"),
        ("class M(nn.Module):\n    def __init__(self):\n        self.w = torch.ones(3)\n        super().__init__()\n", fix("register_buffer", (3, 8, 3, 14)), "after `super().__init__()`"),
        ("class M(nn.Module):\n    def forward(self, x):\n        self.h = torch.zeros(3)\n", fix("register_buffer", (3, 8, 3, 14)), "after `super().__init__()`"),
        ("class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.a = self.b = torch.ones(3)\n", fix("register_buffer", (4, 8, 4, 14)), "plain `self.<name> = ...`"),
    ],
)
def test_not_applicable_says_why(text: str, spec: FixSpec, reason: str) -> None:
    assert edits_for_fix(text, spec) is None
    assert reason in (why_not(text, spec) or "")


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        ("import torch\nfrom torch import nn\nm = nn.Linear(2, 2)\nDT = torch.float64\ntorch.set_default_dtype(DT)\n", 5, "`DT`, which is (re)defined on line 4"),
        ("import torch\nm = torch.nn.Linear(2, 2)\ndef setup():\n    torch.set_default_dtype(torch.float64)\n", 4, "inside a function `setup()`"),
        ("import torch\nm = torch.nn.Linear(2, 2)\nif m:\n    torch.set_default_dtype(torch.float64)\n", 4, "inside an `if` block"),
        ("import torch\nm = torch.nn.Linear(2, 2)\nx = 1; torch.set_default_dtype(torch.float64)\n", 3, "shares its line"),
        ("import numpy as np\nm = np.zeros(2)\nimport torch\ntorch.set_default_dtype(torch.float64)\n", 4, "`torch`, which is (re)defined on line 3"),
    ],
)
def test_move_is_refused_when_unsafe(text: str, line: int, reason: str) -> None:
    blocker = move_blocker(text, Span(line, 0, line, 1))
    assert blocker is not None and reason in blocker
    assert edits_for_fix(text, fix("move_to_setup", (line, 0, line, 1))) is None


def test_setup_block_source_action() -> None:
    text = '"""Doc."""\nfrom __future__ import annotations\n\nimport numpy as np\nimport torch as T\nx = T.zeros(3)\n'
    edits = setup_block_edits(text)
    assert edits is not None and len(edits) == 1
    assert apply_edits(text, edits) == (
        '"""Doc."""\nfrom __future__ import annotations\n\nimport numpy as np\nimport torch as T\n\n'
        f'{MARKER}\nT.set_default_dtype(T.float32)\ndevice = T.device("cuda" if T.cuda.is_available() else "cpu")\n\nx = T.zeros(3)\n'
    )
    again = apply_edits(text, edits)
    assert setup_block_edits(again) is None  # it has it now
    assert setup_block_edits("import numpy as np\nx = np.zeros(3)\n") is None  # no torch


def test_setup_block_reuses_existing_device_and_adds_import() -> None:
    text = "from torch import nn\r\ndev = 'cuda' if torch.cuda.is_available() else 'cpu'\r\nm = nn.Linear(2, 2)\r\n"
    edits = setup_block_edits(text)
    assert edits is not None
    assert apply_edits(text, edits) == (
        "from torch import nn\r\nimport torch\r\ndev = 'cuda' if torch.cuda.is_available() else 'cpu'\r\n\r\n"
        f"{MARKER}\r\ntorch.set_default_dtype(torch.float32)\r\n\r\nm = nn.Linear(2, 2)\r\n"
    )


def test_setup_block_on_the_cuda_default_trick_replaces_it() -> None:
    """The blog's trick (samples/blog_mnist_trick.py): the source action turns the legacy block
    into the setup block where it stands and moves the model it placed, instead of adding a
    second block below it with an unused `device`."""
    text = (
        "import torch\n\nif torch.cuda.is_available():\n    torch.set_default_tensor_type('torch.cuda.FloatTensor')\n"
        "else:\n    torch.set_default_tensor_type('torch.FloatTensor')\n\nmodel = torch.nn.Linear(2, 2)\n"
    )
    edits = setup_block_edits(text)
    assert edits is not None
    assert apply_edits(text, edits) == (
        f'import torch\n\n{MARKER}\ndevice = torch.device("cuda" if torch.cuda.is_available() else "cpu")\n\n'
        "model = torch.nn.Linear(2, 2).to(device)\n"
    )


def test_setup_block_on_a_late_default_moves_that_call() -> None:
    """DG001: the source action moves the misplaced call above the first creation; it adds no
    no-op `set_default_dtype(torch.float32)` and no unused `device`."""
    text = (
        "import torch\nfrom torch import nn\n\nmodel = nn.Linear(3, 1)\n"
        "torch.set_default_dtype(torch.float64)  # late\nx = torch.randn(4, 3)\n"
    )
    edits = setup_block_edits(text)
    assert edits is not None
    assert apply_edits(text, edits) == (
        "import torch\nfrom torch import nn\n\ntorch.set_default_dtype(torch.float64)  # late\n\n"
        "model = nn.Linear(3, 1)\nx = torch.randn(4, 3)\n"
    )


def test_setup_block_for_a_late_default_that_cannot_move_sets_its_dtype() -> None:
    text = (
        "import torch as T\nfrom torch import nn\n\nclass Calc:\n    def __init__(self, name):\n"
        "        T.set_default_dtype(getattr(T, name))\n\nmodel = nn.Linear(3, 1)\ncalc = Calc('float64')\n"
        "model(T.randn(2, 3))\n"
    )
    edits = setup_block_edits(text)
    assert edits is not None
    new = apply_edits(text, edits)
    assert f"{MARKER}\nT.set_default_dtype(T.float64)\n" in new
    assert "float32" not in new and "device =" not in new


@pytest.mark.parametrize(
    ("source", "fixed_line"),
    [
        # DeNA's YOLOv3 #42 (set 60): `1 - mask` of a bool mask is inverted with `~`
        ("import torch\nscores = torch.rand(5)\nhit = scores > 0.5\nkeep = 1 - hit\n", "keep = ~hit"),
        # SO-Net #37 (set 60): the masks are counted in integers
        ("import torch\ngt = torch.rand(9) > 0.5\npr = torch.rand(9) > 0.5\ninter = (gt + pr) == 2\n", "inter = (gt.int() + pr.int()) == 2"),
        # graphnet #328 (set 59): a target made on the CPU goes to the predictions' device
        (
            "import torch\nimport torch.nn as nn\nfrom torch.nn.functional import cross_entropy, one_hot\n"
            "model = nn.Linear(4, 3).to('meta')\npred = model(torch.randn(8, 4).to('meta'))\n"
            "target = one_hot(torch.tensor([0, 1, 2, 1, 0, 2, 1, 0]), 3)\nloss = cross_entropy(pred.float(), target.float())\n",
            "loss = cross_entropy(pred.float(), target.float().to(pred.device))",
        ),
        # torchaudio #457 (set 59): a plain tensor attribute becomes a buffer
        (
            "import torch\nimport torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
            "        self.fc = nn.Linear(4, 4)\n        self.scale = torch.ones(4)\n    def forward(self, x):\n"
            "        return self.fc(x) * self.scale\nmodel = Net().to('cuda')\nmodel(torch.randn(2, 4).cuda())\n",
            '        self.register_buffer("scale", torch.ones(4), persistent=False)',
        ),
    ],
)
def test_fix_all_resolves_the_finding_with_the_expected_line(source: str, fixed_line: str) -> None:
    from dtypeguard.analysis import check_source
    from dtypeguard.fixes.api import fix_all

    assert check_source(source, "case.py").findings
    result = fix_all(source, "case.py")
    assert fixed_line in result.text.splitlines()
    assert not check_source(result.text, "case.py").findings
