"""pandas as the engine knows it: frames and series carry one dtype when all their columns
share it (or promote without a bool among numbers). `read_csv` and friends give the engine's
WIDE dtype: each numeric column is int64 or float64 (and text makes an object array torch
refuses), so what they feed a float32 layer fails whichever it is.

A DataFrame is a `Tensor` of kind "frame" and a Series of kind "series" to the engine: what
matters is the dtype `.values` / `.to_numpy()` hand to torch.
"""

from __future__ import annotations

from dtypeguard.engine.library.spec import (
    Entry,
    Result,
    fixed,
    floating,
    infer,
    keep32,
    same,
    table,
    unknown,
)
from dtypeguard.engine.values import WIDE

FR, SE, ND = "frame", "series", "ndarray"
WINDOW = "window"  # `series.rolling(n)` (and expanding, ewm): a window over one column
_READ = "pandas reads numbers from a file as int64 or float64"
_SAME_FRAME = {"round": "2", "copy": "", "filter": "like='x'", "head": "", "tail": "", "dropna": "", "fillna": "0", "sort_index": "", "sample": "2", "abs": "", "drop_duplicates": ""}

FUNCTIONS: dict[str, Entry] = table("pandas", [
    ("DataFrame", "(data=None, index=None, columns=None, dtype=None, copy=None)", Result("columns", FR, arg="data", dtype_param="dtype"), "pd.DataFrame({{'x': {v}, 'y': {w}}})"),
    ("Series", "(data=None, index=None, dtype=None, name=None, copy=None)", infer(SE, "data"), "pd.Series({v})"),
    ("concat", "(objs, *, axis=0, join='outer', ignore_index=False, keys=None, levels=None, names=None, verify_integrity=False, sort=False, copy=None)", Result("columns", FR, arg="objs"), "pd.concat([pd.DataFrame({{'x': {v}}}), pd.DataFrame({{'y': {w}}})], axis=1)"),
    ("get_dummies", "(data, prefix=None, prefix_sep='_', dummy_na=False, columns=None, sparse=False, drop_first=False, dtype=None)", Result("dummies", FR, arg="data", dtype_param="dtype"), "pd.get_dummies(pd.Series(['a', 'b', 'a']))", "`pd.get_dummies` makes bool columns"),
    ("read_csv", "(filepath_or_buffer, *, dtype=None, **kwargs)", fixed(FR, WIDE, "dtype"), "pd.read_csv(csv_path)", _READ),
    ("read_table", "(filepath_or_buffer, *, dtype=None, **kwargs)", fixed(FR, WIDE, "dtype"), "pd.read_table(csv_path, sep=',')", _READ),
    ("read_excel", "(io, *args, **kwargs)", unknown(FR), ""),
    ("read_parquet", "(path, *args, **kwargs)", unknown(FR), ""),  # keeps the stored dtypes
    ("read_json", "(path_or_buf, *args, **kwargs)", unknown(FR), ""),
])

