"""Abstract interpretation of one file, statement by statement, in execution order.

Module-level code runs top to bottom; `if __name__ == "__main__":` runs; local functions and
methods are inlined where they are called (bounded depth, recursion guarded), so "the default
was set after the model was built" is decided on the order things really run. Functions that
are never called are analysed once at the end, in isolation, so their local hazards still show.
Branches are interpreted separately and joined; loops run their body twice so a hazard that
only appears on the second iteration (a cast after the first `step()`) is seen.
"""

from __future__ import annotations

import ast
import operator
import re
import weakref
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from dtypeguard.engine.call_effects import (
    BOOL_SUM,
    CUDA_REQUIRED,
    CUDA_TAGS,
    GPU_GUARDED,
    GROUP_FLAGS,
    MAX_UNROLLED,
    NO_GPU,
    PENDING_LOADS,
    PRECISION_OPTION,
    SLICE,
    SOURCE_OP,
    CallsMixin,
    bound_once,
    complex_parts,
    free_names,
    function_apply,
    is_classmethod,
    is_staticmethod,
    moved_attrs,
    own_nodes,
    owns_params,
    post_order,
    uniform_module,
)
from dtypeguard.engine.events import Default, Events, Facts, GroupFlag, TensorOp, ValueFact
from dtypeguard.engine.import_memo import ImportEffects, ImportMemoMixin
from dtypeguard.engine.imports import (
    ModuleIndex,
    Reader,
    foreign,
    load,
    read_file,
    resolve,
    shared_memo,
)
from dtypeguard.engine.library import numpy as numpy_library
from dtypeguard.engine.library import pandas as pandas_library
from dtypeguard.engine.library import promotion
from dtypeguard.engine.library import torch as torch_library
from dtypeguard.engine.library import vocabulary as vocab
from dtypeguard.engine.library.apply import OTHER, Strong, column_dtype, lookup_column, nested_depth
from dtypeguard.engine.library.apply import frame as library_frame
from dtypeguard.engine.library.stdlib import WAVE_READER
from dtypeguard.engine.parse import (
    LineIndex,
    cuda_everywhere,
    is_main_guard,
    syntax_fact,
    test_words,
)
from dtypeguard.engine.resume import ResumeMixin, Uncalled, detached
from dtypeguard.engine.state import Scope, State, join_states
from dtypeguard.engine.values import (
    ITEMS,
    WIDE,
    AutocastCtx,
    Bound,
    Chance,
    ComplexArray,
    Configured,
    Const,
    Device,
    DictV,
    DType,
    Fact,
    FieldFactory,
    FilePath,
    FInfo,
    Func,
    GpuTest,
    InstanceObj,
    Klass,
    LoaderObj,
    Many,
    ModuleObj,
    OptimizerObj,
    Origin,
    ParamGroup,
    ParamNames,
    Params,
    PathObj,
    PendingLoads,
    Ref,
    SomeParams,
    StateDict,
    Super,
    Sym,
    Tensor,
    TupleV,
    Value,
    hard_coded_cuda,
    is_float,
    join,
    join_device,
    join_obj,
    number_kind,
    pending_spans,
    shape_of,
)
from dtypeguard.findings import Span


def _inert(stmt: ast.stmt) -> bool:
    """An import, a docstring, `pass`, a name bound to a constant (`wandb = None`), or a `try:`
    of nothing else (`try: from typing import Literal` / `except ImportError: ...`): a statement
    that makes no object the checked file holds besides the modules it imports (what
    `engine.import_memo` calls a pure prefix)."""
    if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Pass)) or (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
        return True
    if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant):
        return all(isinstance(t, ast.Name) for t in stmt.targets)
    if isinstance(stmt, ast.Try):
        blocks = [stmt.body, stmt.orelse, stmt.finalbody, *(h.body for h in stmt.handlers)]
        return all(h.name is None for h in stmt.handlers) and all(_inert(s) for block in blocks for s in block)
    return False


TRAINED_CAST = "each trained parameter's `.data` is replaced"  # the origin of a cast of the parameters not frozen

MAX_STATEMENTS = 60_000  # work budget per file: beyond it, calls are no longer inlined


_AUG_NAMES: dict[type, str] = {ast.Add: "+=", ast.Sub: "-=", ast.Mult: "*=", ast.Div: "/="}


