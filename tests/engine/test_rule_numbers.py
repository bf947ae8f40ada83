"""Numbers a rule's message states, checked against the real torch: DG013 says which bfloat16
weights an Adam step of about `lr` no longer changes; that threshold must be what bfloat16
arithmetic really does."""

from __future__ import annotations

import re

import pytest

from dtypeguard.analysis import check_source

torch = pytest.importorskip("torch")


@pytest.mark.parametrize("lr", [1e-4, 3e-4, 1e-3, 2e-3, 5e-3, 1e-2, 3e-2])
def test_dg013_threshold_is_where_bfloat16_drops_the_step(lr: float) -> None:
    src = f"import torch\nfrom torch import nn\nm = nn.Linear(4, 1).bfloat16()\nopt = torch.optim.Adam(m.parameters(), lr={lr!r})\n"
    finding = next(f for f in check_source(src).findings if f.code == "DG013")
    match = re.search(r"lr=([0-9.e-]+) round away on weights of magnitude ([0-9.e-]+) and above", finding.message)
    assert match is not None, finding.message
    assert float(match.group(1)) == lr
    above = float(match.group(2))
    step = torch.tensor(lr, dtype=torch.float32)
    for w in (above, above * 1.5, above * 4):  # at and above it: w + lr rounds back to w
        weight = torch.tensor(w, dtype=torch.bfloat16)
        assert (weight.float() + step).to(torch.bfloat16) == weight, (w, lr)
    below = torch.tensor(above / 2, dtype=torch.bfloat16)  # one binade down: the step survives
    assert (below.float() + step).to(torch.bfloat16) != below, (above / 2, lr)


def test_dg013_default_learning_rates_are_torchs() -> None:
    import inspect

    from dtypeguard.rules.dg013_adam_bf16_stall import ADAM_DEFAULT_LR

    for name, lr in ADAM_DEFAULT_LR.items():
        assert inspect.signature(getattr(torch.optim, name).__init__).parameters["lr"].default == lr, name


def test_dg013_sgd_gets_the_general_rule() -> None:
    src = "import torch\nfrom torch import nn\nm = nn.Linear(4, 1).bfloat16()\nopt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
    finding = next(f for f in check_source(src).findings if f.code == "DG013")
    assert "smaller than about 1/256 of a weight" in finding.message and "lr=" not in finding.message


def test_matmul_errors_of_an_integer_operand_are_torchs() -> None:
    """DG005's predicted matmul errors are what torch raises (real CPU kernels, one-row tensors)."""
    import itertools

    import torch

    from dtypeguard.rules.dg005_integer_input import CPP_NAMES, matmul_error

    ops = {"mm": torch.mm, "matmul": torch.matmul, "@": lambda a, b: a @ b, "bmm": torch.bmm}
    floats = ("float32", "float64")
    ints = ("int64", "int32", "int16", "int8", "uint8")
    for op, (a, b) in itertools.product(ops, [*itertools.product(floats, ints), *itertools.product(ints, floats)]):
        shape_a, shape_b = ((1, 1, 3), (1, 3, 2)) if op == "bmm" else ((1, 3), (3, 2))  # bmm skips its check on 0 rows
        x = torch.zeros(shape_a, dtype=getattr(torch, a))
        y = torch.zeros(shape_b, dtype=getattr(torch, b))
        try:
            ops[op](x, y)
            real = None
        except RuntimeError as error:
            real = str(error)
        assert real == matmul_error(op, a, b), (op, a, b, real)
    assert set(CPP_NAMES) >= {*floats, *ints}


