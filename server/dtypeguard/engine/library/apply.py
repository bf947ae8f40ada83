"""Apply a library entry's result rule to a call's bound arguments.

This is mechanics only: which dtype a rule gives is decided by the generated promotion tables
(`promotion.py`) and by the entry; nothing here names a library function.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

from dtypeguard.engine.library import promotion
from dtypeguard.engine.library.spec import Entry
from dtypeguard.engine.values import (
    FLOAT_DTYPES,
    INT_DTYPES,
    WIDE,
    Const,
    DictV,
    Many,
    Origin,
    Tensor,
    TupleV,
    Value,
    is_float,
    number_kind,
)

ARRAY_KINDS = ("ndarray", "tensor", "frame", "series", "sparse")


class Env(Protocol):
    """What applying a rule needs from the interpreter."""

    def dtype_of(self, value: Value | None, numpy: bool = False) -> str | None: ...


@dataclass(frozen=True)
class Strong:
    dtype: str
    origin: Origin | None = None
    from_ints: bool = False
    zero_dim: bool = False  # a 0-dim torch tensor: it widens only a lower category (see promote_operands)


@dataclass(frozen=True)
class Weak:
    """A Python number: it does not decide a result's width when an array takes part."""

    kind: str  # float | int | bool


def _items(value: Value | None) -> list[Value | None] | None:
    if isinstance(value, TupleV):
        return list(value.items)
    if isinstance(value, Many):
        item = value.item
        return [item if isinstance(item, Value) else None]
    return None


def _operand(value: Value | None, numpy: bool) -> Strong | Weak | None:
    """One operand of a promotion: an array/tensor (strong), a Python number (weak), a list
    (an array NumPy infers: strong), or unknown (None)."""
    if isinstance(value, Tensor):
        if value.kind in ARRAY_KINDS or value.kind == "npscalar":
            zero = value.kind == "tensor" and value.ndim == 0 and not numpy
            return Strong(value.dtype, value.origin, value.from_ints, zero) if value.dtype else None
        if value.kind == "pyfloat":
            return Weak("float")
        if value.kind == "pyint":
            return Weak("int")
        return None
    if isinstance(value, Const):
        if isinstance(value.value, bool):
            return Weak("bool")
        if isinstance(value.value, int):
            return Weak("int")
        if isinstance(value.value, float):
            return Weak("float")
        if _items(value) is None:
            return None
    items = _items(value)
    if items is not None:
        dtype = infer_dtype(value, numpy, "")
        return Strong(dtype) if dtype else None
    return None


def _table(numpy: bool) -> dict[tuple[str, str], str]:
    return promotion.NUMPY_ARRAYS if numpy else promotion.TORCH_TENSORS


def promote_operands(ops: list[Strong | Weak], numpy: bool, default: str | None) -> Strong | None:
    strong = [op for op in ops if isinstance(op, Strong)]
    weak = [op for op in ops if isinstance(op, Weak)]
    table = _table(numpy)
    if not strong:
        if not weak:
            return None
        kinds = {w.kind for w in weak}
        if "float" in kinds:
            float_dtype = "float64" if numpy else default
            return Strong(float_dtype) if float_dtype else None
        return Strong("int64" if "int" in kinds else "bool")
    dims = [op for op in strong if not op.zero_dim]
    zeros = [op for op in strong if op.zero_dim]
    if dims and zeros:
        # torch: 0-dim tensors come after dimensioned ones, as Python numbers do: they decide
        # the result only when of a higher category (`torch.where(m, half_x, torch.tensor(0.0))`
        # stays float16; an int64 tensor with a float64 0-dim one gives float64)
        high, low = _fold(dims, table), _fold(zeros, table)
        if high is None or low is None:
            return None
        result = low if _category(low.dtype) > _category(high.dtype) else high
    else:
        folded = _fold(strong, table)
        if folded is None:
            return None
        result = folded
    for w in weak:
        if w.kind == "float":
            row = promotion.NUMPY_WITH_PYFLOAT if numpy else promotion.TORCH_WITH_PYFLOAT
            dtype = row.get(result.dtype)
            if dtype is None:
                return None
            if not numpy and not is_float(result.dtype):
                dtype = default  # an integer tensor times a Python float: the default dtype
                if dtype is None:
                    return None
            if dtype != result.dtype:
                result = Strong(dtype)
        elif w.kind == "int" and result.dtype == "bool":
            result = Strong("int64")
    return result


def _fold(ops: list[Strong], table: dict[tuple[str, str], str]) -> Strong | None:
    result = ops[0]
    for op in ops[1:]:
        dtype = table.get((result.dtype, op.dtype))
        if dtype is None:
            return None
        if dtype != result.dtype:
            result = op if dtype == op.dtype else Strong(dtype)
    return result


def _category(dtype: str) -> int:
    return 2 if is_float(dtype) else 0 if dtype == "bool" else 1


def infer_dtype(value: Value | None, numpy: bool, default: str | None) -> str | None:
    """The dtype `np.array(value)` / `torch.tensor(value)` infers from nested data. For torch,
    Python floats give `default` (pass the default dtype, or a marker the caller reads)."""
    ops: list[Strong | Weak] = []

    def walk(v: Value | None, depth: int) -> bool:
        items = _items(v)
        if items is not None and depth < 8:
            return all(walk(i, depth + 1) for i in items)
        op = _operand(v, numpy)
        if op is None:
            return False
        ops.append(op)
        return True

    if not walk(value, 0) or not ops:
        return None
    if numpy:
        # NumPy discovers Python numbers as float64/int64/bool: they are not weak here
        ops = [Strong({"float": "float64", "int": "int64", "bool": "bool"}[o.kind]) if isinstance(o, Weak) else o for o in ops]
        result = promote_operands(ops, True, default)
        return result.dtype if result else None
    strong = [o for o in ops if isinstance(o, Strong)]
    weak = {o.kind for o in ops if isinstance(o, Weak)}
    if strong:
        dtypes = {s.dtype for s in strong}
        if len(dtypes) == 1 and (not weak or next(iter(dtypes)) in FLOAT_DTYPES):
            return next(iter(dtypes))
        return None
    if "float" in weak:
        return default
    return "int64" if "int" in weak else "bool"