class Interpreter(ResumeMixin, CallsMixin, ImportMemoMixin):
    def __init__(self, tree: ast.Module, index: LineIndex, path: str | None = None, reader: Reader | None = None) -> None:
        self.tree = tree
        self.index = index
        self.path = path  # the checked file: imports of the project's own modules are found from it
        self.reader: Reader = reader or read_file  # an editor's open buffers come before the disk
        self.modules: dict[str, Ref | None] = {}  # imported file -> its namespace (None: being imported, a cycle)
        self.importing = 0  # > 0 while another file's top level runs
        self.module_globals: dict[str, Any] = {}  # an imported file's path -> its globals, for its functions
        self.saved_marks: dict[str, None] = {}  # the "<saved ...>" globals any save has written (in order), for `leave_call`
        self.module_indexes: dict[str, ModuleIndex] = {}
        self.boundary: list[Span] = []  # the checked file's calls into user code being run, outermost first (the innermost ran it)
        self.dependencies: dict[str, str] = {}  # the files this analysis read, with the text it read
        self.events = Events()
        self.facts = Facts()
        self.time = 0
        self.next_oid = 1
        self.statements = 0
        self.call_stack: list[ast.AST] = []
        # (function node, the call being evaluated when it ran) for the script's functions and
        # methods: where a parameter's default came from (`model.load(ckpt)` leaves `map_location=None`)
        self.user_calls: list[tuple[ast.AST, ast.Call | None]] = []
        self.call_nodes: list[ast.Call] = []  # the calls being evaluated, innermost last
        self.executed: set[int] = set()  # id() of function nodes run at least once
        self.functions: list[Func] = []
        self.classes: dict[str, Klass] = {}
        self.returns: list[list[Value | None]] = []
        self.loop_depth = 0
        self.unrolled_at: list[int] = []
        self.forward_depth = 0
        self.yields: dict[int, list[Value | None]] = {}
        self.optimizers_of: dict[int, list[int]] = {}
        self.touched: dict[int, ast.AST] | None = None
        self.return_states: list[list[State]] = []
        self.number_writes: list[tuple[int, list[tuple[object, ...]]]] = []  # loops in their first round: (call depth, numbers changed)
        # loops over a module's parameters that replace each one's `.data`: (the loop variable, the values written, where)
        self.data_writes: list[tuple[str, list[tuple[Value | None, Span]]]] = []
        # a command-line option's test (`self.gpu_mode`, its source) -> where the branches its default runs are
        self.option_runs: dict[str, list[Span]] = {}
        self.uncalled: Uncalled | None = None  # for the next run (engine.resume.Uncalled)
        self.uncalled_reused = False
        self.in_uncalled = False  # analysing functions nobody called (their calls are inlined less deep)
        self.every_index: set[tuple[str, str, int]] = set()  # loops writing every item of a list (`_every_index`)
        self.pure_prefix = True  # only import statements of the checked file ran so far (engine.import_memo)
        self.own_file_read = False  # an import's run read the checked file itself (not kept in the memo)

    # --- driver ----------------------------------------------------------------------------

    def run(self) -> None:
        self.run_chunks([self.tree.body])

    def _run_uncalled(self, final: State) -> None:
        """Analyse functions nobody called, with unknown arguments, after the module ran."""
        self.in_uncalled = True
        try:
            self._run_uncalled_functions(final)
        finally:
            self.in_uncalled = False

    def _run_uncalled_functions(self, final: State) -> None:
        # a class nobody builds here: its `__init__` runs first, and its other methods see the
        # data it gave `self` whatever the arguments (`self.obses = np.empty(..., dtype=np.float32)`
        # of curl's replay buffer, saved by its `save` method: scan 27)
        funcs = sorted(self.functions, key=lambda f: not _is_init(f))
        inits: dict[str, dict[str, Value | None]] = {}
        for func in funcs:
            if id(func.node) in self.executed or isinstance(func.node, ast.Lambda):
                continue
            if self.statements > MAX_STATEMENTS:
                return
            state = final.copy()
            state.dead = False
            params: dict[str, Value | None] = {}
            instance: Ref | None = None
            if func.owner is not None:
                klass = self.classes.get(func.owner)
                args = func.node.args.posonlyargs + func.node.args.args
                if args and klass is not None:
                    instance = self._instance_for_isolation(klass, state, inits.get(func.owner, {}))
                    params[args[0].arg] = instance
            spec = func.node.args
            for rest in (spec.vararg, spec.kwarg):
                if rest is not None:
                    params[rest.arg] = None  # what callers would pass through `*args`/`**kwargs` is not known (`map_location` may be among them)
            self.call_function(func, [], {}, state, params_override=params)
            made = state.heap.get(instance.oid) if instance is not None and _is_init(func) else None
            if isinstance(made, InstanceObj) and func.owner is not None:
                inits[func.owner] = {name: value for name, value in made.attrs.items() if _plain_data(value)}

    def _instance_for_isolation(self, klass: Klass, state: State, attrs: dict[str, Value | None]) -> Ref:
        oid = self.alloc(state, InstanceObj(klass.node.name, klass, dict(attrs)))
        return Ref(oid)

    # --- helpers -----------------------------------------------------------------------------

    def tick(self) -> int:
        self.time += 1
        return self.time

    def alloc(self, state: State, obj: object) -> int:
        oid = self.next_oid
        self.next_oid += 1
        state.heap[oid] = obj  # type: ignore[assignment]
        return oid

    # --- statements --------------------------------------------------------------------------

    def exec_block(self, body: list[ast.stmt], state: State) -> State:
        for stmt in body:
            if state.dead:
                break
            self.begin(stmt, state)
            state = self.exec_stmt(stmt, state)
        return state

    def _returning(self, stmt: ast.Return, state: State) -> State:
        """The state a `return` leaves with, for the caller to join over every returning path.

        The function's last statement needs no copy: nothing runs after it in this frame. An
        earlier `return` (inside an `if`, a loop, a `try`) is copied flat, because joining the
        branches that go on later writes into the scopes it shares with them."""
        frame = self.call_stack[-1] if self.call_stack else None
        if isinstance(frame, (ast.FunctionDef, ast.AsyncFunctionDef)) and frame.body[-1] is stmt:
            return State(state.globals, None, state.heap, state.ddtype, state.ddevice, state.autocast)
        return detached(state)

    def begin(self, stmt: ast.stmt, state: State) -> None:
        """The bookkeeping before each statement runs."""
        if self.pure_prefix and not foreign(stmt):
            if _inert(stmt):
                return self._begin_inert(stmt, state)  # (not counted: the work budget is for what imports and code run)
            self.pure_prefix = False
        self.statements += 1
        line = stmt.lineno
        if line not in self.facts.defaults_at and not foreign(stmt):
            self.facts.defaults_at[line] = (state.ddtype, state.ddevice)

    def _begin_inert(self, stmt: ast.stmt, state: State) -> None:
        """`begin` for the checked file's leading imports and docstrings. They are not counted
        against the work budget, so what an import runs does not depend on how many import
        lines came before it: the same import of the same modules runs the same in every file
        (which `engine.import_memo` relies on)."""
        if stmt.lineno not in self.facts.defaults_at:
            self.facts.defaults_at[stmt.lineno] = (state.ddtype, state.ddevice)

    def exec_stmt(self, stmt: ast.stmt, state: State) -> State:
        if isinstance(stmt, ast.Expr):
            if _registers_cuda_tagger(stmt.value):  # from here on, saves write CUDA storage tags
                state.globals[CUDA_TAGS] = Const(True)
            self.eval(stmt.value, state)
        elif isinstance(stmt, ast.Assign):
            unpacked = isinstance(stmt.value, ast.GeneratorExp) and all(isinstance(t, (ast.Tuple, ast.List)) for t in stmt.targets)
            # `s, a, r = (torch.as_tensor(v) for v in batch)`: unpacked in order, one item per element
            value = (unpacked and self._list_comp_unrolled(stmt.value, state)) or self.eval(stmt.value, state)  # type: ignore[arg-type]
            for target in stmt.targets:
                if isinstance(target, ast.Attribute) and target.attr == "location_tag":
                    # `torch.serialization.location_tag = lambda s: "cuda:0"` until it is put back:
                    # the saves in between write CUDA storage tags
                    state.globals[CUDA_TAGS] = Const(True) if _cuda_tag_lambda(stmt.value) else None
                self.assign(target, value, state)
        elif isinstance(stmt, ast.AnnAssign):
            if stmt.value is not None:
                self.assign(stmt.target, self.eval(stmt.value, state), state)
        elif isinstance(stmt, ast.AugAssign):
            left = self.eval(stmt.target, state)
            right = self.eval(stmt.value, state)
            if isinstance(left, Tensor) and left.kind == "tensor":
                self.inplace_op(left, right, _AUG_NAMES.get(type(stmt.op), ""), stmt)
            made = self.binop(left, right, stmt.op, stmt, state.autocast, state.ddtype.value)
            if isinstance(left, Tensor) and left.kind in ("ndarray", "tensor") and left.dtype and isinstance(made, Tensor) and made.kind == left.kind:
                # `img -= self.mean`: an array or tensor is updated in place, its dtype and rank kept
                # (a float64 mean does not widen a float32 image; a cast it cannot make raises)
                made = replace(made, dtype=left.dtype, origin=left.origin, from_ints=left.from_ints, ndim=left.ndim if left.ndim is not None else made.ndim)
            elif made is None and isinstance(left, Tensor) and left.kind == "tensor" and left.dtype:
                made = left  # `acc += val` with `val` not known: a torch tensor updated in place keeps its dtype and device (or raises)
            self.assign(stmt.target, made, state)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            self.exec_import(stmt, state)
        elif isinstance(stmt, ast.If):
            return self.exec_if(stmt, state)
        elif isinstance(stmt, (ast.For, ast.AsyncFor)):
            return self.exec_for(stmt, state)
        elif isinstance(stmt, ast.While):
            self.eval(stmt.test, state)
            return self.exec_loop(stmt.body, stmt.orelse, state, None, None)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            return self.exec_with(stmt, state)
        elif isinstance(stmt, ast.Try) or (hasattr(ast, "TryStar") and isinstance(stmt, ast.TryStar)):
            return self.exec_try(stmt, state)  # type: ignore[arg-type]
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            func = Func(stmt, stmt.name)
            if not foreign(stmt):
                self.functions.append(func)  # (another file's uncalled functions are that file's to check)
            maker = self.call_stack[-1] if self.call_stack else None
            if state.locals is not None and isinstance(maker, (ast.FunctionDef, ast.AsyncFunctionDef)):
                once = bound_once(maker)
                env = tuple((name, state.locals[name]) for name in free_names(stmt) if name in once and name in state.locals)
                func = replace(func, env=env) if env else func
            state.bind(stmt.name, self._decorated(stmt, func, state))
        elif isinstance(stmt, ast.ClassDef):
            self.exec_class(stmt, state)
        elif isinstance(stmt, ast.Return):
            value = self.eval(stmt.value, state) if stmt.value is not None else Const(None)
            frame = self.call_stack[-1] if self.call_stack else None
            if isinstance(frame, ast.FunctionDef) and frame.name == "__getitem__" and stmt.value is not None:
                value = self._item_origins(stmt.value, value)
            if self.returns:
                self.returns[-1].append(value)
                self.return_states[-1].append(self._returning(stmt, state))
            state.dead = True
        elif isinstance(stmt, (ast.Raise, ast.Break, ast.Continue)):
            if isinstance(stmt, ast.Raise) and stmt.exc is not None:
                self.eval(stmt.exc, state)
            state.dead = True
        elif isinstance(stmt, ast.Assert):
            test = self.eval(stmt.test, state)
            side = _gpu_side(stmt.test, test)
            if side is True:
                state.globals[CUDA_REQUIRED] = Const(True)  # `assert torch.cuda.is_available()`: what runs on has a GPU
                state.globals[GPU_GUARDED] = Const(True)
            elif side is False:
                _cpu_side(state)
        elif isinstance(stmt, ast.Match):
            subject = self.eval(stmt.subject, state)
            del subject
            result: State | None = None
            for case in stmt.cases:
                branch = self.exec_block(case.body, state.copy())
                result = branch if result is None else join_states(result, branch)
            return join_states(result, state) if result is not None else state
        elif isinstance(stmt, ast.Delete):
            for target in stmt.targets:
                if isinstance(target, ast.Name):
                    state.bind(target.id, None)
        return state

    def exec_import(self, stmt: ast.Import | ast.ImportFrom, state: State) -> None:
        here = self._importer(stmt)
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                found = resolve(here, alias.name, 0) if here else None
                if found is not None and (alias.asname or "." not in alias.name):
                    state.bind(alias.asname or alias.name, self.import_module(found, state))  # `import models`
                elif alias.asname:
                    state.bind(alias.asname, self.sym(alias.name))
                else:
                    top = alias.name.split(".")[0]
                    state.bind(top, self.sym(top))
            return
        found = resolve(here, stmt.module, stmt.level) if here and stmt.module else None
        namespace = self.import_module(found, state) if found is not None else None
        for alias in stmt.names:
            if alias.name == "*":
                if namespace is not None:
                    self._import_star(namespace, state)
                continue
            name = alias.asname or alias.name
            sub = None
            if namespace is not None and found is not None and found.endswith("__init__.py") and not self._has_attr(namespace, alias.name, state):
                sub = resolve(here, stmt.module, stmt.level, alias.name) if here else None  # `from train import trainer_adapter`: a package's module
            if sub is not None:
                state.bind(name, self.import_module(sub, state))
            elif namespace is not None:
                value = self._module_attr(namespace, alias.name, state)
                state.bind(name, value)  # `from models import Net`
                if value == Device("auto") and "_dg_index" not in stmt.__dict__:
                    # `from device import device`: the checked script takes a device a module of
                    # its project chose with `torch.cuda.is_available()`, so it runs on both
                    self.events.uses_cuda_check = True
            elif stmt.level or not stmt.module:
                sub = resolve(here, stmt.module, stmt.level, alias.name) if here else None  # `from . import models`
                state.bind(name, self.import_module(sub, state) if sub is not None else None)
            elif found is None:
                # `from models.dino import utils` where models/dino/ has no `__init__.py` (a
                # namespace package, SSL4EO-S12: scan 29): the module file itself, else a library's name
                sub = resolve(here, stmt.module, 0, alias.name) if here else None
                state.bind(name, self.import_module(sub, state) if sub is not None else self.sym(f"{stmt.module}.{alias.name}"))
            else:
                state.bind(name, None)  # our own module, which could not be run (a cycle)

    def _import_star(self, namespace: Ref, state: State) -> None:
        """`from modeling.deeplab import *`: the module's `__all__`, or its public globals (the
        `torch` it imported too, which the importing file then calls)."""
        obj = state.heap.get(namespace.oid)
        if not isinstance(obj, InstanceObj):
            return
        listed = obj.attrs.get("__all__")
        if isinstance(listed, TupleV) and all(isinstance(i, Const) and isinstance(i.value, str) for i in listed.items):
            names = [str(i.value) for i in listed.items if isinstance(i, Const)]
        elif "__all__" in obj.attrs:
            return  # an `__all__` this analysis cannot read: which names come is not known
        else:
            names = [n for n in obj.attrs if isinstance(n, str) and not n.startswith("_")]
        for name in names:
            if name in obj.attrs:
                state.bind(name, obj.attrs[name])

    def entered_from(self, span: Span) -> Span | None:
        """The checked file's call that ran the imported code at `span` (first time it ran)."""
        index = self.module_indexes.get(span.file)
        return index.entered.get(span) if index is not None else None

    def _importer(self, stmt: ast.stmt) -> str | None:
        """The file an import statement is in: the checked file, or an imported one."""
        other = stmt.__dict__.get("_dg_index")
        return other.path if isinstance(other, ModuleIndex) else self.path

    def _has_attr(self, namespace: Ref, name: str, state: State) -> bool:
        obj = state.heap.get(namespace.oid)
        return isinstance(obj, InstanceObj) and name in obj.attrs

    def _module_attr(self, namespace: Ref, name: str, state: State) -> Value | None:
        obj = state.heap.get(namespace.oid)
        return obj.attrs.get(name) if isinstance(obj, InstanceObj) else None

    def import_module(self, path: str, state: State) -> Ref | None:
        """Run one of the project's own files the way an import does (once; its `__main__`
        block not at all) and give its namespace: an object whose attributes are its globals.
        Its effects on the default dtype and device are the import's. A cycle, an unreadable or
        unparsable file, or a file beyond the work budget gives None: unknown."""
        if path in self.modules:
            return self.modules[path]
        key = self.memo_key(path, state)
        memo = shared_memo()
        kept = memo.get(key) if memo is not None and key is not None else None
        if isinstance(kept, ImportEffects):
            return self.memo_replay(kept, state)  # type: ignore[no-any-return]
        before = self.memo_before(state) if key is not None else None
        read_before, self.own_file_read = self.own_file_read, False
        try:
            result = self._import_module(path, state)
        finally:
            read_here, self.own_file_read = self.own_file_read, self.own_file_read or read_before
        if key is not None and before is not None and not read_here:
            self.memo_keep(key, before, state, result)
        return result

    def _import_module(self, path: str, state: State) -> Ref | None:
        self.modules[path] = None
        text = self.reader(path)
        if text is None or self.statements > MAX_STATEMENTS // 2:
            return None
        loaded = load(path, text, self.boundary)  # parsed and marked (shared from file to file in a CLI run)
        if loaded is None:
            return None
        tree, index = loaded
        self.dependencies[path] = text
        self.module_indexes[path] = index
        inner = State(Scope(), None, state.heap, state.ddtype, state.ddevice)
        saved_stack, self.call_stack = self.call_stack, []
        self.importing += 1
        try:
            inner = self.exec_block(tree.body, inner)
        finally:
            self.importing -= 1
            self.call_stack = saved_stack
        state.heap, state.ddtype, state.ddevice = inner.heap, inner.ddtype, inner.ddevice
        self.module_globals[path] = inner.globals
        names = {str(k): v for k, v in inner.globals.items()}
        oid = self.alloc(state, InstanceObj(f"module:{Path(path).stem}", None, names))
        self.modules[path] = Ref(oid)
        return self.modules[path]

    def exec_if(self, stmt: ast.If, state: State) -> State:
        if is_main_guard(stmt.test):
            return state if foreign(stmt) else self.exec_block(stmt.body, state)  # an imported file's main block does not run
        if "_dg_index" not in stmt.__dict__ and not cuda_everywhere(self.tree):  # (events are written, not read back)
            for receiver in _flag_moved_to_cuda(stmt):
                # `if config["use_cuda"]: model.cuda()`: the user picks CPU or GPU for the model (NCF,
                # scan 35); a batch moved under `if args.gpu is not None:` says nothing about it
                moved = self.eval(receiver, state)
                if isinstance(moved, Ref) and isinstance(state.heap.get(moved.oid), ModuleObj):
                    self.events.uses_cuda_check = True
                    break
        test = self.eval(stmt.test, state)
        if isinstance(test, Chance):
            return self._exec_chance_if(stmt, bool(test.value), state)
        if self._coin_flip(stmt.test, state):
            # `if random.randint(2): return results` (MMDetection's Expand, set 91): half the steps
            # each way; the side a 0 takes (the augmentation) is followed, as a draw below p is
            return self._exec_chance_if(stmt, False, state)
        if isinstance(test, Configured) and _truth(test) is not None:
            return self._exec_option_if(stmt, bool(_truth(test)), state)
        if isinstance(test, Const) and (test.value is None or type(test.value) in (bool, str, int, float)):
            key = _option_key(stmt.test)
            if key is not None and "." in key and _precision_option(key):
                # `if args.fp16: model.half()` with the flag given: the precision the user picked (a
                # function's own `half_encoder=True` is the code's choice: SAM-Road, set 19)
                state.globals[PRECISION_OPTION] = Const(True)
                after = self.exec_block(stmt.body if test.value else stmt.orelse, state)
                after.globals[PRECISION_OPTION] = Const(False)
                return after
            return self.exec_block(stmt.body if test.value else stmt.orelse, state)  # known (`if output_col:` given "income"): one branch runs
        known = _object_truth(test, state) if isinstance(stmt.test, (ast.Name, ast.Attribute)) else None
        if known is not None:  # `if self.transform:` holding an object, or None
            return self.exec_block(stmt.body if known else stmt.orelse, state)
        device_test = _compares_to_device_name(stmt.test) or _tests_is_cuda(stmt.test) or _compares_devices(stmt.test)
        gpu_side = _gpu_side(stmt.test, test) if not _moves_once(stmt) else None
        if gpu_side is None:
            gpu_side = self._is_cuda_device(stmt.test, state)  # `if device == "cuda":`
        then = state.copy()
        if gpu_side is True:
            then.globals[CUDA_REQUIRED] = Const(True)  # this branch runs only where there is a GPU
            then.globals[GPU_GUARDED] = Const(True)
        elif gpu_side is None and _cuda_flag(stmt.test):
            # `if USE_CUDA:` / `if args.cuda:`: the user asked for the GPU, so where this runs there
            # is one (TRADE's loads without map_location there, beside `map_location` in the else: scan 35)
            then.globals[CUDA_REQUIRED] = Const(True)
        narrowed = _is_cuda_name(stmt.test)
        if narrowed is not None:
            self._narrow_device(narrowed[0], "cuda" if narrowed[1] else "cpu", then)
        if gpu_side is False:
            _cpu_side(then)  # `if not train_on_gpu:` runs only where "cuda when available" is the CPU
        then = self.exec_block(stmt.body, then)
        other = state.copy() if stmt.orelse or device_test or gpu_side is not None or narrowed is not None else state
        if narrowed is not None:
            self._narrow_device(narrowed[0], "cpu" if narrowed[1] else "cuda", other)
        if gpu_side is True:
            _cpu_side(other)
        if gpu_side is False:
            other.globals[CUDA_REQUIRED] = Const(True)
            other.globals[GPU_GUARDED] = Const(True)
        other = self.exec_block(stmt.orelse, other) if stmt.orelse else other
        if device_test and not (then.dead or other.dead):  # (after `if not x.is_cuda: return x`, x is on the GPU)
            # (modules too, where the test compares devices and did not itself narrow them)
            _blur_devices(then, other, modules=gpu_side is None and narrowed is None and _compares_devices(stmt.test))
        return self._join_instances(then, other, join_states(then, other))

    def _join_instances(self, a: State, b: State, joined: State) -> State:
        """A name that holds an object of one class on each path (`scene_info =
        readers["Colmap"](...)` or `readers["Blender"](...)`, each a `SceneInfo`) holds one
        object after the join, whose attributes are joined: what both paths agree on is known."""
        if a.dead or b.dead:
            return joined
        # (at module level, the names the branch wrote)
        names = list(a.locals) if a.locals is not None else [k for k in a.globals.vars if isinstance(k, str)]
        for name in names:
            ra, rb = a.lookup(name), b.lookup(name)
            if not (isinstance(ra, Ref) and isinstance(rb, Ref)) or ra == rb or joined.lookup(name) is not None:
                continue
            oa, ob = a.heap.get(ra.oid), b.heap.get(rb.oid)
            if isinstance(oa, InstanceObj) and isinstance(ob, InstanceObj) and oa.klass is not None and oa.klass == ob.klass and not oa.is_dataset:
                joined.bind(name, Ref(self.alloc(joined, join_obj(oa, ob))))
        return joined

    def _exec_chance_if(self, stmt: ast.If, follow: bool, state: State) -> State:
        """`if np.random.uniform(0, 1) < self.p:` (a `Chance`): the side the draw below the
        threshold takes is followed; the other runs first, on a copy, for what it does wrong, and
        what it returns is dropped (`if random.random() > p: return img` then the augmentation:
        the function returns the augmented image, as on the steps that augment)."""
        taken, other = (stmt.body, stmt.orelse) if follow else (stmt.orelse, stmt.body)
        marks = (len(self.returns[-1]), len(self.return_states[-1])) if self.returns else None
        if other:
            self.exec_block(other, state.copy())
        if marks is not None:
            del self.returns[-1][marks[0]:]
            del self.return_states[-1][marks[1]:]
        return self.exec_block(taken, state)

    def _chance(self, node: ast.Compare, values: list[Value | None], state: State) -> Value | None:
        """`random.random() < p`, `self.p > np.random.uniform(0, 1)`: a uniform draw in [0, 1)
        against a known threshold. Strictly between 0 and 1, each side runs on some steps (a
        `Chance`); at or beyond an end, the comparison is decided (a `Configured` threshold
        stays the user's to change)."""
        if len(node.ops) != 1 or not isinstance(node.ops[0], (ast.Lt, ast.LtE, ast.Gt, ast.GtE)) or len(values) != 2:
            return None
        draw_left = self._uniform_draw(node.left, state)
        if draw_left == self._uniform_draw(node.comparators[0], state):
            return None  # neither side (or both) a draw
        threshold = values[1] if draw_left else values[0]
        if type(threshold) not in (Const, Configured) or type(threshold.value) not in (int, float):  # type: ignore[union-attr]
            return None
        p = float(threshold.value)  # type: ignore[union-attr]
        below_is_true = isinstance(node.ops[0], (ast.Lt, ast.LtE)) == draw_left  # `draw < p` / `p > draw`
        if 0.0 < p < 1.0:
            # the side most steps take (`if np.random.random() < 0.1: labels = None`, the
            # classifier-free guidance drop, is the rare one); an even chance, the augmentation's
            return Chance(below_is_true if p >= 0.5 else not below_is_true)
        always_below = p >= 1.0
        return (Configured if isinstance(threshold, Configured) else Const)(always_below == below_is_true)

    def _coin_flip(self, node: ast.expr, state: State) -> bool:
        """`np.random.randint(2)` / `np.random.randint(0, 2)` / `rng.integers(2)` /
        `random.randint(0, 1)` as a test: 0 or 1, each on half the draws."""
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in ("randint", "integers")) or node.keywords:
            return False
        bounds = [a.value if isinstance(a, ast.Constant) and type(a.value) is int else None for a in node.args]
        func = self.eval(node.func, state)
        if not isinstance(func, Sym):
            return False
        if func.name in ("numpy.random.randint", "numpy.random.Generator.integers", "numpy.random.RandomState.randint"):
            return bounds in ([2], [0, 2])
        return func.name == "random.randint" and bounds == [0, 1]

    def _uniform_draw(self, node: ast.expr, state: State) -> bool:
        """A call that draws one float uniformly from [0, 1): `random.random()`,
        `np.random.rand()`, `rng.random()`, `np.random.uniform(0, 1)` (a `RandomState`'s too)."""
        if not isinstance(node, ast.Call):
            return False
        if isinstance(node.func, ast.Attribute) and node.func.attr == "item" and not node.args and not node.keywords:
            return self._uniform_draw(node.func.value, state)  # `torch.rand(1).item()`
        last = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id if isinstance(node.func, ast.Name) else ""
        if last not in _DRAW_NAMES:
            return False  # (asked of every call compared in the file: the callee is evaluated only when its name may draw)
        func = self.eval(node.func, state)
        if func == Sym("torch.rand"):
            # `if torch.rand(1) < self.p:` (torchvision's transforms): one number, a generator aside
            shape = node.args[0] if len(node.args) == 1 else None
            one = isinstance(shape, ast.Constant) and shape.value == 1
            one = one or (isinstance(shape, (ast.Tuple, ast.List)) and all(isinstance(e, ast.Constant) and e.value == 1 for e in shape.elts) and len(shape.elts) <= 1)
            return one and all(k.arg == "generator" for k in node.keywords)
        if not isinstance(func, Sym):
            return False
        if func.name in _UNIFORM_DRAWS:
            return not node.args and not node.keywords
        if func.name in ("random.uniform", "numpy.random.uniform", "numpy.random.Generator.uniform") and not node.keywords:
            bounds = [a.value if isinstance(a, ast.Constant) else None for a in node.args]
            # (NumPy's defaults are low=0.0, high=1.0; `random.uniform()` needs both)
            return bounds in ([0, 1], [0.0, 1.0], [0, 1.0], [0.0, 1]) or (not bounds and func.name != "random.uniform")
        return False

    def _exec_option_if(self, stmt: ast.If, default: bool, state: State) -> State:
        """`if args.gpu_mode:` on an option's default: both branches run, for what they do wrong,
        but the state after is the default's. The branch the default does not take runs where
        the option has another value, so a device set by code only the default runs (`if
        self.gpu_mode: self.G.cuda()` earlier) is not known there (znxlwm's `else:
        samples.data.numpy()` beside `if self.gpu_mode: samples.cpu()...`)."""
        key = _option_key(stmt.test)
        taken, skipped = (stmt.body, stmt.orelse) if default else (stmt.orelse, stmt.body)
        if key is not None and taken:
            self.option_runs.setdefault(key, []).append(self.index.span_between(taken[0], taken[-1]))
        precision = key is not None and _precision_option(key)
        first = state.copy()
        if precision:
            first.globals[PRECISION_OPTION] = Const(True)
        if default and _cuda_flag(stmt.test):
            # `if args.cuda:` on by default: the user asked for the GPU, so where this runs there is
            # one (PytorchSSD's targets `.cuda()`'d there meet the default device's priors: scan 44)
            first.globals[CUDA_REQUIRED] = Const(True)
        ran = self.exec_block(taken, first)
        other = state.copy()
        if key is not None and key in self.option_runs:
            _forget_devices_set_in(self.option_runs[key], other)
        if precision:
            other.globals[PRECISION_OPTION] = Const(True)
        other = self.exec_block(skipped, other)
        for after in (ran, other) if precision else ():
            after.globals[PRECISION_OPTION] = Const(False)
        if (
            not other.dead and ran.globals.get(CUDA_REQUIRED) == Const(True) and other.globals.get(CUDA_REQUIRED) != Const(True)
            and not cuda_everywhere(self.tree)
        ):
            # `if args.gpu >= 0: model.cuda(args.gpu)`: a run with the option set otherwise has no
            # GPU on its path (DeNA's demo with `--gpu -1`, scan 38)
            ran.globals[CUDA_REQUIRED] = Const(False)
        theirs = pending_spans(other.globals.get(PENDING_LOADS))
        if not other.dead and theirs:
            # (the same: loads the option's other values leave without a move to CUDA stay pending)
            ran.globals[PENDING_LOADS] = PendingLoads(pending_spans(ran.globals.get(PENDING_LOADS)) | theirs)
        if ran.dead and not other.dead:
            return other  # the default stops here (`else: raise ValueError("--dataset must be ...")`): runs go on with another value
        return ran

    def _device_read(self, test: ast.expr, at: ast.AST) -> ast.expr | None:
        """The tensor whose device a test reads (`x.get_device() >= 0`, `x.is_cuda`,
        `x.device.type == "cuda"`, or a name bound to `x.get_device()` earlier in this function):
        a device chosen by it is that tensor's own, not "cuda when available"."""
        def read(sub: ast.AST) -> ast.expr | None:
            if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "get_device" and not sub.args:
                return sub.func.value
            if isinstance(sub, ast.Attribute) and sub.attr == "is_cuda":
                return sub.value
            if isinstance(sub, ast.Attribute) and sub.attr == "type" and isinstance(sub.value, ast.Attribute) and sub.value.attr == "device":
                return sub.value.value
            return None

        names = set()
        for sub in ast.walk(test):
            found = read(sub)
            if found is not None:
                return found
            if isinstance(sub, ast.Name):
                names.add(sub.id)
        if not names:
            return None
        func = self.call_stack[-1] if self.call_stack else None
        owner = func if isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) else self.tree
        body = owner.body if isinstance(owner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Module)) else []

        def device_binds() -> dict[str, list[tuple[int, ast.expr]]]:
            # every `name = <x.get_device()>` of the body, walked once per function (not per test:
            # a huge module with many device choices was quadratic)
            out: dict[str, list[tuple[int, ast.expr]]] = {}
            for stmt in ast.walk(ast.Module(body=body, type_ignores=[])):
                if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
                    found = read(stmt.value)
                    if found is not None:
                        out.setdefault(stmt.targets[0].id, []).append((stmt.lineno, found))
            return out

        binds = syntax_fact(owner, "device-reading binds", device_binds)
        line = getattr(at, "lineno", 0)
        earlier = [(ln, found) for name in names for ln, found in binds.get(name, ()) if ln < line]
        return max(earlier, key=lambda b: b[0])[1] if earlier else None

    def _narrow_device(self, name: str, device: str, state: State) -> None:
        """In a branch of `if tensor.is_cuda:`, a tensor on the GPU only when there is one is on
        that side's device (spotlight's `cpu(tensor)` returns `tensor.cpu()` or the CPU tensor)."""
        held = state.lookup(name)
        if isinstance(held, Tensor) and held.kind == "tensor" and held.device == "auto":
            state.bind(name, replace(held, device=device))

    def _is_cuda_device(self, test: ast.expr, state: State) -> bool | None:
        """`device == "cuda"` (True) / `device != "cuda"` (False) where `device` holds a device
        that is CUDA only on some machines (`"cuda" if torch.cuda.is_available() else "cpu"`):
        it equals "cuda" only where there is a GPU. None for any other test."""
        if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq))):
            return None
        sides = [test.left, test.comparators[0]]
        named = [s for s in sides if not (isinstance(s, ast.Constant) and s.value == "cuda")]
        if len(named) != 1:
            return None
        held = self.eval(named[0], state)
        return isinstance(test.ops[0], ast.Eq) if isinstance(held, Device) and held.name == "auto" else None

    def exec_for(self, stmt: ast.For | ast.AsyncFor, state: State) -> State:
        iterable = self.eval(stmt.iter, state)
        if isinstance(iterable, TupleV) and not iterable.items and not isinstance(stmt, ast.AsyncFor):
            return self.exec_block(stmt.orelse, state)  # a known empty list: the body does not run
        if _unrolled(iterable, stmt):
            assert isinstance(iterable, TupleV)
            return self._run_each(stmt, list(iterable.items), state)  # `for op in self.ops: img, mask = op(img, mask)`: each in turn
        every = _every_index(stmt)
        if every is not None:
            listed = self.eval(ast.Name(every[0], ast.Load()), state)
            if isinstance(listed, TupleV) and 0 < len(listed.items) <= MAX_UNROLLED and isinstance(stmt.target, ast.Name):
                # `for i in range(len(data)): data[i] = data[i].float()` over a list of known
                # length: each index in turn, as Python runs it (a list of different tensors)
                if not any(isinstance(node, _JUMPS) for node in _frame_nodes(stmt.body)):
                    return self._run_each(stmt, [Const(k) for k in range(len(listed.items))], state)
        key = (*every, len(self.call_stack)) if every is not None else None  # (in this frame only)
        if key is not None:
            self.every_index.add(key)
        try:
            return self._exec_for_rounds(stmt, iterable, state)
        finally:
            if key is not None:
                self.every_index.discard(key)

    def _run_each(self, stmt: ast.For | ast.AsyncFor, items: list[Value | None], state: State) -> State:
        """A loop over known items run once per item, in order, as Python runs it."""
        self.unrolled_at.append(self.loop_depth)
        try:
            for item in items:
                if state.dead:
                    return state
                self.assign(stmt.target, item, state)
                state = self.exec_block(stmt.body, state)
        finally:
            self.unrolled_at.pop()
        return self.exec_block(stmt.orelse, state)

    def _exec_for_rounds(self, stmt: ast.For | ast.AsyncFor, iterable: Value | None, state: State) -> State:
        element = self.element_of(iterable, state)
        owner = _walked_module(stmt)
        replaced = _replaced_data(stmt) if owner is not None else None
        writes: list[tuple[Value | None, Span]] = []
        if replaced is not None:
            self.data_writes.append((replaced, writes))
        try:
            after = self.exec_loop(stmt.body, stmt.orelse, state, stmt.target, element, self._runs_once(stmt.iter, state))
        finally:
            if replaced is not None:
                self.data_writes.pop()
        if owner is not None:
            walked = self.eval(owner, after)
            trainable = _trainable_only(stmt)
            if not (self._trainable_data_replaced(walked, writes, after) if trainable else self._data_replaced(walked, writes, after)):
                self._forget_dtypes(walked, after)
        return after

    def _trained_cast_kept(self, gen: ast.comprehension, params: Params, state: State) -> bool:
        """`[p for p in model.parameters() if p.requires_grad]` after `if p.requires_grad: p.data
        = p.data.half()` over the same model: the parameters it lists are those the cast made
        float16 (which ones are frozen need not be known), so they are the model's as the
        optimizer sees them (its float16 part is where they became float16)."""
        test = gen.ifs[0] if len(gen.ifs) == 1 else None
        if not (isinstance(test, ast.Attribute) and test.attr == "requires_grad" and isinstance(test.value, ast.Name) and isinstance(gen.target, ast.Name) and test.value.id == gen.target.id):
            return False
        parts = (state.heap.get(k) for k in post_order(params.oid, state))
        return any(
            isinstance(part, ModuleObj) and part.dtype in ("float16", "bfloat16") and part.dtype_origin is not None and part.dtype_origin.why.startswith(TRAINED_CAST)
            for part in parts
        )

    def _trainable_data_replaced(self, value: Value | None, writes: list[tuple[Value | None, Span]], state: State) -> bool:
        """`for p in model.parameters(): if p.requires_grad: p.data = p.data.to(torch.float16)`
        (unsloth's PEFT init): the trained parameters become that dtype and the frozen ones
        (`requires_grad_(False)`) keep theirs, so the parts not frozen are cast, each from that
        line. False when the dtype or the parts are not known."""
        dtypes = {w.dtype if isinstance(w, Tensor) and w.kind == "tensor" else None for w, _ in writes}
        dtype = dtypes.pop() if len(dtypes) == 1 else None
        if not isinstance(value, Ref) or not isinstance(state.heap.get(value.oid), ModuleObj) or not is_float(dtype):
            return False
        assert dtype is not None
        span = writes[0][1]
        origin = Origin(span, f"{TRAINED_CAST} by a {dtype} tensor at line {span.line}")
        known = True
        for k in post_order(value.oid, state, trained=True):
            part = state.heap.get(k)
            if not (isinstance(part, ModuleObj) and owns_params(part)):
                continue
            if part.dtype is None:
                known = False  # (a part whose dtype is not known: the model's is not either)
                continue
            state.heap[k] = replace(
                part, dtype=dtype, dtype_origin=origin, cast_span=span, half_part=span if dtype == "float16" else None,
                attrs=moved_attrs(part.attrs, dtype, None, origin),
            )
        return known

    def _data_replaced(self, value: Value | None, writes: list[tuple[Value | None, Span]], state: State) -> bool:
        """`for p in model.parameters(): p.data = torch.from_numpy(chunk)`: every parameter's data
        replaced by tensors of one known float dtype makes the model that dtype, from that line
        (NumPy chunks are float64: the float32 layers become float64). False when not known."""
        obj = state.heap.get(value.oid) if isinstance(value, Ref) else None
        dtypes = {w.dtype if isinstance(w, Tensor) and w.kind == "tensor" else None for w, _ in writes}
        dtype = dtypes.pop() if len(dtypes) == 1 else None
        if not isinstance(value, Ref) or not isinstance(obj, ModuleObj) or obj.dtype is None or not is_float(dtype):
            return False
        if dtype == obj.dtype:
            return True
        span = writes[0][1]
        origin = Origin(span, f"each parameter's `.data` is replaced by a {dtype} tensor at line {span.line}")
        after = replace(
            obj, dtype=dtype, dtype_origin=origin, cast_span=span, half_part=span if dtype == "float16" else None,
            attrs=moved_attrs(obj.attrs, dtype, None, origin),
        )
        state.heap[value.oid] = after
        self._cast_children(after, dtype, None, state)
        return True

    def _forget_dtypes(self, value: Value | None, state: State, depth: int = 0) -> None:
        """`for name, child in model.named_children(): child.half()` casts some of the model's
        parts, which ones the analysis cannot tell: the model and its parts no longer have a
        known dtype (a guess would be a false alarm at their forward)."""
        obj = state.heap.get(value.oid) if isinstance(value, Ref) else None
        if not isinstance(obj, ModuleObj) or depth > 8:
            return
        state.heap[value.oid] = replace(obj, dtype=None, dtype_origin=None)  # type: ignore[union-attr]
        items = obj.attrs.get(ITEMS)
        for child in [*obj.attrs.values(), *(items.items if isinstance(items, TupleV) else ())]:
            self._forget_dtypes(child, state, depth + 1)

    def _runs_once(self, it: ast.expr, state: State) -> bool:
        """`for _ in range(3)` / `for x in [a, b]`: the body runs at least once, so what it does is
        not joined with the state before the loop (`self.buf = None` then filled in the loop)."""
        if isinstance(it, (ast.List, ast.Tuple)):
            return bool(it.elts) and not any(isinstance(e, ast.Starred) for e in it.elts)
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range" and not it.keywords and 1 <= len(it.args) <= 2:
            bounds = [self.eval(a, state) for a in it.args]
            ints = [b.value for b in bounds if isinstance(b, Const) and type(b.value) is int]
            if len(ints) == len(bounds):
                low, high = (0, ints[0]) if len(ints) == 1 else (ints[0], ints[1])
                return bool(high > low)
        return False

    def exec_loop(
        self,
        body: list[ast.stmt],
        orelse: list[ast.stmt],
        state: State,
        target: ast.expr | None,
        element: Value | None,
        runs_once: bool = False,
    ) -> State:
        rounds = 2 if self.loop_depth < 2 else 1
        self.loop_depth += 1
        current = state
        try:
            head: State | None = None
            for round_ in range(rounds):
                inner = head or current.copy()
                if target is not None:
                    self.assign(target, element, inner)
                log: list[tuple[object, ...]] = []
                noting = round_ == 0 and runs_once and rounds > 1
                if noting:
                    self.number_writes.append((len(self.call_stack), log))
                try:
                    inner = self.exec_block(body, inner)
                finally:
                    if noting:
                        self.number_writes.pop()
                dead = inner.dead
                inner.dead = False
                if round_ == 0 and runs_once and not dead:
                    # the first round surely ran: it replaces the state before the loop; the next
                    # round starts from it with the numbers it changed unknown (a counter `n += 1`
                    # is not 1 in every round: `if n >= 64:` in the body is not pruned)
                    current, head = inner, self._widened(inner, log) if rounds > 1 else None
                    continue
                current = join_states(current, inner)
        finally:
            self.loop_depth -= 1
        if orelse:
            current = self.exec_block(orelse, current)
        return current

    def _widened(self, state: State, log: list[tuple[object, ...]]) -> State:
        """A child of `state` where the numbers a loop's first round changed are unknown."""
        head = state.copy()
        for entry in log:
            # what both rounds can hold: unknown for two numbers (a counter), NumPy data of
            # unknown dtype for a number replaced by NumPy data (`best = fi`)
            value = entry[-1] if isinstance(entry[-1], Value) else None
            if entry[0] == "name":
                head.bind(str(entry[1]), value)
            else:
                obj = head.heap.get(entry[1])
                if isinstance(obj, (ModuleObj, InstanceObj)) and isinstance(entry[2], str):
                    head.heap[entry[1]] = replace(obj, attrs={**obj.attrs, entry[2]: value})
        return head

    def _note_number_write(self, old: Value | None, new: Value | None, entry: tuple[object, ...]) -> None:
        """In a loop's first round: a number that changes (`n += 1`, `self.count += 1`)."""
        if not number_kind(old) or old == new:
            return
        depth = len(self.call_stack)
        both = join(old, new)
        for at, log in self.number_writes:
            if entry[0] != "name" or at == depth:  # (a name is the loop's own frame's; an attribute anyone's)
                log.append((*entry, both if isinstance(both, Tensor) and both.kind in ("ndarray", "npscalar") else None))

    def exec_with(self, stmt: ast.With | ast.AsyncWith, state: State) -> State:
        saved_autocast, saved_device, saved_dtype = state.autocast, state.ddevice, state.ddtype
        tags = any(_patches_location_tag(item.context_expr) or self._tagging_manager(item.context_expr, state) for item in stmt.items)
        if tags:
            return self._with_cuda_tags(stmt, state)
        for item in stmt.items:
            ctx = self.eval(item.context_expr, state)
            if isinstance(ctx, AutocastCtx):
                state.autocast = ctx.dtype if ctx.on else None
            elif isinstance(ctx, Device):
                state.ddevice = replace(state.ddevice, value=ctx.name, span=self.index.span(item.context_expr), call="with torch.device(...)")
            elif isinstance(ctx, Ref):
                self._enter_function_mode(ctx, item.context_expr, state)
            if item.optional_vars is not None:
                # a `wave` reader's `__enter__` returns itself; anything else: not known
                self.assign(item.optional_vars, ctx if ctx == Sym(WAVE_READER) else None, state)
        state = self.exec_block(stmt.body, state)
        if state.autocast and not saved_autocast:
            self._made_in_block(stmt, state)
        state.autocast, state.ddevice, state.ddtype = saved_autocast, saved_device, saved_dtype
        return state

    def _enter_function_mode(self, ctx: Ref, node: ast.expr, state: State) -> None:
        """`with EmptyInitOnDevice(device=..., dtype=torch.float16):` (lit-llama's utility): a
        `TorchFunctionMode` of the script's own whose `__torch_function__` fills the factories'
        `kwargs["dtype"]` / `kwargs["device"]` from attributes makes those the defaults in the
        block; a mode whose effect is not read that way leaves them unknown there."""
        obj = state.heap.get(ctx.oid)
        klass = obj.klass if isinstance(obj, InstanceObj) else None
        if klass is None or not any(b.rsplit(".", 1)[-1] in _FUNCTION_MODES for b in klass.bases):
            return
        span = self.index.span(node)
        call = f"with {klass.node.name}(...)"
        filled = _mode_fills(klass.method("__torch_function__"))
        dtype = obj.attrs.get(filled["dtype"]) if "dtype" in filled and isinstance(obj, InstanceObj) else None
        device = obj.attrs.get(filled["device"]) if "device" in filled and isinstance(obj, InstanceObj) else None
        if "dtype" in filled and dtype != Const(None):
            state.ddtype = replace(state.ddtype, value=dtype.name if isinstance(dtype, DType) else None, span=span, call=call)
        if "device" in filled and device != Const(None):
            state.ddevice = replace(state.ddevice, value=device.name if isinstance(device, Device) else None, span=span, call=call)
        if not filled:
            state.ddtype = replace(state.ddtype, value=None, span=span, call=call)
            state.ddevice = replace(state.ddevice, value=None, span=span, call=call)

    def _decorated(self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, func: Func, state: State) -> Value:
        """A decorator of the script's own runs when the function is defined, as in Python, for
        what it does then (a registry decorator that builds the model at import time:
        `REGISTRY[name] = fn()`). The name keeps the function as written: what a wrapper returns
        (`def inner(*args): return fn(*args)`) calls through to it, and calling the function
        itself keeps its arguments readable. Library decorators are not run."""
        for node in reversed(stmt.decorator_list):
            head = node.func if isinstance(node, ast.Call) else node
            if not isinstance(head, ast.Name) or not isinstance(state.lookup(head.id), Func):
                continue
            decorator = self.eval(node, state)
            if isinstance(decorator, Func):
                self.call_function(decorator, [func], {}, state)
        return func

    def _made_in_block(self, stmt: ast.With | ast.AsyncWith, state: State) -> None:
        """A low-precision tensor that leaves an autocast block was made by a statement of the
        block (`feats = backbone(x)`), whatever layer deep inside produced it: that statement is
        where `.float()` (or a wider block) goes, so it becomes the tensor's origin."""
        first, last = stmt.lineno, stmt.end_lineno or stmt.lineno
        for node in _frame_nodes(stmt.body):
            if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)):
                continue
            value = state.lookup(node.targets[0].id)
            if not (isinstance(value, Tensor) and value.autocast and value.origin is not None):
                continue
            at = value.origin.span
            if at.file == self.index.span(node).file and first <= at.line <= last:
                continue  # made by an op of the block itself (`m = a @ b`)
            why = f"{value.dtype or 'lower precision'}: made inside `torch.autocast`"
            state.bind(node.targets[0].id, replace(value, origin=self.origin(node.value, why)))

    def _tagging_manager(self, node: ast.expr, state: State) -> bool:
        """`with saved_on_gpu():` where `saved_on_gpu` is this script's `@contextmanager` that sets
        `torch.serialization.location_tag = lambda storage: "cuda:0"` before its `yield`: the same
        patch as `mock.patch(...)`, spelled by hand (how scripts fake a GPU-written checkpoint)."""
        if not isinstance(node, ast.Call) or not isinstance(node.func, (ast.Name, ast.Attribute)):
            return False
        func = self.eval(node.func, state)
        if not isinstance(func, Func) or isinstance(func.node, ast.Lambda):
            return False
        if not any(ast.unparse(d).endswith("contextmanager") for d in func.node.decorator_list):
            return False
        return any(
            isinstance(sub, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "location_tag" for t in sub.targets)
            and _cuda_tag_lambda(sub.value)
            for sub in ast.walk(func.node)
        )

    def _with_cuda_tags(self, stmt: ast.With | ast.AsyncWith, state: State) -> State:
        """`with mock.patch("torch.serialization.location_tag", lambda s: "cuda:0"):` makes every
        `torch.save` in the block write CUDA storage tags, exactly what a save on a GPU writes: a
        CPU-only load of that file fails, whatever device the tensors were on here."""
        for item in stmt.items:
            if item.optional_vars is not None:
                self.assign(item.optional_vars, None, state)
        state.globals[CUDA_TAGS] = Const(True)
        state = self.exec_block(stmt.body, state)
        state.globals[CUDA_TAGS] = None
        return state

    def _setter(self, owner: Value | None, attr: str, state: State) -> Func | None:
        """The `@<attr>.setter` of the class of the object written to, if it has one."""
        obj = state.heap.get(owner.oid) if isinstance(owner, Ref) else None
        klass = obj.klass if isinstance(obj, InstanceObj) else None
        if klass is None and isinstance(obj, ModuleObj) and (obj.methods or obj.cls.startswith("user:")):
            klass = self.classes.get(obj.methods or obj.cls[5:])
        if klass is None:
            return None
        return next((f for name, f in klass.methods if name == attr and _is_setter(f, attr)), None)

    def exec_try(self, stmt: ast.Try, state: State) -> State:
        # a `return` inside the `try` leaves through the `finally:` too (`finally:
        # torch.set_default_dtype(previous)` once the model is returned)
        mark = len(self.return_states[-1]) if stmt.finalbody and self.return_states else None
        catching = self._ndarray_dispatch(stmt, state)
        if catching is not None:
            # `try: x.to(device)` / `except Exception: torch.from_numpy(x).to(device)` with `x` a NumPy
            # array (picai_baseline, set 88): the `try` raises AttributeError before it changes anything,
            # so only the handler that catches it runs
            branch = state.copy()
            if catching.name:
                branch.bind(catching.name, None)
            result = self.exec_block(catching.body, branch)
            return self.exec_block(stmt.finalbody, result) if stmt.finalbody else result
        body = self.exec_block(stmt.body, state.copy())
        result = body
        for handler in stmt.handlers:
            if syntax_fact(handler, "keyword_fallback", lambda h=handler: _keyword_fallback(stmt, h)):  # type: ignore[misc]
                continue  # `except TypeError: torch.load(path)` after `torch.load(path, weights_only=False)`: an older library's
            branch = state.copy()
            if handler.name:
                branch.bind(handler.name, None)
            result = join_states(result, self.exec_block(handler.body, branch))
        if stmt.orelse:
            result = self.exec_block(stmt.orelse, result)
        if stmt.finalbody:
            if mark is not None:
                exits = self.return_states[-1]
                for i in range(mark, len(exits)):
                    leaving = exits[i]
                    leaving.dead = False
                    leaving = self.exec_block(stmt.finalbody, leaving)
                    leaving.dead = False
                    exits[i] = leaving
            was_dead = result.dead
            result.dead = False
            result = self.exec_block(stmt.finalbody, result)
            result.dead = result.dead or was_dead
        return result

    def _ndarray_dispatch(self, stmt: ast.Try, state: State) -> ast.ExceptHandler | None:
        """The handler that runs when the `try`'s first statement calls a torch-only method
        (`.to`, `.cuda`, `.float()`, ...) on a value known to be a NumPy array: that call raises
        AttributeError before anything else in the `try` runs. None when that is not certain."""
        first = stmt.body[0] if stmt.body else None
        value = first.value if isinstance(first, (ast.Assign, ast.Expr)) else None
        call = value
        while isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr not in numpy_library.NOT_ON_NDARRAY:
            call = call.func.value  # `x.to(device).float()`: the innermost call raises first
        if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr in numpy_library.NOT_ON_NDARRAY):
            return None
        if not isinstance(call.func.value, (ast.Name, ast.Subscript, ast.Attribute)) or any(isinstance(n, ast.Call) for n in ast.walk(call.func.value)):
            return None
        owner = self.eval(call.func.value, state.copy())
        if not (isinstance(owner, Tensor) and owner.kind == "ndarray"):
            return None
        for handler in stmt.handlers:
            caught = handler.type
            names = caught.elts if isinstance(caught, ast.Tuple) else [caught]
            if any(n is None or (isinstance(n, ast.Name) and n.id in ("AttributeError", "Exception", "BaseException")) for n in names):
                return handler
            if not all(isinstance(n, ast.Name) for n in names):
                return None  # a handler the analysis cannot read comes first
        return None

    def exec_class(self, stmt: ast.ClassDef, state: State) -> None:
        bases: list[str] = []
        for base in stmt.bases:
            value = self.eval(base, state)
            if isinstance(value, Sym):
                bases.append(_canonical(value.name))
            elif isinstance(value, Klass):
                if value.is_module:
                    bases.append(f"user:module:{value.node.name}")
                if value.is_dataset:
                    bases.append(f"user:dataset:{value.node.name}")
                bases.append(f"user:{value.node.name}")
        methods: list[tuple[str, Func]] = []
        fields: dict[str, Value | None] = {}
        annotated: list[str] = []
        # the class body is a namespace of its own: a field reads the ones above it (NCF's `class
        # config:` with `GMF_model_path = model_path + "GMF.pth"`, set 93), none leaks out
        outer = state.locals
        state.locals = dict(outer) if outer is not None else {}
        try:
            self._class_body(stmt, state, methods, fields, annotated)
        finally:
            state.locals = outer
        self._finish_class(stmt, state, bases, methods, fields, annotated)

    def _class_body(self, stmt: ast.ClassDef, state: State, methods: list[tuple[str, Func]], fields: dict[str, Value | None], annotated: list[str]) -> None:
        assert state.locals is not None
        for item in stmt.body:
            if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                func = Func(item, f"{stmt.name}.{item.name}", owner=stmt.name)
                methods.append((item.name, func))
                if not foreign(item):
                    self.functions.append(func)  # (another file's uncalled methods are that file's to check)
            elif isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
                fields[item.targets[0].id] = self.eval(item.value, state)
            elif (
                isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Tuple)
                and all(isinstance(e, ast.Name) for e in item.targets[0].elts)
            ):
                # `gravity, masscart, tau = 9.8, 1.0, 0.02` (gym's CartPole): one class attribute each
                names = [e.id for e in item.targets[0].elts if isinstance(e, ast.Name)]
                fields.update(zip(names, self.unpack(self.eval(item.value, state), len(names)), strict=True))
            elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                annotated.append(item.target.id)
                factory = _default_factory(item.value)
                if factory is not None:
                    fields[item.target.id] = FieldFactory(self.eval(factory, state))  # made per instance
                elif item.value is not None:
                    fields[item.target.id] = self.eval(item.value, state)
            state.locals.update(fields)  # (what the next field's expression reads)

    def _finish_class(self, stmt: ast.ClassDef, state: State, bases: list[str], methods: list[tuple[str, Func]], fields: dict[str, Value | None], annotated: list[str]) -> None:
        # inherit methods and class attributes of user base classes
        for base_name in bases:
            if base_name.startswith("user:") and base_name.count(":") == 1:
                parent = self.classes.get(base_name[5:])
                if parent is not None:
                    known = {name for name, _ in methods}
                    methods.extend((n, f) for n, f in parent.methods if n not in known)
                    fields = {**dict(parent.fields), **fields}
                    annotated = [*(parent.init_fields or ()), *(n for n in annotated if n not in (parent.init_fields or ()))]
        # (a typing.NamedTuple's generated __new__ binds its annotated fields the same way)
        is_dataclass = any(_decorator_name(d) in ("dataclass", "dataclasses.dataclass") for d in stmt.decorator_list) or "typing.NamedTuple" in bases
        klass = Klass(stmt, tuple(bases), tuple(methods), tuple(fields.items()), tuple(annotated) if is_dataclass else None)
        self.classes[stmt.name] = klass
        state.bind(stmt.name, klass)

    # --- assignment ----------------------------------------------------------------------------

    def assign(self, target: ast.expr, value: Value | None, state: State) -> None:
        if isinstance(target, ast.Name):
            if self.number_writes:
                self._note_number_write(state.lookup(target.id), value, ("name", target.id))
            state.bind(target.id, value)
            self.record(target, target.id, value, state)
            if isinstance(value, Device) and state.locals is None:
                self.events.device_vars.append((target.id, self.index.span(target)))
        elif isinstance(target, (ast.Tuple, ast.List)):
            stars = [i for i, e in enumerate(target.elts) if isinstance(e, ast.Starred)]
            if len(stars) == 1 and isinstance(value, TupleV) and len(value.items) >= len(target.elts) - 1:
                star, after = stars[0], len(target.elts) - stars[0] - 1  # `ctrl, *_ = np.linalg.lstsq(...)`
                rest = TupleV(value.items[star : len(value.items) - after])
                items = [*value.items[:star], rest, *value.items[len(value.items) - after :]]
                for elt, item in zip(target.elts, items, strict=True):
                    self.assign(elt.value if isinstance(elt, ast.Starred) else elt, item, state)
                return
            items = self.unpack(value, len(target.elts))
            for elt, item in zip(target.elts, items, strict=True):
                if isinstance(elt, ast.Starred):
                    self.assign(elt.value, None, state)
                else:
                    self.assign(elt, item, state)
        elif isinstance(target, ast.Attribute):
            if self.data_writes and target.attr == "data" and isinstance(target.value, ast.Name) and target.value.id == self.data_writes[-1][0]:
                self.data_writes[-1][1].append((value, self.index.span(target.value)))
            self._set_weight(target, value, state)
            owner = self.eval(target.value, state)
            setter = self._setter(owner, target.attr, state)
            if setter is not None and isinstance(owner, Ref):
                # `net.dtype = torch.float32` through `@dtype.setter` (cellpose's `self.to(value)`): it runs
                self.call_function(setter, [owner, value], {}, state)
                self.record(target, target.attr, value, state)
                return
            if isinstance(owner, Klass) and isinstance(target.value, ast.Name) and not (owner.is_module or owner.is_dataset):
                # `config.model = stage` on a plain class used as a namespace (NCF's `class config:`,
                # set 93): the class attribute every later read sees
                fields = dict(owner.fields)
                fields[target.attr] = value
                changed = replace(owner, fields=tuple(fields.items()))
                if state.locals is not None and target.value.id in state.locals:
                    state.locals[target.value.id] = changed
                elif target.value.id in state.globals:
                    state.globals[target.value.id] = changed
            if isinstance(owner, Ref):
                obj = state.heap.get(owner.oid)
                if isinstance(obj, (ModuleObj, InstanceObj)):
                    attrs = dict(obj.attrs)
                    kept = attrs.get(target.attr)
                    if isinstance(kept, Tensor) and isinstance(value, Tensor) and kept.dev_origin is not None and value.device == kept.device and "as a plain attribute" in kept.dev_origin.why:
                        value = replace(value, dev_origin=kept.dev_origin)  # `self.tem = self.tem.permute(...)`: still the first store's
                    elif isinstance(obj, ModuleObj) and isinstance(value, Tensor) and value.kind == "tensor" and value.device == "cpu" and not value.moves:
                        why = f"kept as a plain attribute `self.{target.attr}`, which `model.to(...)` does not move (a registered buffer would move)"
                        value = replace(value, dev_origin=Origin(self.index.span(target), why))
                    if self.number_writes:
                        self._note_number_write(attrs.get(target.attr), value, ("attr", owner.oid, target.attr))
                    attrs[target.attr] = value
                    state.heap[owner.oid] = replace(obj, attrs=attrs)
            self.record(target, target.attr, value, state)
        elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Attribute) and target.value.attr == "__dict__":
            owner = self.eval(target.value.value, state)  # `self.__dict__[name] = v`: the attribute `name`
            named = self.eval(target.slice, state)
            obj = state.heap.get(owner.oid) if isinstance(owner, Ref) else None
            if isinstance(owner, Ref) and isinstance(obj, (ModuleObj, InstanceObj)):
                attrs = dict(obj.attrs)
                if isinstance(named, Const) and isinstance(named.value, str):
                    attrs[named.value] = value
                else:
                    attrs = {k: None for k in attrs}  # some attribute changed: we cannot tell which
                state.heap[owner.oid] = replace(obj, attrs=attrs)
        elif isinstance(target, ast.Subscript):
            base = self.eval(target.value, state)
            index = self.eval(target.slice, state)
            if (
                isinstance(base, Tensor) and base.kind == "tensor" and isinstance(index, Tensor) and index.kind == "tensor"
                and index.dtype == "uint8" and _scalar_fill(value)
            ):
                # `q_next[dones] = 0.0` with a uint8 mask: torch writes a number through a mask with
                # `masked_fill_`, which takes only bool masks (DQN replay buffers, set 73)
                self.refused("masked_fill_", index, target, target.slice)
            if (
                isinstance(base, Tensor) and base.kind == "tensor" and base.dtype and isinstance(value, Tensor) and value.kind == "tensor"
                and value.dtype and value.dtype != base.dtype and WIDE not in (base.dtype, value.dtype) and _integer_index(index)
            ):
                # `y[t, ...] = torch.tensor(0.0)` with integer index tensors is `index_put_`, which
                # takes only values of the tensor's own dtype (open-unmix #89, set 78); a slice or an
                # int index copies and converts
                self.events.ops.append(TensorOp(self.index.span(target), self.tick(), f"{SOURCE_OP}.index_put_()", (base, value), None))
            if isinstance(target.value, ast.Name) and isinstance(base, Tensor) and base.kind == "frame":
                state.bind(target.value.id, self._frame_with(base, index, value, target))
            elif isinstance(target.value, (ast.Name, ast.Attribute, ast.Subscript)) and isinstance(base, DictV):
                # `state["global_step"] = step`: the dict now holds it (what a `torch.save` of it pickles);
                # `g.ndata["feat"] = feats`: the object's dict does
                keys, items = list(base.keys), list(base.items)
                spans: list[Span | None] = list(base.spans) if len(base.spans) == len(base.keys) else [None] * len(keys)
                key = index.value if isinstance(index, Const) else None
                if key is not None and key in keys:
                    items[keys.index(key)] = value
                    spans[keys.index(key)] = self.index.span(target)
                else:
                    keys.append(key)
                    items.append(value)
                    spans.append(self.index.span(target))
                made = DictV(tuple(keys), tuple(items), tuple(spans))
                if isinstance(target.value, (ast.Attribute, ast.Subscript)):
                    # (`imgs[scale]["image"] = ...`: the inner dict, written back into the outer one: CenterNet, scan 38)
                    self.assign(target.value, made, state)
                    return
                _write_back(target.value.id, made, state)
            elif isinstance(target.value, ast.Name) and isinstance(base, (TupleV, Many)):
                self._set_list_item(target.value.id, base, index, target.slice, value, state)
            elif isinstance(target.value, ast.Name) and _fills_with_other_floats(base, value):
                # `ys[:, i] = interp(t)` with float64 values into a float32 `torch.empty(...)`: the
                # buffer keeps its dtype and converts them; where it was made may be the mistake
                assert isinstance(base, Tensor) and isinstance(value, Tensor)
                _write_back(target.value.id, replace(base, filled_with=value.dtype, filled_at=self.index.span(target)), state)
            elif isinstance(base, ParamGroup) and isinstance(index, Const) and index.value in GROUP_FLAGS:
                self._set_group_flag(base.oid, str(index.value), value, target, state)
            elif isinstance(base, Ref) and isinstance(state.heap.get(base.oid), ModuleObj):
                self._set_layer(base.oid, index, value, state)
            elif isinstance(base, Ref) and isinstance(index, Const) and isinstance(index.value, str) and _dict_like(state.heap.get(base.oid)):
                # `self["X"] = tensor` in a UserDict subclass: the instance holds it under that key
                held = state.heap[base.oid]
                assert isinstance(held, InstanceObj)
                state.heap[base.oid] = replace(held, attrs={**held.attrs, f"[{index.value}]": value})
        elif isinstance(target, ast.Starred):
            self.assign(target.value, None, state)

    def _set_list_item(self, name: str, base: TupleV | Many, index: Value | None, at: ast.expr, value: Value | None, state: State) -> None:
        """`target[i] = target[i].long()`: the list holds the new item. At a known index, that one;
        in a loop over every index (`for i in range(len(target))`, pytorch_toolbox's
        `setup_loaded_data`: set 57's az04), all of them; at an index not known, the items
        that may have been replaced are no longer known (not the stale ones: a false alarm)."""
        if isinstance(base, TupleV):
            items = list(base.items)
            if isinstance(index, Const) and type(index.value) is int and -len(items) <= index.value < len(items):
                items[index.value] = value
            elif _tail_slice(at, len(items)) is not None and isinstance(value, TupleV):
                # `buf_items[3:] = [torch.stack(item) for item in buf_items[3:]]`: the head kept, the tail replaced
                items = [*items[: _tail_slice(at, len(items))], *value.items]
            elif isinstance(at, ast.Name) and (name, at.id, len(self.call_stack)) in self.every_index:
                items = [value] * len(items)
            else:
                items = [item if _alike_items(item, value) else None for item in items]
            made: Value = TupleV(tuple(items))
        elif isinstance(at, ast.Name) and (name, at.id, len(self.call_stack)) in self.every_index:
            made = Many(value, base.flat)
        else:
            made = Many(base.item if _alike_items(base.item, value) else None, base.flat)
        _write_back(name, made, state)

    def _set_group_flag(self, oid: int, key: str, value: Value | None, target: ast.AST, state: State) -> None:
        """`opt.param_groups[0]["capturable"] = True`: the optimizer's groups now carry it."""
        opt = state.heap.get(oid)
        if not isinstance(opt, OptimizerObj):
            return
        state.heap[oid] = replace(opt, group_options={**opt.group_options, key: value})
        module = state.heap.get(opt.module) if opt.module is not None else None
        held = module if isinstance(module, ModuleObj) else None
        self.events.group_flags.append(GroupFlag(self.index.span(target), self.tick(), opt, held, key, value))

    def _set_layer(self, oid: int, index: Value | None, value: Value | None, state: State) -> None:
        """`model[0] = LoRALinear(model[0])`: the container holds the new layer; if that layer's
        dtype is not the container's (float32 adapters in a float16 model), the container no
        longer has one dtype."""
        module = state.heap.get(oid)
        assert isinstance(module, ModuleObj)
        items = module.attrs.get(ITEMS)
        attrs = dict(module.attrs)
        if isinstance(items, TupleV) and isinstance(index, Const) and type(index.value) is int and -len(items.items) <= index.value < len(items.items):
            new = list(items.items)
            new[index.value] = value
            attrs[ITEMS] = TupleV(tuple(new))
        elif isinstance(items, TupleV):
            attrs[ITEMS] = None
        layer = state.heap.get(value.oid) if isinstance(value, Ref) else None
        same = isinstance(layer, ModuleObj) and layer.dtype == module.dtype and uniform_module(layer, state)
        state.heap[oid] = replace(module, attrs=attrs, dtype=module.dtype if same else None)

    def _item_origins(self, node: ast.expr, value: Value | None) -> Value | None:
        """A Dataset item's Python numbers are collated into int64/float64 tensors: where the
        item returns them is where a conversion belongs."""
        if isinstance(value, TupleV) and isinstance(node, ast.Tuple) and len(node.elts) == len(value.items):
            return TupleV(tuple(self._item_origins(n, v) for n, v in zip(node.elts, value.items, strict=True)))
        if isinstance(value, DictV) and isinstance(node, ast.Dict) and len(node.values) == len(value.items):
            # `return {"input_ids": ids, "labels": int(flag)}`: each entry's own origin
            items = tuple(self._item_origins(n, v if isinstance(v, Value) else None) for n, v in zip(node.values, value.items, strict=True))
            return DictV(value.keys, items)
        if isinstance(value, Tensor) and value.kind in ("pyfloat", "pyint") and value.origin is None:
            words = "a Python float, which the DataLoader collates into float64" if value.kind == "pyfloat" else "a Python int, which the DataLoader collates into int64"
            return replace(value, origin=self.origin(node, f"the Dataset returns {words}"))
        if isinstance(value, Const) and type(value.value) in (int, float):
            kind = "pyfloat" if isinstance(value.value, float) else "pyint"
            return self._item_origins(node, Tensor(kind))
        return value

    def _frame_columns(self, df: Tensor, index: Value | None, node: ast.AST) -> Value | None:
        """`df["col"]` is a series of that column's dtype; `df[["a", "b"]]` a frame of those."""
        names = dict(df.columns) if df.columns is not None else None
        if isinstance(index, Const) and isinstance(index.value, str):
            if names is None:
                return replace(df, kind="series", columns=None)  # a one-dtype frame: any column has it
            assert df.columns is not None
            has, dtype, entry = lookup_column(df.columns, index.value)
            why = dict(df.column_origins).get(entry) or Origin(self.index.span(node), f"the column {index.value!r} is {dtype}")
            if df.ndim == 1 and has:
                return _row_field(df, dtype, why)
            return Tensor("series", dtype, "cpu", why if dtype else None) if has else None
        if isinstance(index, TupleV) and all(isinstance(i, Const) and isinstance(i.value, str) for i in index.items):
            if df.columns is None:
                return df
            origins = dict(df.column_origins)
            found = [(str(i.value), lookup_column(df.columns, str(i.value))) for i in index.items if isinstance(i, Const)]
            if not all(has for _, (has, _d, _e) in found):
                return None
            chosen = tuple((name, d) for name, (_h, d, _e) in found)
            parts = [Strong(d, origins.get(e)) if d and d != WIDE else None for _, (_h, d, e) in found]
            return library_frame(chosen, parts, self.origin(node, ""))
        picked_by_position = self._iloc_columns(df, index, node)
        if picked_by_position is not None:
            return picked_by_position
        rows = isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice)
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2 and df.dtype:
            # `df.iloc[:, :-1]` / `df.iloc[:, -1]`: some columns of a one-dtype frame keep its dtype
            cols = node.slice.elts[1]
            picked = replace(df, columns=None) if df.columns is None or len({d for _, d in df.columns}) == 1 else None
            if picked is None:
                return None
            if isinstance(cols, ast.Slice):
                return picked
            second = index.items[1] if isinstance(index, TupleV) and len(index.items) == 2 else None
            if (isinstance(second, Const) and type(second.value) is int) or (isinstance(second, Tensor) and second.kind == "pyint"):
                return replace(picked, kind="series", ndim=1)
            return None
        located = isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr in ("iloc", "loc")
        uniform = names is None or (df.columns is not None and len({d for _, d in df.columns}) == 1 and not located)
        if uniform and df.dtype and isinstance(node, ast.Subscript) and isinstance(node.slice, (ast.Name, ast.List, ast.ListComp)):
            return df  # `df[feat_cols]` of a one-dtype frame: whichever columns (or rows), that dtype
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr in ("iloc", "loc") and _one_int(index):
            return replace(df, ndim=1)  # `df.iloc[i]`: one row, its fields by column name
        return df if rows or isinstance(index, (Tensor, Const)) else None  # rows (`df[mask]`, `.iloc[a:b]`): same columns

    def _iloc_columns(self, df: Tensor, index: Value | None, node: ast.AST) -> Value | None:
        """`df.iloc[i, 2:6]` / `df.iloc[:, 3]` of a frame whose columns are known: the columns
        picked by position, when they share one dtype (ImVisible's int64 point columns, set 89):
        one row across them is a series of it, one cell a NumPy number. None when not known."""
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) and node.value.attr == "iloc"):
            return None
        if not (isinstance(node.slice, ast.Tuple) and len(node.slice.elts) == 2 and isinstance(index, TupleV) and len(index.items) == 2):
            return None
        columns, cols_node, second = df.columns, node.slice.elts[1], index.items[1]
        if columns is None:
            return None
        chosen: tuple[tuple[str, str | None], ...] = ()
        if isinstance(cols_node, ast.Slice):
            bounds = _constant_slice(cols_node) if cols_node.step is None else None
            chosen = columns[slice(*bounds)] if bounds is not None else ()
        elif isinstance(second, Const) and type(second.value) is int and -len(columns) <= second.value < len(columns):
            chosen = (columns[second.value],)
        dtypes = {d for _, d in chosen}
        common = next(iter(dtypes)) if len(dtypes) == 1 else None
        if common is None or common == WIDE:
            return None
        origin = dict(df.column_origins).get(chosen[0][0]) or self.origin(node, f"the column {chosen[0][0]!r} is {common}")
        one_row, one_column = _one_int(index.items[0]), not isinstance(cols_node, ast.Slice)
        if one_row and one_column:
            return Tensor("npscalar", common, "cpu", origin)
        if one_row or one_column:
            return Tensor("series", common, "cpu", origin, ndim=1)  # a row across those columns, or one column
        return replace(df, columns=chosen, dtype=common, origin=origin)

    def _set_weight(self, target: ast.Attribute, value: Value | None, state: State) -> None:
        """`emb.weight.data = torch.from_numpy(matrix)` / `layer.weight = nn.Parameter(t)`: the
        layer's parameters now have that tensor's dtype (a float64 matrix makes it a float64 layer)."""
        node: ast.expr = target
        if target.attr == "data" and isinstance(target.value, ast.Name):
            self._set_aliased_param_data(target.value.id, value, state)
            return
        if target.attr == "data" and isinstance(target.value, ast.Attribute) and target.value.attr != "weight":
            self._set_param_data(target.value, value, state)
            return
        if target.attr == "data" and isinstance(target.value, ast.Attribute):
            node = target.value
        if not (isinstance(node, ast.Attribute) and node.attr == "weight") or not isinstance(value, Tensor) or value.kind != "tensor":
            return
        owner = self.eval(node.value, state)
        obj = state.heap.get(owner.oid) if isinstance(owner, Ref) else None
        if isinstance(owner, Ref) and isinstance(obj, ModuleObj) and obj.dtype is not None and is_float(value.dtype) and value.dtype != obj.dtype:
            origin = value.origin or self.origin(target, f"the weight is replaced by a {value.dtype} tensor")
            state.heap[owner.oid] = replace(obj, dtype=value.dtype, dtype_origin=origin, cast_span=origin.span)

    def _set_param_data(self, node: ast.Attribute, value: Value | None, state: State) -> None:
        """`l.proj.data = l.proj.data.half()` (CLIP's `convert_weights`): a parameter the module
        holds as an attribute now has the new tensor's dtype."""
        owner = self.eval(node.value, state)
        obj = state.heap.get(owner.oid) if isinstance(owner, Ref) else None
        kept = obj.attrs.get(node.attr) if isinstance(obj, ModuleObj) else None
        if isinstance(owner, Ref) and isinstance(obj, ModuleObj) and kept is None and obj.cls.startswith("torch.nn."):
            # `cell.weight_hh.data = gru.weight_hh_l0.data` (WaveRNN's GRUCell for generation): the
            # library layer's parameter is now that tensor, with its device and dtype; where those
            # are not the layer's own, the layer's are no longer known
            same_device = isinstance(value, Tensor) and value.device is not None and value.device == obj.device
            same_dtype = isinstance(value, Tensor) and value.dtype is not None and value.dtype == obj.dtype
            if not (same_device and same_dtype):
                state.heap[owner.oid] = replace(
                    obj, device=obj.device if same_device else None, device_origin=obj.device_origin if same_device else None,
                    dtype=obj.dtype if same_dtype else None, dtype_origin=obj.dtype_origin if same_dtype else None,
                )
            return
        if not (isinstance(owner, Ref) and isinstance(obj, ModuleObj) and isinstance(kept, Tensor) and kept.param):
            return
        if isinstance(value, Tensor) and value.kind == "tensor" and value.dtype != kept.dtype:
            attrs = dict(obj.attrs)
            attrs[node.attr] = replace(kept, dtype=value.dtype, origin=value.origin)
            state.heap[owner.oid] = replace(obj, attrs=attrs)

    def _set_aliased_param_data(self, name: str, value: Value | None, state: State) -> None:
        """`attr = getattr(l, name)` then `attr.data = attr.data.half()` (CLIP's `convert_weights`
        over `["text_projection", "proj"]`): one of the module's parameters changed dtype, which one
        is not followed, so those it holds as attributes are of unknown dtype from here on."""
        func = self.call_stack[-1] if self.call_stack else None
        if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)) or not (isinstance(value, Tensor) and value.kind == "tensor"):
            return
        for source in _unnamed_getattrs(func).get(name, ()):
            owner = self.eval(source, state)
            obj = state.heap.get(owner.oid) if isinstance(owner, Ref) else None
            if isinstance(owner, Ref) and isinstance(obj, ModuleObj):
                attrs = {k: replace(v, dtype=None, origin=None) if isinstance(v, Tensor) and v.param and v.dtype != value.dtype else v for k, v in obj.attrs.items()}
                state.heap[owner.oid] = replace(obj, attrs=attrs)

    def _frame_with(self, df: Tensor, index: Value | None, value: Value | None, node: ast.AST) -> Value | None:
        """`df["col"] = ...` adds or replaces a column (the name is rebound to the new frame)."""
        if df.columns is None and df.dtype and df.dtype != WIDE and isinstance(index, Const) and isinstance(index.value, str):
            part = column_dtype(value)  # columns we cannot name, all of one dtype: a column of it keeps it
            if part is not None and part.dtype == df.dtype:
                return df
        if df.columns is None and isinstance(index, Const) and isinstance(index.value, str):
            # the columns we cannot name (of the frame's dtype, when they share one), and this one
            added = column_dtype(value)
            partial = ((OTHER, df.dtype), (index.value, added.dtype if added else None))
            made = library_frame(partial, [Strong(df.dtype) if df.dtype and df.dtype != WIDE else None, added], self.origin(node, ""))
            origins = (*df.column_origins, *(((OTHER, df.origin),) if df.origin is not None and df.dtype else ()))
            return replace(made, column_origins=origins) if isinstance(made, Tensor) and origins else made
        names_set = _column_names(index)
        if names_set is not None and len(names_set) > 1:
            # `df[num_cols] = df[num_cols].fillna(...)`: each named column takes the value's dtype
            # (a frame of those columns in that order, or one dtype for all); unknown otherwise
            parts = _frame_parts(value, len(names_set))
            if parts is None:
                return replace(df, dtype=None, origin=None, columns=None) if df.columns is None else None
            if df.columns is None:
                same = df.dtype and df.dtype != WIDE and all(p is not None and p.dtype == df.dtype for p in parts)
                return df if same else replace(df, dtype=None, origin=None)
            cols = dict(df.columns)
            for name, part in zip(names_set, parts, strict=True):
                cols[name] = part.dtype if part else None
            columns = tuple(cols.items())
            return library_frame(columns, [Strong(d) if d else None for _, d in columns], self.origin(node, ""))
        if df.columns is None or not (isinstance(index, Const) and isinstance(index.value, str)):
            return None
        part = column_dtype(value)
        new = (index.value, part.dtype if part else None)
        names = [n for n, _ in df.columns]
        columns = tuple(new if n == index.value else (n, d) for n, d in df.columns) if index.value in names else (*df.columns, new)
        made = library_frame(columns, [Strong(d) if d else None for _, d in columns], self.origin(node, ""))
        kept = tuple((n, o) for n, o in df.column_origins if n != index.value)
        if isinstance(value, Tensor) and value.origin is not None and part is not None and part.dtype == value.dtype and _NARROWED.match(value.origin.why):
            kept = (*kept, (index.value, value.origin))  # a deliberate narrow dtype (`.astype(np.int32)`): the choice to fix
        return replace(made, column_origins=kept) if isinstance(made, Tensor) and kept else made

    def unpack(self, value: Value | None, count: int) -> list[Value | None]:
        if isinstance(value, Tensor) and value.kind in ("tensor", "ndarray") and value.dtype is not None:
            row = replace(value, ndim=value.ndim - 1 if value.ndim else None, max_ndim=None)
            if value.kind == "ndarray" and value.ndim == 1:
                row = replace(row, kind="npscalar")  # `x, x_dot, theta, theta_dot = state`: NumPy scalars
            return [row] * count  # `gi, gj = gij.T`: rows of the same dtype and device
        if isinstance(value, TupleV):
            if len(value.items) == count:
                return list(value.items)
            return [None] * count
        if isinstance(value, Many):
            return [value.element()] * count
        return [None] * count

    def record(self, node: ast.AST, name: str, value: Value | None, state: State) -> None:
        if value is None or not isinstance(value, (Tensor, Ref, Params, Device, DType)) or foreign(node):
            return  # (hovers and inlay hints are for the checked file's own positions)
        obj = state.heap.get(value.oid) if isinstance(value, (Ref, Params)) else None
        store = isinstance(getattr(node, "ctx", None), ast.Store)
        self.facts.values.append(ValueFact(self.index.span(node), name, value, obj, store))

    # --- expressions -------------------------------------------------------------------------

    def eval(self, node: ast.expr | None, state: State) -> Value | None:
        if node is None:
            return None
        if isinstance(node, ast.Name):
            value = state.lookup(node.id)
            if value is None and node.id in _BUILTINS:
                value = Sym(f"builtins.{node.id}")
            self.record(node, node.id, value, state)
            return value
        if isinstance(node, ast.Constant):
            return Const(node.value)
        if isinstance(node, ast.Attribute):
            return self.eval_attribute(node, state)
        if isinstance(node, ast.Call):
            return self.eval_call(node, state)
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, (ast.Div, ast.FloorDiv, ast.Mod)) and _counts_gpus(node.right):
                # `batch_size % torch.cuda.device_count()`: ZeroDivisionError without a GPU, so
                # what runs on has one (tabsyn's CoDi sampler, scan 22)
                state.globals[CUDA_REQUIRED] = Const(True)
            left, right = self.eval(node.left, state), self.eval(node.right, state)
            if isinstance(node.op, ast.Sub):
                for side, at in ((left, node.left), (right, node.right)):
                    self.refused("sub", side, node, at)  # `1 - mask` of a bool mask: torch refuses it
            if _hard_cuda_meets_auto(left, right) and state.globals.get(GPU_GUARDED) != Const(True):
                # `x + self.pe[:, :n].cuda()` with `x` on the device chosen by availability (intro-llm,
                # set 65): on a CPU-only machine the hard-coded `.cuda()` raises; DG009 reports it there
                self.events.ops.append(TensorOp(self.index.span(node), self.tick(), _OPERATORS.get(type(node.op), "op"), (left, right), state.autocast))
            return self.binop(left, right, node.op, node, state.autocast, state.ddtype.value)
        if isinstance(node, ast.UnaryOp):
            operand = self.eval(node.operand, state)
            if isinstance(node.op, ast.USub):
                self.refused("neg", operand, node, node.operand)  # `-mask` of a bool mask
            if isinstance(node.op, ast.USub) and isinstance(operand, Const) and type(operand.value) in (int, float):
                return type(operand)(-operand.value)  # type: ignore[operator]  # `-1e9`, `-args.margin` (a default stays one)
            if isinstance(node.op, (ast.USub, ast.UAdd)):
                return operand
            if isinstance(node.op, ast.Invert) and isinstance(operand, Tensor) and operand.kind in ("tensor", "ndarray", "pyint"):
                return operand  # `~mask`: same dtype, device and rank
            if isinstance(node.op, ast.Not) and isinstance(operand, Const) and _truth(operand) is not None:
                return (Chance if isinstance(operand, Chance) else Configured if isinstance(operand, Configured) else Const)(not _truth(operand))
            if isinstance(node.op, ast.Not) and isinstance(operand, GpuTest):
                return GpuTest(operand.on_false, operand.on_true)
            return None
        if isinstance(node, (ast.Tuple, ast.List)):
            return TupleV(tuple(self.eval(e, state) for e in node.elts), "list" if isinstance(node, ast.List) else "tuple")
        if isinstance(node, ast.Subscript):
            return self.eval_subscript(node, state)
        if isinstance(node, ast.IfExp):
            test = self.eval(node.test, state)
            if type(test) is Const and isinstance(test.value, bool):
                return _choice(self.eval(node.body if test.value else node.orelse, state))
            known = _object_truth(test, state) if isinstance(node.test, (ast.Name, ast.Attribute)) else None
            if known is not None:  # `Compose(transforms) if transforms else None`
                return _choice(self.eval(node.body if known else node.orelse, state))
            gpu_side = _gpu_side(node.test, test)
            if gpu_side is not None:
                # `p.numpy() if not train_on_gpu else p.cpu().numpy()`: the side that runs only
                # without a GPU sees "cuda when available" as the CPU
                cpu = state.copy()
                _cpu_side(cpu)
                on_cpu = self.eval(node.orelse if gpu_side else node.body, cpu)
                state.heap = cpu.heap
                on_gpu = self.eval(node.body if gpu_side else node.orelse, state)
                a, b = (on_gpu, on_cpu) if gpu_side else (on_cpu, on_gpu)
            else:
                a, b = self.eval(node.body, state), self.eval(node.orelse, state)
            if isinstance(test, Configured) and _truth(test) is not None:
                return _choice(a if _truth(test) else b)
            number = number_kind(a), number_kind(b)
            if number[0] and number[1] and a != b:
                return Tensor("pyfloat" if "pyfloat" in number else "pyint")  # `1.0 if c else 0.0`
            da, db = self.device_of(a), self.device_of(b)
            # `0 if torch.cuda.is_available() else "cpu"` (the DDP tutorial's gpu_id): an int
            # facing a device is a CUDA ordinal
            if da and not db and _ordinal(b):
                db = "cuda"
            elif db and not da and _ordinal(a):
                da = "cuda"
            if da and db and not isinstance(a, Tensor):
                if {da, db} == {"cpu", "cuda"}:
                    read = self._device_read(node.test, node)
                    if read is not None:
                        # `cuda:{n}" if scores.get_device() >= 0 else "cpu"` (pytorch_neural_crf, scan
                        # 41): the device of that tensor, whatever the machine has; unknown if its is
                        held = self.eval(read, state)
                        return Device(held.device) if isinstance(held, Tensor) and held.kind == "tensor" and held.device in ("cpu", "cuda") else None
                joined = join_device(da, db)
                return Device(joined) if joined else None
            return join(a, b)
        if isinstance(node, ast.BoolOp):
            values = [self.eval(part, state) for part in node.values]
            if isinstance(node.op, ast.Or):
                for i, value in enumerate(values):
                    if isinstance(value, Const) and not value.value:
                        continue  # falsy: `device or default` takes the default
                    last = i == len(values) - 1  # `scale or 1.0 / math.sqrt(d)` with scale None: the last one, whatever it is
                    return value if last or isinstance(value, (Device, Const, DType)) else None
            tests = [v for v in values if isinstance(v, GpuTest) and v.on_true]
            if isinstance(node.op, ast.And) and tests:
                return GpuTest(True, False)  # `not args.no_cuda and torch.cuda.is_available()`: true only with a GPU
            return _fold_boolop(node.op, values)  # `and` of known truths (`"fused" in sig.parameters and all(...)`)
        if isinstance(node, (ast.Compare, ast.BoolOp)):
            parts = [node.left, *node.comparators] if isinstance(node, ast.Compare) else node.values
            values = [self.eval(part, state) for part in parts]
            first = values[0]
            identity = isinstance(node, ast.Compare) and all(isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops)
            chance = self._chance(node, values, state) if isinstance(node, ast.Compare) else None
            if chance is not None:
                return chance
            if isinstance(node, ast.Compare) and isinstance(first, Tensor) and first.kind in ("tensor", "ndarray", "series", "sparse") and not identity:
                if _never_true_count(node, first, values):
                    # `(gt + predict) == 2` of two bool masks (SO-Net #37, set 60): `+` of bools is a
                    # logical OR, bool again, so the "count" never reaches 2 (DG004 reports it)
                    self.events.ops.append(TensorOp(self.index.span(node), self.tick(), BOOL_SUM, (first,), None, (self.index.span(node.left),)))
                return Tensor(first.kind, "bool", first.device, self.origin(node, "a comparison gives bool"), first.dev_origin, ndim=_broadcast_ndim(values))
            if isinstance(node, ast.Compare) and first is None and len(values) == 2 and isinstance(values[1], Tensor) and values[1].kind == "tensor" and isinstance(node.ops[0], (ast.Eq, ast.NotEq, ast.Lt, ast.LtE, ast.Gt, ast.GtE)):
                # `pred == target` with a torch tensor on the right: whatever the left is (a tensor,
                # an array, a number), the tensor's comparison answers, elementwise, in bool
                return Tensor("tensor", "bool", None, self.origin(node, "a comparison gives bool"))
            if isinstance(node, ast.Compare):
                return _fold_compare(node.ops, values)
            return None
        if isinstance(node, ast.Lambda):
            return Func(node, "<lambda>")
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.SetComp)):
            return self.eval_comprehension(node, state)
        if isinstance(node, ast.DictComp):
            unrolled = self._dict_comp_unrolled(node, state)
            if unrolled is not None:
                return unrolled
            inner = state.copy()
            if inner.locals is None:
                inner.locals = {}
            for gen in node.generators:
                self.assign(gen.target, self.element_of(self.eval(gen.iter, inner), inner), inner)
            item = self.eval(node.value, inner)
            return DictV((None,), (item,))  # keys we cannot name, each to such a value
        if isinstance(node, ast.Dict):
            keys = tuple(k.value if isinstance(k, ast.Constant) else None for k in node.keys)
            items = tuple(self.eval(v, state) for v in node.values)
            spans = tuple(self.index.span_between(k or v, v) for k, v in zip(node.keys, node.values, strict=True))
            return DictV(keys, items, spans)
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            value = self.eval(node.value, state) if node.value is not None else None
            if isinstance(node, ast.YieldFrom):
                value = self.element_of(value, state)
            if self.call_stack:
                self.yields.setdefault(id(self.call_stack[-1]), []).append(value)
            return None
        if isinstance(node, ast.NamedExpr):
            value = self.eval(node.value, state)
            self.assign(node.target, value, state)
            return value
        if isinstance(node, (ast.Await, ast.Starred)):
            return self.eval(node.value, state)
        if isinstance(node, ast.JoinedStr):
            return self._fstring(node, state)
        return None

    def _fstring(self, node: ast.JoinedStr, state: State) -> Value | None:
        """An f-string whose parts are all known is that string (`f"cuda:{args.gpu}"` with the
        option's default); `f"cuda:{rank}"` with an unknown index is still a CUDA device."""
        text: str | None = ""
        known: Value | None = None
        for part in node.values:
            if isinstance(part, ast.Constant) and isinstance(part.value, str):
                text = text + part.value if text is not None else None
                continue
            # every part runs, known or not (`print(f"loss {train(model, x):.4f}")` trains)
            value = self.eval(part.value, state) if isinstance(part, ast.FormattedValue) else None
            if text is None:
                continue
            if isinstance(part, ast.FormattedValue) and part.format_spec is None and part.conversion == -1 and type(value) in (Const, Configured) and type(value.value) in (str, int):  # type: ignore[union-attr]
                text += str(value.value)  # type: ignore[union-attr]
                continue
            known = Const("cuda") if text == "cuda:" else None
            text = None
        return Const(text) if text is not None else known

    def _dict_comp_unrolled(self, node: ast.DictComp, state: State) -> Value | None:
        """`{k: v.to(device) for k, v in batch.items()}` over a dict whose keys are known (or
        `{part: f(X[part]) for part in X}`, or over a literal list of names): one entry per key,
        each with its own value (a batch's float features and int labels)."""
        if len(node.generators) != 1 or node.generators[0].ifs:
            return None
        gen = node.generators[0]
        bindings = self._known_key_bindings(gen.iter, state)
        if bindings is None:
            return None
        out_keys: list[object] = []
        out_items: list[Value | None] = []
        for bound in bindings:
            inner = state.copy()
            if inner.locals is None:
                inner.locals = {}
            self.assign(gen.target, bound, inner)
            made_key = self.eval(node.key, inner)
            out_keys.append(made_key.value if isinstance(made_key, Const) else None)
            out_items.append(self.eval(node.value, inner))
            state.heap = inner.heap
        return DictV(tuple(out_keys), tuple(out_items))

    def _known_key_bindings(self, it: ast.expr, state: State) -> list[Value] | None:
        """What the loop variable of a comprehension is bound to, one per iteration, when the
        iteration is over string keys the analysis knows: `d.items()`, `d.keys()`, `d` itself, or
        a literal list/tuple of strings; None when it cannot be unrolled."""
        method = ""
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in ("items", "keys") and not it.args:
            method, it = it.func.attr, it.func.value
        source = self.eval(it, state)
        if not method and isinstance(source, TupleV):
            names = [v.value for v in source.items if isinstance(v, Const)]
            if 0 < len(source.items) <= 32 and len(names) == len(source.items) and all(isinstance(n, str) for n in names):
                return [Const(n) for n in names]
            return None
        if not (isinstance(source, DictV)):
            return None
        keys, items = source.keys, source.items
        if not keys or len(keys) > 32 or not all(isinstance(k, str) for k in keys):
            return None
        if method == "items":
            return [TupleV((Const(k), item if isinstance(item, Value) else None)) for k, item in zip(keys, items, strict=True)]
        return [Const(k) for k in keys]

    def _list_comp_unrolled(self, node: ast.ListComp | ast.GeneratorExp, state: State) -> TupleV | None:
        """`[results[src] for src in ("cls_out", "cls_label")]` over a known short tuple or list:
        one item per element, each its own value (the output and the labels stay apart)."""
        if len(node.generators) != 1 or node.generators[0].ifs or node.generators[0].is_async:
            return None
        gen = node.generators[0]
        source = self.eval(gen.iter, state)
        if not (isinstance(source, TupleV) and 0 < len(source.items) <= 16):
            return None
        out: list[Value | None] = []
        for item in source.items:
            inner = state.copy()
            if inner.locals is None:
                inner.locals = {}
            self.assign(gen.target, item, inner)
            out.append(self.eval(node.elt, inner))
            state.heap = inner.heap
        return TupleV(tuple(out))

    def eval_comprehension(self, node: ast.ListComp | ast.GeneratorExp | ast.SetComp, state: State) -> Value | None:
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            # (a generator over a known short tuple too: `batch = tuple(t.to(device) for t in batch)`)
            unrolled = self._list_comp_unrolled(node, state)
            if unrolled is not None and any(isinstance(v, (Tensor, Ref)) for v in unrolled.items):
                return unrolled
            if unrolled is not None and unrolled.items and all(type(v) is Const and type(v.value) is bool for v in unrolled.items):
                return unrolled  # the answers of a known short tuple (`any(isinstance(a, torch.Tensor) for a in arrays)`)
        inner = state.copy()
        if inner.locals is None:
            inner.locals = {}
        for gen in node.generators:
            iterable = self.eval(gen.iter, inner)
            if isinstance(iterable, Params) and len(node.generators) == 1 and _picks_target(node.elt, gen.target):
                if gen.ifs and self.index.freezes and not self._trained_cast_kept(gen, iterable, state):
                    # a filter over parameters some of which are frozen: which ones is unknown,
                    # unless the whole model has one low-precision dtype (any subset has it too)
                    owner = state.heap.get(iterable.oid)
                    whole = isinstance(owner, ModuleObj) and owner.dtype in ("bfloat16", "float16")
                    return iterable if whole and isinstance(owner, ModuleObj) and uniform_module(owner, state) else SomeParams(iterable.oid)
                return iterable  # `[p for p in model.parameters() if p.requires_grad]`: still its parameters
            self.assign(gen.target, self.element_of(iterable, inner), inner)
        element = self.eval(node.elt, inner)
        state.heap = inner.heap  # comprehension effects (rare) are kept
        if isinstance(element, (Tensor, TupleV, Ref, Many, DictV, Fact)) or (isinstance(element, Const) and isinstance(element.value, (tuple, bool))):
            return Many(element)  # one object stands for all (`[nn.Linear(...) for _ in range(n)]`, `p.is_floating_point() for p in ...`)
        # a list of unknown items is still a list: `torch.Tensor(ids)` of it has the default dtype
        return Many(None) if isinstance(node, ast.ListComp) else None

    def eval_attribute(self, node: ast.Attribute, state: State) -> Value | None:
        base = self.eval(node.value, state)
        attr = node.attr
        if isinstance(base, ParamNames) and attr == "parameters":
            return TupleV(tuple(Const(n) for n in base.names))  # `'fused' in inspect.signature(...).parameters`
        if isinstance(base, DType) and base.lib == "torch" and base.name and attr in ("is_floating_point", "is_complex"):
            # `if param.dtype.is_floating_point:` (an EMA that skips BatchNorm's int64 counter)
            return Const(is_float(base.name) if attr == "is_floating_point" else False)
        if isinstance(base, Sym):
            made = self.sym(f"{base.name}.{attr}")
            return replace(made, site=self.index.span(node)) if isinstance(made, DType) else made  # where the dtype is written
        if isinstance(base, Tensor):
            if attr == "dtype":  # (int64 or float64, from a file: which one is not known)
                return DType(base.dtype, origin=base.origin, site=base.site) if base.dtype and base.dtype != WIDE else None
            if attr == "device":
                return Device(base.device) if base.device else None
            if attr == "is_cuda" and base.kind == "tensor" and base.device in ("cpu", "cuda"):
                return Const(base.device == "cuda")  # `if x.is_cuda: iden = iden.cuda()` on a CPU tensor: not taken
            if attr == "shape" and base.kind in ("tensor", "ndarray"):
                return shape_of(base)
            if attr in ("T", "mT", "data", "real", "values") and base.kind in ("tensor", "ndarray"):
                return base
            if base.kind == "sparse":  # a scipy.sparse matrix: its transpose, and its stored values as an array
                return base if attr == "T" else replace(base, kind="ndarray", ndim=1) if attr == "data" else None
            if base.kind == "cat" and attr == "codes":
                return _category_codes("series", self.origin(node, ""))
            if base.kind in ("frame", "series"):
                if attr == "values":
                    return replace(base, kind="ndarray", ndim=1 if base.kind == "series" or base.ndim == 1 else 2)
                if attr in ("iloc", "loc", "T"):
                    return base
                if attr == "cat" and base.kind == "series":
                    return replace(base, kind="cat", dtype=None, origin=None)  # `s.astype("category").cat`: its accessor
                if base.kind == "frame" and base.columns is not None and attr in dict(base.columns) and attr not in pandas_library.FRAME_ATTRIBUTES:
                    return self._frame_columns(base, Const(attr), node)  # `train_data.SalePrice`: the column
            return None
        if isinstance(base, DictV) and attr in base.keys:
            # `cfg.lr` of a dict whose keys read as attributes (an AttrDict, EasyDict): a plain dict
            # has no such attribute, so the code that reads one holds such a dict
            return base.items[base.keys.index(attr)]
        if isinstance(base, Ref):
            obj = state.heap.get(base.oid)
            if isinstance(obj, OptimizerObj) and attr == "param_groups":
                return Many(ParamGroup(base.oid))  # its groups (one, or a list of dicts given to it)
            if isinstance(obj, InstanceObj) and obj.cls == "pandas:Categorical" and attr == "codes":
                return _category_codes("ndarray", self.origin(node, ""))
            if isinstance(obj, (ModuleObj, InstanceObj)) and attr in obj.attrs:
                value = obj.attrs[attr]
                self.record(node, attr, value, state)
                return value
            if isinstance(obj, ModuleObj) and attr in ("weight", "bias"):
                return Tensor("tensor", obj.dtype, obj.device, obj.dtype_origin, obj.device_origin)
            klass = obj.klass if isinstance(obj, InstanceObj) else None
            if klass is None and isinstance(obj, ModuleObj) and (obj.methods or obj.cls.startswith("user:")):
                klass = self.classes.get(obj.methods or obj.cls[5:])
            if klass is not None:
                method = klass.method(attr)
                if method is not None and _is_property(method):
                    return self.call_function(method, [base], {}, state)  # `data.target`: the getter runs
                if method is not None:
                    return method if is_staticmethod(method) else Bound(method, base)
                found, value = klass.field(attr)
                if found:
                    return value  # `class Args: bf16 = True` read as `args.bf16`
            return None
        if isinstance(base, FInfo) and attr in ("max", "min", "eps", "tiny"):
            return Const(torch_library.FINFO[base.dtype][attr])
        if isinstance(base, ComplexArray) and attr in ("real", "imag"):
            return complex_parts(base, f".{attr}")
        if isinstance(base, TupleV) and len(base.items) == 2 and attr in ("values", "indices"):
            return base.items[attr == "indices"]  # `x.max(1).values`: the (values, indices) pair
        if isinstance(base, Klass):
            found, value = base.field(attr)
            if found:
                return value
            method = base.method(attr)
            if attr == "apply" and method is None:
                return function_apply(base)  # `apply = MyFunction.apply`
            # `build = Model.from_pretrained` (an mmengine-style `type=` in a config dict): the
            # classmethod keeps its class, as Python binds it
            return Bound(method, base) if method is not None and is_classmethod(method) else method
        if isinstance(base, Super):
            return self.super_method(base, attr)
        if isinstance(base, Device) and attr == "type":
            # "auto" is the engine's word for "cuda when available, else cpu", not a device type:
            # `device.type == "cuda"` is then unknown (both branches run), not False
            if base.name == "auto":
                return base  # `torch.autocast(device_type=x.device.type)` reads it; comparisons with it stay undecided
            return Const(base.name) if base.name in ("cpu", "cuda", "mps") else None
        return None

    def _mgrid(self, node: ast.Subscript, state: State) -> Value | None:
        """`np.mgrid[:H, :W]`: one dense grid per slice, stacked (one slice: that grid alone): int64 when every bound and step
        is an int literal or name, float64 when one is a float or a complex count (`50j`)."""
        parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if not parts or not all(isinstance(p, ast.Slice) for p in parts):
            return None
        bounds = [b for p in parts if isinstance(p, ast.Slice) for b in (p.lower, p.upper, p.step) if b is not None]
        if any(isinstance(b, ast.Constant) and type(b.value) in (float, complex) for b in bounds):
            dtype = "float64"
        elif all((isinstance(b, ast.Constant) and type(b.value) is int) or (isinstance(b, ast.Name) and _int_number(self.eval(b, state))) for b in bounds):
            dtype = "int64"
        else:
            return None  # a bound whose type is not known: a float one would make it float64
        return Tensor("ndarray", dtype, "cpu", self.origin(node, f"`np.mgrid` of {'int' if dtype == 'int64' else 'float'} bounds gives {dtype}"), ndim=len(parts) + 1 if isinstance(node.slice, ast.Tuple) else 1)

    def eval_subscript(self, node: ast.Subscript, state: State) -> Value | None:
        base = self.eval(node.value, state)
        index = self.eval(node.slice, state)
        if base == Sym("numpy.mgrid"):
            return self._mgrid(node, state)
        if isinstance(base, Tensor) and base.kind == "tensor" and base.ndim == 0 and isinstance(node.slice, ast.Constant) and type(node.slice.value) is int:
            return None  # `loss.data[0]` of a 0-dim loss: IndexError in torch since 0.4 (DeepNLP-models, scan 41)
        if isinstance(base, Tensor) and base.kind in ("tensor", "ndarray"):
            if isinstance(node.slice, ast.Constant) and type(node.slice.value) is int and base.kind == "ndarray" and base.ndim in (None, 1):
                return replace(base, kind="npscalar")  # `a[0]` of a 1-D array (a row of a 2-D one stays an array; `a[None]` adds an axis)
            ndim = base.ndim
            if ndim is None and base.max_ndim is not None and _index_parts(node.slice) == base.max_ndim:
                ndim = base.max_ndim  # `xy[:, -1]` on what is at most 2-D: it is 2-D
            picked = replace(base, ndim=_indexed_ndim(ndim, node.slice, index), collated=False, max_ndim=None)
            bad = _non_index(index) if base.kind == "tensor" else None
            if bad is not None:  # `emb[ids]` with float ids: torch raises (DG005 reads this)
                self.events.ops.append(TensorOp(self.index.span(node), self.tick(), "[]", (base, bad)))
            if base.kind == "tensor" and base.site is not None and _picks_columns(node.slice):
                # `target = table[:, -1]`: the table holds features and labels alike; a conversion
                # where it is made would convert both, so this column's own is where it goes
                picked = replace(picked, site=self.index.span(node))
            return picked
        if isinstance(base, Tensor) and base.kind in ("frame", "series"):
            if base.kind == "frame":
                return self._frame_columns(base, index, node)
            if _one_int(index) and base.ndim in (None, 1):
                return Tensor("npscalar", base.dtype, "cpu", base.origin if base.dtype else None)  # `row.iloc[0]`: one number
            return replace(base, ndim=_indexed_ndim(1, node.slice, index))
        if isinstance(base, TupleV) and isinstance(index, Const) and isinstance(index.value, int):
            if -len(base.items) <= index.value < len(base.items):
                return base.items[index.value]
            return None
        if isinstance(base, TupleV) and isinstance(node.slice, ast.Slice):
            bounds = _constant_slice(node.slice)
            # `layers[:-1]` (the last activation dropped): those items, or, of a list grown in a
            # loop whose known head this is, the head of what the slice gives
            if bounds is not None:
                return TupleV(base.items[slice(*bounds)])
            # `self.scales[:n]` with `n` unknown: as many Python numbers of that kind as it keeps
            kinds = {type(v.value) for v in base.items if isinstance(v, Const)}
            if base.items and all(isinstance(v, Const) for v in base.items) and kinds in ({float}, {int}):
                return Many(Tensor("pyfloat" if kinds == {float} else "pyint"))
            if base.items and all(isinstance(v, Tensor) and v.kind == "pyint" for v in base.items):
                return Many(Tensor("pyint"))  # `image.shape[-2:]`: sizes, as many as the slice keeps
            return None
        if isinstance(base, TupleV) and (index is None or (isinstance(index, Tensor) and index.kind == "pyint")) and not isinstance(node.slice, ast.Slice):
            kinds = {type(v.value) for v in base.items if type(v) is Const}
            if base.items and all(type(v) is Const for v in base.items) and kinds in ({float}, {int}):
                # `VIDEO_BIT_RATE[bit_rate]` with the index unknown (a sampled action's `.item()`):
                # one of the numbers, a Python number of their kind
                return Tensor("pyfloat" if kinds == {float} else "pyint")
            if index is not None:
                return _alike(list(base.items), state)  # `ops[i]` with `i` unknown: any item, when they are alike
        if isinstance(base, Ref):
            obj = state.heap.get(base.oid)
            if isinstance(index, Const) and isinstance(index.value, str) and _dict_like(obj) and isinstance(obj, InstanceObj):
                return obj.attrs.get(f"[{index.value}]")  # `train["X"]` of a UserDict subclass
            getitem = obj.klass.method("__getitem__") if isinstance(obj, InstanceObj) and not obj.is_dataset and obj.klass is not None else None
            if getitem is not None and not isinstance(node.slice, ast.Slice):
                return self.call_function(getitem, [base, index], {}, state)  # `store["gt"]`: the key the class is given
            if isinstance(obj, (LoaderObj, InstanceObj)):
                return self.element_of(base, state)
            held = obj.attrs.get(ITEMS) if isinstance(obj, ModuleObj) else None
            if isinstance(obj, ModuleObj) and obj.cls == "torch.nn.ModuleDict" and isinstance(index, Const) and isinstance(index.value, str):
                return obj.attrs.get(index.value)  # `self.blocks["label"]`: the layer under that key
            if isinstance(held, TupleV):
                if isinstance(node.slice, ast.Slice):
                    return base  # `self.layers[:-1]`: alike layers, as the whole
                if isinstance(index, Const) and type(index.value) is int and -len(held.items) <= index.value < len(held.items):
                    return held.items[index.value]
                return self.container_element(held, state)
        if isinstance(base, StateDict) and base.device in ("cpu", "cuda", "auto"):
            device = str(base.device)  # `sd[key]`: a parameter or buffer, where the model was
            return Tensor("tensor", None, device, None, self.origin(node, f"a tensor of the model's state_dict ({'on the GPU when CUDA is available' if device == 'auto' else 'on ' + device})"))
        if isinstance(base, DictV):
            keys, items = base.keys, base.items
            if isinstance(index, Const):
                key = index.value if index.value in keys else None if None in keys else _UNKNOWN  # None: a comprehension's keys
                found = items[keys.index(key)] if key is not _UNKNOWN else None
                return found if isinstance(found, Value) else None
            return _alike(list(items), state)  # `loaders[phase]`: any of them
        if isinstance(base, Many):
            if isinstance(node.slice, ast.Slice):
                return base  # `data[i:i + batch_size]`: a shorter list of the same items
            return base.element()
        return None

    def binop(self, left: Value | None, right: Value | None, op: ast.operator, node: ast.AST, autocast: str | None = None, default: str | None = None) -> Value | None:
        """`default` is the default dtype where the operation runs: an integer tensor's true
        division (or a product with a Python float) gives it (`idx / vocab` is float32, and
        fails as an index)."""
        sparse = [v for v in (left, right) if isinstance(v, Tensor) and v.kind == "sparse"]
        if sparse and all((isinstance(v, Tensor) and v.kind in ("sparse", "ndarray")) or isinstance(v, Const) for v in (left, right)):
            # scipy.sparse arithmetic computes in NumPy's common type (`adj + sp.eye(n)`), and stays sparse
            as_array = [replace(v, kind="ndarray") if isinstance(v, Tensor) else v for v in (left, right)]
            out = self.binop(as_array[0], as_array[1], op, node, autocast, default)
            return replace(out, kind="sparse", ndim=2) if isinstance(out, Tensor) and out.kind == "ndarray" and out.dtype else None
        if isinstance(op, ast.Add) and type(left) is Const and type(right) is Const and isinstance(left.value, str) and isinstance(right.value, str):
            return Const(left.value + right.value) if len(left.value) + len(right.value) <= 256 else None  # `"cuda:" + str(idx)`
        unknown_text = not isinstance(left, (Const, Tensor)) or (isinstance(left, Configured) and left.value is None)
        if isinstance(op, ast.Add) and isinstance(right, Const) and isinstance(right.value, str) and unknown_text:
            # (an option without a default, `args.resume_from + "/main.pt"`: a folder the user names)
            # `path + '/' + 'checkpoint.pth'` under a folder not known: a file of that name
            if "/" in right.value:
                return FilePath(right.value.rsplit("/", 1)[1])
            if isinstance(left, FilePath) and left.name == "":
                return FilePath(right.value)
        pandas = [v for v in (left, right) if isinstance(v, Tensor) and v.kind in ("series", "frame")]
        if pandas and not any(isinstance(v, Tensor) and v.kind == "tensor" for v in (left, right)):
            # a pandas Series or one-dtype frame computes as its NumPy array does (same dtype
            # rules), and stays what it was
            kind = "frame" if any(v.kind == "frame" for v in pandas) else "series"
            wide = _wide_with_number(left, right, op)
            if wide is not None:
                return replace(pandas[0], kind=kind, dtype=wide, origin=pandas[0].origin if wide == WIDE else self.origin(node, "int64 or float64 data with a Python float gives float64"), columns=None)
            as_array = [replace(v, kind="ndarray", columns=None) if isinstance(v, Tensor) and v.kind in ("series", "frame") else v for v in (left, right)]
            out = self.binop(as_array[0], as_array[1], op, node, autocast, default)
            return replace(out, kind=kind, ndim=1 if kind == "series" else 2) if isinstance(out, Tensor) and out.kind == "ndarray" else out
        if isinstance(op, ast.MatMult):
            if isinstance(left, Tensor) and isinstance(right, Tensor) and "tensor" in (left.kind, right.kind):
                self.events.ops.append(TensorOp(self.index.span(node), self.tick(), "@", (left, right), autocast))
            if not (isinstance(left, Tensor) and isinstance(right, Tensor)):
                return None
            ndim = _matmul_ndim(left.ndim, right.ndim)
            if autocast and left.kind == right.kind == "tensor":
                return self.autocast_lowered("@", [left, right], Tensor("tensor", ndim=ndim), node, autocast)
            if left.dtype != right.dtype and left.kind == right.kind == "ndarray" and left.dtype and right.dtype:
                # NumPy promotes (a float32 spectrogram @ a float64 filterbank is float64); torch refuses
                dtype = promotion.NUMPY_ARRAYS.get((left.dtype, right.dtype))
                wider = right if dtype == right.dtype or (is_float(right.dtype) and not is_float(left.dtype)) else left
                return replace(wider, dtype=dtype, ndim=ndim) if dtype else None
            return replace(left, ndim=ndim) if left.dtype == right.dtype else None
        if isinstance(op, ast.Div) and isinstance(left, PathObj):
            # `run_dir / "checkpoints"`: a path too, named by its last part where it is written
            return PathObj(right.value.rsplit("/", 1)[-1]) if type(right) is Const and isinstance(right.value, str) else PathObj()
        if isinstance(op, ast.Add) and isinstance(left, TupleV) and isinstance(right, TupleV):
            return TupleV(left.items + right.items)  # `layers += [nn.Linear(...), nn.ReLU()]`
        if isinstance(op, ast.Add) and isinstance(left, (TupleV, Many)) and isinstance(right, (TupleV, Many)):
            # `ids[i - w:i] + ids[i + 1:i + w + 1]`: pieces of one list, of a length we cannot read
            joined = [v for side in (left, right) for v in (side.items if isinstance(side, TupleV) else (side.item,))]
            flat = all(side.flat for side in (left, right) if isinstance(side, Many))
            if joined and joined[0] is not None and all(item == joined[0] for item in joined):
                return Many(joined[0], flat)
            kinds = {number_kind(v) for v in joined}
            # `[1] * len(ids) + [0] * pad` (an attention mask padded by hand, set 87): Python numbers of one kind
            return Many(Tensor(kinds.pop()), flat) if flat and len(kinds) == 1 and "" not in kinds else None
        if isinstance(op, ast.Mult) and isinstance(left, TupleV) and isinstance(right, Const) and type(right.value) is int:
            if 0 <= len(left.items) * right.value <= MAX_UNROLLED:
                return TupleV(left.items * right.value, left.builtin)  # `[0] * 5`: five items (`v[2] += 1` writes one)
            return left  # `[0.5, 1.0] * 400`: the same kinds of items, repeated
        if (isinstance(op, ast.Mult) and _count(right) and isinstance(left, TupleV)) or (_count(left) and isinstance(right, TupleV)):
            items = left.items if isinstance(left, TupleV) else right.items if isinstance(right, TupleV) else ()
            if items and all(item == items[0] for item in items):
                return Many(items[0])  # `[0] * len(vocab)`: as many alike items as a count we cannot read
        if type(left) in (Const, Configured) and type(right) in (Const, Configured) and type(left.value) in (int, float) and type(right.value) in (int, float):  # type: ignore[union-attr]
            folded = _fold_numbers(left.value, right.value, op)  # type: ignore[union-attr]
            if isinstance(folded, Const) and Configured in (type(left), type(right)):
                return Configured(folded.value)  # `args.degree + 1`: still the option's default, still the user's to change
            if folded is not None:
                return folded
        left, right = _list_as_array(left, right), _list_as_array(right, left)
        lt = left if isinstance(left, Tensor) else None
        rt = right if isinstance(right, Tensor) else None
        if lt is None and rt is None:
            return None
        if lt is not None and rt is not None:
            if _devices_clash(lt, rt) and type(op) in _OPERATORS:
                # elementwise arithmetic of a CPU tensor with a GPU one (neither 0-dim): it raises
                # "Expected all tensors to be on the same device" (class-balanced loss weights made
                # on the CPU times the GPU one-hot labels: set 59); DG009 reports it, nothing flows on
                self.events.ops.append(TensorOp(self.index.span(node), self.tick(), _OPERATORS[type(op)], (lt, rt), autocast))
                return None
            return self._binop_tensors(lt, rt, op, node, default)
        tensor = lt if lt is not None else rt
        other = right if lt is not None else left
        assert tensor is not None
        if not isinstance(other, Const) or not isinstance(other.value, (int, float)) or isinstance(other.value, bool):
            return None  # an operand we cannot read: the result's dtype is unknown
        if tensor.kind == "ndarray" or tensor.kind == "npscalar":
            number = Tensor("pyfloat" if isinstance(other.value, float) else "pyint")
            return self._numpy_with_python_number(tensor, number, op, node)
        if tensor.kind in ("pyfloat", "pyint"):
            if tensor.kind == "pyint" and not isinstance(op, ast.Div) and isinstance(other.value, int):
                return tensor
            return Tensor("pyfloat")
        if tensor.kind == "tensor":
            if tensor.dtype and tensor.dtype.startswith(("int", "uint", "bool")) and (isinstance(op, ast.Div) or isinstance(other.value, float)):
                return self._int_tensor_to_default(tensor, op, node, default)
            return tensor
        return None

    def _binop_tensors(self, a: Tensor, b: Tensor, op: ast.operator, node: ast.AST, default: str | None = None) -> Value | None:
        kinds = (a.kind, b.kind)
        if set(kinds) <= {"pyint", "pyfloat"}:
            # Python numbers: an int only from ints, and never from `/` (`i / 10_000 ** (2 * j / d)`)
            return Tensor("pyint" if kinds == ("pyint", "pyint") and not isinstance(op, ast.Div) else "pyfloat")
        # (a NumPy scalar with a Python number is a NumPy scalar: `a.item() + noise[0]`, NEP 50)
        kind = "tensor" if "tensor" in kinds else "ndarray" if "ndarray" in kinds else "npscalar" if "npscalar" in kinds else a.kind
        if kind in ("ndarray", "npscalar") and "tensor" not in (a.kind, b.kind) and {a.kind, b.kind} & {"pyfloat", "pyint"}:
            return self._numpy_with_python_number(a if b.kind in ("pyfloat", "pyint") else b, b if b.kind in ("pyfloat", "pyint") else a, op, node)
        if a.kind == "tensor" and b.kind in ("npscalar", "pyfloat"):
            return a  # a NumPy/Python scalar does not promote a tensor's float width
        if b.kind == "tensor" and a.kind in ("npscalar", "pyfloat"):
            return b
        if "pyint" in (a.kind, b.kind) and "tensor" in (a.kind, b.kind):
            t = a if a.kind == "tensor" else b  # a Python int keeps a float tensor's dtype, and an int one's
            if is_float(t.dtype) or (t.dtype is not None and not isinstance(op, ast.Div)):
                return t
            return self._int_tensor_to_default(t, op, node, default) if t.dtype is not None else replace(t, dtype=None, origin=None)
        if kind == "tensor" and {a.kind, b.kind} == {"tensor"}:
            cpu = a if a.device == "cpu" else b if b.device == "cpu" else None
            other = b if cpu is a else a
            if cpu is not None and other.device in ("cuda", "auto") and cpu.ndim is not None and cpu.ndim >= 1:
                # elementwise ops allow a 0-dim CPU tensor with a CUDA one, nothing bigger
                self.events.ops.append(TensorOp(self.index.span(node), self.tick(), _OPERATORS.get(type(op), "op"), (a, b)))
        if {a.kind, b.kind} <= {"ndarray", "npscalar"} and a.dtype and b.dtype:
            dtype = promotion.NUMPY_ARRAYS.get((a.dtype, b.dtype))
            if dtype is not None and isinstance(op, ast.Div):
                dtype = promotion.NUMPY_TRUE_DIVIDE.get(dtype)
            if dtype is None:
                return Tensor(kind, None, "cpu")
            winner = a if dtype == a.dtype else b if dtype == b.dtype else None
            origin = winner.origin if winner is not None else self.origin(node, f"NumPy gives {dtype} here")
            loser = b if winner is a else a if winner is b else None
            if loser is not None and loser.kind == "ndarray" and loser.dtype != dtype and is_float(loser.dtype) and winner is not None and winner.origin is not None:
                # float32 data widened by a float64 operand (`(img - MEAN) / STD`): the data becomes
                # float64 here; this line is where a cast (or a float32 operand) keeps it float32
                origin = self.origin(node, f"NumPy widens {loser.dtype} to {dtype}: the other operand is {dtype} ({winner.origin.why}, line {winner.origin.span.line})")
            return Tensor(kind, dtype, "cpu", origin, from_ints=not is_float(a.dtype) and not is_float(b.dtype) and is_float(dtype), ndim=max(a.ndim, b.ndim) if a.ndim is not None and b.ndim is not None else None)
        if kind == "ndarray" and isinstance(op, ast.Div) and {a.kind, b.kind} <= {"ndarray", "npscalar"}:
            wide_int = next((t for t in (a, b) if t.dtype in ("int64", "int32", "uint32", "uint64")), None)
            if wide_int is not None:  # true division with a 32/64-bit integer array is float64, whatever the other
                return Tensor("ndarray", "float64", "cpu", self.origin(node, f"NumPy true division of {wide_int.dtype} data gives float64"), from_ints=True, ndim=max(a.ndim, b.ndim) if a.ndim is not None and b.ndim is not None else None)
        if a.dtype is None or b.dtype is None:
            return Tensor(kind, None, join_device(a.device, b.device))
        if {a.kind, b.kind} == {"tensor"} and (a.ndim == 0) != (b.ndim == 0) and _category(a.dtype) == _category(b.dtype):
            # torch: a 0-dim tensor does not widen a dimensioned one of the same category
            # (float32 activations times a float64 scalar tensor stay float32)
            kept = b if a.ndim == 0 else a
            return replace(kept, device=kept.device if a.device == b.device else None)
        from dtypeguard.engine.values import promote

        dtype = promote(a.dtype, b.dtype)
        origin = a.origin if dtype == a.dtype else b.origin
        site = a.site if dtype == a.dtype else b.site  # where the operand that decided it became a tensor
        if isinstance(op, ast.Div) and kind == "tensor" and not is_float(a.dtype) and not is_float(b.dtype) and default is not None and is_float(default):
            why = f"true division of {a.dtype} by {b.dtype} tensors gives the default dtype ({default})"
            dtype, origin, site = default, self.origin(node, why), None
        elif isinstance(op, ast.Div) and dtype and dtype.startswith(("int", "uint")):
            dtype, origin, site = (("float64", self.origin(node, "integer division result"), None) if kind == "ndarray" else (None, None, None))
        ndim = max(a.ndim, b.ndim) if a.ndim is not None and b.ndim is not None else None  # (broadcasting)
        # (a residual `bn(conv(x)) + x` of autocast outputs is still an autocast output: DG017 follows it out of the block)
        autocast = (a.autocast and dtype == a.dtype) or (b.autocast and dtype == b.dtype)
        return Tensor(kind, dtype, a.device if a.device == b.device else None, origin, a.dev_origin, site=site, ndim=ndim, autocast=autocast)

    def _int_tensor_to_default(self, tensor: Tensor, op: ast.operator, node: ast.AST, default: str | None) -> Tensor:
        """torch makes an integer (or bool) tensor's true division, or its product with a Python
        float, the default dtype; where that default is not known, the dtype is not either."""
        if default is None or not is_float(default):
            return replace(tensor, dtype=None, origin=None, site=None)
        what = "true division" if isinstance(op, ast.Div) else "arithmetic with a Python float"
        return replace(tensor, dtype=default, origin=self.origin(node, f"{what} of an {tensor.dtype} tensor gives the default dtype ({default})"), site=None)

    def _numpy_with_python_number(self, arr: Tensor, number: Tensor, op: ast.operator, node: ast.AST) -> Value | None:
        """NEP 50: a Python number does not widen an array; it only makes integers float."""
        if arr.kind in ("pyfloat", "pyint"):
            return Tensor("pyfloat") if "pyfloat" in (arr.kind, number.kind) or isinstance(op, ast.Div) else Tensor("pyint")
        if arr.dtype is None:
            return Tensor(arr.kind, None, "cpu")
        row = promotion.NUMPY_WITH_PYFLOAT if number.kind == "pyfloat" else promotion.NUMPY_WITH_PYINT
        dtype = row.get(arr.dtype)
        if dtype is not None and isinstance(op, ast.Div):
            dtype = promotion.NUMPY_TRUE_DIVIDE.get(dtype)
        if dtype is None:
            return Tensor(arr.kind, None, "cpu")
        if dtype == arr.dtype:
            return arr
        return replace(arr, dtype=dtype, origin=self.origin(node, f"NumPy {arr.dtype} with a Python number gives {dtype}"), from_ints=not is_float(arr.dtype))


