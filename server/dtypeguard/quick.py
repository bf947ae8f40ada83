"""`quick_init`: a faster constructor for the engine's frozen dataclasses.

A frozen dataclass's generated `__init__` stores each field through `object.__setattr__`,
which costs about twice a plain store, and an analysis builds some 13,000 spans, values and
events. The replacement writes the instance `__dict__` directly; everything else
(immutability after construction, equality, hashing, ordering, `replace`) is the dataclass's
own.
"""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

T = TypeVar("T")
_NOTHING = object()


def quick_init(cls: type[T]) -> type[T]:
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    if any(not f.init or f.kw_only for f in fields) or hasattr(cls, "__post_init__") or hasattr(cls, "__slots__"):
        raise TypeError(f"quick_init does not handle {cls.__name__}'s fields")
    if any(f.name == "self" or f.name.startswith(("_default_", "_factory_", "_NOTHING", "__d")) for f in fields):
        raise TypeError(f"a field name of {cls.__name__} clashes with quick_init's own names")
    namespace: dict[str, Any] = {"_NOTHING": _NOTHING}
    params: list[str] = []
    stores: list[str] = []
    for f in fields:
        if f.default is not dataclasses.MISSING:
            namespace[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
            stores.append(f"    __d[{f.name!r}] = {f.name}")
        elif f.default_factory is not dataclasses.MISSING:
            namespace[f"_factory_{f.name}"] = f.default_factory
            params.append(f"{f.name}=_NOTHING")
            stores.append(f"    __d[{f.name!r}] = _factory_{f.name}() if {f.name} is _NOTHING else {f.name}")
        else:
            params.append(f.name)
            stores.append(f"    __d[{f.name!r}] = {f.name}")
    source = f"def __init__(self, {', '.join(params)}):\n    __d = self.__dict__\n" + "\n".join(stores or ["    pass"]) + "\n"
    exec(source, namespace)
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(cls, "__init__", init)  # noqa: B010 - mypy forbids assigning a method
    return cls