def apply(entry: Entry, bound: dict[str, object], env: Env, origin: Origin, default: str | None) -> Value | None:
    """The value a call of `entry` returns, given its bound arguments."""
    made = _apply_dtype(entry, bound, env, origin, default)
    if isinstance(made, Many) and isinstance(made.item, Tensor) and entry.result.kind == "arrays":
        source = _as_value(bound.get(entry.result.arg))  # the pieces keep the array's rank
        return Many(replace(made.item, ndim=source.ndim)) if isinstance(source, Tensor) and source.kind == "ndarray" else made
    if isinstance(made, TupleV) and entry.result.kind in ("tensors2", "tensors3"):
        return TupleV(tuple(_torch_result(entry, bound, item, origin) if isinstance(item, Tensor) else item for item in made.items))
    if isinstance(made, Tensor) and made.kind == "ndarray":
        sized = entry.name.rsplit(".", 1)[-1] not in _SIZE_PLUS_EVENT and not entry.name.startswith("scipy.")  # (a filter's `size` is not the result's)
        if entry.name.endswith(".choice") and _operand(_as_value(bound.get("a")), True) != Weak("int"):
            sized = False  # choosing rows of an array: the size's rank plus the rows' own
        ndim = entry.result.ndim if entry.result.ndim is not None else _created_ndim(bound) if sized else None
        if ndim is None and entry.name.rsplit(".", 1)[-1] in _RANK_OF_ARG and "ndmin" not in bound and "shape" not in bound:
            source = _as_value(bound.get(entry.result.arg))  # `np.asarray(a)`, `np.zeros_like(a)`: a's rank
            ndim = source.ndim if isinstance(source, Tensor) and source.kind in ("ndarray", "tensor") else None
        if ndim is None and entry.name in _JOINED_RANK:
            ndim = _joined_ndim(entry.name, _items(_as_value(bound.get(entry.result.arg))))
        if ndim is None and entry.result.scalar_param == "axis":
            ndim = _reduced_ndim(bound, _as_value(bound.get(entry.result.arg)))
        if ndim is None and entry.result.rule in ("promote", "ufunc", "float") and entry.result.arg and entry.name.rsplit(".", 1)[-1] not in _NOT_ELEMENTWISE:
            ndim = _broadcast_ndim([_as_value(bound.get(name)) for name in entry.result.arg.split(",")], entry.result.arg)
        if entry.name in ("numpy.loadtxt", "numpy.genfromtxt"):
            return replace(made, max_ndim=2)  # a table of numbers: 2-D, or 1-D for one row or column
        return replace(made, ndim=ndim) if ndim is not None else made
    if entry.result.kind != "tensor" or not isinstance(made, Tensor):
        return made
    source = _as_value(bound.get(entry.result.arg)) if entry.result.rule == "same" and "," not in entry.result.arg else None
    if isinstance(source, Tensor) and source.kind == "tensor" and source.site is not None and source.dtype == made.dtype:
        made = replace(made, site=source.site)  # `torch.sparse_coo_tensor(indices, values)`: still converted where `values` was
    if entry.name in ("torch.tensor", "torch.as_tensor", "torch.asarray") and made.ndim is None:
        data = _as_value(bound.get("data"))  # a conversion keeps the data's rank, whatever its dtype=
        if isinstance(data, Tensor) and data.kind in ("ndarray", "tensor") and data.ndim is not None:
            made = replace(made, ndim=data.ndim)
    return _torch_result(entry, bound, made, origin)


_NOT_ELEMENTWISE = frozenset({"matmul", "vecdot", "matvec", "vecmat", "dot", "vdot", "inner", "outer", "cross", "kron", "tensordot", "einsum"})


def _broadcast_ndim(operands: list[Value | None], names: str) -> int | None:
    """The rank of an elementwise ufunc's result (`np.maximum(pos, 1e-3)`): its operands' largest,
    where every operand's is known (a Python or NumPy number: 0). Only for ufunc parameters
    (`x`, `x1`, `x2`), whose operands broadcast."""
    if not all(name.startswith("x") for name in names.split(",")):
        return None
    ranks: list[int] = []
    for value in operands:
        if isinstance(value, Tensor) and value.kind in ("ndarray", "tensor") and value.ndim is not None:
            ranks.append(value.ndim)
        elif (isinstance(value, Tensor) and value.kind in ("pyfloat", "pyint", "npscalar")) or (type(value) is Const and type(value.value) in (int, float)):
            ranks.append(0)
        else:
            return None
    return max(ranks) if ranks else None


# conversions and `*_like` that keep their argument's rank
_RANK_OF_ARG = frozenset({
    "array", "asarray", "asanyarray", "ascontiguousarray", "asfortranarray", "copy", "zeros_like", "ones_like", "empty_like", "full_like", "astype",
    "filtfilt", "lfilter", "savgol_filter", "detrend", "medfilt", "gaussian_filter", "median_filter",
})
# samplers whose `size` is the batch of draws, each draw a vector: rank len(size) + 1
_SIZE_PLUS_EVENT = frozenset({"multivariate_normal", "multinomial", "dirichlet"})


# joining arrays of one rank r: the rank of the result (np.hstack of 1-D arrays is 1-D, of
# 2-D arrays 2-D; np.vstack makes at least 2-D; np.stack adds a dimension)
_JOINED_RANK: dict[str, Callable[[int], int]] = {
    "numpy.concatenate": lambda r: r, "numpy.hstack": lambda r: r, "numpy.vstack": lambda r: max(r, 2),
    "numpy.column_stack": lambda r: 2, "numpy.stack": lambda r: r + 1,
}


def _joined_ndim(name: str, items: list[Value | None] | None) -> int | None:
    """The rank of `np.hstack([a, b])` and its kin when every array joined has one known rank."""
    ranks = {v.ndim if isinstance(v, Tensor) and v.kind == "ndarray" else None for v in items or ()}
    if len(ranks) != 1 or None in ranks:
        return None
    rank = next(iter(ranks))
    return _JOINED_RANK[name](rank) if rank is not None and rank >= 1 else None


