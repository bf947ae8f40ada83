"""Running a module in chunks, and resuming a later run where an earlier one left off.

The incremental checker (`dtypeguard.analysis.Analyzer`) re-analyses a file on every keystroke. A
run is deterministic, so up to the first statement that the edit can affect, a new run does
exactly what the last one did: it may start from a `Snapshot` of the machine at that point.

Snapshots are taken at two kinds of places, where the machine is small and Python's own stack
is not part of it:

* between two top-level chunks (nothing is on the call stack);
* between two statements of the *entry call*: a last chunk that is `main()` or
  `if __name__ == "__main__": main()`, which is where most training scripts do everything.
  It is run statement by statement here (the same steps `exec_block`/`eval_call`/
  `call_function` take), and for each statement the function nodes it ran are recorded, so
  that an edit inside `def train(...)` resumes at the first statement of `main()` that calls
  `train`, not at the top of `main()`.

A run may also *end early* (`Converge`): when, past the chunks an edit changed, the machine is
what the last run had at the same point (the same counters, heap and defaults; globals and
classes that differ are named nowhere in the code the rest runs; what the engine reads back
of its own records, the same), the rest of the module would run exactly as it did last time,
so the last run's records of it are taken over instead of running it again. The functions
nobody called then run again, unless they would start from a machine they cannot tell apart
from last time's (`Uncalled`: the same checks, over their own lines and what they ran). "The code the rest runs" is the rest's own
text and the lines of every function node it ran last time (recorded per chunk, and per
statement of the entry call): up to the first point where the two runs differ they run the
same code, so a name read nowhere in that code cannot make them differ. The rest must not
have run a function that changed.

The same is done between the statements of the entry call (`Converge.entry`): the last run
keeps snapshots after the statement it resumed at, and at the end of the body; this run,
past the edited function's call, compares with them (main's locals, return values and
returning paths too) and takes over the rest of the body.
"""

from __future__ import annotations

import ast
import math
import weakref
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any, SupportsIndex, overload

from dtypeguard.engine.call_effects import PENDING_LOADS, _is_generator
from dtypeguard.engine.events import Default, Events, Facts
from dtypeguard.engine.interpreter_parts import InterpreterParts
from dtypeguard.engine.parse import is_main_guard
from dtypeguard.engine.state import Scope, State
from dtypeguard.engine.values import (
    Device,
    DType,
    Func,
    HeapObj,
    Klass,
    Origin,
    Params,
    Ref,
    ScalerObj,
    Sym,
    Tensor,
    Value,
    pending_spans,
)

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
Ran = dict[int, ast.AST]  # the function nodes a stretch of the run ran, by id (calls, lambdas, methods)


@dataclass(frozen=True)
class Frame:
    """Inside the entry call, before body statement `index` runs."""

    index: int
    node: FunctionNode  # the entry function
    locals: dict[str, Value | None]
    returned: tuple[Value | None, ...]  # what its `return`s gave so far
    exits: tuple[State, ...]  # and the states they left with (detached copies)
    caller_autocast: str | None
    touched: tuple[Ran, ...]  # per statement before `index`: the function nodes it ran
    target: ast.AST | None  # the function this snapshot was taken for (see `EntryKeep`); None: a boundary
    ran_before: frozenset[int]  # the function nodes run before the entry call


@dataclass(frozen=True)
class Snapshot:
    """The machine before top-level chunk `chunk` runs, or (with `frame`) inside the entry
    call that chunk `chunk` makes.

    The state is copied flat (later joins write into scopes in place), and so are the small
    tables; the append-only records are not copied: a resumed run takes the prefix of the
    earlier run's lists, which that run's own result keeps unchanged.
    """

    chunk: int
    globals: dict[object, Value | None]
    heap: dict[object, HeapObj]
    defaults: tuple[Default, Default, str | None, bool]  # dtype, device, autocast, dead
    counters: tuple[int, int, int]  # time, next_oid, statements
    events: Events
    events_marks: dict[str, object]
    facts: Facts
    facts_marks: dict[str, object]
    executed: frozenset[int]
    functions: list[Func]
    functions_mark: int
    classes: dict[str, Klass]
    yields: dict[int, list[Value | None]]
    optimizers_of: dict[int, list[int]]
    frame: Frame | None = None


@dataclass(frozen=True)
class EntryTrace:
    """What a run recorded of its entry call: the chunk that made it, the function, and for
    each of its body statements the function nodes that statement ran."""

    chunk: int
    node: FunctionNode
    touched: tuple[Ran, ...]
    ran_before: frozenset[int]  # the function nodes run before the entry call


@dataclass(frozen=True)
class EntryKeep:
    """Take a snapshot inside the entry call before statement `index`: the first that runs
    the function `target` (just edited: the next keystroke probably edits it again). Not
    taken if the state refers to `target` anywhere but its own global `name`."""

    index: int
    name: str
    target: ast.AST


@dataclass(frozen=True)
class Patch:
    """Resuming inside the entry call after `def name` changed: the old function's value
    becomes the new one's."""

    old: ast.AST
    new: Func