_NARROWED = re.compile(r"\.astype\((int32|int16|int8|uint8|float16)\)")  # a cast to a narrow dtype, chosen on purpose
_BUILTINS = frozenset({"list", "tuple", "enumerate", "zip", "range", "iter", "next", "len", "float", "int", "sorted", "reversed", "isinstance", "print", "super", "dict", "map", "filter", "min", "max", "abs", "round", "getattr", "setattr", "locals", "slice", "bool", "hasattr", "all", "any", "type", "str", "sum"})


def _list_as_array(value: Value | None, other: Value | None) -> Value | None:
    """A list of Python numbers met by a NumPy array (`(x[:, :4] * [0.0, 0.0, 0.1, 0.9])`):
    NumPy makes it an array of the dtype it infers (float64 for floats, int64 for ints)."""
    if not (isinstance(value, TupleV) and isinstance(other, Tensor) and other.kind == "ndarray"):
        return value
    kinds = {type(i.value) if type(i) is Const else None for i in value.items}
    dtype = "float64" if kinds and kinds <= {float, int} and float in kinds else "int64" if kinds == {int} else None
    return Tensor("ndarray", dtype, "cpu", None, ndim=1) if dtype else value


# tensor dtypes torch refuses as indices ("tensors used as indices must be long, int, byte or
# bool tensors"; uint8 and bool are masks, with their own shape rules)
NON_INDEX_DTYPES = frozenset({"float64", "float32", "float16", "bfloat16", "int8", "int16"})


