"""NumPy as the engine knows it: one row per function or method, checked against NumPy.

Rows: (name, signature, result rule, probe[, why]). `{a}`/`{b}` in a probe stand for arrays
of each dtype the conformance test tries. Legacy `np.random.*` functions (and the methods of a
`RandomState`) return a Python float or int when no size is given, an array otherwise;
`Generator` methods likewise.
"""

from __future__ import annotations

from dataclasses import replace

from dtypeguard.engine.library.spec import (
    Entry,
    Result,
    Signature,
    fixed,
    floating,
    infer,
    keep32,
    promote,
    ranked,
    real64,
    same,
    summed,
    table,
    ufunc,
    unknown,
    weighted,
)

ND = "ndarray"


def _reduction(result: Result) -> Result:
    """Without `axis`, a reduction gives a NumPy scalar."""
    return replace(result, scalar_param="axis", scalar_kind="npscalar")


def _sized(dtype: str, dtype_param: str = "", scalar: str = "pyfloat", size: str = "size") -> Result:
    """A random source: an array when `size` (or a shape) is given, else a scalar."""
    return replace(fixed(ND, dtype, dtype_param), scalar_param=size, scalar_kind=scalar)


_UFUNC = "(x, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True)"
_UFUNC2 = "(x1, x2, /, out=None, *, where=True, casting='same_kind', order='K', dtype=None, subok=True)"
_REDUCE = "(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True)"
_STACK = "(arrays, axis=0, out=None, *, dtype=None, casting='same_kind')"
_LEGACY_FLOAT = ("random", "random_sample", "sample", "ranf")
# the same distributions in the legacy `np.random.*` API and on a `default_rng()` Generator:
# (name, signature, dtype, scalar kind without `size`, probe arguments)
_DISTRIBUTIONS = [
    ("normal", "(loc=0.0, scale=1.0, size=None)", "float64", "pyfloat", "0, 1, 2"),
    ("uniform", "(low=0.0, high=1.0, size=None)", "float64", "pyfloat", "0, 1, 2"),
    ("exponential", "(scale=1.0, size=None)", "float64", "pyfloat", "1.0, 2"),
    ("beta", "(a, b, size=None)", "float64", "pyfloat", "1.0, 1.0, 2"),
    ("gamma", "(shape, scale=1.0, size=None)", "float64", "pyfloat", "1.0, 1.0, 2"),
    ("lognormal", "(mean=0.0, sigma=1.0, size=None)", "float64", "pyfloat", "0.0, 1.0, 2"),
    ("laplace", "(loc=0.0, scale=1.0, size=None)", "float64", "pyfloat", "0.0, 1.0, 2"),
    ("poisson", "(lam=1.0, size=None)", "int64", "pyint", "1.0, 3"),
    ("binomial", "(n, p, size=None)", "int64", "pyint", "3, 0.5, 3"),
]

