"""The abstract machine state at one point of execution, and how two states merge.

A state is cheap to copy (three dicts) because branches copy it; mutable PyTorch objects are
heap entries so `model.cuda()` through any alias updates the one object.
"""

from __future__ import annotations

from dtypeguard.engine.events import Default
from dtypeguard.engine.values import HeapObj, Value, join, join_device, join_obj

BUILTIN_DTYPE = Default("float32")
BUILTIN_DEVICE = Default("cpu")


class State:
    __slots__ = ("autocast", "ddevice", "ddtype", "dead", "globals", "heap", "locals")

    def __init__(
        self,
        globals_: dict[str, Value | None],
        locals_: dict[str, Value | None] | None,
        heap: dict[int, HeapObj],
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

    def copy(self) -> State:
        new = State(
            dict(self.globals),
            dict(self.locals) if self.locals is not None else None,
            dict(self.heap),
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
        scope = self.locals if self.locals is not None else self.globals
        scope[name] = value

    def adopt(self, other: State) -> None:
        """Take over the shared parts (globals, heap, defaults) after a callee returns."""
        self.globals = other.globals
        self.heap = other.heap
        self.ddtype = other.ddtype
        self.ddevice = other.ddevice


def _join_scope(a: dict[str, Value | None], b: dict[str, Value | None]) -> dict[str, Value | None]:
    if a is b:
        return a
    out: dict[str, Value | None] = {}
    for key in a.keys() | b.keys():
        va, vb = a.get(key), b.get(key)
        out[key] = va if va is vb or va == vb else join(va, vb)
    return out


def _join_default(a: Default, b: Default, device: bool) -> Default:
    if a == b:
        return a
    value = join_device(a.value, b.value) if device else (a.value if a.value == b.value else None)
    return Default(value, a.span or b.span, a.call or b.call)


def join_states(a: State, b: State) -> State:
    if a.dead:
        return b
    if b.dead:
        return a
    heap = dict(a.heap)
    for oid, obj in b.heap.items():
        heap[oid] = join_obj(heap[oid], obj) if oid in heap else obj
    locals_ = None
    if a.locals is not None and b.locals is not None:
        locals_ = _join_scope(a.locals, b.locals)
    return State(
        _join_scope(a.globals, b.globals),
        locals_,
        heap,
        _join_default(a.ddtype, b.ddtype, device=False),
        _join_default(a.ddevice, b.ddevice, device=True),
        a.autocast if a.autocast == b.autocast else None,
    )