METHODS: dict[str, Entry] = {
    **table("DataFrame", [
        ("to_numpy", "(self, dtype=None, copy=False, na_value=None)", same(ND, "self", "dtype"), "pd.DataFrame({{'x': {v}}}).to_numpy()"),
        ("astype", "(self, dtype, copy=None, errors='raise')", fixed(FR, "", "dtype"), "pd.DataFrame({{'x': {v}}}).astype('float32').to_numpy()"),
        ("drop", "(self, labels=None, *, axis=0, index=None, columns=None, level=None, inplace=False, errors='raise')", same(FR, "self"), "pd.DataFrame({{'x': {v}, 'y': {v}}}).drop(columns=['y']).to_numpy()"),
        *[(name, "(self, *args, **kwargs)", same(FR, "self"), f"pd.DataFrame({{{{'x': {{v}}}}}}).{name}({args}).to_numpy()") for name, args in _SAME_FRAME.items()],
        *[(name, "(self, axis=0, skipna=True, numeric_only=False, **kwargs)", Result("reduce", SE, arg="self"), f"pd.DataFrame({{{{'x': {{v}}, 'y': {{w}}}}}}).{name}().to_numpy()") for name in ("mean", "std")],
        ("sum", "(self, axis=0, skipna=True, numeric_only=False, min_count=0, **kwargs)", Result("sum_frame", SE, arg="self"), "pd.DataFrame({{'x': {v}, 'y': {w}}}).sum(axis=1).to_numpy()"),
        ("pivot", "(self, *, columns, index=None, values=None)", Result("pivot", FR, arg="self"),
         "pd.DataFrame({{'i': [0, 0, 1, 2], 'c': ['a', 'b', 'a', 'b'], 'x': {v}}}).pivot(index='i', columns='c', values='x').to_numpy()",
         "`pivot` fills a missing (index, column) pair with NaN: integers come back int64 or float64"),
    ]),
    **table("Series", [
        ("to_numpy", "(self, dtype=None, copy=False, na_value=None)", same(ND, "self", "dtype"), "pd.Series({v}).to_numpy()"),
        ("astype", "(self, dtype, copy=None, errors='raise')", fixed(SE, "", "dtype"), "pd.Series({v}).astype('float32').to_numpy()"),
        ("tolist", "(self)", same("pylist", "self"), "torch.tensor(pd.Series({v}).tolist())"),
        ("unique", "(self)", same(ND, "self"), "pd.Series({v}).unique()"),
        ("pct_change", "(self, periods=1, fill_method=None, freq=None, **kwargs)", Result("change", SE, arg="self"), "pd.Series({v}).pct_change().to_numpy()"),
        ("isin", "(self, values)", fixed(SE, "bool", ""), "pd.Series({v}).isin([1]).to_numpy()"),
        ("shift", "(self, periods=1, freq=None, axis=0, fill_value=None, suffix=None)", Result("change", SE, arg="self"), "pd.Series({v}).shift(-1).to_numpy()"),  # NaN moves in: ints widen
        ("diff", "(self, periods=1)", Result("change", SE, arg="self"), "pd.Series({v}).diff().to_numpy()"),
        # a moving window: what its statistics give is decided by the statistic (float64 whatever the column)
        *[(name, "(self, *args, **kwargs)", unknown(WINDOW), "") for name in ("rolling", "expanding", "ewm")],
        ("value_counts", "(self, *, sort=True, ascending=False, dropna=True)", fixed(SE, "int64", ""), "pd.Series({v}).value_counts().to_numpy()", "`value_counts` counts in int64"),  # normalize=/bins= (floats) do not bind: unknown
        *[(name, "(self, *args, **kwargs)", same(SE, "self"), f"pd.Series({{v}}).{name}({args}).to_numpy()") for name, args in _SAME_FRAME.items()],
        # a column's statistics: a NumPy scalar (float columns keep their width, others give float64)
        ("mean", "(self, axis=None, skipna=True, numeric_only=False, **kwargs)", keep32("npscalar", "self"), "pd.Series({v}).mean()"),  # (float16: float64)
        *[(name, "(self, axis=None, skipna=True, numeric_only=False, **kwargs)", floating("npscalar", "self", ""), f"pd.Series({{v}}).{name}()") for name in ("std", "var", "median")],
        *[(name, "(self, axis=None, skipna=True, numeric_only=False, **kwargs)", same("npscalar", "self"), f"pd.Series({{v}}).{name}()") for name in ("min", "max")],
    ]),
}