FUNCTIONS: dict[str, Entry] = table("numpy", [
    # sources: float64 unless told otherwise
    ("zeros", "(shape, dtype=float, order='C', *, device=None, like=None)", fixed(ND, "float64", "dtype"), "np.zeros(3)", "`np.zeros` makes float64 arrays by default"),
    ("ones", "(shape, dtype=None, order='C', *, device=None, like=None)", fixed(ND, "float64", "dtype"), "np.ones(3)", "`np.ones` makes float64 arrays by default"),
    ("empty", "(shape, dtype=float, order='C', *, device=None, like=None)", fixed(ND, "float64", "dtype"), "np.empty(3)", "`np.empty` makes float64 arrays by default"),
    ("full", "(shape, fill_value, dtype=None, order='C', *, device=None, like=None)", infer(ND, "fill_value"), "np.full(3, {s})", "`np.full` takes the fill value's dtype"),
    ("zeros_like", "(a, dtype=None, order='K', subok=True, shape=None, *, device=None)", same(ND, "a", "dtype"), "np.zeros_like({a})"),
    ("ones_like", "(a, dtype=None, order='K', subok=True, shape=None, *, device=None)", same(ND, "a", "dtype"), "np.ones_like({a})"),
    ("empty_like", "(prototype, dtype=None, order='K', subok=True, shape=None, *, device=None)", same(ND, "prototype", "dtype"), "np.empty_like({a})"),
    ("full_like", "(a, fill_value, dtype=None, order='K', subok=True, shape=None, *, device=None)", same(ND, "a", "dtype"), "np.full_like({a}, 1)"),
    ("linspace", "(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None)", ranked(fixed(ND, "float64", "dtype"), 1), "np.linspace(0, 1, 5)", "`np.linspace` makes float64 arrays"),
    ("logspace", "(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0)", ranked(fixed(ND, "float64", "dtype"), 1), "np.logspace(0, 1, 5)", "`np.logspace` makes float64 arrays"),
    *[(name, "(M)", ranked(fixed(ND, "float64", ""), 1), f"np.{name}(8)", f"`np.{name}` makes a float64 window") for name in ("hanning", "hamming", "blackman", "bartlett")],
    ("kaiser", "(M, beta)", ranked(fixed(ND, "float64", ""), 1), "np.kaiser(8, 5.0)", "`np.kaiser` makes a float64 window"),
    ("eye", "(N, M=None, k=0, dtype=float, order='C', *, device=None, like=None)", ranked(fixed(ND, "float64", "dtype"), 2), "np.eye(3)", "`np.eye` makes float64 arrays"),
    ("identity", "(n, dtype=None, *, like=None)", ranked(fixed(ND, "float64", "dtype"), 2), "np.identity(3)", "`np.identity` makes float64 arrays"),
    ("arange", "(start, stop=None, step=None, dtype=None, *, device=None, like=None)", ranked(infer(ND, "start,stop,step"), 1), "np.arange({s}, 5)", "`np.arange` takes the dtype of its arguments"),
    ("loadtxt", "(fname, dtype=float, *args, **kwargs)", fixed(ND, "float64", "dtype"), "", "`np.loadtxt` reads float64 by default"),
    ("genfromtxt", "(fname, dtype=float, *args, **kwargs)", fixed(ND, "float64", "dtype"), "", "`np.genfromtxt` reads float64 by default"),
    ("memmap", "(filename, dtype=uint8, mode='r+', offset=0, shape=None, order='C')", fixed(ND, "uint8", "dtype"), "", "`np.memmap` maps uint8 unless given a dtype"),
    ("fromfile", "(file, dtype=float, count=-1, sep='', offset=0, *, like=None)", fixed(ND, "float64", "dtype"), "", "`np.fromfile` reads float64 by default"),
    ("fromiter", "(iter, dtype, count=-1, *, like=None)", ranked(fixed(ND, "", "dtype"), 1), "np.fromiter(iter([1, 2]), dtype=np.int32)", "`np.fromiter` makes the dtype it is given"),
    ("frombuffer", "(buffer, dtype=float, count=-1, offset=0, *, like=None)", fixed(ND, "float64", "dtype"), "np.frombuffer(bytes(16))", "`np.frombuffer` reads float64 by default"),
    ("bincount", "(x, /, weights=None, minlength=0)", ranked(weighted(ND, "int64", "weights"), 1), "np.bincount(np.array([0, 1, 1]))", "`np.bincount` counts in int64"),
    ("load", "(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding='ASCII', *, max_header_size=10000)", unknown(ND), ""),  # what `np.save` wrote there, when this file saved it
    ("save", "(file, arr, allow_pickle=True, fix_imports=True)", unknown(ND), ""),
    ("savez", "(file, *args, allow_pickle=True, **kwds)", unknown(ND), ""),  # what `np.load` of the file gives back, by key
    ("savez_compressed", "(file, *args, allow_pickle=True, **kwds)", unknown(ND), ""),
    # conversions
    ("array", "(object, dtype=None, *, copy=True, order='K', subok=False, ndmin=0, like=None)", infer(ND, "object"), "np.array([{s}, {s}])", "NumPy infers the array's dtype from its data"),
    ("asarray", "(a, dtype=None, order=None, *, device=None, copy=None, like=None)", infer(ND, "a"), "np.asarray({a})", "NumPy infers the array's dtype from its data"),
    ("asanyarray", "(a, dtype=None, order=None, *, device=None, copy=None, like=None)", infer(ND, "a"), "np.asanyarray({a})"),
    ("ascontiguousarray", "(a, dtype=None, *, like=None)", infer(ND, "a"), "np.ascontiguousarray({a})"),
    ("asfortranarray", "(a, dtype=None, *, like=None)", infer(ND, "a"), "np.asfortranarray({a})"),
    ("copy", "(a, order='K', subok=False)", same(ND, "a"), "np.copy({a})"),
    # differences keep the dtype (bool: `!=` of neighbours); a `prepend=`/`append=` value may promote: not bound
    ("diff", "(a, n=1, axis=-1)", same(ND, "a"), "np.diff({a})"),
    ("corrcoef", "(x, y=None, rowvar=True, *, dtype=None)", real64(ND, "x", "dtype"), "np.corrcoef({a})", "`np.corrcoef` computes in float64"),
    ("cov", "(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None)", real64(ND, "m", "dtype"), "np.cov({a})", "`np.cov` computes in float64"),
    ("interp", "(x, xp, fp, left=None, right=None, period=None)", real64(ND, "fp"), "np.interp([0.5, 0.7], [0.0, 1.0], {a}[0])", "`np.interp` computes in float64"),
    # joining and selecting: NumPy's promotion over the arrays
    ("stack", _STACK, promote(ND, "arrays", "dtype"), "np.stack([{a}, {b}])"),
    ("concatenate", "(arrays, axis=0, out=None, dtype=None, casting='same_kind')", promote(ND, "arrays", "dtype"), "np.concatenate([{a}, {b}])"),
    ("concat", "(arrays, axis=0, out=None, dtype=None, casting='same_kind')", promote(ND, "arrays", "dtype"), "np.concat([{a}, {b}])"),
    ("vstack", "(tup, *, dtype=None, casting='same_kind')", promote(ND, "tup", "dtype"), "np.vstack([{a}, {b}])"),
    ("hstack", "(tup, *, dtype=None, casting='same_kind')", promote(ND, "tup", "dtype"), "np.hstack([{a}, {b}])"),
    ("dstack", "(tup)", promote(ND, "tup"), "np.dstack([{a}, {b}])"),
    ("column_stack", "(tup)", promote(ND, "tup"), "np.column_stack([{a}, {b}])"),
    ("where", "(condition, x=None, y=None, /)", promote(ND, "x,y"), "np.where({a} > 0, {a}, {b})"),
    ("select", "(condlist, choicelist, default=0)", promote(ND, "choicelist,default"), "np.select([{a} > 0, {b} > 0], [{a}, {b}], 0)"),
    ("append", "(arr, values, axis=None)", promote(ND, "arr,values"), "np.append({a}, {b})"),
    ("meshgrid", "(*xi, copy=True, sparse=False, indexing='xy')", Result("alike", "arrays", arg="xi"), "np.meshgrid({a}, {b})[0]"),
    ("array_split", "(ary, indices_or_sections, axis=0)", same("arrays", "ary"), "np.array_split({a}, 2)[0]"),
    ("split", "(ary, indices_or_sections, axis=0)", same("arrays", "ary"), "np.split({a}, 2)[0]"),
    ("delete", "(arr, obj, axis=None)", same(ND, "arr"), "np.delete({a}, 0)"),
    ("insert", "(arr, obj, values, axis=None)", same(ND, "arr"), "np.insert({a}, 0, 1)"),
    ("take", "(a, indices, axis=None, out=None, mode='raise')", same(ND, "a"), "np.take({a}, [0, 1])"),
    ("dot", "(a, b, out=None)", promote(ND, "a,b"), "np.dot({a}, {b})"),
    ("matmul", _UFUNC2, promote(ND, "x1,x2", "dtype"), "np.matmul({a}, {b})"),
    # shape
    ("reshape", "(a, /, shape=None, order='C', *, newshape=None, copy=None)", same(ND, "a"), "np.reshape({a}, (2, 2))"),
    ("transpose", "(a, axes=None)", same(ND, "a"), "np.transpose({a})"),
    ("moveaxis", "(a, source, destination)", same(ND, "a"), "np.moveaxis({a}, -1, 0)"),
    ("swapaxes", "(a, axis1, axis2)", same(ND, "a"), "np.swapaxes({a}, 0, 1)"),
    ("rollaxis", "(a, axis, start=0)", same(ND, "a"), "np.rollaxis({a}, 1)"),
    ("squeeze", "(a, axis=None)", same(ND, "a"), "np.squeeze({a})"),
    ("expand_dims", "(a, axis)", same(ND, "a"), "np.expand_dims({a}, 0)"),
    ("flip", "(m, axis=None)", same(ND, "m"), "np.flip({a})"),
    ("triu", "(m, k=0)", same(ND, "m"), "np.triu({a})"),
    ("tril", "(m, k=0)", same(ND, "m"), "np.tril({a})"),
    ("tile", "(A, reps)", same(ND, "A"), "np.tile({a}, 2)"),
    ("repeat", "(a, repeats, axis=None)", same(ND, "a"), "np.repeat({a}, 2)"),
    ("roll", "(a, shift, axis=None)", same(ND, "a"), "np.roll({a}, 1)"),
    ("ravel", "(a, order='C')", same(ND, "a"), "np.ravel({a})"),
    ("atleast_2d", "(*arys)", promote(ND, "arys"), "np.atleast_2d({a})"),
    ("nan_to_num", "(x, copy=True, nan=0.0, posinf=None, neginf=None)", same(ND, "x"), "np.nan_to_num({a})"),
    ("round", "(a, decimals=0, out=None)", Result("round", ND, arg="a"), "np.round({a})"),
    ("around", "(a, decimals=0, out=None)", Result("round", ND, arg="a"), "np.around({a})"),
    ("sort", "(a, axis=-1, kind=None, order=None, *, stable=None)", same(ND, "a"), "np.sort({a})"),
    ("unique", "(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True, sorted=True)", unknown(ND), ""),
    # elementwise
    ("abs", _UFUNC, same(ND, "x", "dtype"), "np.abs({a})"),
    ("absolute", _UFUNC, same(ND, "x", "dtype"), "np.absolute({a})"),
    ("negative", _UFUNC, same(ND, "x", "dtype"), "np.negative({a})"),
    ("exp", _UFUNC, ufunc(ND, "x"), "np.exp({a})"),
    ("log", _UFUNC, ufunc(ND, "x"), "np.log({a})"),
    ("log1p", _UFUNC, ufunc(ND, "x"), "np.log1p({a})"),
    ("log2", _UFUNC, ufunc(ND, "x"), "np.log2({a})"),
    ("log10", _UFUNC, ufunc(ND, "x"), "np.log10({a})"),
    ("expm1", _UFUNC, ufunc(ND, "x"), "np.expm1({a})"),
    ("sqrt", _UFUNC, ufunc(ND, "x"), "np.sqrt({a})"),
    ("tanh", _UFUNC, ufunc(ND, "x"), "np.tanh({a})"),
    ("sin", _UFUNC, ufunc(ND, "x"), "np.sin({a})"),
    ("cos", _UFUNC, ufunc(ND, "x"), "np.cos({a})"),
    ("tan", _UFUNC, ufunc(ND, "x"), "np.tan({a})"),
    ("arctan", _UFUNC, ufunc(ND, "x"), "np.arctan({a})"),
    ("deg2rad", _UFUNC, ufunc(ND, "x"), "np.deg2rad({a})"),
    ("rad2deg", _UFUNC, ufunc(ND, "x"), "np.rad2deg({a})"),
    ("radians", _UFUNC, ufunc(ND, "x"), "np.radians({a})"),
    ("degrees", _UFUNC, ufunc(ND, "x"), "np.degrees({a})"),
    ("floor", _UFUNC, ufunc(ND, "x"), "np.floor({a} * 1.0)"),
    ("ceil", _UFUNC, ufunc(ND, "x"), "np.ceil({a} * 1.0)"),
    ("add", _UFUNC2, promote(ND, "x1,x2", "dtype"), "np.add({a}, {b})"),
    ("subtract", _UFUNC2, promote(ND, "x1,x2", "dtype"), "np.subtract({a}, {a})"),
    ("multiply", _UFUNC2, promote(ND, "x1,x2", "dtype"), "np.multiply({a}, {b})"),
    ("power", _UFUNC2, promote(ND, "x1,x2", "dtype"), "np.power({a}, {b})"),
    ("float_power", _UFUNC2, fixed(ND, "float64", "dtype"), "np.float_power({a}, {b})", "`np.float_power` computes in float64"),
    ("maximum", _UFUNC2, promote(ND, "x1,x2", "dtype"), "np.maximum({a}, {b})"),
    ("minimum", _UFUNC2, promote(ND, "x1,x2", "dtype"), "np.minimum({a}, {b})"),
    ("divide", _UFUNC2, floating(ND, "x1,x2"), "np.divide({a}, {b})"),
    ("true_divide", _UFUNC2, floating(ND, "x1,x2"), "np.true_divide({a}, {b})"),
    ("clip", "(a, a_min=None, a_max=None, out=None, *, min=None, max=None, **kwargs)", promote(ND, "a,a_min,a_max"), "np.clip({a}, 0, 1)"),
    # reductions: a NumPy scalar without `axis`
    ("mean", _REDUCE, _reduction(floating(ND, "a")), "np.mean({a}, axis=0)", "`np.mean` gives float64 for integer data"),
    ("std", "(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None)", _reduction(floating(ND, "a")), "np.std({a}, axis=0)"),
    ("var", "(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None, correction=None)", _reduction(floating(ND, "a")), "np.var({a}, axis=0)"),
    ("sum", "(a, axis=None, dtype=None, out=None, keepdims=False, initial=0, where=True)", _reduction(summed(ND, "a")), "np.sum({a}, axis=0)"),
    ("cumsum", "(a, axis=None, dtype=None, out=None)", summed(ND, "a"), "np.cumsum({a})"),
    ("prod", "(a, axis=None, dtype=None, out=None, keepdims=False, initial=1, where=True)", _reduction(summed(ND, "a")), "np.prod({a}, axis=0)"),
    ("cumprod", "(a, axis=None, dtype=None, out=None)", summed(ND, "a"), "np.cumprod({a})"),
    ("median", "(a, axis=None, out=None, overwrite_input=False, keepdims=False)", _reduction(floating(ND, "a", "")), "np.median({a}, axis=0)"),
    ("nanmean", "(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True)", _reduction(floating(ND, "a")), "np.nanmean({a}, axis=0)"),
    ("average", "(a, axis=None, weights=None, returned=False, *, keepdims=False)", _reduction(floating(ND, "a", "")), "np.average({a}, axis=0)"),
    ("outer", "(a, b, out=None)", promote(ND, "a,b"), "np.outer({a}, {b})"),
    ("lib.stride_tricks.as_strided", "(x, shape=None, strides=None, subok=False, writeable=True)", same(ND, "x"), "np.lib.stride_tricks.as_strided({v}, shape=(1,), strides=(0,))", "a strided view keeps the array's dtype"),
    ("lib.stride_tricks.sliding_window_view", "(x, window_shape, axis=None, *, subok=False, writeable=False)", same(ND, "x"), "np.lib.stride_tricks.sliding_window_view({v}, 2)", "a sliding window view keeps the array's dtype"),
    ("fft.fftfreq", "(n, d=1.0, device=None)", ranked(fixed(ND, "float64", ""), 1), "np.fft.fftfreq(8, 0.5)", "`np.fft.fftfreq` returns float64"),
    ("fft.rfftfreq", "(n, d=1.0, device=None)", ranked(fixed(ND, "float64", ""), 1), "np.fft.rfftfreq(8, 0.5)", "`np.fft.rfftfreq` returns float64"),
    ("linalg.norm", "(x, ord=None, axis=None, keepdims=False)", _reduction(floating(ND, "x", "")), "np.linalg.norm({a}, axis=0)"),
    ("linalg.inv", "(a)", floating(ND, "a", ""), "np.linalg.inv({a} + np.eye(2, dtype={a}.dtype))"),
    ("linalg.pinv", "(a, rcond=None, hermitian=False, *, rtol=None)", floating(ND, "a", ""), "np.linalg.pinv({a})"),
    ("linalg.solve", "(a, b)", keep32(ND, "a,b"), "np.linalg.solve({a} + np.eye(2, dtype={a}.dtype), {b})", "`np.linalg.solve` computes in float32 only when both are float32, else in float64"),
    ("max", "(a, axis=None, out=None, keepdims=False, initial=None, where=True)", _reduction(same(ND, "a")), "np.max({a}, axis=0)"),
    ("min", "(a, axis=None, out=None, keepdims=False, initial=None, where=True)", _reduction(same(ND, "a")), "np.min({a}, axis=0)"),
    ("amax", "(a, axis=None, out=None, keepdims=False, initial=None, where=True)", _reduction(same(ND, "a")), "np.amax({a}, axis=0)"),
    ("amin", "(a, axis=None, out=None, keepdims=False, initial=None, where=True)", _reduction(same(ND, "a")), "np.amin({a}, axis=0)"),
    ("argmax", "(a, axis=None, out=None, *, keepdims=False)", _reduction(fixed(ND, "int64", "")), "np.argmax({a}, axis=0)"),
    ("argmin", "(a, axis=None, out=None, *, keepdims=False)", _reduction(fixed(ND, "int64", "")), "np.argmin({a}, axis=0)"),
    ("argsort", "(a, axis=-1, kind=None, order=None, *, stable=None)", fixed(ND, "int64", ""), "np.argsort({a})"),
    # legacy global random state (also the methods of a RandomState)
    *[(f"random.{name}", "(size=None)", _sized("float64"), f"np.random.{name}((2,))", f"`np.random.{name}` returns float64") for name in _LEGACY_FLOAT],
    ("random.rand", "(*shape)", _sized("float64", size="shape"), "np.random.rand(2)", "`np.random.rand` returns float64"),
    ("random.randn", "(*shape)", _sized("float64", size="shape"), "np.random.randn(2)", "`np.random.randn` returns float64"),
    *[(f"random.{name}", sig, _sized(dtype, scalar=scalar), f"np.random.{name}({args})", f"`np.random.{name}` returns {dtype}") for name, sig, dtype, scalar, args in _DISTRIBUTIONS],
    ("random.standard_normal", "(size=None)", _sized("float64"), "np.random.standard_normal(2)", "`np.random.standard_normal` returns float64"),
    ("random.multivariate_normal", "(mean, cov, size=None, check_valid='warn', tol=1e-8)", fixed(ND, "float64", ""), "np.random.multivariate_normal([0, 0], [[1, 0], [0, 1]], 2)", "`np.random.multivariate_normal` returns float64"),
    ("random.randint", "(low, high=None, size=None, dtype=int)", _sized("int64", "dtype", scalar="pyint"), "np.random.randint(0, 5, 3)", "`np.random.randint` returns int64"),
    ("random.permutation", "(x)", same(ND, "x"), "np.random.permutation({a})"),
    ("random.choice", "(a, size=None, replace=True, p=None)", replace(same(ND, "a"), scalar_param="size", scalar_kind="npscalar"), "np.random.choice({a}.ravel(), 2)"),
])

