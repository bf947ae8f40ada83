"""Edits are what the LSP applies: derived edits reproduce the new text exactly, overlapping
edits are refused rather than guessed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dtypeguard.findings import Span, TextEdit
from dtypeguard.fixes import apply_edits
from dtypeguard.fixes.textedit import diff_edits, edits_overlap

TEXT = st.text(alphabet="ab\n\r é𝄞", max_size=60)


@settings(max_examples=300, deadline=None)
@given(TEXT, TEXT)
def test_diff_edits_reproduce_new_text(old: str, new: str) -> None:
    assert apply_edits(old, diff_edits(old, new)) == new


def test_diff_edits_are_small_and_code_point_based() -> None:
    old = "a = 'é𝄞'\r\nb = f(x)\r\n"
    new = "a = 'é𝄞'\r\nb = f(x).float()\r\n"
    assert diff_edits(old, new) == [TextEdit(Span(2, 8, 2, 8), ".float()")]
    assert diff_edits("x = 'é𝄞' + y\n", "x = 'é𝄞' + y.z\n") == [TextEdit(Span(1, 12, 1, 12), ".z")]


def test_overlapping_edits_are_refused() -> None:
    a = TextEdit(Span(1, 0, 1, 3), "x")
    b = TextEdit(Span(1, 2, 1, 4), "y")
    with pytest.raises(ValueError, match="overlapping"):
        apply_edits("abcdef", [a, b])
    insert1, insert2 = TextEdit(Span(1, 1, 1, 1), "x"), TextEdit(Span(1, 1, 1, 1), "y")
    assert edits_overlap("abc", [insert1], [insert2])
    assert not edits_overlap("abc", [a], [TextEdit(Span(1, 3, 1, 3), "z")])
    assert apply_edits("abcdef", [TextEdit(Span(1, 4, 1, 5), "E"), a]) == "xdEf"
