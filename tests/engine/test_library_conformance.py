"""Every fact the engine's library tables state is checked against the real library.

Each table entry's probe is run twice: through the engine (which never imports torch/numpy)
and through the installed torch / NumPy / pandas, for arrays of every dtype. A dtype the
engine states must be the one the library produces; "unknown" is always allowed (never a
guess), but an entry whose probes are all unknown is dead weight and fails too.
The generated promotion table is regenerated in memory and compared with the committed one.
"""

from __future__ import annotations

import builtins
import importlib.util
import inspect
import itertools
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
import torch

from dtypeguard.analysis import check_source
from dtypeguard.engine import library
from dtypeguard.engine.call_effects import CONVERTERS, PICKLE_FRAMED
from dtypeguard.engine.library.spec import Entry
from dtypeguard.engine.library.vocabulary import LEGACY_TENSOR_TYPES
from dtypeguard.engine.values import Const, Many, Tensor

ROOT = Path(__file__).resolve().parents[2]
NUMPY_DTYPES = ("float64", "float32", "float16", "int64", "int32", "uint8", "bool")
TORCH_DTYPES = (*NUMPY_DTYPES, "bfloat16")
SCALARS = ("2", "2.5", "True")
HEADER = (
    "import numpy as np\nimport pandas as pd\nimport torch\nimport torch.nn.functional as F\nrng = np.random.default_rng(0)\n"
    "from scipy import ndimage, signal\nimport scipy.sparse as sp\n"
    "import os\nimport tempfile\ncsv_path = os.path.join(tempfile.mkdtemp(), 'data.csv')\n"
    "pd.DataFrame({'n': [1, 2], 'x': [0.5, 1.5], 'k': [3, 4]}).to_csv(csv_path, index=False)\n"
    + "".join(f"a_{d} = np.ones((2, 2), dtype=np.{d})\nv_{d} = np.ones(4, dtype=np.{d})\n" for d in NUMPY_DTYPES)
    + "".join(f"t_{d} = torch.ones((2, 2), dtype=torch.{d})\n" for d in TORCH_DTYPES)
)


def _cases(entry: Entry | tuple[str, str]) -> list[tuple[str, str]]:
    """(label, source expression) for each combination of the probe's placeholders."""
    probe = entry.probe if isinstance(entry, Entry) else entry[1]
    holes = sorted(set(re.findall(r"\{([abvwstu])\}", probe)))
    arrays = [f"a_{d}" for d in NUMPY_DTYPES]
    vectors = [f"v_{d}" for d in NUMPY_DTYPES]  # 1-D: pandas columns
    tensors = [f"t_{d}" for d in TORCH_DTYPES]
    choices = {"a": arrays, "b": arrays, "v": vectors, "w": vectors, "s": list(SCALARS), "t": tensors, "u": tensors}
    out = []
    for combo in itertools.product(*(choices[h] for h in holes)):
        filled = probe
        for hole, value in zip(holes, combo, strict=True):
            filled = filled.replace("{" + hole + "}", value)
        filled = filled.replace("{{", "{").replace("}}", "}")
        out.append(("/".join(combo) or "-", filled))
    return out


def _real(value: Any) -> tuple[str, str | None]:
    """(kind, dtype) of a real result, in the engine's words."""
    if isinstance(value, pd.DataFrame):
        return "frame", str(value.to_numpy().dtype)
    if isinstance(value, pd.Series):
        return "series", str(value.to_numpy().dtype)
    if isinstance(value, np.ndarray):
        return "ndarray", str(value.dtype)
    if isinstance(value, np.generic):
        return "npscalar", str(value.dtype)
    if isinstance(value, torch.Tensor):
        return "tensor", str(value.dtype).removeprefix("torch.")
    if isinstance(value, bool):
        return "pybool", None
    if isinstance(value, float):
        return "pyfloat", None
    if isinstance(value, int):
        return "pyint", None
    if isinstance(value, list):
        kinds = {_real(v)[0] for v in value}
        return "pylist", kinds.pop() if len(kinds) == 1 else None
    return type(value).__name__, None


def _engine(value: object) -> tuple[str, str | None] | None:
    """(kind, dtype) the engine states, or None when it says nothing."""
    if isinstance(value, Tensor):
        if value.kind in ("pyfloat", "pyint"):
            return value.kind, None
        return (value.kind, value.dtype) if value.dtype else None
    if isinstance(value, Many):
        item = value.item
        return ("pylist", item.kind) if isinstance(item, Tensor) else None
    return None


def _run(entries: list[Entry] | list[tuple[str, str]]) -> tuple[list[str], dict[str, int], int]:
    lines, where = [], []
    for entry in entries:
        for label, expr in _cases(entry):
            lines.append(expr)
            where.append((entry.name if isinstance(entry, Entry) else entry[0], label))
    source = HEADER + "".join(f"r_{i} = {expr}\n" for i, expr in enumerate(lines))
    result = check_source(source)
    assert result.facts is not None and not result.internal_error, result.internal_error
    stated: dict[str, object] = {}
    for fact in result.facts.values:
        if fact.store and fact.name.startswith("r_"):
            stated[fact.name] = fact.value
    namespace: dict[str, Any] = {}
    exec(HEADER, namespace)
    wrong: list[str] = []
    known: dict[str, int] = {}
    checked = 0
    for i, expr in enumerate(lines):
        name, label = where[i]
        try:
            real = _real(eval(expr, namespace))
        except Exception:
            continue  # the library refuses this combination: nothing to compare
        checked += 1
        said = _engine(stated.get(f"r_{i}"))
        if said is None:
            continue
        known[name] = known.get(name, 0) + 1
        if said[1] and "|" in said[1] and said[0] == real[0] and real[1] in said[1].split("|"):
            continue  # a set of dtypes (pandas' int64|float64) that holds the real one
        if said != real:
            wrong.append(f"{name} [{label}] `{expr}`: engine says {said}, the library gives {real}")
        value, real_value = stated.get(f"r_{i}"), eval(expr, namespace)
        ndim = value.ndim if isinstance(value, Tensor) and value.kind in ("ndarray", "tensor") else None
        if ndim is not None and hasattr(real_value, "ndim") and ndim != real_value.ndim:
            wrong.append(f"{name} [{label}] `{expr}`: engine says rank {ndim}, the library gives {real_value.ndim}")
    return wrong, known, checked


def test_every_table_fact_matches_the_real_library(capsys: pytest.CaptureFixture[str]) -> None:
    entries = [e for e in library.entries() if e.probe]
    wrong, known, checked = _run(entries)
    assert wrong == [], "\n".join(wrong)
    silent = [e.name for e in entries if e.result.rule != "unknown" and not known.get(e.name)]
    assert silent == [], f"entries whose probes the engine never answers: {silent}"
    with capsys.disabled():
        total = len(library.entries())
        print(f"\nlibrary conformance: {total} entries, {len(entries)} probed, {checked} calls compared, {sum(known.values())} with a stated dtype")


