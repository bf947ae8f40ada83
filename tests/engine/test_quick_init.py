"""`quick_init` replaces only the constructor of a frozen dataclass: the object it builds is
the one the dataclass would have built, and it stays frozen."""

from __future__ import annotations

import dataclasses

import pytest

from dtypeguard.engine.values import ModuleObj, Origin, Tensor
from dtypeguard.findings import Span
from dtypeguard.quick import quick_init


def _make() -> type:
    @dataclasses.dataclass(frozen=True, order=True)
    class Record:
        a: int
        b: str = "x"
        c: tuple[int, ...] = ()
        d: list[int] = dataclasses.field(default_factory=list, compare=False)

    return Record


Plain = _make()
Quick = quick_init(_make())


def test_builds_what_the_dataclass_builds() -> None:
    for args, kwargs in [((1,), {}), ((1, "y"), {}), ((1,), {"d": [2]}), ((), {"a": 3, "b": "z", "c": (1,)})]:
        assert vars(Quick(*args, **kwargs)) == vars(Plain(*args, **kwargs))
    assert Quick(1).d is not Quick(1).d  # a fresh default per instance
    assert Quick(1, "y") == Quick(1, "y") and Quick(1) < Quick(2)
    assert hash(Quick(1, "y")) == hash(Quick(1, "y", (), [5]))
    with pytest.raises(TypeError):
        Quick()
    with pytest.raises(TypeError):
        Quick(1, nope=2)


def test_stays_frozen_and_keeps_replace_and_order() -> None:
    span = Span(1, 2, 3, 4)
    with pytest.raises(dataclasses.FrozenInstanceError):
        span.line = 5  # type: ignore[misc]
    assert dataclasses.replace(span, col=0) == Span(1, 0, 3, 4)
    assert sorted([Span(2, 0, 2, 1), Span(1, 5, 1, 6)])[0] == Span(1, 5, 1, 6)
    assert hash(Span(1, 2, 3, 4)) == hash(Span(1, 2, 3, 4))
    assert Span.__init__.__code__.co_filename == "<string>"  # the quick one
    t = Tensor("tensor", "float32", "cpu", Origin(span, "why"))
    assert dataclasses.replace(t, dtype="float64").dtype == "float64" and t.dtype == "float32"
    assert ModuleObj("torch.nn.Linear", None).attrs == {} and ModuleObj("m", None).attrs is not ModuleObj("m", None).attrs


def test_refuses_what_it_cannot_reproduce() -> None:
    @dataclasses.dataclass(frozen=True)
    class Post:
        a: int

        def __post_init__(self) -> None:
            pass

    with pytest.raises(TypeError):
        quick_init(Post)