def _dummies_of_frame(data: Tensor, encoded: object, sep: object, origin: Origin) -> Value | None:
    """`pd.get_dummies(df, columns=["sex"])`: the other columns stay as they were, the encoded
    ones become bool indicator columns named `sex_<value>` (the values are not known here: one
    `DUMMIES` entry per encoded column stands for them). Without `columns=`, the text columns
    are encoded and the numbers kept: a column of unknown dtype may be either."""
    made_bool = Origin(origin.span, "`pd.get_dummies` makes bool indicator columns")
    if isinstance(encoded, TupleV) and all(isinstance(i, Const) and isinstance(i.value, str) for i in encoded.items):
        names = [str(i.value) for i in encoded.items if isinstance(i, Const)]
        joiner = sep.value if isinstance(sep, Const) and isinstance(sep.value, str) else None
        kept: list[tuple[str, str | None]] = [(n, d) for n, d in data.columns if n not in names] if data.columns is not None else [(OTHER, data.dtype)]
        dummies: list[tuple[str, str | None]]
        if joiner is not None:
            dummies = [(f"{DUMMIES}{n}{joiner}", "bool") for n in names]
        else:  # (named by a `prefix=`: the columns nobody named are the indicators, if no others are left)
            complete = data.columns is not None and OTHER not in dict(data.columns)
            dummies = [(OTHER, "bool" if complete else None)]
            kept = [(n, d) for n, d in kept if n != OTHER]
        made: tuple[tuple[str, str | None], ...] = (*kept, *dummies)
    elif data.columns is not None and (encoded is None or encoded == Const(None)):
        numbers = [(n, d) for n, d in data.columns if d is not None]
        made = (*numbers, (OTHER, None)) if len(numbers) < len(data.columns) else tuple(numbers)
    else:
        return _make("frame", None, None)
    parts = [Strong(d, made_bool if d == "bool" else None) if d and d != WIDE else None for _, d in made]
    out = frame(made, parts, Origin(origin.span, "`pd.get_dummies` keeps the other columns and adds bool ones"))
    if isinstance(out, Tensor):
        out = replace(out, column_origins=(*data.column_origins, *((n, made_bool) for n, d in made if n.startswith(DUMMIES))))
    return out


def lookup_column(columns: tuple[tuple[str, str | None], ...], name: str) -> tuple[bool, str | None, str]:
    """A frame's column by name: (whether the frame may have it, its dtype, the entry that
    stands for it). A `DUMMIES` entry stands for the indicator columns of its prefix, `OTHER`
    for the columns nobody named (of its dtype, when all of them share one)."""
    named = dict(columns)
    if name in named:
        return True, named[name], name
    for entry, dtype in columns:
        if entry.startswith(DUMMIES) and name.startswith(entry[len(DUMMIES):]):
            return True, dtype, entry
    if OTHER in named:
        return True, named[OTHER], OTHER
    return False, None, ""


def _created_ndim(bound: dict[str, object]) -> int | None:
    """The rank an array is made with: its shape or size (`np.zeros((n, 4))`, `rand(n, 4)`),
    the nesting of the list it is made from, or 1 for a column's values."""
    source = bound.get("self")
    if isinstance(source, Tensor) and source.kind in ("series", "frame"):
        return 1 if source.kind == "series" else 2
    for name in ("shape", "size"):
        shape = bound.get(name)
        if isinstance(shape, tuple):
            return len(shape) if shape and all(_is_int(v) for v in shape) else None
        if _is_int(shape):
            return 1
        if isinstance(shape, TupleV):
            return len(shape.items)  # a shape tuple's length is the rank, whatever its sizes
    data = bound.get("object")
    if isinstance(data, (TupleV, Many)):
        return nested_depth(data)  # (a list comprehension of rows: `np.array([[...] for s in sets])`)
    return None


def _is_int(value: object) -> bool:
    return (isinstance(value, Const) and type(value.value) is int) or (isinstance(value, Tensor) and value.kind == "pyint")


def nested_depth(value: Value | None) -> int | None:
    """The rank of a nested list of numbers (all items alike, its length known or not), else None."""
    if isinstance(value, TupleV):
        inner = {nested_depth(i) for i in value.items}
        if len(inner) != 1 or None in inner:
            return None
        return 1 + inner.pop()  # type: ignore[operator]
    if isinstance(value, Many) and value.flat and value.item is not None:  # a list of unknown length, its items alike
        depth = nested_depth(value.item)
        return None if depth is None else 1 + depth
    return 0 if (isinstance(value, Const) and type(value.value) in (int, float, bool)) or (isinstance(value, Tensor) and value.kind in ("pyfloat", "pyint")) else None


def _torch_result(entry: Entry, bound: dict[str, object], made: Tensor, origin: Origin) -> Tensor:
    """A torch result lives where its tensor inputs live, and keeps what the engine knows of
    the input it comes from (where it was made a tensor, its device's origin)."""
    result = entry.result
    inputs: list[Tensor] = []
    for name in result.arg.split(",") if result.arg else ["self"]:  # a method's own tensor
        value = _as_value(bound.get(name))
        for item in _items(value) or [value]:
            if isinstance(item, Tensor) and item.kind == "tensor":
                inputs.append(item)
    if not inputs:
        return made
    devices = {t.device for t in inputs}
    device = devices.pop() if len(devices) == 1 else None
    base = next((t for t in inputs if t.dtype == made.dtype), inputs[0])
    ranks = {t.ndim for t in inputs}
    if entry.name == "torch.stack":  # a new dimension over items of one rank
        ndim = base.ndim + 1 if len(ranks) == 1 and base.ndim is not None else None
    elif entry.name.rsplit(".", 1)[1] in _BROADCASTING:  # elementwise over tensors: the largest rank (numbers add none)
        ndim = None if None in ranks else max(r for r in ranks if r is not None)
    else:
        ndim = _rank_after(entry, bound, base.ndim)
    base = replace(base, ndim=ndim, collated=base.collated and entry.name.rsplit(".", 1)[1] in RANK_KEEPING)
    if result.rule == "integral":
        why = Origin(origin.span, f"{_short(entry)} keeps the float dtype") if is_float(base.dtype) else base.origin
        return replace(base, origin=why, from_ints=is_float(base.dtype), device=device)
    if result.rule == "fixed" and entry.name.startswith("Tensor.") and made.dtype:
        cast = entry.name.rsplit(".", 1)[1]
        from_ints = bool(base.dtype and not is_float(base.dtype) and is_float(made.dtype)) and not base.one_hot
        return replace(base, dtype=made.dtype, origin=Origin(origin.span, f".{cast}() makes it {made.dtype}"), from_ints=from_ints)
    if made.dtype == base.dtype and base.dtype is not None and result.rule != "fixed":
        # (a function of one fixed dtype makes it there, whatever its input's: `F.one_hot`'s int64)
        return replace(base, device=device, dev_origin=base.dev_origin if device else None)
    return replace(base, dtype=made.dtype, origin=made.origin, from_ints=made.from_ints, device=device, dev_origin=base.dev_origin if device else None)


