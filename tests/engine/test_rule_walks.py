"""`Context.any_node` walks only the statements whose lines hold its needle: the answer must be
the one a walk of the whole tree gives, for every file we have (decorators, nested functions
and classes included)."""

from __future__ import annotations

import ast
import pathlib

import pytest

from dtypeguard.engine.events import Events, Facts
from dtypeguard.engine.parse import LineIndex
from dtypeguard.rules.base import Context
from dtypeguard.rules.dg002_deprecated_set_default_tensor_type import _legacy_constructor
from dtypeguard.rules.master_weights import _lstm_call

ROOT = pathlib.Path(__file__).resolve().parents[2]
TESTS = [("legacy", _legacy_constructor, "Tensor"), ("lstm", _lstm_call, "LSTM")]

HANDMADE = {
    "decorator of a nested function": "def outer():\n    x = 1\n\n    @register(torch.FloatTensor(1))\n    def inner():\n        pass\n    return inner\n",
    "decorator of a method": "class A:\n    y = 2\n\n    @cache(nn.LSTM(3, 4))\n    def f(self):\n        return 1\n",
    "nested, deep": "def f():\n    for i in range(3):\n        if i:\n            with ctx():\n                t = torch.Tensor(2)\n",
    "only in a string": "def f():\n    s = 'torch.Tensor(2)'\n    return s\n",
    "absent": "def f():\n    return 1\n",
}


def _files() -> list[tuple[str, str]]:
    paths = sorted([*ROOT.glob("samples/**/*.py"), *ROOT.glob("tests/realworld*/**/*.py")])
    return [*HANDMADE.items(), *((str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in paths)]


@pytest.mark.parametrize("key, test, needle", TESTS, ids=[t[0] for t in TESTS])
def test_any_node_agrees_with_a_whole_walk(key: str, test, needle: str) -> None:  # type: ignore[no-untyped-def]
    checked = found = 0
    for name, text in _files():
        try:
            tree = ast.parse(text)
        except SyntaxError:
            continue
        ctx = Context(Events(), Facts(), LineIndex(text), text, tree)
        expected = any(test(n) for n in ast.walk(tree))
        assert ctx.any_node(key, test, needle=needle) == expected, name
        checked += 1
        found += expected
    assert checked > 100 and 0 < found < checked  # both answers are exercised