def _non_index(index: Value | None) -> Tensor | None:
    """A torch tensor of a dtype torch cannot index with, alone or in a tuple of indices."""
    parts = index.items if isinstance(index, TupleV) else (index,)
    for part in parts:
        if isinstance(part, Tensor) and part.kind == "tensor" and part.dtype in NON_INDEX_DTYPES:
            return part
    return None


def _is_setter(method: Func, attr: str) -> bool:
    """`@<attr>.setter`: writing the attribute calls it."""
    node = method.node
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        isinstance(d, ast.Attribute) and d.attr == "setter" and isinstance(d.value, ast.Name) and d.value.id == attr for d in node.decorator_list
    )


def _is_property(method: Func) -> bool:
    """A getter (`@property`, or `@functools.cached_property`): reading the attribute calls it."""
    node = method.node
    return isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
        (isinstance(d, ast.Name) and d.id in ("property", "cached_property")) or (isinstance(d, ast.Attribute) and d.attr == "cached_property")
        for d in node.decorator_list
    )


def _matmul_ndim(a: int | None, b: int | None) -> int | None:
    """The rank of `a @ b`: a 1-D operand loses its dimension, batch dimensions broadcast."""
    if a is None or b is None or 0 in (a, b):
        return None
    if a == 1 or b == 1:
        return a + b - 2
    return max(a, b)