# torch ops that keep the rank of their input (elementwise, casts, transposes)
RANK_KEEPING = frozenset({
    "float", "double", "half", "bfloat16", "long", "int", "short", "byte", "char", "bool", "abs", "neg", "clamp", "clip",
    "relu", "gelu", "silu", "leaky_relu", "elu", "softplus", "mish", "hardswish", "hardsigmoid", "relu6", "selu", "celu",
    "logsigmoid", "hardtanh", "dropout", "softmax", "log_softmax", "normalize", "sigmoid", "tanh", "sign", "sgn",
    "exp", "log", "sqrt", "sin", "cos", "tan", "erf", "log1p", "expm1", "rsqrt", "reciprocal", "atan", "asin", "acos",
    "sinh", "cosh", "masked_fill", "clone", "detach", "contiguous", "requires_grad_", "flip", "roll", "t", "transpose",
    "permute", "tril", "triu", "fill_", "zero_", "floor", "ceil", "round", "trunc", "zeros_like", "ones_like",
    "empty_like", "full_like", "rand_like", "randn_like", "pow", "mul", "add", "sub", "div", "true_divide",
    "cat", "concat", "concatenate", "logical_not", "square", "type_as", "clamp_min", "clamp_max", "movedim", "swapaxes",
})


# torch functions elementwise over two or more tensors, which broadcast
_BROADCASTING = frozenset({"atan2", "maximum", "minimum"})


def _reduced_ndim(bound: dict[str, object], source: object) -> int | None:
    """`a.max(axis=1)`, `np.sum(a, axis=0)`: one dimension fewer than `a` (with `keepdims`, as many)."""
    axis, keep = bound.get("axis"), bound.get("keepdims", Const(False))
    if not isinstance(source, Tensor) or source.ndim is None or type(axis) is not Const or type(axis.value) is not int:
        return None
    if keep == Const(True):
        return source.ndim
    return source.ndim - 1 if keep == Const(False) and source.ndim >= 1 else None


# torch reductions over `dim` (an int): one dimension fewer, as many with `keepdim=True`
_DIM_REDUCTIONS = frozenset({"mean", "sum", "nansum", "nanmean", "amax", "amin", "prod", "logsumexp", "std", "var"})


_FULL_REDUCTIONS = _DIM_REDUCTIONS | {"max", "min", "argmax", "argmin"}


def _reduces_all(bound: dict[str, object]) -> bool:
    """Nothing bound but the tensor itself (a `dim=None` or `keepdim=False` written out aside)."""
    for key, value in bound.items():
        if key in ("self", "input"):
            continue
        if value in (Const(None), (), {}) or (key == "keepdim" and value == Const(False)) or (key == "dtype"):
            continue
        return False
    return True


def _dim_reduced(bound: dict[str, object], ndim: int | None) -> int | None:
    """`x.mean(dim=-2)`: one dimension fewer than x; `keepdim=True` keeps them all. A dim not
    written as an int (a tuple, a name, none: all of them): unknown."""
    if ndim is None:
        return None
    dim, keep = bound.get("dim", Const(None)), bound.get("keepdim", Const(False))
    if type(dim) is not Const or type(dim.value) is not int or type(keep) is not Const or type(keep.value) is not bool:
        return None
    return ndim if keep.value else ndim - 1 if ndim >= 1 else None


def _rank_after(entry: Entry, bound: dict[str, object], ndim: int | None) -> int | None:
    name = entry.name.rsplit(".", 1)[1]
    if name in RANK_KEEPING:
        return ndim
    if entry.name == "torch.where" and "input" in bound:  # broadcast: the largest rank (a number adds none)
        ranks = [v.ndim if isinstance(v, Tensor) and v.kind == "tensor" else None if isinstance(v, Tensor) and v.kind in ARRAY_KINDS else 0
                 for v in (bound.get(k) for k in ("condition", "input", "other"))]
        return None if None in ranks else max(r for r in ranks if r is not None)
    if name in ("unsqueeze", "diag_embed"):
        return ndim + 1 if ndim is not None else None
    if name in _FULL_REDUCTIONS and entry.name.startswith(("torch.", "Tensor.")) and _reduces_all(bound):
        return 0  # `x.max()`, `x.sum()`: no dim given, one number (a 0-dim tensor) whatever x's rank
    if name in _DIM_REDUCTIONS and entry.name.startswith(("torch.", "Tensor.")):
        return _dim_reduced(bound, ndim)
    if name in ("softmax", "log_softmax") and entry.name.startswith(("torch.", "Tensor.")):
        return ndim  # over one dimension, keeping them all
    if name in ("view", "reshape", "repeat", "expand") and entry.name.startswith("Tensor."):  # the sizes given are the new rank
        shape = bound.get("args")
        if isinstance(shape, tuple) and len(shape) == 1 and isinstance(shape[0], TupleV):
            shape = shape[0].items
        return len(shape) if isinstance(shape, tuple) and shape else None
    if name == "flatten" and not bound.get("args") and not bound.get("kwargs") and "start_dim" not in bound:
        return 1
    return None


_NARROW_SUMMED = frozenset({"bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"})


