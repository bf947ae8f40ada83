"""SciPy as the engine knows it: the signal filters and image filters that training scripts
run over their data before it reaches torch (filter design, which returns a tuple of
coefficient arrays, is in the interpreter: call_effects.SCIPY_DESIGN). Filter design gives float64 coefficients, and a
linear filter computes in the common type of its coefficients and data, so a float32 signal
filtered with `butter` coefficients comes back float64. Checked against the installed SciPy by
tests/engine/test_library_conformance.py (each entry's probe is called for real).
"""

from __future__ import annotations

from dtypeguard.engine.library.spec import Entry, fixed, keep32, promote, same, table

ND = "ndarray"
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
    **table("scipy.ndimage", [
        ("gaussian_filter", "(input, sigma, order=0, output=None, mode='reflect', cval=0.0, truncate=4.0, *, radius=None, axes=None)", same(ND, "input"), "ndimage.gaussian_filter({a}, 1)"),
        ("median_filter", "(input, size=None, footprint=None, output=None, mode='reflect', cval=0.0, origin=0, *, axes=None)", same(ND, "input"), "ndimage.median_filter({a}, 2)"),
    ]),
}
