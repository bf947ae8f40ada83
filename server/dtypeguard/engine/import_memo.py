"""What running an imported module did, kept for the next checked file that imports it the same way.

A folder check runs every checked file's imports of the project's own modules again: each model
file of timm imports the package's layers (130-200 modules), and running their top levels was
94% of `dtypeguard check` on real repos (issue 16). The run of an import is deterministic: it
depends only on the machine it starts from. When that machine is the same as an earlier checked
file's at the same import, the import does the same thing, so its effects can be replayed
instead of run again.

"The same machine" is decided without comparing heaps: the checked file has so far run nothing
but import statements (a *pure prefix*: no value of its own exists yet), the same project
modules were imported before in the same order, the counters (time, next object id, statements)
and the default dtype/device are equal, and so are the lengths and flags of the records (and
whether the checked file freezes parameters, which one comprehension reads). Then the heap at
entry is the same too: every object in it came from those same imports. The checked file's
leading import lines count no statements (`Interpreter.begin`), so the statement counter at an
import does not depend on how many there are. An import whose run read the checked file itself
(how often it calls a name, its top-level classes) is not kept: it could differ from file to file.

Only while `imports.shared_across_files` is on (a CLI run over files that do not change while
it runs); the language server never turns it on. Results are identical with and without the
memo (tests/engine/test_import_memo.py; `bench/bench_check_folder.py` compares the output of a
run with `DTYPEGUARD_IMPORT_MEMO=0`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, fields
from typing import Any

from dtypeguard.engine.events import Events, Facts
from dtypeguard.engine.imports import ModuleIndex, shared_memo
from dtypeguard.engine.interpreter_parts import InterpreterParts
from dtypeguard.engine.state import Scope, State
from dtypeguard.engine.values import Func, Klass, Value

_GONE = object()


@dataclass(frozen=True)
class ImportEffects:
    """What one import changed, as a delta to apply to a machine equal to the one it started from."""

    result: Any  # the module's namespace (a Ref) or None
    heap: dict[object, Any]  # objects made or replaced
    defaults: tuple[Any, Any]  # the default dtype and device after
    counters: tuple[int, int, int]  # time, next_oid and statements after
    events: dict[str, Any]  # list fields: the items appended; flags: the value after
    facts: dict[
        str, Any
    ]  # list fields: the items appended; dict fields: the entries added or changed
    executed: frozenset[int]
    touched: dict[int, ast.AST]
    functions: tuple[Func, ...]
    classes: dict[str, Klass]
    yields: dict[int, list[Value | None]]
    optimizers_of: dict[int, list[int]]
    modules: dict[str, Any]
    module_globals: dict[str, dict[object, Any]]  # flat
    module_indexes: dict[str, ModuleIndex]
    dependencies: dict[str, str]
    saved_marks: tuple[str, ...] = ()  # the "<saved ...>" globals its saves wrote first


@dataclass(frozen=True)
class _Before:
    heap: dict[object, Any]
    events: dict[str, Any]
    facts: dict[str, Any]
    executed: frozenset[int]
    touched: frozenset[int]
    functions: int
    classes: dict[str, Klass]
    yields: dict[int, list[Value | None]]
    optimizers_of: dict[int, list[int]]
    modules: frozenset[str]
    saved_marks: int


def _record_marks(record: Events | Facts) -> dict[str, Any]:
    marks: dict[str, Any] = {}
    for f in fields(record):
        value = getattr(record, f.name)
        marks[f.name] = (
            len(value)
            if isinstance(value, list)
            else dict(value)
            if isinstance(value, dict)
            else value
        )
    return marks


def _record_delta(record: Events | Facts, before: dict[str, Any]) -> dict[str, Any]:
    delta: dict[str, Any] = {}
    for name, mark in before.items():
        value = getattr(record, name)
        if isinstance(value, list):
            delta[name] = list(value[mark:])
        elif isinstance(value, dict):
            delta[name] = {k: v for k, v in value.items() if mark.get(k, _GONE) is not v}
        elif value != mark:
            delta[name] = value
    return delta


def _apply_record(record: Events | Facts, delta: dict[str, Any]) -> None:
    for name, change in delta.items():
        value = getattr(record, name)
        if isinstance(value, list):
            value.extend(change)
        elif isinstance(value, dict):
            value.update(change)
        else:
            setattr(record, name, change)


def _changed(after: dict[Any, Any], before: dict[Any, Any]) -> dict[Any, Any]:
    return {k: v for k, v in after.items() if before.get(k, _GONE) is not v}


class ImportMemoMixin(InterpreterParts):
    module_indexes: dict[str, ModuleIndex]
    dependencies: dict[str, str]

    def memo_key(self, path: str, state: State) -> tuple[object, ...] | None:
        """The key an import's effects are kept under, or None when this import cannot be
        replayed or kept (not a pure prefix, inside a call or another import, not sharing)."""
        if shared_memo() is None or not self.pure_prefix or self.importing or self.call_stack or self.boundary or self.in_uncalled:
            return None
        if self.returns or self.loop_depth or self.forward_depth or self.user_calls or self.call_nodes:
            return None
        marks = tuple((k, len(v) if isinstance(v, dict) else v) for k, v in _record_marks(self.events).items())
        counters = (self.time, self.next_oid, self.statements)  # (the checked file's leading imports count no statements)
        return (path, tuple(self.modules), counters, state.ddtype, state.ddevice, marks, self.index.freezes)

    def memo_before(self, state: State) -> _Before:
        return _Before(
            heap=state.heap.flat(),
            events=_record_marks(self.events),
            facts=_record_marks(self.facts),
            executed=frozenset(self.executed),
            touched=frozenset(self.touched or ()),
            functions=len(self.functions),
            classes=dict(self.classes),
            yields={k: list(v) for k, v in self.yields.items()},
            optimizers_of={k: list(v) for k, v in self.optimizers_of.items()},
            modules=frozenset(self.modules),
            saved_marks=len(self.saved_marks),
        )

    def memo_keep(self, key: tuple[object, ...], before: _Before, state: State, result: Any) -> None:
        """Keep what the import just run did, unless it removed objects from the heap."""
        memo = shared_memo()
        after = state.heap.flat()
        if memo is None or any(k not in after for k in before.heap):
            return
        new = [p for p in self.modules if p not in before.modules]
        memo.put(
            key,
            ImportEffects(
                result=result,
                heap=_changed(after, before.heap),
                defaults=(state.ddtype, state.ddevice),
                counters=(self.time, self.next_oid, self.statements),
                events=_record_delta(self.events, before.events),
                facts=_record_delta(self.facts, before.facts),
                executed=frozenset(self.executed - before.executed),
                touched={k: v for k, v in (self.touched or {}).items() if k not in before.touched},
                functions=tuple(self.functions[before.functions :]),
                classes=_changed(self.classes, before.classes),
                yields={k: list(v) for k, v in self.yields.items() if before.yields.get(k) != v},
                optimizers_of={k: list(v) for k, v in self.optimizers_of.items() if before.optimizers_of.get(k) != v},
                modules={p: self.modules[p] for p in new},
                # every module's: a module's globals are a scope that the functions it defines write
                # into, also when another module calls them (`@register` fills a registry's dict);
                # kept flat, copied on replay
                module_globals={p: g.flat() for p, g in self.module_globals.items()},
                module_indexes={p: self.module_indexes[p] for p in new if p in self.module_indexes},
                dependencies={p: self.dependencies[p] for p in new if p in self.dependencies},
                saved_marks=tuple(self.saved_marks)[before.saved_marks :],
            ),
        )

    def memo_replay(self, effects: ImportEffects, state: State) -> Any:
        """Apply a kept import's effects to this machine (equal to the one it started from)."""
        heap: Scope[Any] = state.heap
        for oid, obj in effects.heap.items():
            heap[oid] = obj
        state.ddtype, state.ddevice = effects.defaults
        self.time, self.next_oid, self.statements = effects.counters
        _apply_record(self.events, effects.events)
        _apply_record(self.facts, effects.facts)
        self.executed |= effects.executed
        if self.touched is not None:
            self.touched.update(effects.touched)
        self.functions = [*self.functions, *effects.functions]
        self.classes.update(effects.classes)
        self.yields.update({k: list(v) for k, v in effects.yields.items()})
        self.optimizers_of.update({k: list(v) for k, v in effects.optimizers_of.items()})
        self.modules.update(effects.modules)
        self.module_globals.update({p: Scope(None, dict(flat)) for p, flat in effects.module_globals.items()})
        self.dependencies.update(effects.dependencies)
        for mark in effects.saved_marks:
            self.saved_marks.setdefault(mark)
        for path, index in effects.module_indexes.items():
            index.reuse(self.boundary)  # (as `imports.load` does for a tree it reuses)
            self.module_indexes[path] = index
        return effects.result