def _apply_dtype(entry: Entry, bound: dict[str, object], env: Env, origin: Origin, default: str | None) -> Value | None:
    result = entry.result
    numpy = result.kind not in ("tensor",)
    kind = result.kind
    if result.scalar_param:
        given = bound.get(result.scalar_param, Const(None))  # absent: as if None; unknown: an array
        if given == Const(None) or given == ():
            kind = result.scalar_kind
    if result.dtype_param and result.dtype_param in bound and bound[result.dtype_param] != Const(None):
        given = bound[result.dtype_param]
        if kind == "frame" and isinstance(given, DictV):
            return _column_dtypes(given, bound.get("self"), env, origin)
        dtype = env.dtype_of(given, numpy=numpy)  # type: ignore[arg-type]
        return _make(kind, dtype, Origin(origin.span, f"{_short(entry)}(..., dtype={dtype})") if dtype else None)
    rule = result.rule
    if rule == "fixed":
        return _make(kind, result.dtype or None, Origin(origin.span, entry.why or f"{_short(entry)} returns {result.dtype}") if result.dtype else None)
    if rule == "weighted":  # `np.bincount(x)`: counts (int64); given `weights=`, sums of them in float64
        weights = bound.get(result.arg, Const(None))
        if weights == Const(None):
            return _make(kind, result.dtype, Origin(origin.span, f"{_short(entry)} counts in {result.dtype}"))
        return _make(kind, "float64", Origin(origin.span, f"{_short(entry)} with weights sums them in float64")) if weights is not None else _make(kind, None, None)
    if rule == "default":
        return _make(kind, default, Origin(origin.span, entry.why or f"{_short(entry)} follows the default dtype ({default})"))
    values = [_as_value(bound.get(name)) for name in result.arg.split(",")] if result.arg else []
    if rule == "sparse_data":  # `sp.coo_matrix((data, (row, col)))`: the data's dtype; `sp.csr_matrix(dense)`: the array's
        source = values[0] if values else None
        data = source.items[0] if isinstance(source, TupleV) and source.items else source
        if isinstance(data, Tensor) and data.kind in ("ndarray", "sparse") and data.dtype and data.dtype != WIDE:
            return _make(kind, data.dtype, data.origin, data.from_ints)
        return _make(kind, None, None)
    if rule == "alike":  # `np.meshgrid(x, y)`: each output keeps its own input's dtype: known when they agree
        seq = _items(values[0]) if len(values) == 1 else values
        dtypes = {v.dtype if isinstance(v, Tensor) and v.kind in ARRAY_KINDS else None for v in seq or [None]}
        dtype = next(iter(dtypes)) if len(dtypes) == 1 else None
        first = (seq or [None])[0]
        return _make(kind, dtype, first.origin if dtype and isinstance(first, Tensor) else None)
    if rule == "round":  # `np.round`: numbers keep their dtype, bools become float16
        first = values[0] if values else None
        if isinstance(first, Tensor) and first.dtype == "bool":
            return _make(kind, "float16", Origin(origin.span, f"{_short(entry)} of bools gives float16"))
        rule = "same"
    if rule == "same":
        value = values[0] if values else None
        if kind == "pylist" and isinstance(value, Tensor) and value.kind in ARRAY_KINDS and value.dtype and value.ndim:
            return _nested_list(value.dtype, value.ndim)  # `.tolist()` of a 2-D array: a list of rows of numbers
        if isinstance(value, Tensor) and value.kind in (*ARRAY_KINDS, "npscalar") and value.dtype:
            return _make(kind, value.dtype, value.origin, value.from_ints)
        op = _operand(value, numpy)
        if isinstance(op, Weak) and numpy:
            dtype = {"float": "float64", "int": "int64", "bool": "bool"}[op.kind]
            return _make(kind, dtype, Origin(origin.span, entry.why or f"{_short(entry)} gives {dtype}"))
        if numpy and isinstance(value, TupleV) and kind == "ndarray":
            # `np.tile((left, top), 2)`: a list or tuple is made an array first, as `np.asarray` would
            dtype = infer_dtype(value, True, default)
            numbers = _python_numbers(value)
            why = f"NumPy makes {dtype} from Python {numbers}" if numbers else f"{_short(entry)} gives {dtype}"
            return _make(kind, dtype, Origin(origin.span, why) if dtype else None)
        return _make(kind, None, None)
    if rule == "sum":
        value = values[0] if values else None
        if isinstance(value, Tensor) and value.kind in (*ARRAY_KINDS, "npscalar") and (is_float(value.dtype) or value.dtype == "int64"):
            return _make(kind, value.dtype, value.origin, value.from_ints)
        if isinstance(value, Tensor) and value.kind in (*ARRAY_KINDS, "npscalar") and value.dtype in _NARROW_SUMMED:
            # a count of a mask (`np.sum(y == i)`: VGCN-BERT's class weights, set 66): bool and narrower
            # integers sum in the default integer, int64 (NumPy 2 on every platform; torch always),
            # unsigned ones in uint64 in NumPy
            dtype = "uint64" if numpy and value.dtype.startswith("uint") else "int64"
            return _make(kind, dtype, Origin(origin.span, f"{_short(entry)} of {value.dtype} gives {dtype}"))
        return _make(kind, None, None)
    if rule == "square":
        value = values[0] if values else None
        if isinstance(value, Tensor) and value.kind in (*ARRAY_KINDS, "npscalar") and value.dtype == "bool":
            return _make(kind, "int64", Origin(origin.span, f"{_short(entry)} of bool gives int64"))
        if isinstance(value, Tensor) and value.kind in (*ARRAY_KINDS, "npscalar") and value.dtype:
            return _make(kind, value.dtype, value.origin, value.from_ints)
        return _make(kind, None, None)
    if rule == "infer":
        present = [v for v in values if v is not None and v != Const(None)]
        if not present:
            return _make(kind, None, None)
        dtype = infer_dtype(TupleV(tuple(present)), numpy, default)
        single = present[0] if len(present) == 1 else None
        keep = isinstance(single, Tensor) and single.dtype == dtype and single.origin is not None
        why = entry.why or f"{_short(entry)} infers {dtype}"
        numbers = _python_numbers(single) if isinstance(single, TupleV) else None  # a list written out (`[reward]`), not one built up
        if numbers and dtype and entry.name.startswith("numpy."):
            why = f"NumPy makes {dtype} from Python {numbers}"  # `np.array([reward])`: the array's dtype is decided here
        return _make(kind, dtype, single.origin if keep else Origin(origin.span, why) if dtype else None)  # type: ignore[union-attr]
    if rule == "columns":
        axis = bound.get("axis")
        if isinstance(values[0] if values else None, TupleV) and axis in (Const(1), Const("columns")):
            return _side_by_side(values[0], origin)  # type: ignore[arg-type]
        if kind == "frame" and entry.name.endswith("DataFrame") and not bound:
            # `pd.DataFrame()`: no columns yet (the Titanic preprocessing concatenates onto it: set 58)
            made = _make(kind, None, None)
            return replace(made, columns=()) if isinstance(made, Tensor) else made
        return _columns(kind, values[0] if values else None, bound.get("columns"), origin)
    if rule == "dummies":
        data = values[0] if values else None
        if (isinstance(data, Tensor) and data.kind == "series") or _items(data) is not None:
            made = _make(kind, "bool", Origin(origin.span, entry.why))
            prefix, sep = bound.get("prefix", Const(None)), bound.get("prefix_sep", Const("_"))
            # its columns: `embark_C`, ... under a prefix; named by the values (`female`, `male`) without one
            named = isinstance(prefix, Const) and isinstance(prefix.value, str) and isinstance(sep, Const) and isinstance(sep.value, str)
            entry_name = f"{DUMMIES}{prefix.value}{sep.value}" if isinstance(prefix, Const) and isinstance(sep, Const) and named else OTHER
            return replace(made, columns=((entry_name, "bool"),)) if isinstance(made, Tensor) and (named or prefix == Const(None)) else made
        if isinstance(data, Tensor) and data.kind == "frame" and (data.columns is not None or isinstance(bound.get("columns"), TupleV)):
            return _dummies_of_frame(data, bound.get("columns"), bound.get("prefix_sep", Const("_")) if bound.get("prefix", Const(None)) == Const(None) else None, origin)
        return _make(kind, None, None)
    if rule == "keep32":
        # SciPy's filters and NumPy's linalg: float32 data stays float32, any other number
        # (or float32 met by any other) becomes float64
        sources = [v for v in values if v is not None]
        if not sources or not all(isinstance(v, Tensor) and v.kind in ARRAY_KINDS and v.dtype and v.dtype != WIDE for v in sources):
            return _make(kind, None, None)
        if all(isinstance(v, Tensor) and v.dtype == "float32" for v in sources):
            return _make(kind, "float32", sources[0].origin if isinstance(sources[0], Tensor) else None)
        return _make(kind, "float64", Origin(origin.span, entry.why or f"{_short(entry)} gives float64"))
    if rule == "real64":  # `np.interp`: float64 for real data of any dtype; complex data gives complex128
        source = values[0] if values else None
        dtype = source.dtype if isinstance(source, Tensor) and source.kind in ARRAY_KINDS else infer_dtype(TupleV((source,)), True, default) if isinstance(source, TupleV) else None
        if dtype and (dtype == WIDE or dtype == "bool" or is_float(dtype) or dtype.startswith(("int", "uint"))):
            return _make(kind, "float64", Origin(origin.span, entry.why or f"{_short(entry)} gives float64"))
        return _make(kind, None, None)
    if rule == "change":
        # `Series.pct_change()`: float data keeps its dtype, integers give float64, bools an object array
        source = values[0] if values else None
        if isinstance(source, Tensor) and source.dtype in ("float64", "float32", "float16"):
            return _make(kind, source.dtype, source.origin)
        if isinstance(source, Tensor) and source.dtype in ("int64", "int32", "int16", "int8", "uint8"):
            return _make(kind, "float64", Origin(origin.span, entry.why or f"{_short(entry)} of integers gives float64"))
        return _make(kind, None, None)
    if rule == "pivot":
        # `df.pivot(index=..., columns=..., values="units")`: a grid of that column's values; a
        # missing (index, column) pair is NaN, so integers come back int64 (every pair there) or
        # float64 (some missing): pandas' int64-or-float64, the engine's WIDE
        source = values[0] if values else None
        chosen = bound.get("values")
        if not isinstance(source, Tensor):
            return _make(kind, None, None)
        if isinstance(chosen, Const) and isinstance(chosen.value, str) and source.columns is not None:
            dtype = dict(source.columns).get(chosen.value)
        else:
            dtype = source.dtype if source.columns is None or len({d for _, d in source.columns}) == 1 else None
        if dtype in ("float64", "float32", "float16"):
            return _make(kind, dtype, source.origin)
        if dtype in ("int64", "int32", "int16", "int8", "uint8", WIDE):
            return _make(kind, WIDE, Origin(origin.span, entry.why))
        return _make(kind, None, None)
    if rule == "sum_frame":
        # a frame's sums (by column or by row): one float64/float32/int64 dtype in all columns
        # stays; anything else (bools, narrower ints, mixes) is not claimed
        source = values[0] if values else None
        dtypes = ({d for _, d in source.columns} if source.columns is not None else {source.dtype}) if isinstance(source, Tensor) else set()
        if len(dtypes) == 1 and next(iter(dtypes)) in ("float64", "float32", "int64") and isinstance(source, Tensor):
            return _make(kind, next(iter(dtypes)), source.origin)
        return _make(kind, None, None)
    if rule == "reduce":
        # pandas' mean/std per column, gathered: float32 columns keep float32, columns of
        # int/bool/float64 give float64; float16 and mixes with float32 are irregular: unknown
        source = values[0] if values else None
        if not isinstance(source, Tensor):
            return _make(kind, None, None)
        dtypes = {d for _, d in source.columns} if source.columns is not None else {source.dtype}
        if dtypes == {"float32"}:
            return _make(kind, "float32", source.origin)
        if dtypes and None not in dtypes and dtypes <= {"float64", "int64", "int32", "int16", "int8", "uint8", "bool"}:
            reduced = source.origin if dtypes == {"float64"} else Origin(origin.span, entry.why or f"{_short(entry)} gives float64")
            return _make(kind, "float64", reduced)
        return _make(kind, None, None)
    if rule == "integral":
        value = values[0] if values else None
        return _make(kind, value.dtype if isinstance(value, Tensor) else None, None)
    if rule == "float" and result.rounding_param and bound.get(result.rounding_param, Const(None)) != Const(None):
        if bound.get(result.rounding_param) is None:
            return _make(kind, None, None)  # a rounding mode that is not known: so is the result
        rule = "promote"  # `torch.div(k_ids, K, rounding_mode="floor")`: integers stay integers
    if rule in ("promote", "float", "ufunc"):
        ops: list[Strong | Weak] = []
        sequence = len(values) == 1 and _items(values[0]) is not None
        seq = _items(values[0]) if sequence else values
        assert seq is not None
        if kind == "ndarray" and not sequence and values and all(_scalar(v) for v in values):
            kind = "npscalar"  # a ufunc of numbers gives a NumPy scalar (`np.log10(rms)`: np.float64, which widens arrays)
        names = result.arg.split(",") if result.arg else []
        given = [v for v in seq if v is not None and v != Const(None)]
        if rule in ("float", "ufunc") and numpy and given and any(isinstance(v, Tensor) and v.dtype == WIDE for v in given) and all(
            (isinstance(v, Tensor) and v.dtype == WIDE) or isinstance(_operand(v, numpy), Weak) for v in given
        ):
            # `np.log(df["Fare"] + 1)`: int64 or float64 columns, float64 either way
            return _make(kind, "float64", Origin(origin.span, f"{_short(entry)} of int64 or float64 data gives float64"))
        for i, value in enumerate(seq):
            if value is None and not sequence:
                if i < len(names) and names[i] in bound and bound[names[i]] is None:
                    return _make(kind, None, None)  # given, but unknown: so is the result
                continue  # an optional argument not given
            if value == Const(None) and not sequence and i > 0:
                continue  # `np.clip(a, 0, None)`: no bound on that side
            op = _operand(value, numpy)
            if op is None:
                return _make(kind, None, None)
            if sequence and isinstance(op, Weak):
                op = Strong({"float": "float64", "int": "int64", "bool": "bool"}[op.kind]) if numpy else op
            ops.append(op)
        joined = promote_operands(ops, numpy, default)
        if joined is None:
            return _make(kind, None, None)
        dtype, why_origin, from_ints = joined.dtype, joined.origin, joined.from_ints
        if dtype == "bool" and entry.name == "numpy.power":
            return _make(kind, None, None)  # bool ** bool is int8 in NumPy: not a promotion
        if rule in ("float", "ufunc") and not is_float(dtype):
            row = promotion.NUMPY_FLOAT_UFUNC if rule == "ufunc" else promotion.NUMPY_TRUE_DIVIDE
            dtype = row.get(dtype) if numpy else default
            why_origin = Origin(origin.span, entry.why or f"{_short(entry)} of integers gives {dtype}") if dtype else None
            from_ints = True
        return _make(kind, dtype, why_origin or (Origin(origin.span, f"{_short(entry)} gives {dtype}") if dtype else None), from_ints)
    return _make(kind, None, None)