def _int_number(value: Value | None) -> bool:
    """A Python int (a constant, a config's int, or an int the analysis cannot read)."""
    return (type(value) in (Const, Configured) and type(value.value) is int) or (isinstance(value, Tensor) and value.kind == "pyint")  # type: ignore[union-attr]


def _count(value: Value | None) -> bool:
    """An int whose value is not known: `len(vocab)`, a config's size."""
    return (isinstance(value, Tensor) and value.kind == "pyint") or (type(value) is Configured and type(value.value) is int)


def _devices_clash(a: Tensor, b: Tensor) -> bool:
    """Two torch tensors, one on the CPU and of rank one or more, the other on a GPU (or the meta
    device) of any rank: only a 0-dim CPU tensor may meet a GPU one (a 0-dim GPU one meeting a
    CPU vector raises too)."""
    if a.kind != "tensor" or b.kind != "tensor" or {a.device, b.device} not in ({"cpu", "cuda"}, {"cpu", "auto"}, {"cpu", "meta"}):
        return False
    cpu = a if a.device == "cpu" else b
    return bool(cpu.ndim)


_OPERATORS: dict[type[ast.operator], str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|"}
_DEVICE_NAMES = frozenset({"cpu", "cuda", "mps", "xpu"})


def _plain(value: Value | None) -> object:
    """A value a comparison can be decided on, or `_UNKNOWN`."""
    if isinstance(value, Device):
        return value.name if value.name in _DEVICE_NAMES else _UNKNOWN
    if isinstance(value, DType):
        return ("dtype", value.name)
    if isinstance(value, Const) and (value.value is None or type(value.value) in (str, int, float, bool)):
        return value.value
    if isinstance(value, TupleV):
        items = tuple(_plain(v) for v in value.items)
        return _UNKNOWN if _UNKNOWN in items else items
    return _UNKNOWN


_UNKNOWN = object()
_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b, ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b,
    ast.Lt: lambda a, b: _number(a) < _number(b), ast.LtE: lambda a, b: _number(a) <= _number(b),
    ast.Gt: lambda a, b: _number(a) > _number(b), ast.GtE: lambda a, b: _number(a) >= _number(b),
}