# How the interpreter combines table facts (columns of a frame, lists, Python constants):
# the same comparison with the real libraries, for what is not one table entry.
MECHANICS = [
    ("frame column", "pd.DataFrame({{'x': {v}, 'y': {w}}})['y'].to_numpy()"),
    ("frame column by attribute", "pd.DataFrame({{'x': {v}, 'Price': {w}}}).Price.to_numpy()"),
    ("series shifted in a frame", "pd.concat({{'a': pd.Series({v}).rolling(2).mean(), 'b': pd.Series({w}).shift(1)}}, axis=1)['b'].to_numpy()"),
    ("a row's field", "pd.DataFrame({{'x': {v}, 'y': {w}}}).iloc[1].y"),
    ("a row's field, read by name", "pd.DataFrame({{'x': {v}, 'y': {w}}}).iloc[0]['x']"),
    ("get_dummies keeps the other columns", "pd.get_dummies(pd.DataFrame({{'x': {v}, 's': ['a', 'b', 'a', 'b']}}), columns=['s'])[['x']].to_numpy()"),
    ("category codes", "pd.Categorical(pd.Series({v}).astype(str)).codes"),
    ("category codes of a column", "pd.Series({v}).astype(str).astype('category').cat.codes.to_numpy()"),
    ("frame columns", "pd.DataFrame({{'x': {v}, 'y': {w}}})[['x']].to_numpy()"),
    ("frame from array with names", "pd.DataFrame(np.ones((2, 2), dtype=np.float32), columns=list('ab'))[['a', 'b']].to_numpy()"),
    ("frame drop", "pd.DataFrame({{'x': {v}, 'y': {w}}}).drop(columns=['x']).to_numpy()"),
    ("frame astype", "pd.DataFrame({{'x': {v}, 'y': {w}}}).astype(np.float32).to_numpy()"),
    ("frame of lists", "pd.DataFrame({{'x': [1.5, np.nan] * 2, 'y': [1, 2, 3, 4]}}).to_numpy()"),
    ("array with a Python number", "{a} * 0.5"),
    ("array divided", "{a} / 2"),
    ("array plus int", "{a} + 1"),
    ("arrays divided", "{a} / {b}"),
    ("values and indices", "torch.max(torch.ones(2, 2), 1)[1]"),
    ("unique values", "torch.unique({t}, return_inverse=True)[0]"),
    ("unique inverse indices", "torch.unique({t}, dim=0, return_inverse=True)[1]"),
    ("unique counts", "{t}.unique(return_inverse=True, return_counts=True)[2]"),
    ("unique alone", "{t}.unique()"),
    ("csv column", "pd.read_csv(csv_path)['n'].to_numpy()"),
    ("csv column plus an int", "(pd.read_csv(csv_path)['n'] + 1).to_numpy()"),
    ("csv column times a float", "(pd.read_csv(csv_path)['n'] * 0.5).to_numpy()"),
    ("log of a csv column", "np.asarray(np.log(pd.read_csv(csv_path)['n'] + 1))"),
    ("indicator columns beside another column", "pd.get_dummies(pd.DataFrame({{'x': {v}, 's': ['a', 'b', 'a', 'b']}}), columns=['s'])[['x', 's_a']].to_numpy()"),
    ("indicator columns of a csv frame", "pd.get_dummies(pd.read_csv(csv_path), columns=['k'])[['k_3', 'k_4']].to_numpy()"),
    ("csv columns", "pd.read_csv(csv_path)[['n', 'k']].values"),
    ("csv with a dtype", "pd.read_csv(csv_path, dtype=np.float32).to_numpy()"),
    ("csv with a dtype per column", "pd.read_csv(csv_path, dtype={{'n': 'int32'}})['n'].to_numpy()"),
    ("frame astype per column", "pd.DataFrame({{'x': {v}, 'y': {w}}}).astype({{'x': 'float32'}})['x'].to_numpy()"),
    ("frame astype per column, whole frame", "pd.DataFrame({{'x': {v}, 'y': {w}}}).astype({{'x': 'int32'}}).to_numpy()"),
    ("series with a Python number", "(pd.DataFrame({{'x': {v}, 'y': {w}}})['x'] * 0.5).to_numpy()"),
    ("series plus series", "(pd.DataFrame({{'x': {v}, 'y': {w}}})['x'] + pd.DataFrame({{'x': {v}, 'y': {w}}})['y']).to_numpy()"),
    ("series divided", "(pd.DataFrame({{'x': {v}, 'y': {w}}})['y'] / 2).to_numpy()"),
    ("series compared", "(pd.DataFrame({{'x': {v}, 'y': {w}}})['x'] > 1).to_numpy()"),
    ("frame iloc columns", "pd.DataFrame({{'x': {v}, 'y': {v}}}).iloc[:, :-1].to_numpy()"),
    ("frame iloc column", "pd.DataFrame({{'x': {v}, 'y': {v}}}).iloc[:, -1].to_numpy()"),
    ("tensor of a list of rows", "torch.tensor(list({a}))"),
    ("frame divided", "(pd.DataFrame({{'x': {v}, 'y': {v}}}) / 2).to_numpy()"),
    ("frame times a Python number", "(pd.DataFrame({{'x': {v}, 'y': {v}}}) * 2).to_numpy()"),
    ("frame minus its mean", "(pd.DataFrame({{'x': {v}}}) - pd.DataFrame({{'x': {v}}}).mean()).to_numpy()"),
    ("frame standardised", "((pd.DataFrame({{'x': {v}}}) - pd.DataFrame({{'x': {v}}}).mean()) / (pd.DataFrame({{'x': {v}}}).std() + 1e-8)).to_numpy()"),
    ("series compared, astype int", "(pd.DataFrame({{'x': {v}, 'y': {w}}})['x'] > 1).astype(int).to_numpy()"),
    ("unbind", "{t}.unbind(0)[0]"),
    ("chunk", "{t}.chunk(2)[1]"),
    ("split", "{t}.split(1)[0]"),
    ("qr", "np.linalg.qr({a})[0]"),
    ("svd", "np.linalg.svd({a})[1]"),
    ("eigh", "np.linalg.eigh({a})[1]"),
    ("lstsq solution", "np.linalg.lstsq({a}, {b}, rcond=None)[0]"),
    ("memmap with a dtype", "np.memmap(os.path.join(tempfile.mkdtemp(), 'm.dat'), dtype='float64', mode='w+', shape=(2, 3))"),
    ("memmap by default", "np.memmap(os.path.join(tempfile.mkdtemp(), 'm.dat'), mode='w+', shape=(4,))"),
    ("a slice object keeps the rank", "{t}[slice(0, 1)]"),
    ("slices and an ellipsis keep the rank", "{t}[0:1, ...]"),
    ("an index and an ellipsis", "{t}[0, ...]"),
    ("rows picked by an index array and an ellipsis", "{t}[np.array([1, 0, 1]), ...]"),
    ("a ufunc of a Python number", "np.log10(3.0)"),
    ("a power of Python numbers", "np.power(10.0, -27.0 / 20.0)"),
    ("a power of a ufunc of a number", "np.power(10.0, np.log10(3.0) / 20.0)"),
    ("float32 data times a ufunc of a number", "np.ones(3, dtype=np.float32) * np.sqrt(2.0)"),
    ("the magnitude of a torch spectrum", "torch.fft.rfft({t}).abs()"),
    ("torch.abs of a torch spectrum", "torch.abs(torch.fft.fft({t}))"),
    ("the real part of a torch spectrum", "torch.fft.rfft2({t}).real"),
    ("a Hann window", "torch.hann_window(8)"),
    ("randperm", "torch.randperm(5)"),
    ("randint with a size", "torch.randint(0, 5, (4, 3))"),
    ("cat keeps the rank", "torch.cat([{t}, {u}], 1)"),
    ("butter coefficients", "signal.butter(2, 0.3)[0]"),
    ("cheby1 coefficients", "signal.cheby1(2, 1, 0.3)[1]"),
    ("filtfilt with butter", "signal.filtfilt(*signal.butter(2, 0.3), np.ones(40, dtype=np.float32))"),
    ("rows picked by integer arrays", "np.eye(4)[np.array([[0, 1], [1, 2]])]"),
    ("indices of nonzero entries", "np.nonzero({a})[1]"),
    ("argmax over all entries is a NumPy scalar", "np.argmax({a})"),
    ("arange of a size", "torch.arange({t}.size(0))"),
    ("arange of a size with a float step", "torch.arange(0, {t}.shape[0], 0.5)"),
    ("full of a size", "torch.full((2,), {t}.shape[0])"),
    ("full of a size made float", "torch.full((2,), float({t}.shape[0]))"),
    ("a mean over one dim drops it", "{t}.mean(dim=-1)"),
    ("a sum over one dim with keepdim keeps it", "torch.sum({t}, 0, keepdim=True)"),
    ("amax over one dim", "{t}.amax(1)"),
    ("log_softmax keeps the rank", "{t}.log_softmax(-1)"),
    ("a tensor of joined list slices", "torch.tensor([1, 2, 3][0:len({t})] + [4, 5][1:len({t})])"),
    ("rows of a tensor picked by integer tensors", "{t}[torch.tensor([1, 0, 1])]"),
    # columns picked by position (ImVisible's point columns beside a file name, set 89)
    ("a row across columns picked by position", "pd.DataFrame({{'f': ['a', 'b'], 'x': {w}[:2], 'y': {w}[:2], 'z': [0.5, 1.5]}}).iloc[0, 1:3]"),
    ("a field of that row", "pd.DataFrame({{'f': ['a', 'b'], 'x': {w}[:2], 'y': {w}[:2], 'z': [0.5, 1.5]}}).iloc[0, 1:3].iloc[1]"),
    ("one cell picked by position", "pd.DataFrame({{'f': ['a', 'b'], 'x': {w}[:2], 'z': [0.5, 1.5]}}).iloc[1, 2]"),
    ("a column picked by position", "pd.DataFrame({{'f': ['a', 'b'], 'x': {w}[:2], 'z': [0.5, 1.5]}}).iloc[:, 1]"),
    ("columns picked by position", "pd.DataFrame({{'f': ['a', 'b'], 'x': {w}[:2], 'y': {w}[:2]}}).iloc[:, 1:].to_numpy()"),
]


def test_interpreter_mechanics_match_the_real_libraries() -> None:
    wrong, known, _ = _run(MECHANICS)
    assert wrong == [], "\n".join(wrong)
    assert not [name for name, _ in MECHANICS if not known.get(name)], known


def test_torch_refuses_numpy_object_arrays_in_every_conversion_the_engine_flags() -> None:
    """DG004 reports `torch.tensor(df[cols].values)` of bool columns beside number columns: the
    frame's `.values` is an object array (pandas) and every conversion the engine flags refuses
    it (torch), whatever `dtype=` asks for; a number dtype first converts fine."""
    array = pd.DataFrame({"x": [0.5, 1.5], "s": [True, False]}).to_numpy()
    assert array.dtype == np.dtype(object)
    for name in sorted(CONVERTERS | set(LEGACY_TENSOR_TYPES)):
        convert = getattr(torch, name, None)
        if convert is None:
            continue
        with pytest.raises(TypeError, match=r"can't convert np\.ndarray of type numpy\.object_"):
            convert(array)
    with pytest.raises(TypeError, match=r"numpy\.object_"):
        torch.tensor(array, dtype=torch.float32)
    assert torch.tensor(array.astype("float32")).dtype == torch.float32


def test_one_hot_takes_only_int64_class_indices_as_dg006_says() -> None:
    """DG006 reports `F.one_hot` of class indices that are not int64 with torch's own words."""
    for dtype in (torch.float32, torch.float64, torch.int32, torch.int16, torch.uint8, torch.bool):
        with pytest.raises(RuntimeError, match=r"one_hot is only applicable to index tensor of type LongTensor\."):
            torch.nn.functional.one_hot(torch.zeros(3, dtype=dtype), 4)
    assert torch.nn.functional.one_hot(torch.zeros(3, dtype=torch.int64), 4).dtype == torch.int64


def test_frame_attributes_cover_every_pandas_attribute() -> None:
    """`df.name` reads a column only where pandas has no attribute of that name: a missing one
    would make the engine read a column where pandas calls a method."""
    import pandas as pd

    from dtypeguard.engine.library import pandas as pandas_library

    real = {n for n in (*dir(pd.DataFrame), *dir(pd.Series)) if not n.startswith("_")}
    assert real - pandas_library.FRAME_ATTRIBUTES == set()


def test_isinstance_of_numpy_numbers_is_numpys() -> None:
    """What the engine answers for `isinstance(v, np.generic)` and its kin, for a NumPy number of
    each dtype, is what NumPy answers (None: the engine says nothing)."""
    from dtypeguard.engine.call_effects import _isinstance_npscalar

    names = ["numpy.generic", "numpy.number", "numpy.floating", "numpy.inexact", "numpy.integer", "numpy.bool_", "builtins.float", "builtins.int",
             "builtins.bool", "builtins.str", "numpy.ndarray", "torch.Tensor", *(f"numpy.{d}" for d in NUMPY_DTYPES if d != "bool")]
    answered = 0
    for dtype in NUMPY_DTYPES:
        value = np.ones(1, dtype=dtype)[0]
        for name in names:
            module, attr = name.split(".")
            cls = {"numpy": np, "builtins": builtins, "torch": torch}[module].__dict__[attr]
            said = _isinstance_npscalar(Tensor("npscalar", dtype, "cpu"), [name])
            if said is not None:
                answered += 1
                assert said == Const(isinstance(value, cls)), (dtype, name)
        assert _isinstance_npscalar(Tensor("npscalar", None, "cpu"), ["numpy.generic"]) == Const(True)
    assert answered >= 100


def test_public_names_are_the_same_objects() -> None:
    """`from torch.nn.parameter import Parameter` is read as torch.nn.Parameter: the same class."""
    from dtypeguard.engine.library.vocabulary import PUBLIC_NAMES

    def get(path: str) -> object:
        module, _, attr = path.rpartition(".")
        return getattr(importlib.import_module(module), attr)

    for long, short in PUBLIC_NAMES.items():
        assert get(long) is get(short), long


def test_unprobed_entries_say_nothing_or_are_sources_of_files() -> None:
    """An entry without a probe must be a reader of files or an `unknown` rule."""
    for entry in library.entries():
        if not entry.probe:
            assert entry.result.rule == "unknown" or "fname" in entry.signature.text or entry.signature.text.startswith(("(file,", "(filename,")), entry.name


def test_promotion_table_is_what_the_installed_libraries_compute() -> None:
    spec = importlib.util.spec_from_file_location("gen_library_data", ROOT / "tools/gen_library_data.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_library_data"] = module
    spec.loader.exec_module(module)
    committed = (ROOT / "server/dtypeguard/engine/library/promotion.py").read_text()
    assert committed == module.render(module.tables()), "run tools/gen_library_data.py"