CONVERGE_SPAN = 3  # boundary snapshots kept after the chunk an edit changed, to end the next run early


@dataclass(frozen=True)
class Converge:
    """What the last run left for ending this one early (see the module docstring).

    `boundaries`: the last run's snapshots between chunks after the one it expected edited, and
    at the end of its chunks (key `len(chunks)`); `floors`: per chunk of the last run, the lowest
    index of `facts.values` it read back; `after`: the first chunk past the last one whose nodes
    changed (chunks from there on are the very objects the last run ran); `names(i)`: the
    names chunk `i` mentions; `changed`: the ids of the function nodes in the last run's chunks
    that changed.

    Inside the entry call the same is done between its statements: `entry` holds the last
    run's snapshots there (by statement index; the end of the body under `len(body)`), and
    `entry_floors` what each statement read back. `touched` says, per chunk of the last run,
    which function nodes it ran; their code is part of "the rest" as much as the rest's own
    text: `names_of(node)` gives the names in a function's lines, `stmt_names` those in a run
    of statements' lines."""

    after: int
    boundaries: dict[int, Snapshot]
    floors: dict[int, int]
    names: Callable[[int], frozenset[str]]
    changed: frozenset[int]
    trace: EntryTrace | None  # the last run's entry call
    roots: frozenset[int]  # the ids of the statements of the last run's chunks that changed
    touched: dict[int, Ran]
    names_of: Callable[[ast.AST], frozenset[str]]
    stmt_names: Callable[[list[ast.stmt]], frozenset[str]]
    entry: dict[int, Snapshot]
    entry_floors: dict[int, int]
    uncalled: Uncalled | None = None  # what the last run's functions nobody called started from and left


@dataclass(frozen=True)
class Uncalled:
    """The last run's analysis of the functions nobody called (`_run_uncalled`): the machine it
    started from (the end of the chunks) and the one it left, the functions it was given, the
    function nodes it ran and the lowest index of `facts.values` it read back. A run whose
    chunks leave a machine these functions cannot tell apart from `before` takes its records
    over instead of running them again (a keystroke's share of it was a fifth of the time)."""

    before: Snapshot
    after: Snapshot
    funcs: tuple[Func, ...]
    ran: Ran
    floor: float


class ReadsList(list[Any]):
    """`facts.values`, recording the lowest index the engine reads back (`bound_at` searches
    the recent facts): a run that ended early must have read back the same facts."""

    lowest: float = math.inf

    @overload
    def __getitem__(self, i: SupportsIndex) -> Any: ...

    @overload
    def __getitem__(self, i: slice) -> list[Any]: ...

    def __getitem__(self, i: SupportsIndex | slice) -> Any:
        if isinstance(i, slice):
            start = i.indices(len(self))[0]
            if start < self.lowest:
                self.lowest = start
            return list(list.__getitem__(self, i))
        k = i.__index__()
        k = k if k >= 0 else len(self) + k
        if k < self.lowest:
            self.lowest = k
        return list.__getitem__(self, i)