def _number(value: Any) -> int | float:
    """Order comparisons fold for plain numbers only (`n_classes > 1`); a string or a tuple
    compared by order is rare in a branch test and stays unknown (TypeError)."""
    if type(value) not in (int, float, bool):
        raise TypeError(value)
    return cast("int | float", value)


_VERSION_ORDER: dict[type, Callable[[tuple[int, ...], tuple[int, ...]], bool]] = {
    ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Eq: operator.eq, ast.NotEq: operator.ne,
}


def _version_of(value: Value | None) -> tuple[int, ...] | None:
    """The release numbers of `torch.__version__` (the torch whose facts the tables state) or of
    a version string ("2.6", "1.13.1+cu117"), padded to three; None for anything else."""
    if value == Sym("torch.__version__"):
        return vocab.TORCH_VERSION
    if not (isinstance(value, Const) and isinstance(value.value, str)):
        return None
    found = re.match(r"(\d+(?:\.\d+)*)", value.value)
    if found is None:
        return None
    numbers = tuple(int(n) for n in found.group(1).split("."))
    return (*numbers, *(0,) * (3 - len(numbers)))


def _never_true_count(node: ast.Compare, first: Tensor, values: list[Value | None]) -> bool:
    """A sum of bool tensors or arrays (bool: `+` of bools is a logical OR in torch and NumPy)
    compared as if it counted: `== 2`, `>= 2`, `> 1` are never true."""
    left = node.left
    if not (isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add) and first.dtype == "bool" and first.kind in ("tensor", "ndarray")):
        return False
    if len(values) != 2 or len(node.ops) != 1 or type(values[1]) is not Const or type(values[1].value) is not int:
        return False
    bound, op = values[1].value, node.ops[0]
    return (isinstance(op, ast.Eq) and bound not in (0, 1)) or (isinstance(op, ast.GtE) and bound >= 2) or (isinstance(op, ast.Gt) and bound >= 1)