def test_signatures_bind_the_way_python_binds() -> None:
    stack = library.function("numpy.stack")
    assert stack is not None
    assert stack.signature.bind([Const(1)], {"axis": Const(0)}) is not None
    assert stack.signature.bind([Const(1), Const(0)], {"axis": Const(0)}) is None  # multiple values
    assert stack.signature.bind([], {}) is None  # missing `arrays`
    assert stack.signature.bind([Const(1)], {"bogus": Const(0)}) is None
    assert stack.signature.bind([Const(1)], {}, splat=True) is None


# What `torch.load`'s weights-only unpickler refuses (DG011): the engine's word on each payload
# against a real save and load with the installed torch.
PAYLOAD_SETUP = (
    "import argparse, datetime, os, pathlib, tempfile\nimport numpy as np\nimport pandas as pd\nimport torch\nfrom torch import nn\nimport torch.nn.functional as F\n"
    "from sklearn.preprocessing import MinMaxScaler, StandardScaler\n"
    "import yacs.config\nfrom omegaconf import OmegaConf\n"
    "path = os.path.join(tempfile.mkdtemp(), 'ckpt.pt')\n"
    "class Config:\n    pass\n"
    "def helper(x):\n    return x\n"
)
PAYLOADS = [
    "np.ones(3)", "np.float64(1.5)", "np.zeros((), dtype=np.int64)", "argparse.Namespace(lr=0.1)", "nn.Linear(2, 2)",
    "F.relu", "torch.relu", "Config()", "helper", "Config", "np.random.get_state()", "(np.random.get_state(), 3)",
    "torch.device('cpu')", "torch.ones(2)", "nn.Linear(2, 2).state_dict()", "(1, 2.5)", "'text'", "3", "0.5", "None",
    # pandas objects (engine/library/pandas.py PICKLED and PICKLED_KINDS)
    "pd.Index(['a', 'b'], name='gene')", "pd.RangeIndex(3)", "pd.MultiIndex.from_tuples([('a', 1)])", "pd.Categorical(['a'])",
    "pd.Timestamp('2020-01-01')", "pd.Timedelta(days=1)", "pd.DataFrame({'x': [1.0]})", "pd.Series([1.0, 2.0])",
    "pd.DataFrame({'x': [1.0]}).values", "pathlib.Path('runs') / 'ckpt'", "np.dtype('float32')", "np.float32", "np.dtype('<i8')", "torch.float16",
    "StandardScaler().fit(np.ones((3, 2)))", "MinMaxScaler()",
    # the standard library (engine/library/stdlib.py)
    "datetime.datetime.now()", "datetime.date.today()", "datetime.timedelta(days=1)", "datetime.datetime(2020, 1, 1)",
    # other libraries' config objects (engine/library/config_objects.py)
    "yacs.config.CfgNode({'lr': 0.1})", "OmegaConf.create({'lr': 0.1})", "OmegaConf.create([1, 2])",
    "OmegaConf.merge(OmegaConf.create({'a': 1}), {'b': 2})", "OmegaConf.to_container(OmegaConf.create({'a': 1}))",
]


def test_weights_only_refusals_match_torch(tmp_path: Path) -> None:
    """Run as a real script (a class or function of `__main__` pickles by reference, as in users' code)."""
    probe = PAYLOAD_SETUP + "import json\nout = {}\n"
    for i, payload in enumerate(PAYLOADS):
        probe += (
            f"try:\n    torch.save({{'step': 1, 'x': {payload}}}, path)\n    torch.load(path)\n    out[{i}] = False\n"
            f"except Exception as error:\n    out[{i}] = 'Weights only load failed' in str(error) or repr(error)\n"
        )
    probe += "print(json.dumps(out))\n"
    script = tmp_path / "probe.py"
    script.write_text(probe)
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=True)
    refused = json.loads(run.stdout.strip().splitlines()[-1])
    for i, payload in enumerate(PAYLOADS):
        real = refused[str(i)]
        assert isinstance(real, bool), (payload, real)  # any other failure: the probe itself is wrong
        source = PAYLOAD_SETUP + f"torch.save({{'step': 1, 'x': {payload}}}, path)\nckpt = torch.load(path)\n"
        said = [s.saves_pickled for s in check_source(source).events.saves if s.saves_pickled]
        assert bool(said) == real, (payload, said, real)


# How a load is written decides whether it is weights-only (`_default_to_weights_only`: only
# when no `pickle_module` is given), and a file opened for it is the file its path names.
LOAD_FORMS = [
    "torch.load(path)", "torch.load(path, pickle_module=pickle)", "torch.load(path, pickle_module=None)",
    "torch.load(path, None, pickle)", "torch.load(open(path, 'rb'))", "torch.load(open(path, 'rb'), pickle_module=pickle)",
]


