"""What a library function is to the engine: a signature and a rule for its result.

Knowledge about torch, numpy and pandas lives in tables of `Entry`s (one module per library);
the interpreter binds a call's arguments to the entry's signature the way Python would and
applies the entry's result rule. It never contains a fact about a function itself.

Every entry also carries a `probe`: a call written as a user would write it, with `{a}` / `{b}`
standing for arrays, tensors or frames of each dtype. `tests/engine/test_library_conformance.py`
runs each probe through the engine *and* through the real library and fails when the
engine states a dtype the library contradicts. Unknown stays unknown: a rule returns None
whenever it cannot justify a dtype, and the conformance test allows that, never a wrong one.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dtypeguard.engine.values import Value

_MISSING = object()


@dataclass(frozen=True)
class Param:
    name: str
    kind: str  # positional | keyword | varargs | varkw
    has_default: bool


class Signature:
    """A Python signature parsed from its text, `(x, axis=0, *, dtype=None)`.

    `bind` maps a call's evaluated arguments to parameter names as Python does, and gives
    None when the call cannot bind (too many positionals, a duplicate, a missing argument) or
    when a `*args`/`**kwargs` splat of unknown content makes the binding unknowable.
    """

    __slots__ = ("params", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        tree = ast.parse(f"def _{text}: pass").body[0]
        assert isinstance(tree, ast.FunctionDef)
        spec = tree.args
        params: list[Param] = []
        positional = spec.posonlyargs + spec.args
        first_default = len(positional) - len(spec.defaults)
        for i, arg in enumerate(positional):
            params.append(Param(arg.arg, "positional", i >= first_default))
        if spec.vararg:
            params.append(Param(spec.vararg.arg, "varargs", True))
        for arg, default in zip(spec.kwonlyargs, spec.kw_defaults, strict=True):
            params.append(Param(arg.arg, "keyword", default is not None))
        if spec.kwarg:
            params.append(Param(spec.kwarg.arg, "varkw", True))
        self.params = tuple(params)

    def bind(self, args: list[Value | None], kwargs: dict[str, Value | None], splat: bool = False) -> dict[str, object] | None:
        if splat:
            return None
        bound: dict[str, object] = {}
        positional = [p for p in self.params if p.kind == "positional"]
        varargs = next((p for p in self.params if p.kind == "varargs"), None)
        varkw = next((p for p in self.params if p.kind == "varkw"), None)
        if len(args) > len(positional) and varargs is None:
            return None
        for param, value in zip(positional, args, strict=False):
            bound[param.name] = value
        if varargs is not None:
            bound[varargs.name] = tuple(args[len(positional):])
        extra: dict[str, Value | None] = {}
        names = {p.name for p in self.params if p.kind in ("positional", "keyword")}
        for key, value in kwargs.items():
            if key in bound:
                return None  # got multiple values for argument
            if key in names:
                bound[key] = value
            elif varkw is not None:
                extra[key] = value
            else:
                return None
        for param in self.params:
            if param.kind in ("positional", "keyword") and param.name not in bound and not param.has_default:
                return None
        if varkw is not None:
            bound[varkw.name] = extra
        return bound


@dataclass(frozen=True)
class Result:
    """How the result's dtype follows from the bound arguments.

    rule: `fixed` (always `dtype`), `same` (the dtype of argument `arg`), `promote` (type
    promotion over the arrays in `arg`, a sequence, or over several comma-separated arguments),
    `float` (float inputs keep their dtype, integers and bools become float64 in NumPy or the
    default dtype in torch), `infer` (the dtype NumPy/torch infers from data in `arg`),
    `default` (torch's default float dtype), `reduce` (a pandas frame's per-column mean/std:
    float32 columns stay float32, integer/bool/float64 columns give float64, others unknown),
    `sum_frame` (a frame's sums: one float64/float32/int64 dtype in all columns stays),
    `pivot` (`df.pivot(..., values=col)`: float columns keep their dtype, integers give int64 or float64 (NaN for missing pairs)),
    `change` (`pct_change`, `shift`, `diff`: floats keep their dtype, integers give float64, bools
    unknown), `alike` (`np.meshgrid`: the inputs' dtype when they share one), `round` (`np.round`: numbers keep their dtype, bools give float16), `real64` (`np.interp`:
    float64 when the data is known to be real),
    `unknown`.
    `dtype_param` names the parameter that overrides the dtype when given (`dtype=`).
    `kind` is what comes back: ndarray, npscalar, tensor, frame, series, pyfloat, pyint, arrays (a
    list of ndarrays), tensors2 and tensors3 (a tuple of that many tensors).
    """

    rule: str
    kind: str
    dtype: str = ""
    arg: str = ""
    dtype_param: str = ""
    scalar_param: str = ""  # without this argument (or with None) the result is a scalar...
    scalar_kind: str = ""  # ...of this kind: pyfloat, pyint, npscalar
    ndim: int | None = None  # the result's rank when the function fixes it (`np.linspace`: 1, `np.eye`: 2)
    rounding_param: str = ""  # given (not None), a `float` rule promotes instead (`torch.div(a, b, rounding_mode="floor")`)


@dataclass(frozen=True)
class Entry:
    name: str  # `numpy.stack`; methods: `ndarray.astype`, `Tensor.float`, `DataFrame.to_numpy`
    signature: Signature
    result: Result
    probe: str  # a call for the conformance test; "" when it cannot be called without setup
    why: str = ""  # the origin's words in hovers and related information


def table(prefix: str, rows: list[tuple[str, str, Result, str] | tuple[str, str, Result, str, str]]) -> dict[str, Entry]:
    out: dict[str, Entry] = {}
    for row in rows:
        name, sig, result, probe = row[0], row[1], row[2], row[3]
        why = row[4] if len(row) > 4 else ""
        full = f"{prefix}.{name}" if prefix else name
        assert full not in out, f"duplicate library entry {full}"
        out[full] = Entry(full, Signature(sig), result, probe, why)
    return out


# Small constructors keep the tables one line per function.
def ranked(result: Result, ndim: int) -> Result:
    """The same rule, with the rank the function always gives."""
    return replace(result, ndim=ndim)


def fixed(kind: str, dtype: str, dtype_param: str = "dtype", arg: str = "") -> Result:
    """A result of one dtype; `arg` names the tensor inputs whose device it is on (a method's own: `self`)."""
    return Result("fixed", kind, arg=arg, dtype=dtype, dtype_param=dtype_param)


def same(kind: str, arg: str, dtype_param: str = "") -> Result:
    return Result("same", kind, arg=arg, dtype_param=dtype_param)


def promote(kind: str, arg: str, dtype_param: str = "") -> Result:
    return Result("promote", kind, arg=arg, dtype_param=dtype_param)


def keep32(kind: str, arg: str) -> Result:
    """float32 stays float32; any other number becomes float64 (SciPy's filters)."""
    return Result("keep32", kind, arg=arg)


def real64(kind: str, arg: str, dtype_param: str = "") -> Result:
    """float64 for any real data, known to be real (`np.interp`, `np.cov`: complex data gives complex128)."""
    return Result("real64", kind, arg=arg, dtype_param=dtype_param)


def floating(kind: str, arg: str, dtype_param: str = "dtype") -> Result:
    return Result("float", kind, arg=arg, dtype_param=dtype_param)


def divided(kind: str, arg: str) -> Result:
    """True division (a float result, integers give the default float), or, with
    `rounding_mode=`, the operands' promoted dtype (integers stay integers)."""
    return Result("float", kind, arg=arg, rounding_param="rounding_mode")


def summed(kind: str, arg: str) -> Result:
    """Sums keep a float dtype; integer sums widen by platform, which is not claimed."""
    return Result("sum", kind, arg=arg)


def squared(kind: str, arg: str) -> Result:
    """`torch.square`: numbers keep their dtype; bool gives int64."""
    return Result("square", kind, arg=arg)


def ufunc(kind: str, arg: str) -> Result:
    """exp/log/sqrt/sin...: floats keep their dtype; integers get the smallest float that
    holds them (uint8 and bool give float16, int16 float32, wider ints float64)."""
    return Result("ufunc", kind, arg=arg, dtype_param="dtype")


def infer(kind: str, arg: str, dtype_param: str = "dtype") -> Result:
    return Result("infer", kind, arg=arg, dtype_param=dtype_param)


def weighted(kind: str, dtype: str, weights: str) -> Result:
    """`dtype` without the `weights` argument (or with None); float64 with it (`np.bincount`)."""
    return Result("weighted", kind, dtype=dtype, arg=weights)


def default(kind: str = "tensor", dtype_param: str = "dtype") -> Result:
    return Result("default", kind, dtype_param=dtype_param)


def unknown(kind: str) -> Result:
    return Result("unknown", kind)