def _fold_compare(ops: list[ast.cmpop], values: list[Value | None]) -> Value | None:
    """`device != "cpu"` with `device` known to be "cpu": a known truth prunes a branch that
    cannot run. Equality and membership of plain constants, order of plain numbers; anything
    else is unknown."""
    if len(ops) == 1 and isinstance(ops[0], (ast.Is, ast.IsNot)) and len(values) == 2:
        # `self.labels is None` where labels is an array (or any object the engine made): False
        left, right = values
        other = right if isinstance(left, Const) and left.value is None else left if isinstance(right, Const) and right.value is None else None
        if isinstance(other, Tensor) and other.maybe_none:
            return None  # None on some path to here
        if isinstance(other, (Tensor, Ref, TupleV, DictV, Params, DType, Func, Klass)):  # (`self.preprocessor is not None` holding a function)
            return Const(isinstance(ops[0], ast.IsNot))
        if isinstance(left, Klass) and isinstance(right, Klass):
            return Const((left.node is right.node) != isinstance(ops[0], ast.IsNot))  # `type(cfg) is SGDConfig`
    if len(ops) == 1 and isinstance(ops[0], (ast.In, ast.NotIn)) and len(values) == 2 and isinstance(values[1], DictV) and not values[1].keys:
        # `if path in cache: return cache[path]` with the cache still `{}`: not there yet (a
        # memo's hit returns what a miss computed, so its branch adds nothing to know)
        return Const(isinstance(ops[0], ast.NotIn))
    if len(ops) == 1 and isinstance(ops[0], (ast.In, ast.NotIn)) and len(values) == 2 and isinstance(values[1], DictV) and None not in values[1].keys:
        key = _plain(values[0])  # `"loss_weights" in kwargs`: a dict whose keys are all known has it or not
        if key is not _UNKNOWN and type(key) in (str, int):
            return Const((key in values[1].keys) != isinstance(ops[0], ast.NotIn))
    if len(values) == 2 and any(v == Sym("torch.__version__") for v in values):
        first, second = (_version_of(v) for v in values)
        decide = _VERSION_ORDER.get(type(ops[0]))  # `torch.__version__ < "2.6"`: a TorchVersion compares as a version
        return Const(decide(first, second)) if decide is not None and first is not None and second is not None else None
    plain = [_plain(v) for v in values]
    if _UNKNOWN in plain:
        return None
    result = Configured if any(isinstance(v, Configured) for v in values) else Const
    for op, a, b in zip(ops, plain, plain[1:], strict=False):
        decide = _COMPARE.get(type(op))
        if decide is None or (isinstance(op, (ast.Is, ast.IsNot)) and None not in (a, b)):
            return None
        try:
            if not decide(a, b):
                return result(False)
        except TypeError:
            return None
    return result(True)


_GETATTRS: weakref.WeakKeyDictionary[ast.AST, dict[str, list[ast.expr]]] = weakref.WeakKeyDictionary()


def _unnamed_getattrs(func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[ast.expr]]:
    """Per function, once: the names bound by `name = getattr(obj, <not a literal>)`, each with
    the `obj` expressions (a `.data =` write through such a name may reach any of obj's
    parameters). Cached: the function runs at every call and on every re-analysis."""
    cached = _GETATTRS.get(func)
    if cached is None:
        cached = {}
        for stmt in ast.walk(func):
            if not (isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name)):
                continue
            call = stmt.value
            if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id == "getattr" and len(call.args) >= 2 and not isinstance(call.args[1], ast.Constant):
                cached.setdefault(stmt.targets[0].id, []).append(call.args[0])  # (`getattr(l, "proj")` is read as `l.proj`)
        _GETATTRS[func] = cached
    return cached


def _ordinal(value: Value | None) -> bool:
    """A constant that names a CUDA device by its index (`.to(0)`)."""
    return isinstance(value, Const) and type(value.value) is int and value.value >= 0


def _choice(value: Value | None) -> Value | None:
    """`torch.bfloat16 if args.dtype == "bf16" else torch.float32`: a dtype chosen by a condition
    is a setting; the cast that applies it (`policy.to(dtype)`) is where a fix goes, not the
    line that picked it (so the written dtype's site is dropped)."""
    return replace(value, site=None) if isinstance(value, DType) and value.origin is None else value


def _object_truth(value: Value | None, state: State) -> bool | None:
    """Python's truth of a name that holds None (False) or an instance of a plain class of the
    script's own, one with no base, `__bool__` nor `__len__` (True: a `Compose` of transforms);
    None for anything else."""
    if isinstance(value, Const) and value.value is None:
        return False
    if isinstance(value, DictV) and value.keys and None not in value.keys:
        return True  # `Compose(transforms) if transforms else None` of a dict with known keys
    obj = state.heap.get(value.oid) if isinstance(value, Ref) else None
    if isinstance(obj, InstanceObj) and obj.klass is not None and not obj.is_dataset:
        klass = obj.klass
        plain = all(isinstance(b, ast.Name) and b.id == "object" for b in klass.node.bases) and not klass.node.keywords
        if plain and klass.method("__bool__") is None and klass.method("__len__") is None:
            return True
    return None


def _fold_boolop(op: ast.boolop, values: list[Value | None]) -> Value | None:
    """`a and b` / `a or b` of constants whose truth is known, as Python gives it: the first
    operand that decides, else the last (`"fused" in sig.parameters and all(...)`)."""
    for value in values[:-1]:
        truth = _truth(value) if type(value) is Const else None
        if truth is None:
            return None
        if truth == isinstance(op, ast.Or):
            return value  # (`x or ...` with x true, `x and ...` with x false)
    last = values[-1] if values else None
    return last if type(last) is Const else None



def _cuda_flag(test: ast.expr) -> bool:
    """A test that is only a flag whose name asks for CUDA or a GPU (`USE_CUDA`, `args.cuda`,
    `config["use_cuda"] is True`, `self.use_gpu`); negated or compared flags are not."""
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.Eq)):
        right = test.comparators[0]
        if not (isinstance(right, ast.Constant) and right.value is True):
            return False
        test = test.left
    if isinstance(test, ast.Name):
        name = test.id
    elif isinstance(test, ast.Attribute):
        name = test.attr
    elif isinstance(test, ast.Subscript) and isinstance(test.slice, ast.Constant) and isinstance(test.slice.value, str):
        name = test.slice.value
    else:
        return False
    low = name.lower()
    return ("cuda" in low or "gpu" in low) and not any(w in low for w in ("no_", "nocuda", "nogpu", "cpu", "disable", "num", "n_gpu", "ngpu", "id"))


def _flag_moved_to_cuda(stmt: ast.If) -> list[ast.expr]:
    """`if config["use_cuda"] is True: model.cuda()`, `if args.gpu: net = net.cuda()`: what a
    branch moves with `.cuda()` when a flag the user sets (its name says CUDA or GPU) decides it
    and the other way does not also go to the GPU; a model among them means the script runs on
    both, as one that asks `torch.cuda.is_available()` does. Names and attributes only."""
    return list(syntax_fact(stmt, "flag_moved_to_cuda", lambda: _walk_flag_moved_to_cuda(stmt)))


def _walk_flag_moved_to_cuda(stmt: ast.If) -> tuple[ast.expr, ...]:
    names = test_words(stmt.test)
    if not any("cuda" in n.lower() or "gpu" in n.lower() for n in names) or "is_available" in names:
        return ()

    def moved(block: list[ast.stmt]) -> list[ast.expr]:
        return [
            n.func.value for part in block for n in ast.walk(part)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr == "cuda"
        ]

    # (`if args.gpu is not None: model.cuda(args.gpu) else: model = DataParallel(model).cuda()`
    # only picks which GPU)
    return () if moved(stmt.orelse) else tuple(
        r for r in moved(stmt.body) if isinstance(r, (ast.Name, ast.Attribute)) and all(isinstance(n, (ast.Name, ast.Attribute, ast.Load)) for n in ast.walk(r))
    )


# one float drawn uniformly from [0, 1) when called with no arguments
_UNIFORM_DRAWS = frozenset({
    "random.random", "numpy.random.rand", "numpy.random.random", "numpy.random.random_sample", "numpy.random.sample",
    "numpy.random.ranf", "numpy.random.Generator.random",
})


_DRAW_NAMES = frozenset({name.rsplit(".", 1)[1] for name in _UNIFORM_DRAWS} | {"uniform", "rand"})


def _truth(value: Const) -> bool | None:
    """Python's truth of a plain constant; None for anything else."""
    if value.value is None or type(value.value) in (bool, int, float, str):
        return bool(value.value)
    return None


def _compares_to_device_name(test: ast.expr) -> bool:
    """`if device != "cpu":` / `if dev not in ["cpu"]:`: the branch depends on the device."""
    if not isinstance(test, ast.Compare):
        return False
    for part in [test.left, *test.comparators]:
        items = part.elts if isinstance(part, (ast.List, ast.Tuple, ast.Set)) else [part]
        if any(isinstance(i, ast.Constant) and isinstance(i.value, str) and i.value.split(":")[0] in _DEVICE_NAMES for i in items):
            return True
    return False


def _compares_devices(test: ast.expr) -> bool:
    """`if device != next(model.parameters()).device:` (alone or in an `and`/`or`): the branch
    depends on which device something is on."""
    return syntax_fact(test, "compares_devices", lambda: _walk_compares_devices(test))


def _walk_compares_devices(test: ast.expr) -> bool:
    for node in ast.walk(test):
        if isinstance(node, ast.Compare) and any(isinstance(p, ast.Attribute) and p.attr == "device" for p in [node.left, *node.comparators]):
            return True
    return False


def _moves_once(stmt: ast.If) -> bool:
    """`if not self.anchors.is_cuda: self.anchors = self.anchors.cuda()` (G-TAD, scan 46): the test
    asks where that tensor is, and the branch moves it: it runs on any machine the first time (a
    tensor's device, not the machine's GPU), so it is no GPU test."""
    test = stmt.test
    if not (isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not) and isinstance(test.operand, ast.Attribute) and test.operand.attr == "is_cuda"):
        return False
    tested = ast.unparse(test.operand.value)
    return any(
        isinstance(s, ast.Assign) and len(s.targets) == 1 and ast.unparse(s.targets[0]) == tested
        and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Attribute) and s.value.func.attr in ("cuda", "to")
        and ast.unparse(s.value.func.value) == tested
        for s in stmt.body
    )


def _tests_is_cuda(test: ast.expr) -> bool:
    """`if x.is_cuda:` / `if not x.is_cuda:`: the branch follows a tensor's device."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    return isinstance(test, ast.Attribute) and test.attr == "is_cuda"


def _cuda_side(test: ast.expr) -> bool | None:
    """Which branch of an `if` runs only on a machine with a GPU: True for the body of `if
    torch.cuda.is_available():`, `if x.is_cuda:`, `if device.type == "cuda":` (and `... and
    ...` of one), False for their `else` (the test negated), None when the test does not say."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        side = _cuda_side(test.operand)
        return None if side is None else not side
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return True if any(_cuda_side(v) is True for v in test.values) else None
    if isinstance(test, ast.Call) and not test.args and not test.keywords:
        func = ast.unparse(test.func)
        return True if func == "cuda.is_available" or func.endswith(".cuda.is_available") else None
    if isinstance(test, ast.Attribute) and test.attr == "is_cuda":
        return True
    if isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Eq, ast.NotEq)):
        right = test.comparators[0]
        if isinstance(right, ast.Constant) and right.value == "cuda" and isinstance(test.left, ast.Attribute) and test.left.attr == "type":
            return isinstance(test.ops[0], ast.Eq)
    return None


def _cpu_side(state: State) -> None:
    """Code that runs only on a machine without a GPU (the `else` of `if train_on_gpu:`): there,
    a tensor or device that is "cuda when available" is on the CPU (udacity's `p = p.cpu()` under
    `if train_on_gpu:` leaves `p` on the CPU on both sides)."""
    def narrowed(value: Value | None) -> Value | None:
        if isinstance(value, Tensor) and value.kind == "tensor" and value.device == "auto":
            return replace(value, device="cpu")
        if isinstance(value, Device) and value.name == "auto":
            return Device("cpu")
        return None

    _rebind(state, narrowed)
    state.globals[NO_GPU] = Const(True)  # (a `.cuda()` here raises: `call_effects.CUDA_WITHOUT_GPU`)


def _rebind(state: State, changed: Callable[[Value | None], Value | None]) -> None:
    """Rebind every name of the frame and the module whose value `changed` maps to a new one
    (None: kept as it is)."""
    if state.locals is not None:
        for name, value in list(state.locals.items()):
            new = changed(value)
            if new is not None:
                state.locals[name] = new
    for key, held in list(state.globals.items()):
        new = changed(held)
        if new is not None:
            state.globals[key] = new


_FUNCTION_MODES = frozenset({"TorchFunctionMode", "TorchDispatchMode"})


def _mode_fills(func: Func | None) -> dict[str, str]:
    """The factory keywords a mode's `__torch_function__` fills from its own attributes
    (`kwargs["dtype"] = self.dtype`): keyword -> attribute name."""
    found: dict[str, str] = {}
    if func is None or isinstance(func.node, ast.Lambda):
        return found
    for node in ast.walk(func.node):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript)):
            continue
        key, value = node.targets[0].slice, node.value
        if isinstance(key, ast.Constant) and key.value in ("dtype", "device") and isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
            found[key.value] = value.attr
    return found


def _precision_option(key: str) -> bool:
    """An option whose name says it picks the precision (`args.fp16`, `opt.half`, `cfg.use_amp`)."""
    last = key.rsplit(".", 1)[-1].lower()
    return any(w in last for w in ("fp16", "half", "bf16", "precision", "amp", "float16", "bfloat16"))


def _option_key(test: ast.expr) -> str | None:
    """The option a test reads (`args.cuda`, `self.gpu_mode`, `not opt.cpu`), by its source."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test = test.operand
    if isinstance(test, (ast.Name, ast.Attribute)):
        return ast.unparse(test)
    return None


def _forget_devices_set_in(extents: list[Span], state: State) -> None:
    """Tensors and modules whose device was set inside one of `extents` have an unknown device."""
    def inside(origin: Origin | None) -> bool:
        return origin is not None and any(
            origin.span.file == e.file and e.line <= origin.span.line <= e.end_line for e in extents
        )

    def forgotten(value: Value | None) -> Value | None:
        if isinstance(value, Tensor) and value.device is not None and inside(value.dev_origin):
            return replace(value, device=None, dev_origin=None)
        return None

    _rebind(state, forgotten)
    if state.ddevice.span is not None and inside(Origin(state.ddevice.span, "")):
        # a default set there (`if args.cuda: torch.set_default_tensor_type('torch.cuda.FloatTensor')`)
        # is not known where the option is otherwise (DIoU-SSD's `if not args.cuda:`, scan 44)
        state.ddevice = Default(None, state.ddevice.span, state.ddevice.call)
    if state.ddtype.span is not None and inside(Origin(state.ddtype.span, "")):
        state.ddtype = Default(None, state.ddtype.span, state.ddtype.call)
    for oid, obj in list(state.heap.items()):
        if isinstance(obj, ModuleObj) and obj.device is not None and inside(obj.device_origin):
            state.heap[oid] = replace(obj, device=None, device_origin=None)


def _gpu_side(test: ast.expr, value: Value | None) -> bool | None:
    """`_cuda_side` of a test, or of the value it evaluated to: a name bound to a GPU test
    (`if use_cuda:`, `if not train_on_gpu:`)."""
    side = _cuda_side(test)
    if side is None and isinstance(value, GpuTest):
        side = True if value.on_true else False if value.on_false else None
    return side


def _is_cuda_name(test: ast.expr) -> tuple[str, bool] | None:
    """`if x.is_cuda:` (x, True) / `if not x.is_cuda:` (x, False) on a plain name; None otherwise."""
    positive = True
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        test, positive = test.operand, False
    if isinstance(test, ast.Attribute) and test.attr == "is_cuda" and isinstance(test.value, ast.Name):
        return test.value.id, positive
    return None


def _blur_devices(a: State, b: State, modules: bool = False) -> None:
    """After a branch on an unknown device test, a tensor moved in one branch only has an
    unknown device (not "cuda when available"): the test usually follows the model's device."""
    pairs: list[tuple[dict[object, Value | None], dict[object, Value | None]]] = []
    if a.locals is not None and b.locals is not None:
        pairs.append((a.locals, b.locals))  # type: ignore[arg-type]
    pairs.append((a.globals.vars, b.globals.vars))
    for va, vb in pairs:
        for key in dict.fromkeys([*va, *vb]):
            x = va.get(key) if key in va else (b.lookup(key) if isinstance(key, str) else None)
            y = vb.get(key) if key in vb else (a.lookup(key) if isinstance(key, str) else None)
            if isinstance(x, Tensor) and isinstance(y, Tensor) and x.device != y.device:
                va[key] = replace(x, device=None, dev_origin=None)
                vb[key] = replace(y, device=None, dev_origin=None)
    # a module moved in one branch only (timm's ModelEmaV3: `if device != next(model.parameters()).device:
    # self.module.to(device=device)`): its device is not known either
    for oid in dict.fromkeys([*a.heap.vars, *b.heap.vars]) if modules else ():
        ma, mb = a.heap.get(oid), b.heap.get(oid)
        if isinstance(ma, ModuleObj) and isinstance(mb, ModuleObj) and ma.device != mb.device:
            a.heap[oid] = replace(ma, device=None, device_origin=None)
            b.heap[oid] = replace(mb, device=None, device_origin=None)


def _broadcast_ndim(values: list[Value | None]) -> int | None:
    """The rank of an elementwise result: broadcasting gives the largest operand rank; Python
    numbers add none; an operand of unknown rank leaves it unknown."""
    ranks: list[int] = []
    for value in values:
        if isinstance(value, Tensor) and value.kind in ("pyint", "pyfloat", "pybool", "npscalar"):
            continue  # a number (a NumPy scalar too) adds no dimension
        if isinstance(value, Const) and type(value.value) in (int, float, bool):
            continue
        if isinstance(value, TupleV) and (depth := nested_depth(value)) is not None:
            ranks.append(depth)  # a list of numbers written out (`probs < [0.3, 0.1]`): its nesting
            continue
        if not (isinstance(value, Tensor) and value.ndim is not None):
            return None
        ranks.append(value.ndim)
    return max(ranks) if ranks else None