def _scalar(value: Value | None) -> bool:
    """A Python number or a NumPy scalar (what a ufunc turns into a NumPy scalar)."""
    if isinstance(value, Const):
        return type(value.value) in (int, float, bool)
    return isinstance(value, Tensor) and value.kind in ("pyfloat", "pyint", "npscalar")


def _python_numbers(value: Value | None, depth: int = 0) -> str | None:
    """"ints" or "floats" when `value` is a list (of lists) of Python numbers only."""
    if depth > 3:
        return None
    kind = number_kind(value)
    if kind:
        return "ints" if kind == "pyint" else "floats"
    items = list(value.items) if isinstance(value, TupleV) else [value.item] if isinstance(value, Many) else None
    if not items:
        return None
    kinds = {_python_numbers(i, depth + 1) for i in items}
    return kinds.pop() if len(kinds) == 1 and None not in kinds else "floats" if kinds == {"ints", "floats"} else None


def column_dtype(value: Value | None) -> Strong | None:
    """The dtype pandas stores a column in: an array's, or what NumPy infers from a list;
    strings (object) and anything unknown give None."""
    if isinstance(value, Tensor) and value.kind in ARRAY_KINDS:
        return Strong(value.dtype, value.origin, value.from_ints) if value.dtype else None
    if isinstance(value, Tensor) and value.kind in ("pyfloat", "pyint"):
        return Strong("float64" if value.kind == "pyfloat" else "int64")
    if isinstance(value, Const) and type(value.value) in (int, float, bool):
        return Strong({int: "int64", float: "float64", bool: "bool"}[type(value.value)])
    if _items(value) is not None:
        dtype = infer_dtype(value, True, None)
        return Strong(dtype) if dtype else None
    return None