def test_which_loads_refuse_a_pickled_object_is_torchs(tmp_path: Path) -> None:
    setup = "import pickle\nimport torch\nclass W:\n    pass\npath = 'w.pkl'\ntorch.save(W(), open(path, 'wb'))\n"
    probe = setup + "import json\nout = {}\n"
    for i, form in enumerate(LOAD_FORMS):
        probe += f"try:\n    {form}\n    out[{i}] = False\nexcept Exception as error:\n    out[{i}] = 'Weights only load failed' in str(error) or repr(error)\n"
    probe += "print(json.dumps(out))\n"
    (tmp_path / "probe.py").write_text(probe)
    run = subprocess.run([sys.executable, "probe.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=True)
    refused = json.loads(run.stdout.strip().splitlines()[-1])
    assert [refused[str(i)] for i in range(len(LOAD_FORMS))] == [True, False, True, False, True, False]  # (the facts themselves)
    for i, form in enumerate(LOAD_FORMS):
        found = [f.code for f in check_source(setup + f"ckpt = {form}\n").findings]
        assert (found == ["DG011"]) == refused[str(i)], (form, found)


# What the engine says of scikit-learn (datasets, scalers, encoders, splits), against the real one.
SKLEARN_SETUP = (
    "import numpy as np\nfrom sklearn import datasets\nfrom sklearn.model_selection import train_test_split\n"
    "from sklearn.preprocessing import LabelEncoder, MinMaxScaler, StandardScaler\n"
    "from sklearn.preprocessing import MaxAbsScaler, Normalizer, OneHotEncoder, OrdinalEncoder, PolynomialFeatures, PowerTransformer, QuantileTransformer, RobustScaler\n"
    "from sklearn.decomposition import PCA, TruncatedSVD\nfrom sklearn.compose import ColumnTransformer\nimport pandas as pd\n"
    "from sklearn.utils.class_weight import compute_class_weight, compute_sample_weight\n"
    "x32 = np.random.rand(20, 3).astype(np.float32)\nx64 = np.random.rand(20, 3)\nxi = np.random.randint(0, 5, (20, 3))\n"
    "df = pd.DataFrame({'a': np.random.rand(20), 'n': np.random.randint(0, 5, 20), 'c': np.random.choice(['x', 'y'], 20), 's': np.random.rand(20).astype(np.float32), 't': np.random.rand(20).astype(np.float32)})\n"
)
_SCALERS = ["MinMaxScaler", "MaxAbsScaler", "RobustScaler", "Normalizer", "PowerTransformer", "QuantileTransformer(n_quantiles=10)", "PolynomialFeatures", "PCA(1)", "TruncatedSVD(1)"]
SKLEARN_CASES = [
    *[f"datasets.{name}()[{i}]" for name in ("make_classification", "make_blobs", "make_moons", "make_circles", "make_regression", "make_friedman1") for i in (0, 1)],
    "StandardScaler().fit_transform(x64)", "StandardScaler().fit_transform(x32)", "StandardScaler().fit_transform(xi)",
    "MinMaxScaler().fit_transform(x64)", "MinMaxScaler().fit_transform(x32)",
    "LabelEncoder().fit_transform(['a', 'b', 'a'])", "LabelEncoder().fit_transform(xi[:, 0])",
    "train_test_split(x32, xi[:, 0])[0]", "train_test_split(x32, xi[:, 0])[3]", "train_test_split(x64, test_size=0.25)[1]",
    *[f"datasets.{name}(){part}" for name in ("load_iris", "load_digits", "load_wine", "load_breast_cancer", "load_diabetes")
      for part in ("['data']", "['target']", ".data", ".target")],
    "datasets.load_iris(return_X_y=True)[1]", "datasets.load_diabetes(return_X_y=True)[0]",
    # vocab.SKLEARN_FLOAT_TRANSFORMERS on arrays and frames, vocab.SKLEARN_ENCODERS, ColumnTransformer's parts
    *[f"{cls if '(' in cls else cls + '()'}.fit_transform({x})" for cls in _SCALERS for x in ("x64", "x32", "xi", "df[['a', 'n']]", "df[['s', 't']]")],
    "OneHotEncoder(sparse_output=False).fit_transform(df[['c']])", "OneHotEncoder(sparse_output=False, dtype=np.float32).fit_transform(df[['c']])",
    "OrdinalEncoder().fit_transform(df[['c']])", "OrdinalEncoder().fit_transform(x32)",
    "ColumnTransformer([('num', StandardScaler(), ['a', 'n']), ('cat', OneHotEncoder(sparse_output=False), ['c'])]).fit_transform(df)",
    "ColumnTransformer([('num', StandardScaler(), ['s'])]).fit_transform(df)",
    "ColumnTransformer([('num', StandardScaler(), ['a']), ('f', MinMaxScaler(), ['s'])]).fit_transform(df)",
    "compute_class_weight('balanced', classes=np.unique(xi[:, 0]), y=xi[:, 0])", "compute_sample_weight('balanced', xi[:, 0])",
    "compute_class_weight('balanced', classes=np.array([0, 1], dtype=np.int32), y=np.array([0, 1, 1], dtype=np.int32))",
]


def test_scikit_learn_facts_match_scikit_learn() -> None:
    pytest.importorskip("sklearn")
    source = SKLEARN_SETUP + "".join(f"r_{i} = {expr}\n" for i, expr in enumerate(SKLEARN_CASES))
    result = check_source(source)
    stated = {f.name: f.value for f in result.facts.values if f.store and f.name.startswith("r_")}
    namespace: dict[str, Any] = {}
    exec(SKLEARN_SETUP, namespace)
    wrong, said_any = [], 0
    for i, expr in enumerate(SKLEARN_CASES):
        said = _engine(stated.get(f"r_{i}"))
        if said is None:
            continue
        said_any += 1
        real = _real(eval(expr, namespace))
        if said != real:
            wrong.append(f"`{expr}`: engine says {said}, scikit-learn gives {real}")
    assert wrong == [], "\n".join(wrong)
    assert said_any >= len(SKLEARN_CASES) - 2, f"the engine answered only {said_any} of {len(SKLEARN_CASES)}"


def test_layer_tables_name_real_torch_modules() -> None:
    """Every layer the engine knows by name is a real `torch.nn` class; every pass-through layer
    has no parameters and keeps a float64 input float64 (what the engine assumes of it)."""
    import torch
    from torch import nn

    from dtypeguard.engine.library import vocabulary as vocab

    missing = [n for n in (*vocab.LAYER_KINDS, *vocab.PASSTHROUGH_LAYERS) if not hasattr(nn, n)]
    assert missing == []
    made = {"Softmax2d": torch.rand(1, 2, 4, 4), "GLU": torch.rand(2, 4), "PixelShuffle": torch.rand(1, 4, 2, 2), "PixelUnshuffle": torch.rand(1, 1, 4, 4), "ChannelShuffle": torch.rand(1, 4, 2, 2)}
    args = {"Unflatten": (1, (2, 2)), "PixelShuffle": (2,), "PixelUnshuffle": (2,), "ChannelShuffle": (2,), "Threshold": (0.1, 0.0), "LocalResponseNorm": (2,),
            "ZeroPad2d": (1,), "ReflectionPad1d": (1,), "ReflectionPad2d": (1,), "ReplicationPad2d": (1,), "ConstantPad1d": (1, 0.0), "ConstantPad2d": (1, 0.0),
            "ConstantPad3d": (1, 0.0), "ZeroPad1d": (1,), "ZeroPad3d": (1,), "ReflectionPad3d": (1,), "ReplicationPad1d": (1,), "ReplicationPad3d": (1,),
            "CircularPad1d": (1,), "CircularPad2d": (1,), "CircularPad3d": (1,),
            "Upsample": (None, 2.0), "MaxPool1d": (2,), "MaxPool2d": (2,), "MaxPool3d": (2,), "AvgPool1d": (2,), "AvgPool2d": (2,), "AvgPool3d": (2,),
            "AdaptiveAvgPool1d": (1,), "AdaptiveAvgPool2d": (1,), "AdaptiveAvgPool3d": (1,), "AdaptiveMaxPool1d": (1,), "AdaptiveMaxPool2d": (1,), "AdaptiveMaxPool3d": (1,)}
    for name in vocab.PASSTHROUGH_LAYERS:
        layer = getattr(nn, name)(*args.get(name, ()))
        assert list(layer.parameters()) == [], name
        x = made.get(name, torch.rand(1, 4, 4, 4, 4) if name.endswith("3d") else torch.rand(1, 4, 4, 4) if name.endswith("2d") and name != "Dropout2d" else torch.rand(1, 4, 4))
        if name == "Unflatten":
            x = torch.rand(3, 4)
        both = (x.double(),) * (2 if name in ("CosineSimilarity", "PairwiseDistance") else 1)  # (two inputs, compared)
        assert layer(*both).dtype == torch.float64, name


def test_the_norm_layers_with_an_int64_counter_are_torchs() -> None:
    """`COUNTED_NORMS`, built with their defaults, keep an int64 `num_batches_tracked` in their
    state_dict, and `track_running_stats` is their fifth parameter (the engine reads it there);
    built without running statistics, they keep none. No other norm layer the engine knows has one."""
    import inspect

    from torch import nn

    from dtypeguard.engine.library import vocabulary as vocab

    for name in vocab.COUNTED_NORMS:
        cls = getattr(nn, name)
        assert list(inspect.signature(cls).parameters)[4] == "track_running_stats", name
        assert cls(4).state_dict()["num_batches_tracked"].dtype == torch.int64, name
        assert "num_batches_tracked" not in cls(4, track_running_stats=False).state_dict(), name
    for name, (kind, _) in vocab.LAYER_KINDS.items():
        if kind != "norm" or name in vocab.COUNTED_NORMS or name.startswith("Lazy"):
            continue
        layer = getattr(nn, name)(*((2, 4) if name == "GroupNorm" else (4,)))
        assert "num_batches_tracked" not in layer.state_dict(), name


def test_numpy_dtype_spellings_are_numpys() -> None:
    """Every NumPy dtype spelling the engine reads names the dtype NumPy makes of it."""
    from dtypeguard.engine.library.vocabulary import NUMPY_DTYPE_NAMES

    aliases = {"float_": "float64", "int_": "int64", "bool_": "bool", "long": "int64", "longlong": "int64", "intc": "int32", "short": "int16"}
    for spelling, name in NUMPY_DTYPE_NAMES.items():
        if spelling in ("bfloat16", "float_", "bool_", "int_") or (spelling in aliases and not hasattr(np, spelling)):
            continue  # torch-only, or removed from NumPy 2
        real = np.dtype(getattr(np, spelling) if hasattr(np, spelling) and spelling not in ("float", "int", "bool") else spelling).name
        assert real == name, (spelling, real, name)



def test_zero_dim_tensors_promote_as_torch_does() -> None:
    """A 0-dim tensor does not widen a dimensioned one of its category; a higher category does."""
    import torch

    cases = []
    for dim in ("float32", "float16", "int32", "int64", "bool"):
        for zero in ("float64", "float32", "int64", "int32", "bool"):
            cases.append((dim, zero))
    src = "import torch\n" + "".join(
        f"r_{i} = torch.ones(3, dtype=torch.{d}) * torch.tensor(1, dtype=torch.{z})\n"
        f"w_{i} = torch.where(torch.ones(3, dtype=torch.bool), torch.ones(3, dtype=torch.{d}), torch.tensor(1, dtype=torch.{z}))\n"
        for i, (d, z) in enumerate(cases)
    )
    stated = {f.name: f.value for f in check_source(src).facts.values if f.store}
    wrong, said_any = [], 0
    for i, (d, z) in enumerate(cases):
        dims, zero = torch.ones(3, dtype=getattr(torch, d)), torch.tensor(1, dtype=getattr(torch, z))
        for name, real_value in ((f"r_{i}", dims * zero), (f"w_{i}", torch.where(torch.ones(3, dtype=torch.bool), dims, zero))):
            real = str(real_value.dtype).removeprefix("torch.")
            said = _engine(stated.get(name))
            said_any += said is not None
            if said is not None and said[1] != real:
                wrong.append(f"{name}: {d} with 0-dim {z}: engine {said[1]}, torch {real}")
    assert wrong == [], wrong
    assert said_any >= len(cases), said_any


def test_rank_keeping_layers_keep_the_rank_in_torch() -> None:
    """The layers whose output the engine gives the input's rank (call_effects._RANK_KEEPING_LAYERS)."""
    import torch
    from torch import nn

    from dtypeguard.engine.call_effects import _RANK_KEEPING_LAYERS

    needs: dict[str, tuple[int, ...]] = {"Linear": (4, 4), "LazyLinear": (4,), "LayerNorm": (4,), "RMSNorm": (4,), "Softmax": (-1,), "LogSoftmax": (-1,)}
    needs.update({f"Conv{d}": (4, 4, 1) for d in ("1d", "2d", "3d", "Transpose1d", "Transpose2d")})
    needs.update({"BatchNorm1d": (4,), "BatchNorm2d": (4,), "GroupNorm": (2, 4), "MaxPool1d": (1,), "MaxPool2d": (1,), "AvgPool1d": (1,), "AvgPool2d": (1,)})
    needs.update({"AdaptiveAvgPool1d": (2,), "AdaptiveAvgPool2d": (2,)})
    shapes = {"1d": ((4, 5), (2, 4, 5)), "2d": ((4, 5, 5), (2, 4, 5, 5)), "3d": ((4, 5, 5, 5), (2, 4, 5, 5, 5))}
    for name in sorted(_RANK_KEEPING_LAYERS):
        layer = getattr(nn, name)(*needs.get(name, ()))
        kind = next((k for k in shapes if name.endswith(k)), "")
        own = {"BatchNorm1d": ((2, 4), (2, 4, 5)), "BatchNorm2d": ((2, 4, 5, 5),), "GroupNorm": ((2, 4), (2, 4, 5))}
        for shape in own.get(name) or (shapes[kind] if kind else ((2, 4), (2, 3, 4))):
            assert layer(torch.randn(*shape)).ndim == len(shape), (name, shape)


def test_batch_ranks_are_what_the_dataloader_makes() -> None:
    """Ranks through TensorDataset/Dataset items and default_collate, against a real DataLoader
    (a rank one too many made integer class labels look like one-hot rows)."""
    import torch

    src = (
        "import numpy as np\nimport torch\nfrom torch.utils.data import DataLoader, Dataset, TensorDataset\n"
        "class Rows(Dataset):\n    def __init__(self):\n        self.x = np.random.rand(16, 4).astype(np.float32)\n        self.y = np.random.randint(0, 3, 16)\n"
        "    def __len__(self):\n        return 16\n    def __getitem__(self, i):\n        return self.x[i], self.y[i]\n"
        "for xb, yb in DataLoader(TensorDataset(torch.randn(16, 4), torch.randint(0, 3, (16,))), batch_size=4):\n    r_x = xb\n    r_y = yb\n"
        "for xb, yb in DataLoader(Rows(), batch_size=4):\n    r_x = xb\n    r_y = yb\n"
    )
    stated: dict[str, set[int | None]] = {}
    for fact in check_source(src).facts.values:
        if fact.store and fact.name in ("r_x", "r_y") and isinstance(fact.value, Tensor):
            stated.setdefault(fact.name, set()).add(fact.value.ndim)
    namespace: dict[str, Any] = {}
    exec(src, namespace)
    assert isinstance(namespace["r_x"], torch.Tensor)
    real = {"r_x": namespace["r_x"].ndim, "r_y": namespace["r_y"].ndim}
    for name, ranks in stated.items():
        assert ranks <= {real[name], None}, (name, ranks, real[name])
    assert stated.get("r_x") and stated.get("r_y"), stated


def test_a_batch_of_tuples_or_lists_is_a_list_as_the_dataloader_makes_it() -> None:
    """`default_collate` of tuple or list items gives a list (pytorch_toolbox's
    `if not isinstance(target, list): target = [target]` is then not taken: set 57's az04)."""
    src = (
        "import numpy as np\nimport torch\nfrom torch.utils.data import DataLoader, Dataset\n"
        "class Pairs(Dataset):\n    def __len__(self):\n        return 8\n"
        "    def __getitem__(self, i):\n        return [torch.zeros(3)], (np.zeros(2, dtype=np.float32), np.int64(1))\n"
        "for data, target in DataLoader(Pairs(), batch_size=4):\n"
        "    r_data = torch.zeros(1, dtype=torch.float64 if isinstance(data, list) else torch.int64)\n"
        "    r_target = torch.zeros(1, dtype=torch.float64 if isinstance(target, list) else torch.int64)\n"
        "    r_tuple = torch.zeros(1, dtype=torch.float64 if isinstance(target, tuple) else torch.int64)\n"
    )
    namespace: dict[str, Any] = {}
    exec(src, namespace)
    real = {name: str(namespace[name].dtype).removeprefix("torch.") for name in ("r_data", "r_target", "r_tuple")}
    assert real == {"r_data": "float64", "r_target": "float64", "r_tuple": "int64"}
    stated = {f.name: f.value.dtype for f in check_source(src).facts.values if f.store and f.name in real and isinstance(f.value, Tensor)}
    assert stated == real, stated


def test_autocast_lowering_is_what_cpu_autocast_does() -> None:
    """`AUTOCAST_LOWERED` ops give the autocast dtype on float32 2-D/3-D inputs; the ones the
    engine leaves alone (`AUTOCAST_KEPT`) stay float32 under CPU autocast."""
    from dtypeguard.engine.library.torch import AUTOCAST_KEPT, AUTOCAST_LOWERED

    m, b, v = torch.rand(3, 3), torch.rand(2, 3, 3), torch.rand(3)
    calls = {
        "mm": lambda: torch.mm(m, m), "bmm": lambda: torch.bmm(b, b), "matmul": lambda: torch.matmul(b, b), "@": lambda: m @ m,
        "addmm": lambda: torch.addmm(m, m, m), "baddbmm": lambda: torch.baddbmm(b, b, b), "einsum": lambda: torch.einsum("ij,jk->ik", m, m),
        "tensordot": lambda: torch.tensordot(m, m, 1), "inner": lambda: torch.inner(m, m),
        "dot": lambda: torch.dot(v, v), "mv": lambda: torch.mv(m, v), "outer": lambda: torch.outer(v, v), "add": lambda: m + m, "mul": lambda: m * m,
    }
    assert calls.keys() == AUTOCAST_LOWERED | AUTOCAST_KEPT
    for dtype in (torch.bfloat16, torch.float16):
        with torch.autocast("cpu", dtype=dtype):
            got = {name: call().dtype for name, call in calls.items()}
        assert {n for n, d in got.items() if d == dtype} == AUTOCAST_LOWERED, got
        assert {n for n, d in got.items() if d == torch.float32} == AUTOCAST_KEPT, got
    with torch.autocast("cpu", dtype=torch.bfloat16):  # `inner` of 1-D operands: the dot path, float32; `@` is lowered
        assert torch.inner(v, v).dtype == torch.float32 and (v @ v).dtype == (m @ v).dtype == torch.bfloat16


def test_reductions_over_an_axis_and_flatten_have_the_ranks_the_engine_gives() -> None:
    """`a.max(axis=1)` drops one dimension (with keepdims, none); `nn.Flatten()` merges 1..-1;
    `torch.stack` adds one; `torch.diag_embed` adds one."""
    a = np.zeros((3, 4, 5))
    assert a.max(axis=1).ndim == np.sum(a, axis=0).ndim == 2 and a.max(axis=1, keepdims=True).ndim == 3
    assert torch.nn.Flatten()(torch.zeros(2, 3, 4, 5)).ndim == 2 and torch.nn.Flatten(0, 1)(torch.zeros(2, 3, 4)).ndim == 2
    assert torch.stack([torch.zeros(3), torch.zeros(3)], -1).ndim == 2 and torch.diag_embed(torch.zeros(2, 3)).ndim == 3
    text = (
        "import numpy as np\nimport torch\nfrom torch import nn\n"
        "a = np.zeros((3, 4, 5))\nr1 = a.max(axis=1)\nr2 = np.sum(a, axis=0)\nr3 = a.max(axis=1, keepdims=True)\n"
        "f1 = nn.Flatten()(torch.zeros(2, 3, 4, 5))\nf2 = nn.Flatten(0, 1)(torch.zeros(2, 3, 4))\n"
        "s = torch.stack([torch.zeros(3), torch.zeros(3)], -1)\nd = torch.diag_embed(torch.zeros(2, 3))\n"
    )
    values = {f.name: f.value for f in check_source(text, "ranks.py").facts.values}
    ranks = {name: getattr(values.get(name), "ndim", None) for name in ("r1", "r2", "r3", "f1", "f2", "s", "d")}
    assert ranks == {"r1": 2, "r2": 2, "r3": 3, "f1": 2, "f2": 2, "s": 2, "d": 3}


def test_an_embedding_adds_a_dimension() -> None:
    """`nn.Embedding` gives a vector for each index: one dimension more than its input."""
    emb = torch.nn.Embedding(10, 4)
    assert emb(torch.zeros(3, dtype=torch.long)).ndim == 2 and emb(torch.zeros(2, 3, dtype=torch.long)).ndim == 3
    text = "import torch\nfrom torch import nn\nemb = nn.Embedding(10, 4)\ne1 = emb(torch.zeros(3, dtype=torch.long))\ne2 = emb(torch.zeros(2, 3, dtype=torch.long))\n"
    values = {f.name: f.value for f in check_source(text, "ranks.py").facts.values}
    assert [getattr(values.get(n), "ndim", None) for n in ("e1", "e2")] == [2, 3]


def test_fft_parts_and_numpy_matmul_are_what_numpy_computes() -> None:
    """`np.fft` transforms (numpy.FFT_TRANSFORMS, FFT_PARTS), what `np.abs`/`.real`/`.imag` of
    them give (COMPLEX_PARTS), and NumPy's promotion in `a @ b` (a float32 spectrogram times a
    float64 filterbank): the engine's answers against NumPy's, dtype and rank."""
    from dtypeguard.engine.library.numpy import COMPLEX_PARTS, FFT_PARTS, FFT_TRANSFORMS

    cases = []
    for dtype in FFT_PARTS:
        setup = f"x_{dtype} = np.zeros((4, 4), dtype=np.{dtype if dtype != 'bool' else 'bool_'})\n"
        cases += [(setup, f"np.abs(np.fft.{name}(x_{dtype}))") for name in sorted(FFT_TRANSFORMS)]
        cases += [(setup, f"np.fft.rfft(x_{dtype}).{part}") for part in ("real", "imag")]
        cases += [(setup, f"np.{part}(np.fft.fft(x_{dtype}))") for part in sorted(COMPLEX_PARTS - {"real", "imag"})]
        cases += [(setup, f"abs(np.fft.rfft(x_{dtype}))")]
    for a in ("float32", "float64", "float16", "int64"):
        for b in ("float32", "float64", "int32"):
            cases.append((f"m_{a} = np.ones((3, 4), dtype=np.{a})\nn_{b} = np.ones((4, 2), dtype=np.{b})\n", f"m_{a} @ n_{b}"))
    setup = "import numpy as np\n" + "".join(dict.fromkeys(s for s, _ in cases))
    source = setup + "".join(f"r_{i} = {expr}\n" for i, (_, expr) in enumerate(cases))
    stated = {f.name: f.value for f in check_source(source).facts.values if f.store and f.name.startswith("r_")}
    namespace: dict[str, Any] = {}
    exec(setup, namespace)
    wrong, said = [], 0
    for i, (_, expr) in enumerate(cases):
        value = stated.get(f"r_{i}")
        if not isinstance(value, Tensor) or not value.dtype:
            continue
        said += 1
        real = eval(expr, namespace)
        if (value.kind, value.dtype, value.ndim) != ("ndarray", str(real.dtype), real.ndim if value.ndim is not None else None):
            wrong.append(f"`{expr}`: engine says {value.kind} {value.dtype} rank {value.ndim}, NumPy gives {real.dtype} rank {real.ndim}")
    assert wrong == [], "\n".join(wrong)
    assert said >= len(cases) - 2, f"the engine answered only {said} of {len(cases)}"


def test_torch_default_factories_follow_the_default_dtype() -> None:
    """Every factory the engine says follows the default dtype does so in torch (float64 set)."""
    from dtypeguard.engine.library import vocabulary as vocab

    calls = {"zeros": "(2,)", "ones": "(2,)", "empty": "(2,)", "randn": "(2,)", "rand": "(2,)", "linspace": "(0, 1, 3)",
             "logspace": "(0, 1, 3)", "eye": "(2,)", "normal": "(0.0, 1.0, (2,))", "empty_strided": "((2,), (1,))",
             "full": "((2,), 1.5)", "arange": "(0.0, 1.0, 0.5)", "range": "(0.0, 1.0, 0.5)", "tensor": "([1.5])",
             "as_tensor": "([1.5])", "Tensor": "([1, 2])"}
    calls.update({name: "(8,)" for name in vocab.TORCH_DEFAULT_FACTORIES if name.endswith("_window")})
    assert set(calls) == set(vocab.TORCH_DEFAULT_FACTORIES)
    previous = torch.get_default_dtype()
    torch.set_default_dtype(torch.float64)
    try:
        for name, args in calls.items():
            if name == "range":
                continue  # deprecated alias of arange (warns); same rule
            assert eval(f"torch.{name}{args}").dtype == torch.float64, name
    finally:
        torch.set_default_dtype(previous)
    source = "import torch\ntorch.set_default_dtype(torch.float64)\n" + "".join(f"r_{name} = torch.{name}{args}\n" for name, args in calls.items())
    stated = {f.name: f.value for f in check_source(source).facts.values if f.store}  # type: ignore[union-attr]
    wrong = [name for name in calls if getattr(stated.get(f"r_{name}"), "dtype", None) != "float64"]
    assert wrong == [], wrong


def test_finfo_numbers_are_torchs() -> None:
    from dtypeguard.engine.library.torch import FINFO

    for dtype, numbers in FINFO.items():
        info = torch.finfo(getattr(torch, dtype))
        assert numbers == {"max": info.max, "min": info.min, "eps": info.eps, "tiny": info.tiny}, dtype


def test_the_torch_version_the_tables_state_is_this_torchs() -> None:
    """`if torch.__version__ < "2.6":` is decided for vocabulary.TORCH_VERSION; a version
    comparison answers as `TorchVersion` does (versions, not strings: "2.13" > "2.6")."""
    from dtypeguard.engine.library.vocabulary import TORCH_VERSION

    assert ".".join(map(str, TORCH_VERSION)) == torch.__version__.split("+")[0]
    assert (torch.__version__ < "2.6") is False and (torch.__version__ >= "2.6") is True  # (as strings: the other way)


def test_every_lr_scheduler_state_holds_no_tensor() -> None:
    """`torch.optim.lr_scheduler.<Class>(...)` is a `Scheduler` whose `state_dict()` holds no
    tensor (values.Scheduler: a saved scheduler state needs no `map_location`): true of every
    scheduler class of this torch, built and stepped, and its state loads weights-only."""
    import inspect
    import io

    sched = torch.optim.lr_scheduler
    classes = {n: c for n, c in vars(sched).items() if inspect.isclass(c) and issubclass(c, (sched.LRScheduler, sched.ReduceLROnPlateau)) and not n.startswith("_") and c not in (sched.LRScheduler, sched._LRScheduler)}

    def opt() -> torch.optim.Optimizer:
        return torch.optim.SGD([torch.nn.Parameter(torch.zeros(2))], lr=0.1, momentum=0.9)

    made = {
        "LambdaLR": lambda o: sched.LambdaLR(o, lambda s: 0.9**s), "MultiplicativeLR": lambda o: sched.MultiplicativeLR(o, lambda s: 0.9),
        "StepLR": lambda o: sched.StepLR(o, 2), "MultiStepLR": lambda o: sched.MultiStepLR(o, [1, 2]), "ConstantLR": lambda o: sched.ConstantLR(o),
        "LinearLR": lambda o: sched.LinearLR(o), "ExponentialLR": lambda o: sched.ExponentialLR(o, 0.9), "PolynomialLR": lambda o: sched.PolynomialLR(o),
        "CosineAnnealingLR": lambda o: sched.CosineAnnealingLR(o, 4), "ReduceLROnPlateau": lambda o: sched.ReduceLROnPlateau(o),
        "CyclicLR": lambda o: sched.CyclicLR(o, 0.01, 0.1), "OneCycleLR": lambda o: sched.OneCycleLR(o, 0.1, total_steps=10),
        "CosineAnnealingWarmRestarts": lambda o: sched.CosineAnnealingWarmRestarts(o, 2),
        "SequentialLR": lambda o: sched.SequentialLR(o, [sched.ConstantLR(o), sched.StepLR(o, 2)], [2]),
        "ChainedScheduler": lambda o: sched.ChainedScheduler([sched.ConstantLR(o), sched.StepLR(o, 2)]),
    }
    assert set(classes) <= set(made), set(classes) - set(made)  # a new scheduler class: add it here

    def tensors(value: object) -> list[object]:
        if isinstance(value, torch.Tensor):
            return [value]
        items = value.values() if isinstance(value, dict) else value if isinstance(value, (list, tuple)) else ()
        return [t for item in items for t in tensors(item)]

    for name in classes:
        o = opt()
        s = made[name](o)
        for _ in range(3):
            o.step()
            s.step(1.0) if name == "ReduceLROnPlateau" else s.step()
        state = s.state_dict()
        assert tensors(state) == [], name
        buffer = io.BytesIO()
        torch.save(state, buffer)
        buffer.seek(0)
        torch.load(buffer, weights_only=True)


def test_every_transformers_schedule_factory_makes_a_tensorless_torch_scheduler() -> None:
    """vocabulary.HF_SCHEDULERS: each factory, reached as `transformers.X` and as
    `transformers.optimization.X`, returns a torch LR scheduler whose state holds no tensor and
    loads weights-only (`get_scheduler` for every schedule name it takes with plain options)."""
    import io

    import transformers
    from transformers import optimization

    from dtypeguard.engine.library.vocabulary import HF_SCHEDULERS

    sched = torch.optim.lr_scheduler

    def opt() -> torch.optim.Optimizer:
        return torch.optim.AdamW([torch.nn.Parameter(torch.zeros(2))], lr=0.1)

    options = {"num_warmup_steps": 2, "num_training_steps": 10, "num_decay_steps": 3, "min_lr_rate": 0.1}
    made = []
    for name in sorted(HF_SCHEDULERS - {"get_scheduler"}):
        factory = getattr(optimization, name)
        assert getattr(transformers, name) is factory, name
        params = inspect.signature(factory).parameters
        o = opt()
        made.append((name, factory(o, **{k: v for k, v in options.items() if k in params}), o))
    assert transformers.get_scheduler is optimization.get_scheduler
    extra = {"warmup_stable_decay": {"num_decay_steps": 3}, "cosine_with_min_lr": {"min_lr_rate": 0.1}, "cosine_warmup_with_min_lr": {"min_lr_rate": 0.1}}
    for kind in transformers.SchedulerType:
        if kind.value in ("greedy", "adafactor"):  # (not LR schedules of an ordinary optimizer: not claimed)
            continue
        o = opt()
        made.append((f"get_scheduler({kind.value!r})", optimization.get_scheduler(kind, o, num_warmup_steps=2, num_training_steps=10,
                                                                                   scheduler_specific_kwargs=extra.get(kind.value)), o))
    for name, scheduler, o in made:
        assert isinstance(scheduler, (sched.LRScheduler, sched.ReduceLROnPlateau)), name
        for _ in range(3):
            o.step()
            scheduler.step(1.0) if isinstance(scheduler, sched.ReduceLROnPlateau) else scheduler.step()
        buffer = io.BytesIO()
        torch.save(scheduler.state_dict(), buffer)
        buffer.seek(0)
        state = torch.load(buffer, weights_only=True)
        assert not any(isinstance(v, torch.Tensor) for v in state.values()), name
    assert len(made) >= len(HF_SCHEDULERS)


def test_optimizer_parameters_are_torchs() -> None:
    """`'fused' in inspect.signature(torch.optim.AdamW).parameters` is decided from a table
    (vocabulary.OPTIMIZER_PARAMETERS): it must say what this torch says, class by class."""
    import inspect

    from dtypeguard.engine.library.vocabulary import OPTIMIZER_PARAMETERS

    assert len(OPTIMIZER_PARAMETERS) >= 10
    for name, params in OPTIMIZER_PARAMETERS.items():
        assert params == tuple(inspect.signature(getattr(torch.optim, name)).parameters), name


def test_methods_that_write_a_source_refuse_another_dtype_with_the_words_dg004_gives() -> None:
    """Every method in `SOURCE_METHODS` refuses a source of another dtype on the real torch, in
    both directions, with the error DG004 quotes; and the engine reports each one."""
    from dtypeguard.engine.call_effects import SOURCE_METHODS
    from dtypeguard.rules.dg004_input_dtype_mismatch import _source_errors

    names = {torch.float32: "float32", torch.float64: "float64"}
    for method, (position, keyword) in SOURCE_METHODS.items():
        for into, source in ((torch.float32, torch.float64), (torch.float64, torch.float32)):
            target = torch.zeros(3, dtype=into)
            values = torch.ones(3, dtype=source)
            index = torch.tensor([0, 1, 2])
            mask = torch.ones(3, dtype=torch.bool)
            args: list[object] = [mask] if method.startswith("masked") else [index] if method == "put_" else [] if method == "set_" else [0, index]
            assert len(args) == position, method
            call = [*args, values, "sum"] if method.startswith("scatter_reduce") else [*args, values]
            with pytest.raises(RuntimeError) as refused:
                getattr(target, method)(*call)
            assert str(refused.value).startswith(_source_errors(method, names[into], names[source])), (method, str(refused.value))
            extra = {"reduce": "sum"} if method.startswith("scatter_reduce") else {}
            with pytest.raises(RuntimeError):  # (the keyword the engine reads is torch's name for it)
                getattr(target, method)(*args, **{keyword: values}, **extra)
        shown = "[0]" if method == "put_" else "torch.ones(3, dtype=torch.bool)" if method.startswith("masked") else "" if method == "set_" else "0, idx"
        extra = ', "sum"' if method.startswith("scatter_reduce") else ""
        source_text = f"""
import torch
idx = torch.tensor([0, 1, 2])
acc = torch.zeros(3)
vals = torch.ones(3, dtype=torch.float64)
acc.{method}({shown if method != "put_" else "idx"}, vals{extra})
""".replace("(, ", "(")
        codes = [(f.code, f.span.line) for f in check_source(source_text, "case.py").findings]
        # (the root is the tensor written into, made for the op; `set_` hands over the source's
        # storage, so there the source is where the fix goes)
        assert ("DG004", 5 if method == "set_" else 4) in codes, (method, codes)


def test_an_indexed_write_through_an_index_tensor_refuses_another_dtype_with_the_words_dg004_gives() -> None:
    """`y[idx] = v` with an integer index tensor is `index_put_`: a tensor value of another dtype
    (0-dim too) is refused, in both directions, with the error DG004 quotes; a Python number, a
    slice or an int index converts (open-unmix #89, set 78)."""
    from dtypeguard.rules.dg004_input_dtype_mismatch import _source_errors

    names = {torch.float32: "float32", torch.float64: "float64"}
    for into, source in ((torch.float32, torch.float64), (torch.float64, torch.float32)):
        for value in (torch.tensor(0.0, dtype=source), torch.ones(3, dtype=source)):
            target = torch.zeros(4, 3, dtype=into)
            with pytest.raises(RuntimeError) as refused:
                target[torch.arange(2), ...] = value
            assert str(refused.value) == _source_errors("index_put_", names[into], names[source])
            target[1:3] = value
            target[1] = value
        target[torch.arange(2)] = 0.5


def test_lerp_and_histc_refusals_are_torchs() -> None:
    """`lerp` refuses an `end` of another dtype (0-dim too) and a `weight` tensor of another dtype
    with a dimension, but takes a 0-dim weight; `histc` has no integer CPU kernel: as DG004 and
    DG005 say, in torch's words."""
    from dtypeguard.rules.dg004_input_dtype_mismatch import _source_errors

    names = {torch.float32: "float32", torch.float64: "float64", torch.float16: "float16", torch.bfloat16: "bfloat16"}
    for a, b in itertools.permutations(names, 2):
        x = torch.zeros(3, dtype=a)
        for end in (torch.ones(3, dtype=b), torch.tensor(1.0, dtype=b)):
            with pytest.raises(RuntimeError) as refused:
                torch.lerp(x, end, 0.5)
            assert str(refused.value) == _source_errors("lerp", names[a], names[b], "end")
        with pytest.raises(RuntimeError) as refused:
            x.lerp(x, torch.full((3,), 0.5, dtype=b))
        assert str(refused.value) == _source_errors("lerp", names[a], names[b], "weight")
        assert x.lerp(x, torch.tensor(0.5, dtype=b)).dtype == a
    for dtype, word in ((torch.int64, "Long"), (torch.int32, "Int")):
        with pytest.raises(NotImplementedError, match=f"\"histogram_cpu\" not implemented for '{word}'"):
            torch.histc(torch.tensor([1, 2, 3], dtype=dtype), bins=3)
    assert torch.histc(torch.tensor([1.0, 2.0]), bins=3).dtype == torch.float32


def test_where_with_only_a_condition_gives_int64_index_arrays() -> None:
    """`np.where(cond)` (as `np.nonzero`) gives one int64 array per dimension whatever the
    condition's array holds: the engine says so without knowing that array (PANNs' sampler)."""
    for dtype in ("float32", "int64", "bool", "float64"):
        parts = np.where(np.ones((3, 4), dtype=dtype) == 1)
        assert isinstance(parts, tuple) and len(parts) == 2
        assert all(p.dtype == np.int64 and p.ndim == 1 for p in parts)


def test_refusals_table_is_what_the_installed_torch_refuses() -> None:
    """engine/library/refusals.py (which dtypes `mean`, `randn_like`, `argmax`, `masked_select`,
    a padding mask ... refuse, in torch's words) is regenerated from the real torch and must be
    the committed file; every operation the engine checks has a row."""
    import importlib.util

    from dtypeguard.engine import call_effects
    from dtypeguard.engine.library import refusals

    spec = importlib.util.spec_from_file_location("gen_refusals", ROOT / "tools/gen_refusals.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_refusals"] = module
    spec.loader.exec_module(module)
    committed = (ROOT / "server/dtypeguard/engine/library/refusals.py").read_text()
    assert committed == module.render(*module.tables()), "run tools/gen_refusals.py"
    checked = {*call_effects.REFUSING_METHODS, *call_effects.MASKED_METHODS, *call_effects.REFUSING_FUNCTIONS.values(), *call_effects.PADDING_MASKS, "neg", "sub"}
    assert checked <= set(refusals.REFUSED), checked - set(refusals.REFUSED)
    assert all(refusals.REFUSED[key] for key in checked)  # each refuses some dtype
    print(f"{len(refusals.REFUSED)} operations, {sum(map(len, refusals.REFUSED.values()))} refused dtypes")


def test_cuda_set_device_and_an_int_device_need_an_accelerator() -> None:
    """`torch.cuda.set_device(i)` and `torch.device(i)` raise where there is no accelerator: the
    engine takes what runs after them to have a GPU (DG010 is not reported past them)."""
    if torch.cuda.is_available():
        assert torch.device(0).type == "cuda"
        return
    with pytest.raises(Exception):  # noqa: B017 - any error: there is no device to set
        torch.cuda.set_device(0)
    with pytest.raises(RuntimeError, match="Cannot access accelerator device when none is available"):
        torch.device(0)


def test_a_cuda_map_location_fails_on_a_cpu_only_machine_and_tensor_takes_one_positional(tmp_path: Path) -> None:
    """DG010's constant CUDA `map_location`: on a machine without CUDA it fails for any file,
    one saved there from CPU tensors too; `torch.tensor(10, 1024, 3)` makes nothing."""
    if torch.cuda.is_available():
        pytest.skip("the fact is about machines without CUDA")
    path = tmp_path / "cpu.pth"
    torch.save(torch.nn.Linear(2, 2).state_dict(), path)
    for location in ("cuda", "cuda:0", torch.device("cuda")):
        with pytest.raises(RuntimeError, match="Attempting to deserialize object on a CUDA device"):
            torch.load(path, map_location=location)
    with pytest.raises(TypeError, match="1 positional argument"):
        torch.tensor(10, 1024, 3)  # type: ignore[call-arg]


def test_an_empty_frame_grown_by_concat_and_columns_has_the_values_pandas_gives() -> None:
    """`pd.DataFrame()` has no columns: concatenating indicator columns onto it and adding a float
    column makes `.values` an object array in pandas, which torch refuses (set 58's Titanic)."""
    src = (
        "import numpy as np\nimport pandas as pd\nimport torch\n"
        "df = pd.DataFrame({'Sex': ['m', 'f', 'm'], 'Age': [1.0, np.nan, 3.0]})\n"
        "res = pd.concat([pd.DataFrame(), pd.get_dummies(df['Sex'])], axis=1)\nres['Age'] = df['Age'].fillna(0)\n"
        "x = res.values\nonly = pd.concat([pd.DataFrame(), pd.get_dummies(df['Sex'])], axis=1).values\n"
    )
    namespace: dict[str, Any] = {}
    exec(src, namespace)
    real = {"x": str(namespace["x"].dtype), "only": str(namespace["only"].dtype)}
    assert real == {"x": "object", "only": "bool"}
    stated = {f.name: f.value.dtype for f in check_source(src).facts.values if f.store and f.name in real and isinstance(f.value, Tensor)}
    assert stated == real, stated


def test_ufunc_results_have_the_rank_numpy_broadcasts_to() -> None:
    """Every NumPy ufunc entry (parameters `x`, `x1`, `x2`): the rank the engine gives its result
    of a 2-D array and a 1-D one, or of a 1-D array and a Python number, is NumPy's."""
    names = sorted(
        name for name, entry in library.FUNCTIONS.items()
        if name.startswith("numpy.") and name.count(".") == 1 and entry.result.arg and all(a.startswith("x") for a in entry.result.arg.split(","))
        and entry.result.rule in ("promote", "ufunc", "float")
    )
    assert len(names) >= 20, names
    checked = 0
    for name in names:
        short = name.split(".", 1)[1]
        two = library.FUNCTIONS[name].result.arg.count(",") == 1
        for args in (["m", "v"], ["v", "0.5"]) if two else (["m"], ["v"]):
            call = f"np.{short}({', '.join(args)})"
            src = f"import numpy as np\nm = np.random.rand(3, 4).astype(np.float32) + 1\nv = np.random.rand(4).astype(np.float32) + 1\nr = {call}\n"
            namespace: dict[str, Any] = {}
            try:
                exec(src, namespace)
            except (TypeError, ValueError):
                continue  # (not defined for these operands)
            real = np.asarray(namespace["r"]).ndim
            said = {f.value.ndim for f in check_source(src).facts.values if f.store and f.name == "r" and isinstance(f.value, Tensor)}
            assert said <= {real, None}, (call, said, real)
            checked += 1
    print(f"{checked} ufunc calls checked against NumPy")
    assert checked >= 40


def test_the_optimizers_that_make_state_in_their_constructor_are_torchs() -> None:
    """DG015 reports an optimizer built before its model moves only for the classes whose
    constructor makes state on the parameters' device (Adagrad's "sum"): every other one makes
    it at the first step, on the device the parameters have then."""
    from dtypeguard.engine.call_effects import STATE_AT_INIT

    eager = set()
    for name in dir(torch.optim):
        cls = getattr(torch.optim, name)
        if not (isinstance(cls, type) and issubclass(cls, torch.optim.Optimizer)) or cls is torch.optim.Optimizer:
            continue
        param = torch.nn.Parameter(torch.ones(3, 3))
        made = cls([param], lr=0.1)
        if made.state:
            eager.add(name)
    assert eager == set(STATE_AT_INIT)


def test_only_a_zero_dim_cpu_tensor_meets_a_tensor_on_another_device() -> None:
    """The device clash in arithmetic (DG009): a 0-dim CPU tensor is a scalar to a kernel on
    another device (meta stands in for CUDA here); a CPU vector is not, whatever the other's rank."""
    for other, cpu, ok in (((), (3,), False), ((3,), (), True), ((3,), (3,), False), ((), (), True)):
        try:
            torch.ones(other, device="meta") - torch.ones(cpu)
            ran = True
        except RuntimeError:
            ran = False
        assert ran == ok, (other, cpu)


def test_a_cpu_index_tensor_indexes_a_tensor_on_another_device() -> None:
    """Why DG009 lets a CPU tensor that a forward uses only as an index meet a model on another
    device (gru_ode_bayes, scan 32): torch takes CPU integer and bool indices for a tensor on
    any device, to read and to write (meta stands in for CUDA); a CPU tensor in arithmetic is refused."""
    x = torch.zeros(5, 3, device="meta")
    idx, mask = torch.tensor([0, 2, 4]), torch.tensor([True, False, True, False, True])
    assert x[idx].shape == (3, 3) and x[:, torch.tensor([1])].shape == (5, 1)
    x[idx] = torch.ones(3, 3, device="meta")
    x[mask] = torch.ones(3, 3, device="meta")
    with pytest.raises(RuntimeError):
        x[idx] + idx.float().unsqueeze(1)


def test_mgrid_dtypes_and_ranks_are_numpys() -> None:
    """`np.mgrid[...]` as the engine states it: int bounds give int64, a float bound or a complex
    count float64; one dimension per slice, plus the stacking one."""
    source = "import numpy as np\nH = 5\na = np.mgrid[:H, :4]\nb = np.mgrid[0:1:0.25, :3]\nc = np.mgrid[-1:1:5j]\n"
    result = check_source(source, "grid.py")
    assert not result.internal_error
    stated = {f.name: f.value for f in result.facts.values if f.store and f.name in ("a", "b", "c")}
    real = {"a": np.mgrid[:5, :4], "b": np.mgrid[0:1:0.25, :3], "c": np.mgrid[-1:1:5j]}
    for name, arr in real.items():
        value = stated[name]
        assert value is not None and (value.dtype, value.ndim) == (str(arr.dtype), arr.ndim), name  # type: ignore[union-attr]


def test_bool_sums_stay_bool_and_small_integer_products_wrap() -> None:
    """DG004's silent cases: `+` of bool tensors (and NumPy bool arrays) is a logical OR that
    stays bool; a uint8 or int8 matmul sums in its own dtype and wraps."""
    t = torch.tensor([True, False]) + torch.tensor([True, True])
    assert t.dtype == torch.bool and not bool(((t) == 2).any())
    a = np.array([True, False]) + np.array([True, True])
    assert a.dtype == np.bool_
    from dtypeguard.rules.dg004_input_dtype_mismatch import _WRAPPING

    for name, top in _WRAPPING.items():
        ones = torch.ones(1, top + 1, dtype=getattr(torch, name))
        product = torch.matmul(ones, ones.T)
        assert product.dtype == ones.dtype and int(product) != top + 1, name


def test_a_float_padding_mask_is_added_in_training_and_read_as_bool_in_eval() -> None:
    """DG004's float padding mask (SASRec, set 62): the 0/1 float cast of a bool mask changes the
    outputs in training, where it is added to the scores, and not in the eval fast path."""
    torch.manual_seed(0)
    encoder = torch.nn.TransformerEncoder(torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, batch_first=True), 1, enable_nested_tensor=False)
    x = torch.randn(2, 5, 8)
    pad = torch.tensor([[False, False, False, True, True], [False] * 5])
    gaps = {}
    for mode in ("train", "eval"):
        getattr(encoder, mode)()
        with torch.no_grad():
            gaps[mode] = float((encoder(x, src_key_padding_mask=pad) - encoder(x, src_key_padding_mask=pad.float())).abs().max())
    assert gaps["train"] > 1e-3 and gaps["eval"] == 0.0


def test_div_with_a_rounding_mode_keeps_integers() -> None:
    """`torch.div` and `Tensor.div`: true division gives the default float, a rounding mode keeps the promoted dtype."""
    source = (
        "import torch\nk = torch.arange(6)\na = torch.div(k, 3)\nb = torch.div(k, 3, rounding_mode='floor')\n"
        "c = k.div(3, rounding_mode='trunc')\nd = k.div(2.5, rounding_mode='floor')\n"
    )
    stated = {f.name: f.value for f in check_source(source, "div.py").facts.values if f.store and f.name in "abcd"}
    k = torch.arange(6)
    real = {"a": torch.div(k, 3), "b": torch.div(k, 3, rounding_mode="floor"), "c": k.div(3, rounding_mode="trunc"), "d": k.div(2.5, rounding_mode="floor")}
    for name, t in real.items():
        assert stated[name].dtype == str(t.dtype).removeprefix("torch."), name  # type: ignore[union-attr]


def test_legacy_tensor_types_are_the_device_and_dtype_torch_checks() -> None:
    """`isinstance(x, torch.FloatTensor)` as the engine decides it (LEGACY_TENSOR_TYPES): a CPU
    tensor is an instance of its own dtype's CPU type only, never of a `torch.cuda` type."""
    from dtypeguard.engine.call_effects import LEGACY_TENSOR_TYPES

    assert len(LEGACY_TENSOR_TYPES) == 20
    for name, (device, dtype) in LEGACY_TENSOR_TYPES.items():
        cls = eval(name, {"torch": torch})
        for other_name, (other_device, other_dtype) in LEGACY_TENSOR_TYPES.items():
            if other_device != "cpu":
                continue
            t = torch.zeros(2, dtype=getattr(torch, other_dtype))
            assert isinstance(t, cls) == (device == "cpu" and dtype == other_dtype), (name, other_name)


def test_norms_under_cpu_autocast_keep_their_lower_precision_input() -> None:
    """The engine passes a float16/bfloat16 input through a norm layer under autocast unchanged
    (a conv, then BatchNorm, stays in the autocast dtype): every norm the tables list does that."""
    from dtypeguard.engine.library.vocabulary import LAYER_KINDS

    norms = [name for name, (kind, _) in LAYER_KINDS.items() if kind == "norm"]
    assert len(norms) >= 6
    makers = {"GroupNorm": lambda: torch.nn.GroupNorm(2, 4), "LayerNorm": lambda: torch.nn.LayerNorm(4)}
    inputs = {"1d": torch.randn(2, 4, 4), "2d": torch.randn(2, 4, 4, 4), "3d": torch.randn(2, 4, 2, 2, 2)}
    for dtype in (torch.bfloat16, torch.float16):
        for name in norms:
            layer = makers[name]() if name in makers else getattr(torch.nn, name)(4)
            x = inputs.get(name[-2:].lower(), torch.randn(2, 4, 4, 4))
            with torch.autocast("cpu", dtype=dtype):
                assert layer(x.to(dtype)).dtype == dtype, (name, dtype)


def test_which_regression_losses_refuse_a_float64_target_at_backward() -> None:
    """DG008 as the tables state it: with float32 predictions and a float64 target, most
    regression losses compute in float64 and train; HuberLoss keeps float32 and its backward
    fails with "Found dtype Double but expected Float" (either argument order; passed first,
    the float64 target does make the loss float64, and the backward still fails)."""
    from dtypeguard.engine.library.vocabulary import (
        FLOAT64_TARGET_FAILS_BACKWARD,
        FUNCTIONAL_LOSSES,
        LOSSES,
    )

    fails, promoted = set(), set()
    calls = {name: getattr(torch.nn, name)() for name, kind in LOSSES.items() if kind == "regression"}
    calls |= {name: getattr(torch.nn.functional, name) for name, kind in FUNCTIONAL_LOSSES.items() if kind == "regression"}
    for name, fn in calls.items():
        for swapped in (False, True):
            pred = torch.randn(4, 1, requires_grad=True)
            target = torch.randn(4, 1, dtype=torch.float64)
            loss = fn(target, pred) if swapped else fn(pred, target)
            if loss.dtype == torch.float64 and not swapped:
                promoted.add(name)
            try:
                loss.backward()
            except RuntimeError as exc:
                assert "Found dtype Double but expected Float" in str(exc)
                fails.add(name)
    assert fails == set(FLOAT64_TARGET_FAILS_BACKWARD)
    assert promoted == set(calls) - fails


def test_the_functional_losses_that_take_weight_third() -> None:
    """`F.cross_entropy(logits, labels, loss_weight)` binds the class weight positionally: the
    losses the engine reads that way are the functional losses whose third parameter is `weight`."""
    import inspect

    from dtypeguard.engine.library.vocabulary import (
        FUNCTIONAL_LOSSES,
        WEIGHT_THIRD_FUNCTIONAL_LOSSES,
    )

    third = {name for name in FUNCTIONAL_LOSSES if list(inspect.signature(getattr(torch.nn.functional, name)).parameters)[2:3] == ["weight"]}
    assert third == set(WEIGHT_THIRD_FUNCTIONAL_LOSSES)


@pytest.mark.parametrize("call", ["torch.linalg.multi_dot([a, a, r])", "torch.chain_matmul(a, r, a)", "torch.chain_matmul(r, a)"])
def test_a_product_of_several_matrices_refuses_mixed_dtypes_as_dg004_says(call: str) -> None:
    """DG004 quotes torch's own error for `multi_dot`/`chain_matmul` of a float64 matrix among float32 ones."""
    import warnings

    source = f"import torch\na = torch.ones(3, 3)\nr = torch.ones(3, 3, dtype=torch.float64)\nm = {call}\n"
    (finding,) = [f for f in check_source(source, "m.py").findings if f.code == "DG004"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # chain_matmul is deprecated
        with pytest.raises(RuntimeError) as raised:
            exec(compile(source, "m.py", "exec"), {})
    assert f'"{raised.value}"' in finding.message


def test_a_wave_readers_header_queries_are_python_ints(tmp_path: Path) -> None:
    """engine/library/stdlib.py: `wave.open(path, "rb")` (also as a context manager) answers its
    header queries with Python ints, which the engine takes (`fs = w.getframerate()`)."""
    import wave

    from dtypeguard.engine.library.stdlib import WAVE_INT_QUERIES, WAVE_READER

    path = tmp_path / "a.wav"
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(16000)
        w.writeframes(np.zeros(8, dtype=np.int16).tobytes())
    with wave.open(str(path), "rb") as r:
        assert f"{type(r).__module__}.{type(r).__name__}" == WAVE_READER
        assert all(type(getattr(r, q)()) is int for q in WAVE_INT_QUERIES)
    # the engine: a float32 tensor divided by the rate stays float32, so its product with a
    # float64 copy is reported (with the rate not known, nothing would be)
    src = (
        "import wave\nimport torch\nwith wave.open('a.wav', 'rb') as w:\n    fs = w.getframerate()\n"
        "t = torch.arange(0.0, 4.0) / fs\nout = torch.mm(t[None].double(), t[:, None])\n"
    )
    assert [f.code for f in check_source(src).findings] == ["DG004"]


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_weights_only_loading_refuses_exactly_the_framed_pickle_protocols(protocol: int, tmp_path: Path) -> None:
    """DG011's claim about `torch.save(..., pickle_protocol=N)` (RecBole, set 76): the real torch's
    default `torch.load` refuses a file of protocol `PICKLE_FRAMED` or later, whatever it holds,
    and reads the earlier ones; and the engine reports exactly those."""
    path = tmp_path / "ckpt.pth"
    torch.save({"w": torch.zeros(2), "epoch": 3}, path, pickle_protocol=protocol)
    refused = False
    try:
        torch.load(path)
    except Exception as exc:  # (the refusal is an UnpicklingError)
        refused = "Weights only load failed" in str(exc)
    assert refused == (protocol >= PICKLE_FRAMED)
    source = f"import torch\ntorch.save({{'w': torch.zeros(2)}}, 'c.pth', pickle_protocol={protocol})\nck = torch.load('c.pth')\n"
    assert [f.code for f in check_source(source, "case.py").findings] == (["DG011"] if refused else [])


def test_a_loss_module_with_a_mean_or_sum_reduction_gives_a_0_dim_tensor() -> None:
    """The engine gives a loss module's result rank 0 when its reduction is "mean" (the default)
    or "sum", and no rank for "none" (then `loss.data[0]` indexes, otherwise torch raises)."""
    cases = [
        ("nn.CrossEntropyLoss()", "torch.randn(4, 3)", "torch.tensor([0, 1, 2, 0])"),
        ("nn.CrossEntropyLoss(reduction='sum')", "torch.randn(4, 3)", "torch.tensor([0, 1, 2, 0])"),
        ("nn.CrossEntropyLoss(reduction='none')", "torch.randn(4, 3)", "torch.tensor([0, 1, 2, 0])"),
        ("nn.MSELoss()", "torch.randn(4, 3)", "torch.randn(4, 3)"),
        ("nn.BCEWithLogitsLoss()", "torch.randn(4)", "torch.rand(4)"),
        ("nn.NLLLoss(torch.ones(3))", "torch.randn(4, 3)", "torch.tensor([0, 1, 2, 0])"),
        # the functional forms (pytorch-YOLO-v1's `F.mse_loss(..., reduction='sum')`, scan 44)
        *[(f"(lambda a, b: F.{name}(a, b{extra}))", x, y) for name, x, y in (
            ("cross_entropy", "torch.randn(4, 3)", "torch.tensor([0, 1, 2, 0])"),
            ("nll_loss", "torch.randn(4, 3)", "torch.tensor([0, 1, 2, 0])"),
            ("mse_loss", "torch.randn(4, 3)", "torch.randn(4, 3)"),
            ("l1_loss", "torch.randn(4, 3)", "torch.randn(4, 3)"),
            ("smooth_l1_loss", "torch.randn(4, 3)", "torch.randn(4, 3)"),
            ("binary_cross_entropy_with_logits", "torch.randn(4)", "torch.rand(4)"),
            ("binary_cross_entropy", "torch.rand(4)", "torch.rand(4)"),
        ) for extra in ("", ", reduction='sum'", ", reduction='none'", ", size_average=False", ", reduce=False")],
    ]
    setup = "import torch\nfrom torch import nn\nimport torch.nn.functional as F\n"
    source = setup + "".join(f"r_{i} = {loss}({x}, {y})\n" for i, (loss, x, y) in enumerate(cases))
    stated = {f.name: f.value for f in check_source(source).facts.values if f.store and f.name.startswith("r_")}
    namespace: dict[str, Any] = {}
    exec(setup, namespace)
    for i, (loss, x, y) in enumerate(cases):
        real = eval(f"{loss}({x}, {y})", namespace)
        value = stated.get(f"r_{i}")
        assert isinstance(value, Tensor), loss
        assert value.ndim == (0 if real.ndim == 0 else None), f"{loss}: engine rank {value.ndim}, torch {real.ndim}"


def test_the_tensor_methods_a_numpy_array_lacks_are_torch_methods_numpy_does_not_have() -> None:
    """`numpy.NOT_ON_NDARRAY`: the engine treats `x.<name>(...)` on a NumPy array as raising
    AttributeError (the `try` of a tensor-or-array fallback never completes)."""
    from dtypeguard.engine.library.numpy import NOT_ON_NDARRAY

    for name in sorted(NOT_ON_NDARRAY):
        assert not hasattr(np.ones(2), name), name
        assert callable(getattr(torch.ones(2), name)), name
