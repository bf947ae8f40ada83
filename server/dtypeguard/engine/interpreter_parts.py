"""What the Interpreter's parts share, declared once.

The Interpreter is one class assembled from parts kept in their own files: `resume.py` (the
driver that runs top-level chunks, snapshots and resumes them), `call_effects.py` (what calls
do: the library's, the script's own functions and classes, modules and optimizers) and
`interpreter.py` (statements and expressions, and the state they share). Each part is typed
against this base, so the attributes the Interpreter sets in `__init__` and the methods one
part calls on another are written here once instead of being re-declared in every part.
The base sits last in the method order: its signatures never shadow a real method.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

from dtypeguard.engine.events import Events, Facts
from dtypeguard.engine.parse import LineIndex
from dtypeguard.engine.state import State
from dtypeguard.engine.values import Func, Klass, Value
from dtypeguard.findings import Span


class InterpreterParts:
    tree: ast.Module
    index: LineIndex
    events: Events
    facts: Facts
    time: int
    next_oid: int
    statements: int
    in_uncalled: bool  # analysing the functions nobody called
    call_stack: list[ast.AST]
    user_calls: list[tuple[ast.AST, ast.Call | None]]
    call_nodes: list[ast.Call]
    returns: list[list[Value | None]]
    executed: set[int]  # id() of function nodes run at least once
    functions: list[Func]
    classes: dict[str, Klass]
    yields: dict[int, list[Value | None]]
    optimizers_of: dict[int, list[int]]
    loop_depth: int
    unrolled_at: list[int]  # the loop depth of each loop run once per known item (`_run_each`), innermost last
    forward_depth: int
    touched: dict[int, ast.AST] | None  # while set: the function nodes run, by id (for the incremental checker)
    return_states: list[list[State]]  # per frame: the state on each path that returned
    module_globals: dict[str, Any]  # an imported file's path -> its globals (a Scope)
    saved_marks: dict[str, None]  # the "<saved ...>" globals any save has written, in order
    modules: dict[str, Any]
    boundary: list[Span]
    importing: int  # > 0 while another file's top level runs
    pure_prefix: bool  # the checked file has run only imports so far (engine.import_memo)
    own_file_read: bool  # something read the checked file itself while importing

    if TYPE_CHECKING:  # defined by the parts; declared here for the others that call them

        def exec_block(self, body: list[ast.stmt], state: State) -> State: ...

        def exec_stmt(self, stmt: ast.stmt, state: State) -> State: ...

        def begin(self, stmt: ast.stmt, state: State) -> None: ...

        def eval(self, node: ast.expr | None, state: State) -> Value | None: ...

        def assign(self, target: ast.expr, value: Value | None, state: State) -> None: ...

        def tick(self) -> int: ...

        def alloc(self, state: State, obj: object) -> int: ...

        def refused(self, key: str, operand: Value | None, node: ast.AST, at: ast.AST | None = None) -> bool: ...

        def record(self, node: ast.AST, name: str, value: Value | None, state: State) -> None: ...

        def eval_attribute(self, node: ast.Attribute, state: State) -> Value | None: ...

        def binop(self, left: Value | None, right: Value | None, op: ast.operator, node: ast.AST, autocast: str | None = None, default: str | None = None) -> Value | None: ...

        def enter_call(
            self,
            func: Func,
            args: list[Value | None],
            kwargs: dict[str, Value | None],
            state: State,
            params_override: dict[str, Value | None] | None = None,
        ) -> State | None: ...

        def leave_call(self, node: ast.AST, state: State, end: State, returned: list[Value | None], exits: list[State]) -> Value | None: ...

        def _run_uncalled(self, final: State) -> None: ...