def frame(columns: tuple[tuple[str, str | None], ...] | None, parts: list[Strong | None], origin: Origin, kind: str = "frame") -> Value | None:
    """A frame whose `.values` has the columns' common dtype: one dtype, or numbers promoted
    (a bool or a string column among others makes an object array: unknown)."""
    dtype: str | None = None
    why: Origin | None = None
    from_ints = False
    known = [p for p in parts if p is not None]
    kinds = {p.dtype for p in known}
    if "bool" in kinds and kinds - {"bool"} and kinds <= {"bool", *FLOAT_DTYPES, *INT_DTYPES}:
        # pandas has no common number type for bools and numbers: `.values` is an object array
        # (whatever the columns not known here are), which torch refuses
        flag = next((p.origin for p in known if p.dtype == "bool" and p.origin is not None), None)
        dtype, why = "object", Origin((flag or origin).span, f"{flag.why if flag else 'bool columns'}, and bool columns beside number columns make the frame's `.values` an object array")
    elif parts and len(known) == len(parts) and not (len(kinds) > 1 and "bool" in kinds):
        joined = promote_operands(list(known), True, None)
        if joined is not None:
            dtype, from_ints = joined.dtype, joined.from_ints
            why = joined.origin or Origin(origin.span, f"the frame's columns are {dtype}")
    made = _make(kind, dtype, why, from_ints)
    if isinstance(made, Tensor) and columns is not None:
        made = replace(made, columns=columns)
    return made