def test_first_layer_dtype_errors_are_torchs() -> None:
    """What DG004/DG005 quote for an input whose dtype is not the first layer's (`layer_dtype_error`),
    for every layer kind the engine names, against the real layers on CPU; and the layers the
    engine treats as taking any input (RMSNorm) really compute with a float64 one."""
    import torch
    from torch import nn

    from dtypeguard.engine.library.vocabulary import LAYER_KINDS as LAYERS
    from dtypeguard.rules.base import layer_dtype_error

    def make(cls: str) -> tuple[nn.Module, tuple[int, ...]]:
        if cls.startswith(("Conv", "LazyConv")):
            dims = int(cls[-2])
            layer = getattr(nn, cls)(1, 2, 1) if not cls.startswith("Lazy") else getattr(nn, cls)(2, 1)
            return layer, (1, 1, *([3] * dims))
        if cls in ("RNN", "LSTM", "GRU"):
            return getattr(nn, cls)(3, 2), (2, 1, 3)
        if cls.startswith(("BatchNorm", "InstanceNorm")):
            dims = int(cls[-2])
            return getattr(nn, cls)(3, affine=True), (2, 3, *([4] * dims))
        if cls == "GroupNorm":
            return nn.GroupNorm(1, 3), (2, 3)
        if cls in ("LayerNorm", "RMSNorm"):
            return getattr(nn, cls)(3), (2, 3)
        return nn.Linear(3, 2), (2, 3)

    checked = 0
    for cls, (kind, needs) in LAYERS.items():
        if kind not in ("linear", "conv", "rnn", "norm", "rmsnorm") or cls.startswith("ConvTranspose"):
            continue
        layer, shape = make(cls)
        for got in ("float64", "float16", "bfloat16", "int64", "int32", "uint8", "bool"):
            x = torch.zeros(shape, dtype=getattr(torch, got))
            try:
                layer(x)
                real = None
            except (RuntimeError, ValueError, NotImplementedError) as error:
                real = str(error)
            if needs == "any":
                assert real is None or got != "float64", (cls, got, real)
                continue
            said = layer_dtype_error(kind, got, "float32")
            if kind == "norm" and got in ("float16", "bfloat16"):
                assert real is None and said is None, (cls, got, real)  # passed on in its own dtype
                continue
            assert real is not None, (cls, got)
            if said is not None:
                assert real.startswith(said), (cls, got, real, said)
                checked += 1
    assert checked >= 40


def test_rnn_hidden_state_dtype_errors_are_torchs() -> None:
    """What DG004 quotes for an RNN whose initial hidden state is not its weights' dtype
    (`hidden_dtype_error`), made with real layers: every pair it names raises those words, and
    a pair it does not name (the same dtype) runs."""
    import torch
    from torch import nn

    from dtypeguard.rules.base import hidden_dtype_error

    checked = 0
    for cls in ("LSTM", "GRU", "RNN"):
        for want in ("float32", "float64"):
            for got in ("float64", "float32", "float16", "bfloat16"):
                layer = getattr(nn, cls)(4, 8, 1).to(getattr(torch, want))
                x = torch.randn(5, 3, 4, dtype=getattr(torch, want))
                h = torch.zeros(1, 3, 8, dtype=getattr(torch, got))
                try:
                    layer(x, (h, h.clone()) if cls == "LSTM" else h)
                    real = None
                except RuntimeError as error:
                    real = str(error)
                said = hidden_dtype_error(f"torch.nn.{cls}", got, want)
                assert (real is None) == (said is None), (cls, want, got, real, said)
                if said is not None:
                    assert real is not None and real.startswith(said), (cls, want, got, real, said)
                    checked += 1
    assert checked == 18


