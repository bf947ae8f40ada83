"""The abstract machine state at one point of execution, and how two states merge.

Branches copy the state, so copying must be cheap even in a 50,000-line file: module globals
and the heap are *scopes*, a chain of small dicts. A branch gets a child scope; joining two
branches folds their few changes back into the parent. Work is proportional to what a branch
changed, not to the size of the file (plain dict copies made the engine quadratic).
Mutable PyTorch objects are heap entries so `model.cuda()` through any alias updates the one
object.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Generic, TypeVar

from dtypeguard.engine.events import Default
from dtypeguard.engine.values import (
    HeapObj,
    PendingLoads,
    SavedBy,
    Value,
    join,
    join_device,
    join_obj,
    pending_spans,
)

BUILTIN_DTYPE = Default("float32")
BUILTIN_DEVICE = Default("cpu")
MAX_DEPTH = 24  # deeper chains are flattened so lookups stay fast

T = TypeVar("T")
_MISSING = object()


class Scope(Generic[T]):
    """A dict with a parent: reads fall through, writes stay local until folded back."""

    __slots__ = ("depth", "parent", "vars")

    def __init__(self, parent: Scope[T] | None = None, values: dict[object, T] | None = None) -> None:
        self.vars: dict[object, T] = values if values is not None else {}
        self.parent = parent
        self.depth: int = parent.depth + 1 if parent is not None else 0

    def get(self, key: object, default: T | None = None) -> T | None:
        scope: Scope[T] | None = self
        while scope is not None:
            value = scope.vars.get(key, _MISSING)
            if value is not _MISSING:
                return value  # type: ignore[return-value]
            scope = scope.parent
        return default

    def __contains__(self, key: object) -> bool:
        return self.get(key, _MISSING) is not _MISSING  # type: ignore[arg-type]

    def __getitem__(self, key: object) -> T:
        value = self.get(key, _MISSING)  # type: ignore[arg-type]
        if value is _MISSING:
            raise KeyError(key)
        return value  # type: ignore[return-value]

    def __setitem__(self, key: object, value: T) -> None:
        self.vars[key] = value

    def child(self) -> Scope[T]:
        if self.depth >= MAX_DEPTH:
            return Scope(Scope(None, self.flat()))
        return Scope(self)

    def flat(self) -> dict[object, T]:
        chain: list[Scope[T]] = []
        scope: Scope[T] | None = self
        while scope is not None:
            chain.append(scope)
            scope = scope.parent
        out: dict[object, T] = {}
        for s in reversed(chain):
            out.update(s.vars)
        return out

    def items(self) -> Iterator[tuple[object, T]]:
        return iter(self.flat().items())


def fold_scopes(a: Scope[T], b: Scope[T], merge: object) -> Scope[T]:
    """Join two scopes that branched from a common parent, writing into that parent."""
    merge_fn = merge  # (va | _MISSING, vb | _MISSING) -> value
    if a is b:
        return a
    keys: list[object]  # (in order: a set's would follow the hash seed)
    if a.parent is b:
        base, keys = b, list(a.vars)
    elif b.parent is a:
        base, keys = a, list(b.vars)
    elif a.parent is not None and a.parent is b.parent:
        base, keys = a.parent, list(dict.fromkeys([*a.vars, *b.vars]))
    else:
        # no common parent (a chain flattened at MAX_DEPTH, or an earlier fold like this one):
        # every key is compared, but most entries are the very same objects, kept as they are
        fa, fb = a.flat(), b.flat()
        out: dict[object, T] = {}
        for key, va in fa.items():
            vb = fb.get(key, _MISSING)
            out[key] = va if va is vb else merge_fn(va, vb)  # type: ignore[operator]
        for key, vb in fb.items():
            if key not in fa:
                out[key] = merge_fn(_MISSING, vb)  # type: ignore[operator]
        return Scope(None, out)
    for key in keys:
        base.vars[key] = merge_fn(a.get(key, _MISSING), b.get(key, _MISSING))  # type: ignore[operator, arg-type]
    return base


def _merge_values(a: object, b: object) -> Value | None:
    if isinstance(a, SavedBy) or isinstance(b, SavedBy):
        # a checkpoint saved on some path to here (the best epoch's save inside the training
        # loop, then the load after it): a load here reads what this run may have written
        frames = tuple(dict.fromkeys((*(a.frames if isinstance(a, SavedBy) else ()), *(b.frames if isinstance(b, SavedBy) else ()))))
        return SavedBy(frames)
    if isinstance(a, PendingLoads) or isinstance(b, PendingLoads):
        return PendingLoads(pending_spans(a) | pending_spans(b))
    if a is _MISSING or b is _MISSING:
        return None  # bound on one path only: unknown after the join
    if a is b or a == b:
        return a  # type: ignore[return-value]
    return join(a, b)  # type: ignore[arg-type]


def _merge_objs(a: object, b: object) -> HeapObj:
    if a is _MISSING:
        return b  # type: ignore[return-value]
    if b is _MISSING:
        return a  # type: ignore[return-value]
    return join_obj(a, b)  # type: ignore[arg-type]


class State:
    __slots__ = ("autocast", "ddevice", "ddtype", "dead", "globals", "heap", "locals")

    def __init__(
        self,
        globals_: Scope[Value | None],
        locals_: dict[str, Value | None] | None,
        heap: Scope[HeapObj],
        ddtype: Default = BUILTIN_DTYPE,
        ddevice: Default = BUILTIN_DEVICE,
        autocast: str | None = None,
    ) -> None:
        self.globals = globals_
        self.locals = locals_
        self.heap = heap
        self.ddtype = ddtype
        self.ddevice = ddevice
        self.autocast = autocast
        self.dead = False

    @staticmethod
    def fresh() -> State:
        return State(Scope(), None, Scope())

    def copy(self) -> State:
        new = State(
            self.globals.child(),
            dict(self.locals) if self.locals is not None else None,
            self.heap.child(),
            self.ddtype,
            self.ddevice,
            self.autocast,
        )
        new.dead = self.dead
        return new

    def lookup(self, name: str) -> Value | None:
        if self.locals is not None and name in self.locals:
            return self.locals[name]
        return self.globals.get(name)

    def bind(self, name: str, value: Value | None) -> None:
        if self.locals is not None:
            self.locals[name] = value
        else:
            self.globals[name] = value

    def adopt(self, other: State) -> None:
        """Take over the shared parts (globals, heap, defaults) after a callee returns."""
        self.globals = other.globals
        self.heap = other.heap
        self.ddtype = other.ddtype
        self.ddevice = other.ddevice


def _join_locals(a: dict[str, Value | None], b: dict[str, Value | None]) -> dict[str, Value | None]:
    if a is b:
        return a
    # a function's local bound on one path only: a read of it on the other raises
    # (UnboundLocalError), so every read that succeeds sees the bound value
    return {key: _merge_values(a[key], b[key]) if key in a and key in b else a[key] if key in a else b[key] for key in dict.fromkeys([*a, *b])}


def _join_default(a: Default, b: Default, device: bool) -> Default:
    if a == b:
        return a
    value = join_device(a.value, b.value) if device else (a.value if a.value == b.value else None)
    return Default(value, a.span or b.span, a.call or b.call)


def _survivor(dead: State, alive: State) -> State:
    """One branch died (returned/raised): the survivor continues; fold a sibling copy back."""
    if alive.globals.parent is not None and alive.globals.parent is dead.globals.parent:
        alive.globals = fold_scopes(alive.globals, alive.globals.parent, _merge_keep_first)
    if alive.heap.parent is not None and alive.heap.parent is dead.heap.parent:
        alive.heap = fold_scopes(alive.heap, alive.heap.parent, _merge_keep_first)
    return alive


def _merge_keep_first(a: object, b: object) -> object:
    return b if a is _MISSING else a


def join_states(a: State, b: State) -> State:
    if a.dead and b.dead:
        return a
    if a.dead:
        return _survivor(a, b)
    if b.dead:
        return _survivor(b, a)
    locals_ = None
    if a.locals is not None and b.locals is not None:
        locals_ = _join_locals(a.locals, b.locals)
    return State(
        fold_scopes(a.globals, b.globals, _merge_values),
        locals_,
        fold_scopes(a.heap, b.heap, _merge_objs),
        _join_default(a.ddtype, b.ddtype, device=False),
        _join_default(a.ddevice, b.ddevice, device=True),
        a.autocast if a.autocast == b.autocast else None,
    )