OTHER = "<other columns>"  # a frame's columns nobody named: one entry, so the frame's dtype stays unknown unless it is known
DUMMIES = "<indicators>"  # an entry for `pd.get_dummies`' columns of one prefix: "<indicators>sex_" stands for sex_female, sex_male, ...


def _column_dtypes(given: DictV, data: object, env: Env, origin: Origin) -> Value | None:
    """`pd.read_csv(f, dtype={"label": "int32"})`, `df.astype({"level": "int32"})`: the named
    columns take those dtypes; the others keep what they had (unknown for a file read)."""
    keys, items = given.keys, given.items
    if not all(isinstance(k, str) for k in keys):
        return _make("frame", None, None)
    if isinstance(data, Tensor) and data.kind == "frame" and data.columns is not None:
        columns = dict(data.columns)
    else:
        columns = {OTHER: data.dtype if isinstance(data, Tensor) and data.kind == "frame" and data.dtype != WIDE else None}
    for key, item in zip(keys, items, strict=True):
        columns[str(key)] = env.dtype_of(item, numpy=True) if isinstance(item, Value) else None
    named = tuple(columns.items())
    return frame(named, [Strong(d) if d else None for _, d in named], Origin(origin.span, "the frame's column dtypes"))


def _side_by_side(frames: TupleV, origin: Origin) -> Value | None:
    """`pd.concat([df, pd.get_dummies(df["sex"]), ...], axis=1)`: the frames' columns side by
    side (a frame whose columns are not known makes them unknown; the columns nobody named,
    in several frames, are one entry of their common dtype)."""
    columns: list[tuple[str, str | None]] = []
    for item in frames.items:
        if not (isinstance(item, Tensor) and item.kind == "frame" and item.columns is not None):
            return _make("frame", None, None)
        columns.extend(item.columns)
    others = [d for n, d in columns if n == OTHER]
    merged = [(n, d) for n, d in columns if n != OTHER]
    if others:
        merged.append((OTHER, others[0] if len(set(others)) == 1 else None))
    parts = [Strong(d, Origin(origin.span, "`pd.get_dummies` makes bool indicator columns") if d == "bool" else None) if d and d != WIDE else None for _, d in merged]
    made = frame(tuple(merged), parts, origin)
    origins = tuple(o for item in frames.items if isinstance(item, Tensor) for o in item.column_origins)
    return replace(made, column_origins=origins) if isinstance(made, Tensor) else made


def _columns(kind: str, data: object, names: object, origin: Origin) -> Value | None:
    """`pd.DataFrame(dict)`, `pd.DataFrame(array, columns=[...])`, `pd.concat([...])`."""
    if isinstance(data, DictV):
        parts = [column_dtype(v) for v in data.items]
        named = all(isinstance(k, str) for k in data.keys)
        columns = tuple((str(k), p.dtype if p else None) for k, p in zip(data.keys, parts, strict=True)) if named else None
        return frame(columns, parts, origin, kind)
    if isinstance(data, Tensor) and data.kind in ARRAY_KINDS:
        part = column_dtype(data)
        labels = _items(names) if isinstance(names, TupleV) else None
        if labels and all(isinstance(x, Const) and isinstance(x.value, str) for x in labels):
            names_given = tuple((str(x.value), part.dtype if part else None) for x in labels if isinstance(x, Const))
            return frame(names_given, [part] * len(names_given), origin, kind)
        return frame(data.columns, [part], origin, kind)
    items = _items(data)  # type: ignore[arg-type]
    return frame(None, [column_dtype(i) for i in items], origin, kind) if items else _make(kind, None, None)


def _as_value(bound: object) -> Value | None:
    """A bound `*args` is a Python tuple of values: the engine's tuple value."""
    if isinstance(bound, tuple):
        return TupleV(bound)
    return bound if isinstance(bound, Value) else None


def _short(entry: Entry) -> str:
    name = entry.name
    for prefix, short in (("numpy.random.Generator.", "rng."), ("numpy.", "np."), ("pandas.", "pd."), ("ndarray.", "."), ("DataFrame.", "."), ("Series.", "."), ("Tensor.", "."), ("torch.nn.functional.", "F.")):
        if name.startswith(prefix):
            return f"`{short}{name[len(prefix):]}`"
    return f"`{name}`"


def _nested_list(dtype: str, ndim: int) -> Value | None:
    """What `.tolist()` of an array or tensor of known rank gives: lists nested `ndim` deep around
    Python numbers (bools: not claimed)."""
    inner = _make("pylist", dtype, None)
    if not isinstance(inner, Many):
        return None
    made: Value = Many(inner.item)
    for _ in range(ndim - 1):
        made = Many(made)
    return made


def _make(kind: str, dtype: str | None, origin: Origin | None, from_ints: bool = False) -> Value | None:
    if kind == "pylist":
        if dtype is None:
            return None
        return Many(Tensor("pyfloat" if is_float(dtype) else "pyint") if dtype != "bool" else None, flat=False)
    if kind == "pyscalar":
        if dtype is None:
            return None
        return Tensor("pyfloat") if is_float(dtype) else Tensor("pyint") if dtype != "bool" else None
    if kind in ("pyfloat", "pyint"):
        return Tensor(kind)
    if kind == "arrays":  # `np.array_split(a, n)`: a list of arrays of that dtype
        return Many(_make("ndarray", dtype, origin, from_ints))
    if kind in ("tensors2", "tensors3"):  # `torch.linalg.eigh(a)`: its factors, each of that dtype
        part = _make("tensor", dtype, origin, from_ints)
        return TupleV((part,) * int(kind[-1]))
    device = None if kind == "tensor" else "cpu"
    return Tensor(kind, dtype, device, origin if dtype else None, None, False, None, from_ints)


def with_kind(value: Tensor, kind: str) -> Tensor:
    return replace(value, kind=kind)
