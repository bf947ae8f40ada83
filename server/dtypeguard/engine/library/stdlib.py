"""The standard library's objects the engine names: what `torch.load`'s weights-only unpickler
refuses when a checkpoint carries them (DG011), and the `wave` reader whose header queries are
ints. A `datetime` is pickled by reference to its class, which is not an allowed global.
Checked by tests/engine/test_library_conformance.py (a real save and weights-only load of each;
a real wav file read back).
"""

from __future__ import annotations

# the call that makes one -> the class it makes
DATETIME_MAKERS: dict[str, str] = {
    "datetime.datetime": "datetime.datetime",
    "datetime.datetime.now": "datetime.datetime",
    "datetime.datetime.utcnow": "datetime.datetime",
    "datetime.datetime.today": "datetime.datetime",
    "datetime.datetime.fromtimestamp": "datetime.datetime",
    "datetime.datetime.fromisoformat": "datetime.datetime",
    "datetime.datetime.strptime": "datetime.datetime",
    "datetime.date": "datetime.date",
    "datetime.date.today": "datetime.date",
    "datetime.timedelta": "datetime.timedelta",
}

# audio files read with the standard library's `wave` (the speech scripts of set 67 and scan 34):
# `wave.open(path, "rb")` is a reader whose header queries are Python ints, so a sample rate read
# from it (`fs = w.getframerate()`) is an int in what it then divides (`arange(...) / fs`)
WAVE_READER = "wave.Wave_read"
WAVE_INT_QUERIES = frozenset({"getframerate", "getnchannels", "getsampwidth", "getnframes"})