def _constant_slice(node: ast.Slice) -> tuple[int | None, int | None] | None:
    """`[a:b]` with a start that is absent or a non-negative int, an int or absent stop and no
    step: its bounds (a negative start would count from an end a grown list does not know)."""
    bounds: list[int | None] = []
    for expr in (node.lower, node.upper):
        if expr is None:
            bounds.append(None)
        elif isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.USub) and isinstance(expr.operand, ast.Constant) and type(expr.operand.value) is int:
            bounds.append(-expr.operand.value)
        elif isinstance(expr, ast.Constant) and type(expr.value) is int:
            bounds.append(expr.value)
        else:
            return None
    start, stop = bounds
    if node.step is not None or (start is not None and start < 0):
        return None
    return start, stop


def _alike(items: list[Value | None], state: State) -> Value | None:
    """A value that stands for each of `items`: they are equal, or loaders yielding alike batches."""
    if items and all(i == items[0] for i in items):
        return items[0]
    if items and all(isinstance(i, Tensor) and i.dtype for i in items):
        # `cols[j]` of tensors made apart with one dtype: that dtype (where each was made differs)
        joined: Value | None = items[0]
        for item in items[1:]:
            joined = join(joined, item)
        return joined if isinstance(joined, Tensor) and joined.dtype else None
    kinds = {number_kind(i) for i in items}
    if items and len(kinds) == 1 and "" not in kinds:
        # `CLASSES[category]` with the key read from a file: one of the table's numbers, a Python
        # number of their kind (BDD's category ids, set 83)
        return Tensor(kinds.pop())
    loaders = [state.heap.get(i.oid) if isinstance(i, Ref) else None for i in items]
    if items and all(isinstance(o, LoaderObj) for o in loaders) and len({o.elements for o in loaders if isinstance(o, LoaderObj)}) == 1:
        return items[0]
    return None


def _index_parts(index_node: ast.expr) -> int:
    """How many dimensions an index addresses (`a[:, -1]`: 2; `None` and `...` address none)."""
    parts = index_node.elts if isinstance(index_node, ast.Tuple) else [index_node]
    return sum(1 for p in parts if not (isinstance(p, ast.Constant) and (p.value is None or p.value is Ellipsis)))


def _indexed_ndim(ndim: int | None, index_node: ast.expr, index: Value | None) -> int | None:
    """`a[i]` drops a dimension for each integer index, `a[:, -1]` one, `a[:, 1:]` none; an
    array of integer indices alone replaces the first dimension by its own; a mask, several
    index arrays or anything unknown leaves the rank unknown."""
    if ndim is None:
        return None
    parts = index_node.elts if isinstance(index_node, ast.Tuple) else [index_node]
    items = index.items if isinstance(index, TupleV) and isinstance(index_node, ast.Tuple) else (index,)
    rows = len(items) == len(parts) and (len(parts) == 1 or (len(parts) == 2 and isinstance(parts[1], ast.Constant) and parts[1].value is Ellipsis))
    picker = items[0] if rows and not isinstance(parts[0], ast.Slice) else None
    if isinstance(picker, Tensor) and picker.kind in ("ndarray", "tensor") and _is_index_array(picker) and ndim >= 1:
        return ndim - 1 + picker.ndim  # type: ignore[operator]  # `np.eye(10)[labels]`, `a[idx, ...]`: one row per index
    if len(items) != len(parts):
        return None
    dropped = 0
    for part, value in zip(parts, items, strict=True):
        if isinstance(part, ast.Slice) or (isinstance(value, Sym) and value.name == SLICE):
            continue
        if isinstance(part, ast.Constant) and part.value is None:
            dropped -= 1  # `a[None, :]` adds a dimension
            continue
        if isinstance(part, ast.Constant) and part.value is Ellipsis:
            continue  # `a[..., None]`, `a[..., 0]`: the dimensions it stands for stay as they are
        if (isinstance(value, Const) and type(value.value) is int) or (isinstance(value, Tensor) and value.kind == "pyint"):
            dropped += 1
            continue
        return None
    return ndim - dropped if ndim - dropped >= 0 else None


_CASTS = frozenset({"half", "float", "double", "bfloat16", "to", "type"})


_JUMPS = (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom, ast.Await)


def _keyword_fallback(stmt: ast.Try, handler: ast.ExceptHandler) -> bool:
    """`try: torch.load(path, map_location="cpu", weights_only=False)` / `except TypeError:
    torch.load(path, map_location="cpu")` (RecBole's PR #2219): the handler calls what the `try`
    calls without a keyword the `try` passes, so it runs only with a library too old to know that
    keyword (the `TypeError` of an unexpected keyword), never with the one the analysis models."""
    caught = handler.type
    names = caught.elts if isinstance(caught, ast.Tuple) else [caught] if caught is not None else []
    if not names or not all(isinstance(n, ast.Name) and n.id == "TypeError" for n in names):
        return False
    tried = {ast.dump(c.func): {k.arg for k in c.keywords if k.arg} for n in stmt.body for c in ast.walk(n) if isinstance(c, ast.Call)}
    calls = [c for n in handler.body for c in ast.walk(n) if isinstance(c, ast.Call) and ast.dump(c.func) in tried]
    return bool(calls) and all({k.arg for k in c.keywords if k.arg} < tried[ast.dump(c.func)] for c in calls)


def _unrolled(iterable: Value | None, stmt: ast.For | ast.AsyncFor) -> bool:
    """A loop over a short list of unlike items the analysis knows one by one (a `Compose` of
    transforms, a list of different modules) runs its body once per item, in order, which is
    what Python does; joined into one unknown item, each step's result would be unknown. Only a
    body without jumps (break, continue, return, yield) is run this way: each item runs it to the end."""
    if isinstance(stmt, ast.AsyncFor) or not isinstance(iterable, TupleV) or not 0 < len(iterable.items) <= MAX_UNROLLED:
        return False
    # (one item: the body runs once, as Python runs it; the usual rounds would join in the
    # state of a loop that did not run, which a known one-item loop never is)
    if len(iterable.items) > 1 and all(item == iterable.items[0] for item in iterable.items):
        return False  # alike items: the loop's usual two rounds over one item say the same
    return not any(isinstance(node, _JUMPS) for node in _frame_nodes(stmt.body))


def _hard_cuda_meets_auto(left: Value | None, right: Value | None) -> bool:
    """One operand hard-coded on CUDA, the other on the device the script chooses by availability."""
    return any(hard_coded_cuda(a) and isinstance(b, Tensor) and b.kind == "tensor" and b.device == "auto" for a, b in ((left, right), (right, left)))


def _tail_slice(at: ast.expr, length: int) -> int | None:
    """`lst[3:]` written with a literal start (and no stop nor step) within a list of `length`:
    the start; None for anything else."""
    if not (isinstance(at, ast.Slice) and at.upper is None and at.step is None and isinstance(at.lower, ast.Constant)):
        return None
    start = at.lower.value
    return start if type(start) is int and 0 <= start <= length else None


def _integer_index(index: Value | None) -> bool:
    """An index with an integer index tensor in it (`y[t]`, `y[t, ...]`, `y[:, idx]`): advanced
    indexing, which writes with `index_put_`."""
    parts = index.items if isinstance(index, TupleV) else (index,)
    return any(isinstance(p, Tensor) and p.kind == "tensor" and p.dtype in ("int64", "int32", "int16", "int8") for p in parts)


def _scalar_fill(value: Value | None) -> bool:
    """A Python number, or a 0-dim tensor: what indexing assignment writes with `masked_fill_`."""
    if type(value) is Const:
        return type(value.value) in (int, float, bool)
    return isinstance(value, Tensor) and (value.kind in ("pyfloat", "pyint") or (value.kind == "tensor" and value.ndim == 0))


def _fills_with_other_floats(base: Value | None, value: Value | None) -> bool:
    """Whether `base[...] = value` writes floats of another dtype into a torch tensor (which
    converts them to its own)."""
    return (
        isinstance(base, Tensor) and base.kind == "tensor" and is_float(base.dtype) and isinstance(value, Tensor)
        and value.kind == "tensor" and is_float(value.dtype) and value.dtype != base.dtype and not value.autocast
    )


def _write_back(name: str, made: Value, state: State) -> None:
    """A container changed in place under `name`: a module global changed from a function
    (`REGISTRY[name] = fn()`) stays the module's, anything else is bound where it is."""
    if state.locals is not None and name not in state.locals and name in state.globals:
        state.globals[name] = made
    else:
        state.bind(name, made)


def _is_init(func: Func) -> bool:
    return func.owner is not None and isinstance(func.node, ast.FunctionDef) and func.node.name == "__init__"


def _plain_data(value: Value | None) -> bool:
    """An attribute an isolated method may see as `__init__` left it: an array, tensor or number
    the class made, or a container of them (no object of that run's heap)."""
    if isinstance(value, Tensor):
        return value.dtype is not None
    if isinstance(value, TupleV):
        return bool(value.items) and all(_plain_data(item) for item in value.items)
    if isinstance(value, DictV):
        return bool(value.items) and all(_plain_data(item) for item in value.items)
    return False


def _alike_items(item: Value | None, value: Value | None) -> bool:
    """An item that a write at an unknown index leaves what it was: the same value, or one of the
    same kind, dtype, device and rank (`v[vocab[w]] += 1` in a list of Python ints)."""
    if item == value:
        return True
    number = {int: "pyint", float: "pyfloat"}
    kinds = [
        number.get(type(v.value)) if type(v) is Const else v.kind if isinstance(v, Tensor) and v.kind in ("pyint", "pyfloat") else None
        for v in (item, value)
    ]
    if kinds[0] is not None and kinds[0] == kinds[1]:
        return True  # Python numbers of one kind (`counts[w] += 1`)
    return (
        isinstance(item, Tensor) and isinstance(value, Tensor)
        and (item.kind, item.dtype, item.device, item.ndim) == (value.kind, value.dtype, value.device, value.ndim)
    )


def _every_index(stmt: ast.For | ast.AsyncFor) -> tuple[str, str] | None:
    """`for i in range(len(xs)):` whose body writes `xs[i] = ...` at its top level: (xs, i), a
    loop that replaces every item of the list."""
    it, target = stmt.iter, stmt.target
    if not (
        isinstance(target, ast.Name) and isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id == "range"
        and len(it.args) == 1 and not it.keywords and isinstance(it.args[0], ast.Call) and isinstance(it.args[0].func, ast.Name)
        and it.args[0].func.id == "len" and len(it.args[0].args) == 1 and isinstance(it.args[0].args[0], ast.Name)
    ):
        return None
    listed = it.args[0].args[0].id
    for body_stmt in stmt.body:
        if (
            isinstance(body_stmt, ast.Assign) and len(body_stmt.targets) == 1 and isinstance(body_stmt.targets[0], ast.Subscript)
            and isinstance(body_stmt.targets[0].value, ast.Name) and body_stmt.targets[0].value.id == listed
            and isinstance(body_stmt.targets[0].slice, ast.Name) and body_stmt.targets[0].slice.id == target.id
        ):
            return listed, target.id
    return None


def _frame_nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of a block's statements, not entering the functions and classes it defines."""
    for stmt in body:
        yield stmt
        if not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield from own_nodes(stmt)


_WALKS = ("children", "named_children", "modules", "named_modules", "parameters", "named_parameters")


def _walked_module(stmt: ast.For | ast.AsyncFor) -> ast.expr | None:
    """The module whose parts a loop casts one by one (`for m in model.modules(): m.half()`,
    `for n, c in model.named_children(): c.to(torch.float16)`, `for p in model.parameters():
    p.data = p.data.half()`), else None."""
    it = stmt.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in _WALKS):
        return None
    names = {n.id for n in ast.walk(stmt.target) if isinstance(n, ast.Name)}
    for node in ast.walk(ast.Module(body=stmt.body, type_ignores=[])):
        if isinstance(node, ast.Assign) and it.func.attr in ("parameters", "named_parameters"):
            # `for p in model.parameters(): if p.requires_grad: p.data = p.data.to(dtype)`
            if any(isinstance(t, ast.Attribute) and t.attr == "data" and isinstance(t.value, ast.Name) and t.value.id in names for t in node.targets):
                return it.func.value
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _CASTS:
            receiver = node.func.value
            if isinstance(receiver, ast.Name) and receiver.id in names:
                return it.func.value
    return None


def _trainable_only(stmt: ast.For | ast.AsyncFor) -> bool:
    """`for p in model.parameters(): if p.requires_grad: p.data = ...`: the loop's whole body is
    one test of the parameter's `requires_grad` whose body replaces its `.data`."""
    it, target = stmt.iter, stmt.target
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "parameters" and isinstance(target, ast.Name)):
        return False
    if len(stmt.body) != 1 or not isinstance(stmt.body[0], ast.If) or stmt.body[0].orelse:
        return False
    test = stmt.body[0].test
    if not (isinstance(test, ast.Attribute) and test.attr == "requires_grad" and isinstance(test.value, ast.Name) and test.value.id == target.id):
        return False
    return any(
        isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "data" and isinstance(t.value, ast.Name) and t.value.id == target.id for t in node.targets)
        for node in stmt.body[0].body
    )


def _replaced_data(stmt: ast.For | ast.AsyncFor) -> str | None:
    """`for p in model.parameters(): ... p.data = ...` with the assignment straight in the body
    (so every parameter gets it; under an `if`, only some do): the loop variable, else None."""
    it = stmt.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr == "parameters" and isinstance(stmt.target, ast.Name)):
        return None
    name = stmt.target.id
    if _trainable_only(stmt):
        return name  # (its writes are those of the trained parameters)
    for node in stmt.body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Attribute) and t.attr == "data" and isinstance(t.value, ast.Name) and t.value.id == name for t in node.targets):
            return name
    return None


def _dict_like(obj: object) -> bool:
    """An instance of the script's own subclass of `UserDict` or `dict` (keys hold values)."""
    return isinstance(obj, InstanceObj) and obj.klass is not None and any(b in ("collections.UserDict", "builtins.dict") for b in obj.klass.bases)


def _cuda_tag_lambda(node: ast.expr | None) -> bool:
    """`lambda storage: "cuda:0"` (or `"cuda:0" if s.device.type == "cpu" else None`): a
    location tag that says every storage (every CPU storage) is on the GPU."""
    if not isinstance(node, ast.Lambda):
        return False
    body = node.body
    returns = [body.body, body.orelse] if isinstance(body, ast.IfExp) else [body]
    return any(isinstance(r, ast.Constant) and str(r.value).startswith("cuda") for r in returns)


def _registers_cuda_tagger(node: ast.expr) -> bool:
    """`torch.serialization.register_package(priority, tagger, deserializer)` with a tagger
    that names a CUDA device: every later `torch.save` writes CUDA storage tags (a way to
    write a checkpoint as a GPU machine would, on a CPU one)."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "register_package"):
        return False
    tagger = node.args[1] if len(node.args) >= 2 else next((k.value for k in node.keywords if k.arg == "tagger"), None)
    return _cuda_tag_lambda(tagger)


def _is_index_array(t: Tensor) -> bool:
    """An array of integer indices of known rank (not a mask)."""
    return bool(t.dtype) and t.dtype != "bool" and not is_float(t.dtype) and t.ndim is not None


def _category(dtype: str) -> int:
    """torch's promotion categories: bool < integers < floats."""
    return 0 if dtype == "bool" else 2 if is_float(dtype) else 1


def _patches_location_tag(node: ast.expr) -> bool:
    """`mock.patch("torch.serialization.location_tag", ...)` or
    `mock.patch.object(torch.serialization, "location_tag", ...)` (any import spelling)."""
    if not isinstance(node, ast.Call):
        return False
    func, args = node.func, node.args
    if isinstance(func, ast.Attribute) and func.attr == "object" and isinstance(func.value, (ast.Attribute, ast.Name)):
        patch = func.value.attr if isinstance(func.value, ast.Attribute) else func.value.id
        return (
            patch == "patch" and len(args) >= 2 and isinstance(args[1], ast.Constant) and args[1].value == "location_tag"
            and ast.unparse(args[0]).endswith("serialization")
        )
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    return name == "patch" and bool(args) and isinstance(args[0], ast.Constant) and args[0].value == "torch.serialization.location_tag"


def _wide_with_number(left: Value | None, right: Value | None, op: ast.operator) -> str | None:
    """`df["Fare"] + 1` on a column read from a file (int64 or float64): a Python int keeps
    either (the result is still int64 or float64), a Python float or true division gives
    float64; None for anything else."""
    wide = next((v for v in (left, right) if isinstance(v, Tensor) and v.kind in ("series", "frame") and v.dtype == WIDE), None)
    other = right if wide is left else left
    if wide is None or not isinstance(op, (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Mod)):
        return None
    kind = number_kind(other) if isinstance(other, (Const, Tensor)) else None
    if kind == "pyint" and not isinstance(op, ast.Div):
        return WIDE
    return "float64" if kind in ("pyint", "pyfloat") else None


def _picks_columns(index: ast.expr) -> bool:
    """`[:, -1]` / `[:, :-1]` / `[:, 3:]`: every row, some columns of a 2-D table."""
    if not (isinstance(index, ast.Tuple) and len(index.elts) == 2):
        return False
    rows, cols = index.elts
    every = isinstance(rows, ast.Slice) and rows.lower is None and rows.upper is None and rows.step is None
    if isinstance(cols, ast.UnaryOp) and isinstance(cols.op, ast.USub):
        cols = cols.operand
    column = isinstance(cols, ast.Constant) and type(cols.value) is int  # not `None` (a new axis) or `...`
    some = isinstance(cols, ast.Slice) and (cols.lower is not None or cols.upper is not None)
    return every and (column or some)


def _row_field(row: Tensor, dtype: str | None, why: Origin) -> Tensor:
    """A field of one row (`df.iloc[i].rating`): a NumPy number. pandas gives the row the
    columns' common dtype when they are all numbers (an int64 label beside a float32 feature
    reads as float64), and an object row, whose fields keep their own dtypes, when a bool sits
    among other columns; with a column of unknown dtype (text or numbers) neither is known."""
    columns = [d for _, d in row.columns or ()]
    if not columns or None in columns:
        return Tensor("npscalar", None, "cpu")
    if len(set(columns)) > 1 and "bool" in columns:
        return Tensor("npscalar", dtype, "cpu", why)
    common = row.dtype if row.dtype and row.dtype != WIDE else None
    return Tensor("npscalar", common, "cpu", (why if common == dtype else row.origin) if common else None)


def _one_int(index: Value | None) -> bool:
    """An index that picks one row: a Python int, known or not."""
    return (isinstance(index, Const) and type(index.value) is int) or (isinstance(index, Tensor) and index.kind == "pyint")


def _category_codes(kind: str, here: Origin) -> Tensor:
    """pandas numbers categories in the narrowest signed integer that holds them: int8 up to 127
    categories (int16 beyond): never the int64 a class-index target or an index needs."""
    return Tensor(kind, "int8", "cpu", Origin(here.span, "pandas category codes are int8 (int16 beyond 127 categories)"), ndim=1)


def _column_names(index: Value | None) -> list[str] | None:
    """The column names of `df[["a", "b"]] = ...` (a list of string constants), else None."""
    if isinstance(index, TupleV) and index.items and all(isinstance(i, Const) and isinstance(i.value, str) for i in index.items):
        return [str(i.value) for i in index.items if isinstance(i, Const)]
    return None


def _frame_parts(value: Value | None, count: int) -> list[Strong | None] | None:
    """The dtypes `count` columns take from an assigned frame: its own columns in order, or its
    one dtype; None when that cannot be told."""
    if isinstance(value, Tensor) and value.kind == "frame":
        if value.columns is not None:
            return [Strong(d) if d else None for _, d in value.columns] if len(value.columns) == count else None
        return [Strong(value.dtype)] * count if value.dtype and value.dtype != WIDE else None
    part = column_dtype(value)
    return [part] * count if part is not None else None


def _canonical(name: str) -> str:
    """Collapse private module paths to the public spelling rules match on."""
    parts = name.split(".")
    if name.startswith("torch.nn.modules.") and len(parts) >= 4:
        return f"torch.nn.{parts[-1]}"
    if name.startswith("torch.optim.") and len(parts) == 4:
        return f"torch.optim.{parts[-1]}"
    if name.startswith("torch.utils.data.") and len(parts) >= 5:
        return f"torch.utils.data.{parts[-1]}"
    return name


def _picks_target(elt: ast.expr, target: ast.expr) -> bool:
    """`p for p in ...` or `p for n, p in named_parameters()`: the element is the loop variable."""
    if not isinstance(elt, ast.Name):
        return False
    if isinstance(target, ast.Name):
        return target.id == elt.id
    return isinstance(target, ast.Tuple) and bool(target.elts) and isinstance(target.elts[-1], ast.Name) and target.elts[-1].id == elt.id


def _decorator_name(node: ast.expr) -> str:
    """`@dataclass`, `@dataclasses.dataclass(frozen=True)` -> its dotted name."""
    if isinstance(node, ast.Call):
        node = node.func
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return ".".join(reversed(parts))


def _default_factory(value: ast.expr | None) -> ast.expr | None:
    """`field(default_factory=OptimizerConfig)` -> the factory expression."""
    if isinstance(value, ast.Call) and _decorator_name(value.func) in ("field", "dataclasses.field"):
        return next((k.value for k in value.keywords if k.arg == "default_factory"), None)
    return None


_ARITHMETIC: dict[type[ast.operator], Any] = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b, ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b,
}


def _fold_numbers(a: float, b: float, op: ast.operator) -> Value | None:
    """`eps * eps`, `2 * n_layers`: Python arithmetic on known numbers (an error or a huge result: unknown)."""
    fn = _ARITHMETIC.get(type(op))
    if fn is None:
        return Tensor("pyfloat") if isinstance(op, ast.Pow) and (isinstance(a, float) or isinstance(b, float)) else None
    try:
        value = fn(a, b)
    except (ArithmeticError, ValueError):
        return None
    return Const(value) if abs(value) < 1e18 else None


def _counts_gpus(node: ast.expr) -> bool:
    """`torch.cuda.device_count()` as written."""
    return (
        isinstance(node, ast.Call) and not node.args and isinstance(node.func, ast.Attribute) and node.func.attr == "device_count"
        and isinstance(node.func.value, ast.Attribute) and node.func.value.attr == "cuda"
    )
