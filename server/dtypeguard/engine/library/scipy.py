"""SciPy as the engine knows it: the signal filters and image filters that training scripts
run over their data before it reaches torch (filter design, which returns a tuple of
coefficient arrays, is in the interpreter: call_effects.SCIPY_DESIGN). Filter design gives float64 coefficients, and a
linear filter computes in the common type of its coefficients and data, so a float32 signal
filtered with `butter` coefficients comes back float64. Checked against the installed SciPy by
tests/engine/test_library_conformance.py (each entry's probe is called for real).
"""

from __future__ import annotations

from dtypeguard.engine.library.spec import (
    Entry,
    Result,
    fixed,
    floating,
    keep32,
    promote,
    same,
    summed,
    table,
)

ND = "ndarray"
SP = "sparse"  # a scipy.sparse matrix (or array): computes as NumPy does, stays sparse
_MATRIX = "(arg1, shape=None, dtype=None, copy=False, *, maxprint=None)"
_DESIGN = "filter design gives float64 coefficients"

FUNCTIONS: dict[str, Entry] = {
    **table("scipy.signal", [
        ("firwin", "(numtaps, cutoff, *, width=None, window='hamming', pass_zero=True, scale=True, fs=None)", fixed(ND, "float64", ""), "signal.firwin(5, 0.3)", f"`firwin`: {_DESIGN}"),
        ("filtfilt", "(b, a, x, axis=-1, padtype='odd', padlen=None, method='pad', irlen=None)", promote(ND, "b,a,x"),
         "signal.filtfilt(np.array([0.2, 0.3]), np.array([1.0, -0.5]), np.ones(40, dtype=np.float32))", "`filtfilt` computes in its coefficients' and data's common type"),
        ("lfilter", "(b, a, x, axis=-1, zi=None)", promote(ND, "b,a,x"),
         "signal.lfilter(np.array([0.2, 0.3]), np.array([1.0, -0.5]), {v})", "`lfilter` computes in its coefficients' and data's common type"),
        ("sosfilt", "(sos, x, axis=-1, zi=None)", promote(ND, "sos,x"),
         "signal.sosfilt(signal.butter(2, 0.3, output='sos'), {v})", "`sosfilt` computes in its sections' and data's common type"),
        ("sosfiltfilt", "(sos, x, axis=-1, padtype='odd', padlen=None)", promote(ND, "sos,x"),
         "signal.sosfiltfilt(signal.butter(2, 0.3, output='sos'), {v}.repeat(10))", "`sosfiltfilt` computes in its sections' and data's common type"),
        ("savgol_filter", "(x, window_length, polyorder, deriv=0, delta=1.0, axis=-1, mode='interp', cval=0.0)", keep32(ND, "x"), "signal.savgol_filter({v}, 3, 1)"),
        ("detrend", "(data, axis=-1, type='linear', bp=0, overwrite_data=False)", keep32(ND, "data"), "signal.detrend({v})"),
        ("medfilt", "(volume, kernel_size=None)", same(ND, "volume"), "signal.medfilt({v}, 3)"),
    ]),
    # scipy.sparse: a matrix takes the dtype of the data it is built from (or `dtype=`); the
    # identity and `eye` are float64 unless told: a float32 adjacency plus `sp.eye(n)` is float64
    **table("scipy.sparse", [
        *[(name, _MATRIX, Result("sparse_data", SP, arg="arg1", dtype_param="dtype"), f"sp.{name}({{a}}).toarray()")
          for name in ("coo_matrix", "csr_matrix", "csc_matrix", "coo_array", "csr_array", "csc_array")],
        ("eye", "(m, n=None, k=0, dtype=float, format=None)", fixed(SP, "float64"), "sp.eye(2).toarray()", "`sp.eye` is float64 unless given a dtype"),
        ("identity", "(n, dtype='d', format=None)", fixed(SP, "float64"), "sp.identity(2).toarray()", "`sp.identity` is float64 unless given a dtype"),
        ("diags", "(diagonals, offsets=0, shape=None, format=None, dtype=None)", floating(SP, "diagonals"), "sp.diags({v}).toarray()"),
    ]),
    **table("scipy.ndimage", [
        ("gaussian_filter", "(input, sigma, order=0, output=None, mode='reflect', cval=0.0, truncate=4.0, *, radius=None, axes=None)", same(ND, "input"), "ndimage.gaussian_filter({a}, 1)"),
        ("median_filter", "(input, size=None, footprint=None, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None)", same(ND, "input"), "ndimage.median_filter({a}, 2)"),
    ]),
}


# methods of a sparse matrix; `self` is the matrix
METHODS: dict[str, Entry] = table("sparse", [
    *[(name, "(self, copy=False)", same(SP, "self"), f"sp.coo_matrix({{a}}).{name}().toarray()") for name in ("tocoo", "tocsr", "tocsc")],
    ("copy", "(self)", same(SP, "self"), "sp.coo_matrix({a}).copy().toarray()"),
    ("transpose", "(self, axes=None, copy=False)", same(SP, "self"), "sp.coo_matrix({a}).transpose().toarray()"),
    ("multiply", "(self, other)", promote(SP, "self,other"), "sp.csr_matrix({a}).multiply(sp.csr_matrix({b})).toarray()"),
    ("dot", "(self, other)", promote(SP, "self,other"), "sp.csr_matrix({a}).dot(sp.csr_matrix({b})).toarray()"),
    ("astype", "(self, dtype, casting='unsafe', copy=True)", fixed(SP, "", "dtype"), "sp.csr_matrix({a}).astype(np.float32).toarray()"),
    ("toarray", "(self, order=None, out=None)", same(ND, "self"), "sp.csr_matrix({a}).toarray()"),
    ("todense", "(self, order=None, out=None)", same(ND, "self"), "np.asarray(sp.csr_matrix({a}).todense())"),
    ("sum", "(self, axis=None, dtype=None, out=None)", summed(ND, "self"), "np.asarray(sp.csr_matrix({a}).sum(1))"),
])