# `np.random.default_rng()` Generator methods
GENERATOR: dict[str, Entry] = table("numpy.random.Generator", [
    ("random", "(size=None, dtype=float, out=None)", _sized("float64", "dtype"), "rng.random(2)", "`rng.random` returns float64"),
    ("standard_normal", "(size=None, dtype=float, out=None)", _sized("float64", "dtype"), "rng.standard_normal(2)", "`rng.standard_normal` returns float64"),
    *[(name, sig, _sized(dtype, scalar=scalar), f"rng.{name}({args})", f"`rng.{name}` returns {dtype}") for name, sig, dtype, scalar, args in _DISTRIBUTIONS],
    ("multivariate_normal", "(mean, cov, size=None, check_valid='warn', tol=1e-8, *, method='svd')", fixed(ND, "float64", ""), "rng.multivariate_normal([0, 0], [[1, 0], [0, 1]], 2)", "`rng.multivariate_normal` returns float64"),
    ("integers", "(low, high=None, size=None, dtype=int, endpoint=False)", _sized("int64", "dtype", scalar="npscalar"), "rng.integers(0, 5, 3)", "`rng.integers` returns int64"),
    ("permutation", "(x, axis=0)", same(ND, "x"), "rng.permutation({a})"),
    # from an int n: int64 indices (range(n)); from an array: its items, its dtype
    ("choice", "(a, size=None, replace=True, p=None, axis=0, shuffle=True)", replace(same(ND, "a"), scalar_param="size", scalar_kind="npscalar"), "rng.choice({a}, 2)"),
])