class ResumeMixin(InterpreterParts):
    # --- driver ----------------------------------------------------------------------------

    def run_chunks(
        self,
        chunks: list[list[ast.stmt]],
        resume: Snapshot | None = None,
        keep: int = -1,
        entry_keep: EntryKeep | None = None,
        patch: Patch | None = None,
        converge: Converge | None = None,
    ) -> tuple[Snapshot | None, Snapshot | None]:
        """Run the module's top-level statements, given in consecutive chunks, then the
        functions nobody called. With `resume` (taken by an earlier run whose chunks before
        `resume.chunk` are these very node objects), start there instead of at the top.

        Returns the snapshots taken for the next run: before chunk `keep` (-1: none), and
        inside the entry call as `entry_keep` asks. Also kept, in `boundaries`: snapshots after
        chunk `keep` and at the end, and in `floors` what each chunk read back of
        `facts.values`, for the next run to end early (`converge`)."""
        self.entry_trace: EntryTrace | None = None
        kept: Snapshot | None = None
        self._entry_kept: Snapshot | None = None
        self.boundaries: dict[int, Snapshot] = {}
        self.floors: dict[int, int] = {}
        self.chunk_touched: dict[int, Ran] = {}
        self.entry_boundaries: dict[int, Snapshot] = {}
        self.entry_floors: dict[int, int] = {}
        self.converged_at = self.entry_converged_at = -1
        self._patched = False
        self._converge_with = converge  # (for the entry call)
        if resume is None:
            state, start = State.fresh(), 0
        elif resume.frame is None:
            state, start = self._restore(resume), resume.chunk
        else:
            state = self._resume_entry(resume, chunks, entry_keep, patch)
            start = resume.chunk + 1
        values = self.facts.values
        reads = values if isinstance(values, ReadsList) else ReadsList(values)
        self.facts.values = reads
        end = len(chunks)
        for i in range(start, end + 1):
            if i > start and reads.lowest < math.inf:
                self.floors[i - 1] = int(reads.lowest)
            reads.lowest = math.inf
            if i == keep:
                kept = self._snapshot(i, state)
            if keep < i <= keep + CONVERGE_SPAN or i == end:
                self.boundaries[i] = kept if i == keep and kept is not None else self._snapshot(i, state)
            if converge is not None and i >= converge.after and i < end and i in converge.boundaries:
                spliced = self._converge(converge, i, state, chunks)
                if spliced is not None:
                    state = spliced
                    self.converged_at = i
                    self.boundaries[end] = self._snapshot(end, state)
                    self.facts.values = reads = ReadsList(self.facts.values)
                    break
            if i == end:
                break
            call = _entry_call(chunks[i], i == len(chunks) - 1)
            func = self._entry_function(call, state) if call is not None else None
            self.touched = {}
            if call is not None and func is not None:
                state = self._run_entry(i, chunks[i][0], call, func, state, entry_keep)
            else:
                state = self.exec_block(chunks[i], state)
            self.chunk_touched[i], self.touched = self.touched or {}, None
        if keep == len(chunks):
            kept = self.boundaries[end]
        # (DG010: a load every path from which moves to CUDA as written has no CPU-only run to fail in)
        left = pending_spans(state.globals.get(PENDING_LOADS))
        self.events.loads_before_gpu = {} if state.dead else {load.span: True for load in self.events.loads if load.span not in left}
        self._finish_uncalled(state, converge, self.boundaries.get(end))
        return kept, self._entry_kept

    # --- the functions nobody called ---------------------------------------------------------

    def _finish_uncalled(self, state: State, conv: Converge | None, before: Snapshot | None) -> None:
        """Run the functions nobody called, or take over what the last run recorded of them
        when they would start from what it had (`_same_start`). Keeps `self.uncalled` for the
        next run."""
        funcs = tuple(f for f in self.functions if id(f.node) not in self.executed and not isinstance(f.node, ast.Lambda))
        old = conv.uncalled if conv is not None else None
        self.uncalled_reused = False
        if conv is not None and old is not None and before is not None and self._same_start(conv, old, funcs, before):
            prev, after = old.before, old.after
            self._take_over(prev, after)
            self.time, self.next_oid, self.statements = after.counters
            twins = {id(g.node): f.node for f, g in zip(funcs, old.funcs, strict=True)}  # (a re-parsed twin: its new node)
            self.executed |= {id(twins[i]) if i in twins else i for i in after.executed - prev.executed}
            self.functions = self.functions + after.functions[prev.functions_mark : after.functions_mark]
            self.classes = _mine_where_untouched(self.classes, prev.classes, after.classes, set())
            self.yields = {k: list(v) for k, v in after.yields.items()}
            self.optimizers_of = {k: list(v) for k, v in after.optimizers_of.items()}
            ran, floor = {id(twins.get(i, node)): twins.get(i, node) for i, node in old.ran.items()}, old.floor
            self.uncalled_reused = True
        else:
            values = self.facts.values
            reads = values if isinstance(values, ReadsList) else ReadsList(values)
            self.facts.values = reads
            reads.lowest = math.inf
            self.touched = {}
            self._run_uncalled(state)
            ran, self.touched = self.touched or {}, None
            floor = reads.lowest
        self.uncalled = None if before is None else Uncalled(before, self._snapshot(before.chunk, state), funcs, ran, floor)

    def _same_start(self, conv: Converge, old: Uncalled, funcs: tuple[Func, ...], before: Snapshot) -> bool:
        """Would the functions nobody called run from `before` (this run's machine at the end
        of its chunks) as they ran from `old.before`? The same checks as ending early
        (`_same_machine`), over what those functions and the ones they called read: the
        same functions (the very nodes), none of them changed, the same counters, defaults
        and heap, globals and classes that differ named nowhere in their lines, and the same
        records the engine reads back."""
        prev = old.before
        if len(funcs) != len(old.funcs) or before.counters != prev.counters or before.defaults != prev.defaults:
            return False
        # a function of an edited chunk may be a new node of the same text (a method nobody
        # calls in a function being edited): the same if `_Same` says so below; any other
        # function of an edited chunk that they ran is not
        twins = {id(g.node) for f, g in zip(funcs, old.funcs, strict=True) if f.node is not g.node}
        if not (old.ran.keys() - twins).isdisjoint(conv.changed):
            return False
        if before.yields != prev.yields or before.optimizers_of != prev.optimizers_of:
            return False
        same = _Same(conv.roots)
        if not all(f is g or same(f, g) for f, g in zip(funcs, old.funcs, strict=True)):
            return False
        heap = before.heap
        if heap != prev.heap and (heap.keys() != prev.heap.keys() or not all(same(v, prev.heap[k]) for k, v in heap.items())):
            return False
        diff: set[object] = {k for k in before.globals.keys() | prev.globals.keys() if not same(before.globals.get(k, _ABSENT), prev.globals.get(k, _ABSENT))}
        diff |= {k for k in before.classes.keys() | prev.classes.keys() if not same(before.classes.get(k), prev.classes.get(k))}
        if any(isinstance(k, str) and k.startswith("<") for k in diff):
            return False
        if diff:
            nodes = {id(f.node): f.node for f in funcs} | dict(old.ran)
            if any(diff & conv.names_of(node) for node in nodes.values()):
                return False
        return self._same_records(prev, old.floor)

    # --- ending early ------------------------------------------------------------------------

    def _converge(self, conv: Converge, b: int, state: State, chunks: list[list[ast.stmt]]) -> State | None:
        """At the boundary before chunk `b`: if the rest would run as last time, the state at
        the end of the chunks with the last run's records of them taken over; else None."""
        old, end = conv.boundaries[b], conv.boundaries.get(len(chunks))
        rest = [conv.touched.get(i) for i in range(b, len(chunks))]
        if end is None or any(ran is None for ran in rest):
            return None

        def named(names: set[object]) -> bool:
            return any(names & conv.names(i) for i in range(b, len(chunks))) or _named_in(names, rest, conv)

        floor = min((f for i, f in conv.floors.items() if i >= b), default=math.inf)
        found = self._same_machine(conv, old, state, rest, named, floor, _Same(conv.roots))
        if found is None:
            return None
        return self._splice(conv, old, end, state, *found)

    def _same_machine(
        self, conv: Converge, old: Snapshot, state: State, rest: list[Ran | None], named: Callable[[set[object]], bool],
        floor: float, same: _Same,
    ) -> tuple[set[object], set[str]] | None:
        """Would the rest (code that ran the function nodes `rest`, and whose own text and
        those functions' chunks are what `named` reads) run from here as it did from `old`?
        The globals and classes that differ (named nowhere in the rest), or None."""
        if (self.time, self.next_oid, self.statements) != old.counters:
            return None
        if (state.ddtype, state.ddevice, state.autocast, state.dead) != old.defaults:
            return None
        if self.yields != old.yields or self.optimizers_of != old.optimizers_of:
            return None
        if any(ran is None or not ran.keys().isdisjoint(conv.changed) for ran in rest):
            return None  # the rest ran a function that changed
        heap = state.heap.flat()
        if heap != old.heap and (heap.keys() != old.heap.keys() or not all(same(v, old.heap[k]) for k, v in heap.items())):
            return None
        globals_ = state.globals.flat()
        diff = {k for k in globals_.keys() | old.globals.keys() if not same(globals_.get(k, _ABSENT), old.globals.get(k, _ABSENT))}
        classes = {k for k in self.classes.keys() | old.classes.keys() if not same(self.classes.get(k), old.classes.get(k))}
        if any(isinstance(k, str) and k.startswith("<") for k in diff):
            return None  # the engine's own flags (`<saved ...>`, CUDA storage tags): no text names them
        if (diff or classes) and named(diff | set(classes)):
            return None
        return (diff, classes) if self._same_records(old, floor) else None

    def _same_records(self, old: Snapshot, floor: float) -> bool:
        """What the engine reads back of its own records is what the last run had at `old`: the
        flags, the lines it recorded defaults for, the lists read back whole, and `facts.values`
        from `floor` (the lowest index the code still to run read back) on."""
        for record, marks in ((self.events, old.events_marks), (self.facts, old.facts_marks)):
            for name, mark in marks.items():
                if isinstance(mark, bool) and getattr(record, name) != mark:
                    return False
        before = old.facts_marks["defaults_at"]
        assert isinstance(before, dict)
        if not before.keys() <= self.facts.defaults_at.keys():
            return False  # a line the last run had run by now and this one not: the rest may run it, and record it here
        for name in _READ_BACK:  # the records the engine reads back whole
            if getattr(self.events, name) != getattr(old.events, name)[: _mark(old.events_marks, name)]:
                return False
        count = _mark(old.facts_marks, "values")
        if floor < count:  # the rest read back facts from before here: the same ones?
            mine, low = self.facts.values, int(floor)
            if len(mine) != count or list.__getitem__(mine, slice(low, None)) != old.facts.values[low:count]:
                return False
        return True

    def _take_over(self, old: Snapshot, end: Snapshot) -> None:
        """Append the last run's records between `old` and `end` to this run's (lists in place:
        `facts.values` stays the list that notes what is read back). `defaults_at` keeps the
        first value per line, as `begin` does: a line this run already ran keeps its own."""
        for record, after, marks_b, marks_e in (
            (self.events, end.events, old.events_marks, end.events_marks),
            (self.facts, end.facts, old.facts_marks, end.facts_marks),
        ):
            for name, mark in marks_e.items():
                if isinstance(mark, bool):
                    setattr(record, name, mark)
                elif isinstance(mark, int):
                    source = getattr(after, name)
                    getattr(record, name).extend(list.__getitem__(source, slice(_mark(marks_b, name), mark)))
                elif isinstance(mark, dict):
                    start = marks_b[name]
                    assert isinstance(start, dict)
                    mine = getattr(record, name)
                    first_wins = name == "defaults_at"
                    for key, value in mark.items():
                        if start.get(key, _ABSENT) is not value and not (first_wins and key in mine):
                            mine[key] = value
                    for key in start.keys() - mark.keys():
                        mine.pop(key, None)

    def _splice(self, conv: Converge, old: Snapshot, end: Snapshot, state: State, diff: set[object], classes: set[str]) -> State:
        """The state at the end of the chunks: the last run's, except where the rest left a
        value as it found it: there this run's (the same, or equivalent, or named nowhere in
        the rest); and the last run's records of the rest appended to this run's."""
        b = old.chunk
        self._take_over(old, end)
        self.chunk_touched.update({i: ran for i, ran in conv.touched.items() if i >= b})
        self.floors.update({i: f for i, f in conv.floors.items() if i >= b})
        trace = conv.trace
        if trace is not None and trace.chunk >= b:  # the entry call is in what is taken over
            ran_before = frozenset(self.executed | (trace.ran_before - old.executed))
            self.entry_trace = replace(trace, ran_before=ran_before)
        self.time, self.next_oid, self.statements = end.counters
        self.executed |= end.executed - old.executed
        self.functions = self.functions + end.functions[old.functions_mark : end.functions_mark]
        self.classes = _mine_where_untouched(self.classes, old.classes, end.classes, set(classes))
        self.yields = {k: list(v) for k, v in end.yields.items()}
        self.optimizers_of = {k: list(v) for k, v in end.optimizers_of.items()}
        flat = _mine_where_untouched(state.globals.flat(), old.globals, end.globals, diff)
        heap = _mine_where_untouched(state.heap.flat(), old.heap, end.heap, set())
        ddtype, ddevice, autocast, dead = end.defaults
        spliced = State(Scope(None, flat), None, Scope(None, heap), ddtype, ddevice, autocast)
        spliced.dead = dead
        return spliced

    # --- the entry call ----------------------------------------------------------------------

    def _entry_function(self, call: ast.Call, state: State) -> Func | None:
        """The user function the entry chunk calls, if it is run statement by statement."""
        if state.dead or not isinstance(call.func, ast.Name):
            return None
        value = state.lookup(call.func.id)
        if not isinstance(value, Func) or not isinstance(value.node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            return None
        return None if _is_generator(value.node, self.index) else value

    def _run_entry(self, chunk: int, stmt: ast.stmt, call: ast.Call, func: Func, state: State, keep: EntryKeep | None) -> State:
        """`exec_block([stmt])` for the entry chunk, the call's body one statement at a time."""
        self.begin(stmt, state)
        if isinstance(stmt, ast.If):  # the main guard: exec_if runs its body as a block
            self.begin(stmt.body[0], state)
        self.eval(call.func, state)  # as eval_call does (records what it records)
        callee = self.enter_call(func, [], {}, state)
        if callee is None:
            return state
        node = func.node
        assert isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        self._ran_before = frozenset(self.executed)
        return self._entry_body(chunk, node, callee, state, 0, (), keep)

    def _entry_body(
        self,
        chunk: int,
        node: FunctionNode,
        callee: State,
        caller: State,
        start: int,
        touched: tuple[Ran, ...],
        keep: EntryKeep | None,
    ) -> State:
        """Body statements `start`.. of the entry call, then the return to the caller. With
        `keep`, snapshots for the next run: before statement `keep.index` (to resume there),
        and after it (`entry_boundaries`, to end early there); with the last run's (the run's
        `converge`), ends early itself where this run's machine is what the last run's was."""
        trace = list(touched)
        end = callee
        last = len(node.body)
        outer = self.touched  # the entry chunk's record (None when resuming inside it)
        conv = self._converge_with
        reads = self.facts.values
        if not isinstance(reads, ReadsList):
            reads = self.facts.values = ReadsList(reads)
        lowest = reads.lowest
        try:
            for i in range(start, last + 1):
                if keep is not None and i == keep.index:
                    self._entry_kept = self._frame_snapshot(chunk, end, caller, node, i, tuple(trace), keep, i == start and self._patched)
                stop = i == last or end.dead
                if keep is not None and (keep.index < i <= keep.index + CONVERGE_SPAN or stop):
                    self.entry_boundaries[last if stop else i] = self._frame_boundary(chunk, end, caller, node, i, tuple(trace))
                if not stop and conv is not None and i > start and i in conv.entry:
                    spliced = self._converge_entry(conv, chunk, node, i, end, caller, trace)
                    if spliced is not None:
                        end, trace = spliced
                        self.entry_converged_at = i
                        lowest = min([lowest, *(f for k, f in conv.entry_floors.items() if k >= i)])
                        if keep is not None:
                            self.entry_boundaries[last] = self._frame_boundary(chunk, end, caller, node, len(trace), tuple(trace))
                        break
                if stop:
                    break
                stmt = node.body[i]
                self.touched = {}
                reads.lowest = math.inf
                self.begin(stmt, end)
                end = self.exec_stmt(stmt, end)
                trace.append(self.touched)
                if reads.lowest < math.inf:
                    self.entry_floors[i] = int(reads.lowest)
                    lowest = min(lowest, reads.lowest)
                self.touched = None
        finally:
            reads.lowest = lowest
            merged: Ran = {} if outer is None else outer
            merged[id(node)] = node
            for ran in trace:
                merged.update(ran)
            self.touched = merged
            self.chunk_touched[chunk] = merged
            self.call_stack.pop()
            returned = self.returns.pop()
            exits = self.return_states.pop()
        self.leave_call(node, caller, end, returned, exits)
        self.entry_trace = EntryTrace(chunk, node, tuple(trace), self._ran_before)
        return caller

    def _converge_entry(
        self, conv: Converge, chunk: int, node: FunctionNode, i: int, callee: State, caller: State, trace: list[Ran],
    ) -> tuple[State, list[Ran]] | None:
        """Before the entry call's statement `i`: if the rest of its body would run as last
        time (the same checks as between chunks, and the same locals, return values and
        paths that returned so far), the state where the body ended, the last run's records
        of the rest taken over, and the trace of the whole body; else None."""
        old, end = conv.entry[i], conv.entry.get(len(node.body))
        if end is None or old.frame is None or end.frame is None or old.chunk != chunk or end.chunk != chunk:
            return None
        if old.frame.node is not node or end.frame.node is not node or old.frame.index != i or len(end.frame.touched) < i:
            return None
        if caller.autocast != old.frame.caller_autocast:
            return None
        same = _Same(conv.roots)
        if not same(dict(callee.locals or {}), old.frame.locals) or not same(list(self.returns[-1]), list(old.frame.returned)):
            return None
        exits = self.return_states[-1]
        if len(exits) != len(old.frame.exits) or not all(same(_shape(a), _shape(b)) for a, b in zip(exits, old.frame.exits, strict=True)):
            return None
        rest: list[Ran | None] = list(end.frame.touched[i:])
        body = node.body[i:]

        def named(names: set[object]) -> bool:
            return bool(names & conv.stmt_names(body)) or _named_in(names, rest, conv)

        floor = min((f for k, f in conv.entry_floors.items() if k >= i), default=math.inf)
        found = self._same_machine(conv, old, callee, rest, named, floor, same)
        if found is None:
            return None
        diff, classes = found
        self._take_over(old, end)
        self.entry_floors.update({k: f for k, f in conv.entry_floors.items() if k >= i})
        self.time, self.next_oid, self.statements = end.counters
        self.executed |= end.executed - old.executed
        self.functions = self.functions + end.functions[old.functions_mark : end.functions_mark]
        self.classes = _mine_where_untouched(self.classes, old.classes, end.classes, set(classes))
        self.yields = {k: list(v) for k, v in end.yields.items()}
        self.optimizers_of = {k: list(v) for k, v in end.optimizers_of.items()}
        mine_globals, mine_heap = callee.globals.flat(), callee.heap.flat()
        self.returns[-1][:] = list(end.frame.returned)
        self.return_states[-1][:] = [
            _rebased(e, mine_globals, mine_heap, old, diff) for e in end.frame.exits
        ]
        spliced = _rebased(State(Scope(None, end.globals), None, Scope(None, end.heap), *end.defaults[:3]), mine_globals, mine_heap, old, diff)
        spliced.locals = _mine_where_untouched(dict(callee.locals or {}), old.frame.locals, end.frame.locals, set())
        spliced.dead = end.defaults[3]
        return spliced, [*trace[:i], *end.frame.touched[i:]]

    def _frame_boundary(self, chunk: int, callee: State, caller: State, node: FunctionNode, index: int, touched: tuple[Ran, ...]) -> Snapshot:
        """The machine before the entry call's statement `index`, for ending a later run early."""
        frame = Frame(
            index, node, dict(callee.locals or {}), tuple(self.returns[-1]), tuple(detached(state) for state in self.return_states[-1]),
            caller.autocast, touched, None, self._ran_before,
        )
        return replace(self._snapshot(chunk, callee), frame=frame)

    def _frame_snapshot(
        self, chunk: int, callee: State, caller: State, node: FunctionNode, index: int,
        touched: tuple[Ran, ...], keep: EntryKeep, patched: bool = False,
    ) -> Snapshot | None:
        """The snapshot to resume at before statement `index`, or None when the state holds
        the function `keep.target` anywhere but its global `keep.name`. `patched`: the state
        is a snapshot that passed this test for the function `keep.target` replaced, with
        the patch applied and nothing run since, so it passes again (the walk over the heap
        is the longest step of a keystroke that resumes here)."""
        locals_ = dict(callee.locals or {})
        returned = tuple(self.returns[-1])
        exits = tuple(detached(state) for state in self.return_states[-1])
        snap = self._snapshot(chunk, callee)
        held = [snap.heap, locals_, returned, {k: v for k, v in snap.globals.items() if k != keep.name}]
        held += [(e.heap.vars, {k: v for k, v in e.globals.vars.items() if k != keep.name}) for e in exits]
        if not patched and _mentions(held, keep.target):
            return None  # the old function's value is held elsewhere: a patch could not find it
        frame = Frame(index, node, locals_, returned, exits, caller.autocast, touched, keep.target, self._ran_before)
        return replace(snap, frame=frame)

    def _resume_entry(self, snap: Snapshot, chunks: list[list[ast.stmt]], keep: EntryKeep | None, patch: Patch | None) -> State:
        frame = snap.frame
        assert frame is not None
        callee = self._restore(snap)
        exits = [detached(state) for state in frame.exits]  # joins after this run must not reach the snapshot
        # a snapshot taken for the function the patch replaces, taken again at once for its new version
        self._patched = patch is not None and frame.target is patch.old and keep is not None and keep.index == frame.index and keep.name == _global_name(snap, patch)
        if patch is not None:
            for scope in (callee.globals, *(e.globals for e in exits)):
                for name, value in scope.vars.items():
                    if isinstance(value, Func) and value.node is patch.old:
                        scope.vars[name] = patch.new
            self.functions = [patch.new if f.node is patch.old else f for f in self.functions]
        callee.locals = dict(frame.locals)
        self._ran_before = frame.ran_before
        caller = State(callee.globals, None, callee.heap, callee.ddtype, callee.ddevice, frame.caller_autocast)
        self.call_stack = [frame.node]
        self.returns = [list(frame.returned)]
        self.return_states = [exits]
        return self._entry_body(snap.chunk, frame.node, callee, caller, frame.index, frame.touched, keep)

    # --- snapshots ---------------------------------------------------------------------------

    def _snapshot(self, chunk: int, state: State) -> Snapshot:
        return Snapshot(
            chunk=chunk,
            globals=state.globals.flat(),
            heap=state.heap.flat(),
            defaults=(state.ddtype, state.ddevice, state.autocast, state.dead),
            counters=(self.time, self.next_oid, self.statements),
            events=self.events,
            events_marks=_marks(self.events),
            facts=self.facts,
            facts_marks=_marks(self.facts),
            executed=frozenset(self.executed),
            functions=self.functions,
            functions_mark=len(self.functions),
            classes=dict(self.classes),
            yields={k: list(v) for k, v in self.yields.items()},
            optimizers_of={k: list(v) for k, v in self.optimizers_of.items()},
        )

    def _restore(self, snap: Snapshot) -> State:
        if self.call_stack or self.returns or self.return_states or self.loop_depth or self.forward_depth:
            raise RuntimeError("a snapshot is restored only into a new interpreter")
        _rewind(self.events, snap.events, snap.events_marks)
        _rewind(self.facts, snap.facts, snap.facts_marks)
        self.time, self.next_oid, self.statements = snap.counters
        self.executed = set(snap.executed)
        self.functions = snap.functions[: snap.functions_mark]
        self.classes = dict(snap.classes)
        self.yields = {k: list(v) for k, v in snap.yields.items()}
        self.optimizers_of = {k: list(v) for k, v in snap.optimizers_of.items()}
        ddtype, ddevice, autocast, dead = snap.defaults
        state = State(Scope(None, dict(snap.globals)), None, Scope(None, dict(snap.heap)), ddtype, ddevice, autocast)
        state.dead = dead
        return state


_ABSENT = object()
K = Any


def _mine_where_untouched(mine: dict[K, Any], before: dict[K, Any], after: dict[K, Any], gone: set[Any]) -> dict[K, Any]:
    """`after` (the last run's, at the end), except keys the rest left as `before` had them:
    those are `mine` (this run's at the boundary); keys in `gone` (named nowhere in the rest)
    follow `mine` too, present or absent."""
    out = dict(after)
    for key, value in mine.items():
        if out.get(key, _ABSENT) is before.get(key, _ABSENT):
            out[key] = value
    for key in gone:
        if key not in mine:
            out.pop(key, None)
    return out


class _Same:
    """Equal, or equal but for being built from different but identical syntax trees (an
    unchanged class inside an edited function is a new node each time it is parsed)."""

    def __init__(self, changed: frozenset[int] = frozenset()) -> None:
        self._changed = changed  # old statements known to differ (edited): not compared

    def __call__(self, a: object, b: object) -> bool:
        if a is b:
            return True
        try:
            if a == b:
                return True
        except Exception:  # (an odd __eq__: not the same)
            return False
        return self._same(a, b, 0)

    def _dump(self, node: ast.AST) -> str:
        got = _DUMPS.get(node)
        if got is None:
            got = _DUMPS[node] = ast.dump(node, include_attributes=True)
        return got

    def _same(self, a: object, b: object, depth: int) -> bool:
        if a is b:
            return True
        if type(a) is not type(b) or depth > 12:
            return False
        if isinstance(a, ast.AST):
            assert isinstance(b, ast.AST)
            if id(a) in self._changed or id(b) in self._changed:
                return False
            return self._dump(a) == self._dump(b)
        if isinstance(a, (tuple, list)):
            assert isinstance(b, (tuple, list))
            return len(a) == len(b) and all(self._same(x, y, depth + 1) for x, y in zip(a, b, strict=True))
        if isinstance(a, dict):
            assert isinstance(b, dict)
            return a.keys() == b.keys() and all(self._same(v, b[k], depth + 1) for k, v in a.items())
        names = getattr(type(a), "__dataclass_fields__", None)
        if names is not None:
            return all(self._same(getattr(a, n), getattr(b, n), depth + 1) for n in names)
        return a == b


# a node's dump, kept while the node lives: parsed chunks are reused from keystroke to keystroke
# and never changed, so the same function's tree is dumped once, not on every comparison
_DUMPS: weakref.WeakKeyDictionary[ast.AST, str] = weakref.WeakKeyDictionary()
_READ_BACK = ("array_saves", "torch_saves", "saves")  # Events lists the engine reads back (whole)


def _mark(marks: dict[str, object], name: str) -> int:
    mark = marks[name]
    assert isinstance(mark, int)
    return mark


def _named_in(names: set[object], rest: list[Ran | None], conv: Converge) -> bool:
    """Is one of `names` in the lines of a function node the rest ran (what a call runs is
    its body: the names it reads or binds are written there)?"""
    nodes = {id(node): node for ran in rest if ran is not None for node in ran.values()}
    return any(names & conv.names_of(node) for node in nodes.values())


def _global_name(snap: Snapshot, patch: Patch) -> str | None:
    """The one global that holds the patched function in `snap` (None: none, or several)."""
    names = [k for k, v in snap.globals.items() if isinstance(v, Func) and v.node is patch.old]
    return names[0] if len(names) == 1 and isinstance(names[0], str) else None


def _shape(state: State) -> tuple[object, ...]:
    return state.globals.flat(), state.heap.flat(), state.ddtype, state.ddevice, state.autocast, state.dead


def _rebased(state: State, globals_: dict[object, Value | None], heap: dict[object, HeapObj], old: Snapshot, diff: set[object]) -> State:
    """A detached copy of `state` (a path of the last run's rest) where it holds what the
    last run had at `old`: there this run's `globals_` and `heap` (what `_splice` does)."""
    out = State(
        Scope(None, _mine_where_untouched(globals_, old.globals, state.globals.flat(), diff)), None,
        Scope(None, _mine_where_untouched(heap, old.heap, state.heap.flat(), set())), state.ddtype, state.ddevice, state.autocast,
    )
    out.dead = state.dead
    return out


def detached(state: State) -> State:
    """A copy that shares no scope with `state` (joins write into shared scopes in place)."""
    return State(Scope(None, state.globals.flat()), None, Scope(None, state.heap.flat()), state.ddtype, state.ddevice, state.autocast)


def _entry_call(chunk: list[ast.stmt], last: bool) -> ast.Call | None:
    """`main()` or `if __name__ == "__main__": main()` alone in the last chunk."""
    if not last or len(chunk) != 1:
        return None
    stmt = chunk[0]
    if isinstance(stmt, ast.If) and len(stmt.body) == 1 and is_main_guard(stmt.test):
        stmt = stmt.body[0]
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        if isinstance(call.func, ast.Name) and not call.args and not call.keywords:
            return call
    return None


def _mentions(value: object, target: ast.AST, seen: set[int] | None = None) -> bool:
    """Does `value` (values, heap objects, containers of them) hold a function of `target`?"""
    if isinstance(value, _CANNOT_HOLD_FUNCTIONS):
        return False
    if isinstance(value, Func):
        return value.node is target
    seen = set() if seen is None else seen
    if id(value) in seen:
        return False
    seen.add(id(value))
    if isinstance(value, dict):
        return any(_mentions(v, target, seen) for v in value.values())
    if isinstance(value, (tuple, list, set, frozenset)):
        return any(_mentions(v, target, seen) for v in value)
    attrs = getattr(value, "__dict__", None)
    return attrs is not None and any(_mentions(v, target, seen) for v in attrs.values())


_CANNOT_HOLD_FUNCTIONS = (str, int, float, type(None), ast.AST, Tensor, Sym, DType, Device, Ref, Params, Origin, ScalerObj, Default)


def _marks(record: Events | Facts) -> dict[str, object]:
    """Lists by length, dicts by copy, flags by value: a new field of another kind must be
    taught here before it can be snapshotted."""
    marks: dict[str, object] = {}
    for f in fields(record):
        value = getattr(record, f.name)
        if isinstance(value, list):
            marks[f.name] = len(value)
        elif isinstance(value, dict):
            marks[f.name] = dict(value)
        elif isinstance(value, bool):
            marks[f.name] = value
        else:
            raise TypeError(f"cannot snapshot {type(record).__name__}.{f.name}")
    return marks


def _rewind(target: Events | Facts, source: Events | Facts, marks: dict[str, object]) -> None:
    for name, mark in marks.items():
        value = getattr(source, name)
        if isinstance(value, list) and isinstance(mark, int):
            setattr(target, name, value[:mark])
        elif isinstance(mark, dict):
            setattr(target, name, dict(mark))
        else:
            setattr(target, name, mark)