def test_autocast_leak_quotes_the_failing_layers_own_error() -> None:
    """DG017 quotes what the float32 layer outside autocast really raises: an LSTM's words are not
    a Linear's (run for real here, then compared with the finding's message)."""
    from dtypeguard.analysis import check_source

    source = (
        "import torch\nimport torch.nn as nn\n"
        "backbone = nn.Linear(4, 8)\nlstm = nn.LSTM(8, 8, batch_first=True)\nhead = nn.Linear(8, 2)\n"
        "x = torch.randn(2, 3, 4)\n"
        "with torch.autocast('cpu', dtype=torch.bfloat16):\n    feats = backbone(x)\n"
        "{use}\n"
    )
    for use in ("out, _ = lstm(feats)", "out = head(feats)"):
        text = source.format(use=use)
        try:
            exec(compile(text, "case.py", "exec"), {})
            raise AssertionError("the snippet was meant to fail")
        except (RuntimeError, ValueError) as error:
            real = str(error)
        found = [f for f in check_source(text, "case.py").findings if f.code == "DG017"]
        assert len(found) == 1, (use, found)
        quoted = found[0].message.rsplit('"', 2)[-2]
        assert real.startswith(quoted), (use, real, quoted)


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "bfloat16", "uint8", "int8", "int16"])
def test_dg005_embedding_index_errors_are_torchs(dtype: str) -> None:
    """DG005 quotes what an Embedding (and an EmbeddingBag) says of indices that are not Long/Int."""
    from dtypeguard.rules.dg005_integer_input import embedding_error

    for layer, ids in ((torch.nn.Embedding(8, 2), torch.zeros(3, dtype=getattr(torch, dtype))), (torch.nn.EmbeddingBag(8, 2), torch.zeros(1, 3, dtype=getattr(torch, dtype)))):
        with pytest.raises(RuntimeError) as raised:
            layer(ids)
        assert str(raised.value).startswith(embedding_error(dtype)), (str(raised.value), embedding_error(dtype))
    for ok in (torch.int64, torch.int32):
        torch.nn.Embedding(8, 2)(torch.zeros(3, dtype=ok))


def test_dg005_index_dtypes_are_the_ones_torch_refuses() -> None:
    """The dtypes the engine records as refused indices are exactly those torch refuses (uint8
    and bool are masks, int32/int64 indices)."""
    from dtypeguard.engine.interpreter import NON_INDEX_DTYPES
    from dtypeguard.rules.dg005_integer_input import INDEX_ERROR

    assert INDEX_ERROR == "tensors used as indices must be long, int, byte or bool tensors"  # what verify maps to DG005
    table = torch.randn(5, 3)
    for dtype in ("float64", "float32", "float16", "bfloat16", "int8", "int16", "int32", "int64"):
        index = torch.tensor([0, 1]).to(getattr(torch, dtype))
        try:
            table[index]
            table[:, index]
            refused = ""
        except IndexError as exc:
            refused = str(exc)
        assert (dtype in NON_INDEX_DTYPES) == bool(refused), dtype
        assert refused in ("", INDEX_ERROR), refused


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_dg018_overflow_error_and_range_are_torchs(dtype: str) -> None:
    """DG018 quotes torch's words, and flags exactly the values beyond the dtype's largest finite number."""
    from dtypeguard.engine.library.torch import FINFO
    from dtypeguard.rules.dg018_fill_value_overflows import overflow_error

    assert overflow_error("float16") == "value cannot be converted to type c10::Half without overflow"  # what verify maps to DG018
    t, mask = torch.zeros(2, dtype=getattr(torch, dtype)), torch.ones(2, dtype=torch.bool)
    with pytest.raises(RuntimeError) as raised:
        t.masked_fill(mask, -3.4e38)
    assert str(raised.value) == overflow_error(dtype)
    largest = FINFO[dtype]["max"]
    t.masked_fill(mask, -largest)
    t.masked_fill(mask, float("-inf"))
    for value in (-1e9, 1e5, 3.4028234663852886e38):
        fails = abs(value) > largest
        try:
            t.masked_fill(mask, value)
            raised_here = False
        except RuntimeError:
            raised_here = True
        assert raised_here == fails, (dtype, value)
        src = f"import torch\nt = torch.zeros(2).to(torch.{dtype})\nt = t.masked_fill(torch.ones(2, dtype=torch.bool), {value!r})\n"
        assert any(f.code == "DG018" for f in check_source(src).findings) == fails, (dtype, value)
