"""The standard library's objects the engine names: what `torch.load`'s weights-only unpickler
refuses when a checkpoint carries them (DG011). A `datetime` is pickled by reference to its
class, which is not an allowed global. Checked against the installed torch by
tests/engine/test_library_conformance.py (a real save and weights-only load of each).
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