_DERIVED = ("round", "squeeze", "ravel", "repeat", "take", "mean", "std", "var", "sum", "cumsum", "prod", "cumprod", "max", "min", "argmax", "argmin", "argsort")


def _method_of(name: str) -> Entry:
    """`arr.mean(...)` is `np.mean(arr, ...)`: the method row comes from the function's."""
    fn = FUNCTIONS[f"numpy.{name}"]
    first = fn.signature.params[0].name
    result = replace(fn.result, arg=",".join("self" if a == first else a for a in fn.result.arg.split(",")))
    probe = fn.probe.replace(f"np.{name}({{a}}, ", f"{{a}}.{name}(").replace(f"np.{name}({{a}})", f"{{a}}.{name}()")
    return Entry(f"ndarray.{name}", Signature("(self" + fn.signature.text[1 + len(first):]), result, probe)


# methods of an ndarray; `self` is the array
METHODS: dict[str, Entry] = {
    **table("ndarray", [
        ("astype", "(self, dtype, order='K', casting='unsafe', subok=True, copy=True)", fixed(ND, "", "dtype"), "{a}.astype(np.float32)"),
        ("reshape", "(self, *shape, order='C', copy=None)", same(ND, "self"), "{a}.reshape(2, 2)"),
        ("transpose", "(self, *axes)", same(ND, "self"), "{a}.transpose()"),
        ("copy", "(self, order='C')", same(ND, "self"), "{a}.copy()"),
        ("flatten", "(self, order='C')", same(ND, "self"), "{a}.flatten()"),
        ("swapaxes", "(self, axis1, axis2)", same(ND, "self"), "{a}.reshape(2, 2).swapaxes(0, 1)"),
        ("clip", "(self, min=None, max=None, out=None, **kwargs)", promote(ND, "self,min,max"), "{a}.clip(0, 1)"),
        ("tolist", "(self)", same("pylist", "self"), "torch.tensor({v}.tolist())"),
        ("item", "(self, *args)", same("pyscalar", "self"), "{a}.item(0)"),
    ]),
    **{f"ndarray.{name}": _method_of(name) for name in _DERIVED},
}


# `np.fft` transforms give complex arrays whose parts keep single precision and widen
# everything else to double (float16 to float32 parts): checked for each transform and dtype
# by tests/engine/test_library_conformance.py
FFT_TRANSFORMS = frozenset({"fft", "rfft", "fft2", "rfft2", "fftn", "rfftn", "ifft", "ifft2", "ifftn"})
FFT_PARTS: dict[str, str] = {
    "float64": "float64", "float32": "float32", "float16": "float32",
    "int64": "float64", "int32": "float64", "int16": "float64", "int8": "float64", "uint8": "float64", "bool": "float64",
}
# what gives a complex array's parts as a real array
COMPLEX_PARTS = frozenset({"abs", "absolute", "real", "imag"})

# torch.Tensor methods a NumPy array does not have: `x.to(device)` on an array raises
# AttributeError (code that tries the tensor call first and falls back to `torch.from_numpy`
# in its `except`). Checked against both libraries by the conformance test.
NOT_ON_NDARRAY = frozenset({
    "to", "cuda", "cpu", "float", "double", "half", "long", "int", "short", "byte", "bool", "bfloat16",
    "detach", "unsqueeze", "permute", "contiguous", "numpy", "type_as", "pin_memory",
})