# what `df.name` reads before it reads a column: every public attribute of a DataFrame or a Series
# (pandas 3.1; tests/engine/test_library_conformance.py checks that none of the installed pandas' is missing)
FRAME_ATTRIBUTES = frozenset({
    "T", "abs", "add", "add_prefix", "add_suffix", "agg", "aggregate", "align", "all", "any", "apply",
    "argmax", "argmin", "argsort", "array", "asfreq", "asof", "assign", "astype", "at", "at_time",
    "attrs", "autocorr", "axes", "between", "between_time", "bfill", "boxplot", "case_when", "cat",
    "clip", "columns", "combine", "combine_first", "compare", "convert_dtypes", "copy", "corr",
    "corrwith", "count", "cov", "cummax", "cummin", "cumprod", "cumsum", "describe", "diff", "div",
    "divide", "divmod", "dot", "drop", "drop_duplicates", "droplevel", "dropna", "dt", "dtype",
    "dtypes", "duplicated", "empty", "eq", "equals", "eval", "ewm", "expanding", "explode", "factorize",
    "ffill", "fillna", "filter", "first_valid_index", "flags", "floordiv", "from_arrow", "from_dict",
    "from_records", "ge", "get", "groupby", "gt", "hasnans", "head", "hist", "iat", "idxmax", "idxmin",
    "iloc", "index", "infer_objects", "info", "insert", "interpolate", "is_monotonic_decreasing",
    "is_monotonic_increasing", "is_unique", "isetitem", "isin", "isna", "isnull", "item", "items",
    "iterrows", "itertuples", "join", "keys", "kurt", "kurtosis", "last_valid_index", "le", "list",
    "loc", "lt", "map", "mask", "max", "mean", "median", "melt", "memory_usage", "merge", "min", "mod",
    "mode", "mul", "multiply", "name", "nbytes", "ndim", "ne", "nlargest", "notna", "notnull",
    "nsmallest", "nunique", "pct_change", "pipe", "pivot", "pivot_table", "plot", "pop", "pow", "prod",
    "product", "quantile", "query", "radd", "rank", "rdiv", "rdivmod", "reindex", "reindex_like",
    "rename", "rename_axis", "reorder_levels", "repeat", "replace", "resample", "reset_index",
    "rfloordiv", "rmod", "rmul", "rolling", "round", "rpow", "rsub", "rtruediv", "sample",
    "searchsorted", "select", "select_dtypes", "sem", "set_axis", "set_flags", "set_index", "shape",
    "shift", "size", "skew", "sort_index", "sort_values", "sparse", "squeeze", "stack", "std", "str",
    "struct", "style", "sub", "subtract", "sum", "swaplevel", "tail", "take", "to_clipboard", "to_csv",
    "to_dict", "to_excel", "to_feather", "to_frame", "to_hdf", "to_html", "to_iceberg", "to_json",
    "to_latex", "to_list", "to_markdown", "to_numpy", "to_orc", "to_parquet", "to_period", "to_pickle",
    "to_records", "to_sql", "to_stata", "to_string", "to_timestamp", "to_xarray", "to_xml", "tolist",
    "transform", "transpose", "truediv", "truncate", "tz_convert", "tz_localize", "unique", "unstack",
    "update", "value_counts", "values", "var", "where", "xs",
})


# the statistics of a window over a column: float64 for any numeric or bool column
WINDOW_METHODS: dict[str, Entry] = table("Window", [
    (name, "(self, *args, **kwargs)", fixed(SE, "float64", ""), f"pd.Series({{v}}).{window}.{name}().to_numpy()", f"a moving `{name}` gives float64")
    for name, window in (("mean", "rolling(2)"), ("sum", "rolling(2)"), ("std", "rolling(2)"), ("var", "expanding()"), ("median", "rolling(2)"), ("min", "rolling(2)"), ("max", "rolling(2)"))
])

# pandas objects that `torch.load(weights_only=True)` (the default since PyTorch 2.6) refuses:
# each pickles through a pandas global that is not allow-listed. Constructor name -> the words
# a finding uses. tests/engine/test_library_conformance.py saves each with torch and loads it.
PICKLED: dict[str, str] = {
    "Index": "a pandas Index",
    "RangeIndex": "a pandas Index",
    "MultiIndex": "a pandas MultiIndex",
    "Categorical": "a pandas Categorical",
    "Timestamp": "a pandas Timestamp",
    "Timedelta": "a pandas Timedelta",
}
# frames and series (the engine's "frame"/"series" kinds) are refused the same way
PICKLED_KINDS: dict[str, str] = {"frame": "a pandas DataFrame", "series": "a pandas Series"}
