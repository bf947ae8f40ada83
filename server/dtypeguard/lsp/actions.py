"""Code actions: quick fixes, "Ignore DGxxx on this line", fix-all and the setup block.

Edits come from `dtypeguard.fixes` (libcst: a 2,000-line file costs most of a second), so when
the client can resolve code actions lazily the list carries only titles and `data`, and the
edits are computed on `codeAction/resolve`; otherwise they are computed up front, in a thread
(`background.spawn`) so the event loop keeps answering. The two commands `dtypeguard.fixAll`
and `dtypeguard.insertSetupBlock` compute a whole-document edit the same way and ask the client
to apply it (`workspace/applyEdit`). In a trusted workspace, a file with safe fixes and an
optimizer also gets "Fix and verify" (a command action: `fixverify.py` runs the code).

The first half is what an action is (`Target`, `code_actions`, `compute_edit`: no client, no
session); the handlers below it (`code_action`, `code_action_resolve`, `fix_all`,
`insert_setup`) find the target of a request and, in a notebook, turn script edits into edits
of the cells they touch.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any, cast

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified, JsonRpcInvalidParams

from dtypeguard.analysis import CheckResult
from dtypeguard.config import Config
from dtypeguard.findings import Finding, FixSpec, Span
from dtypeguard.lsp import convert
from dtypeguard.lsp.background import spawn
from dtypeguard.lsp.convert import VERIFY_SOURCE, Lines, diff_edits, text_edits
from dtypeguard.lsp.documents import Analysis, DocState
from dtypeguard.lsp.notebooks import NotebookView
from dtypeguard.lsp.session import Session, command_args
from dtypeguard.lsp.verifier import FIX_VERIFY_COMMAND, VERIFY_COMMAND

log = logging.getLogger(__name__)

FIX_ALL_KIND = "source.fixAll.dtypeguard"
SETUP_KIND = "source.dtypeguard.insertSetupBlock"
FIX_VERIFY_KIND = "source.dtypeguard.fixAndVerify"
FIX_VERIFY_TITLE = "Fix and verify: run the script before and after the safe fixes (runs your code)"
FIX_ALL_TITLE = "Fix all dtypeguard hazards (safe fixes)"
SETUP_TITLE = "Insert default dtype/device setup block"
FIX_ALL_COMMAND = "dtypeguard.fixAll"
SETUP_COMMAND = "dtypeguard.insertSetupBlock"
OPTIONS = types.CodeActionOptions(
    code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL_KIND, SETUP_KIND, FIX_VERIFY_KIND],
    resolve_provider=True,
)


class FixesUnavailable(Exception):
    """`dtypeguard.fixes` is missing or broken: no edits can be offered."""


def fixes_module() -> ModuleType:
    try:
        import dtypeguard.fixes as fixes
    except Exception as exc:
        raise FixesUnavailable(f"dtypeguard.fixes cannot be imported: {exc!r}") from exc
    for name in ("edits_for_fix", "fix_all", "setup_block_edits", "suppression_edit"):
        if not hasattr(fixes, name):
            raise FixesUnavailable(f"dtypeguard.fixes has no `{name}`")
    return fixes


@dataclass
class Target:
    """The document an action applies to, as of its newest usable analysis."""

    uri: str
    version: int
    text: str
    lines: Lines
    result: CheckResult
    path: str | None
    config: Config
    encoding: str
    document_changes: bool  # the client takes versioned TextDocumentEdits
    # "Fix and verify" may be offered: a trusted workspace, a file on disk (not a notebook)
    # with an optimizer to run up to (fixverify.py)
    fix_verify: bool = False


def workspace_edit(target: Target, edits: Sequence[types.TextEdit]) -> types.WorkspaceEdit:
    if target.document_changes:
        doc = types.OptionalVersionedTextDocumentIdentifier(uri=target.uri, version=target.version)
        return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(text_document=doc, edits=list(edits))])
    return types.WorkspaceEdit(changes={target.uri: list(edits)})


def _kind_wanted(kind: str, only: Sequence[str] | None) -> bool:
    if not only:
        return True
    return any(kind == o or kind.startswith(o + ".") for o in only)


def _overlaps(span: Span, rng: Span) -> bool:
    return not ((span.end_line, span.end_col) < (rng.line, rng.col) or (span.line, span.col) > (rng.end_line, rng.end_col))


def _span_list(span: Span) -> list[int]:
    return [span.line, span.col, span.end_line, span.end_col]


def _fix_title(fix: FixSpec) -> str:
    """A code action title is plain text in every editor's menu: the Markdown backticks of a
    fix title (for the CLI and hovers) would show as they are."""
    title = fix.title.replace("`", "")
    return title if fix.safe else f"{title} (unsafe: changes behaviour, review it)"


def code_actions(
    target: Target,
    rng: Span,
    only: Sequence[str] | None,
    context_diagnostics: Sequence[types.Diagnostic],
    diagnostic_for: dict[Finding, types.Diagnostic],
    lazy: bool,
) -> list[types.CodeAction]:
    """The actions for `rng`; edits included unless `lazy`."""
    actions: list[types.CodeAction] = []
    findings = target.result.findings

    def add(title: str, kind: str, data: dict[str, Any], diags: list[types.Diagnostic] | None, preferred: bool | None = None) -> None:
        action = types.CodeAction(title=title, kind=kind, diagnostics=diags or None, is_preferred=preferred, data=data)
        if not lazy:
            try:
                edit = compute_edit(target, data)
            except Exception as exc:
                log.warning("code action %r not offered: %s", title, exc)
                return
            if edit is None:
                return
            action.edit = edit
            action.data = None
        actions.append(action)

    base = {"uri": target.uri, "version": target.version}
    fix_verify_offered = False
    if _kind_wanted(types.CodeActionKind.QuickFix, only):
        offered: set[tuple[str, Span]] = set()
        chosen = [f for f in findings if f.code != "DG000" and _overlaps(f.span, rng)]
        # a runtime error from verify explained by a rule gets that rule's fixes
        verify_diags = [d for d in context_diagnostics if d.source == VERIFY_SOURCE and isinstance(d.code, str)]
        for finding in chosen:
            offered.add((finding.code, finding.span))
            diag = diagnostic_for.get(finding)
            diags = [diag] if diag is not None else []
            preferred_given = False
            for index, fix in enumerate(finding.fixes):
                preferred = fix.safe and not preferred_given
                preferred_given = preferred_given or preferred
                data = {**base, "action": "fix", "code": finding.code, "span": _span_list(finding.span), "fix": index}
                add(_fix_title(fix), types.CodeActionKind.QuickFix, data, diags, preferred or None)
        for vdiag in verify_diags:
            for finding in findings:
                if finding.code != vdiag.code or (finding.code, finding.span) in offered:
                    continue
                offered.add((finding.code, finding.span))
                first_safe = next((i for i, f in enumerate(finding.fixes) if f.safe), None)
                for index, fix in enumerate(finding.fixes):
                    data = {**base, "action": "fix", "code": finding.code, "span": _span_list(finding.span), "fix": index}
                    title = f"{_fix_title(fix)} (at line {finding.span.line})"
                    add(title, types.CodeActionKind.QuickFix, data, [vdiag], (index == first_safe) or None)
        again: set[str] = set()
        for vdiag in (d for d in context_diagnostics if d.source == VERIFY_SOURCE):
            device = vdiag.data.get("device") if isinstance(vdiag.data, dict) else None
            device = device if device in ("cpu", "cuda") else "cpu"
            if device in again:
                continue
            again.add(device)  # after a fix: run it again, from the diagnostic itself
            label = "CPU" if device == "cpu" else "GPU"
            actions.append(types.CodeAction(
                title=f"Verify again on {label}", kind=types.CodeActionKind.QuickFix, diagnostics=[vdiag],
                command=types.Command(title=f"Verify again on {label}", command=VERIFY_COMMAND, arguments=[target.uri, device]),
            ))
        fixable = [f for f in chosen if any(fix.safe for fix in f.fixes)]
        fix_verify_offered = target.fix_verify and bool(fixable)
        if fix_verify_offered:  # runs the user's code: only on this explicit choice
            diags = [d for f in fixable if (d := diagnostic_for.get(f)) is not None]
            actions.append(types.CodeAction(
                title=FIX_VERIFY_TITLE, kind=types.CodeActionKind.QuickFix, diagnostics=diags or None,
                command=types.Command(title=FIX_VERIFY_TITLE, command=FIX_VERIFY_COMMAND, arguments=[target.uri]),
            ))
        seen_codes: set[tuple[str, int]] = set()
        for finding in chosen:
            key = (finding.code, finding.span.line)
            if key in seen_codes:
                continue
            seen_codes.add(key)
            diag = diagnostic_for.get(finding)
            data = {**base, "action": "ignore", "code": finding.code, "span": _span_list(finding.span)}
            add(f"Ignore {finding.code} on this line", types.CodeActionKind.QuickFix, data, [diag] if diag else [])
    if _kind_wanted(FIX_ALL_KIND, only) and any(fix.safe for f in findings for fix in f.fixes):
        add(FIX_ALL_TITLE, FIX_ALL_KIND, {**base, "action": "fixAll"}, None)
    # the source action (VS Code's Source Action... menu asks with `only`); a client that asks
    # for everything gets it once, as the quick fix at a finding or else as this
    explicit = bool(only) or not fix_verify_offered
    if (target.fix_verify and explicit and _kind_wanted(FIX_VERIFY_KIND, only)
            and any(fix.safe for f in findings for fix in f.fixes)):
        actions.append(types.CodeAction(
            title=FIX_VERIFY_TITLE, kind=FIX_VERIFY_KIND,
            command=types.Command(title=FIX_VERIFY_TITLE, command=FIX_VERIFY_COMMAND, arguments=[target.uri]),
        ))
    if _kind_wanted(SETUP_KIND, only) and target.result.parsed:
        add(SETUP_TITLE, SETUP_KIND, {**base, "action": "setup"}, None)
    return actions


def _find(target: Target, data: dict[str, Any]) -> Finding:
    code = data.get("code")
    span_raw = data.get("span")
    if not isinstance(code, str) or not isinstance(span_raw, list) or len(span_raw) != 4:
        raise JsonRpcInvalidParams(message="code action data lacks the finding")
    line, col, end_line, end_col = (int(v) for v in span_raw)
    span = Span(line, col, end_line, end_col)
    for finding in target.result.findings:
        if finding.code == code and finding.span == span:
            return finding
    raise JsonRpcContentModified(message=f"{code} is no longer reported there; the document changed")


def compute_edit(target: Target, data: dict[str, Any]) -> types.WorkspaceEdit | None:
    """The edit an action's `data` stands for, against `target`; None when there is nothing to do."""
    if data.get("uri") != target.uri:
        raise JsonRpcInvalidParams(message="code action data is for another document")
    action = data.get("action")
    fixes = fixes_module()
    if action == "fix":
        finding = _find(target, data)
        index = data.get("fix")
        if not isinstance(index, int) or not 0 <= index < len(finding.fixes):
            raise JsonRpcInvalidParams(message="code action data names no fix")
        edits = fixes.edits_for_fix(target.text, finding.fixes[index])
        if not edits:
            return None
        return workspace_edit(target, text_edits(edits, target.lines, target.encoding))
    if action == "ignore":
        finding = _find(target, data)
        edit = fixes.suppression_edit(target.text, finding)
        return workspace_edit(target, text_edits([edit], target.lines, target.encoding))
    if action == "fixAll":
        return fix_all_edit(target)
    if action == "setup":
        return setup_edit(target)
    raise JsonRpcInvalidParams(message=f"unknown code action {action!r}")


def fix_all_edit(target: Target) -> types.WorkspaceEdit | None:
    fixes = fixes_module()
    outcome = fixes.fix_all(target.text, target.path, target.config)
    edits = diff_edits(target.text, outcome.text, target.encoding)
    return workspace_edit(target, edits) if edits else None


def setup_edit(target: Target) -> types.WorkspaceEdit | None:
    """The setup block. In a file whose own `set_default_*` call comes too late (DG001), that
    call moved to the top is the setup: a new float32 block would contradict it (issue 13)."""
    fixes = fixes_module()
    for finding in target.result.findings:
        move = next((f for f in finding.fixes if f.kind == "move_to_setup" and f.safe), None)
        if finding.code == "DG001" and move is not None:
            moved = fixes.edits_for_fix(target.text, move)
            if moved:
                return workspace_edit(target, text_edits(moved, target.lines, target.encoding))
    edits = fixes.setup_block_edits(target.text)
    if not edits:
        return None
    return workspace_edit(target, text_edits(edits, target.lines, target.encoding))


# ---------------------------------------------------------------------------- handlers
def target_of(session: Session, analysis: Analysis, state: DocState) -> Target:
    """The document of a request as of `analysis`, with what the client takes."""
    return Target(
        uri=state.uri, version=analysis.version, text=analysis.text, lines=analysis.lines,
        result=analysis.result, path=state.path, config=session.config_for(state.path),
        encoding=session.encoding, document_changes=session.document_changes,
        fix_verify=(session.trusted and state.path is not None and not session.notebooks.is_notebook(state.uri)
                    and bool(analysis.result.optimizer_sites)),
    )


def lazy(session: Session) -> bool:
    """The client resolves a code action's edit (`codeAction/resolve`) only when it is chosen."""
    td = session.caps.text_document
    ca = td.code_action if td else None
    support = ca.resolve_support if ca else None
    return bool(support and "edit" in support.properties)


def to_cells(session: Session, view: NotebookView, edit: types.WorkspaceEdit | None) -> types.WorkspaceEdit | None:
    """An edit of a notebook's script -> edits of the cells it changes (None: no clean split)."""
    if edit is None:
        return None
    return session.notebooks.cell_edit(view, session.workspace, edit, session.encoding, session.document_changes)


async def code_action(session: Session, params: types.CodeActionParams) -> list[types.CodeAction]:
    uri = params.text_document.uri
    nb_uri = session.notebook_of_cell(uri)
    if nb_uri is not None:
        return await cell_code_action(session, params, nb_uri)
    state = session.state(uri)
    analysis = await session.analysis(uri)
    if not analysis.usable:
        return []
    target = target_of(session, analysis, state)
    rng = convert.from_range(analysis.lines, params.range, session.encoding)
    by_finding = {f: convert.diagnostic(f, analysis.lines, uri, session.encoding) for f in analysis.result.findings}
    only = list(params.context.only) if params.context.only else None
    if lazy(session):
        return code_actions(target, rng, only, params.context.diagnostics, by_finding, True)
    future, _thread = spawn(
        lambda: code_actions(target, rng, only, params.context.diagnostics, by_finding, False),
        "dtypeguard-actions",
    )
    return await future


async def cell_code_action(session: Session, params: types.CodeActionParams, nb_uri: str) -> list[types.CodeAction]:
    state = session.state(nb_uri)
    analysis = await session.analysis(nb_uri)
    if not analysis.usable:
        return []
    view = session.notebook_view(analysis, nb_uri)
    cell = view.index_of(params.text_document.uri)
    if cell is None:
        return []
    rng = view.to_script(cell, convert.from_range(view.cell_lines(cell), params.range, session.encoding))
    if rng is None:
        return []
    target = target_of(session, analysis, state)
    by_finding = {
        cf.script: session.notebooks.diagnostic(view, cf, session.encoding)
        for cf in view.script.cell_findings(analysis.result.findings) if cf.script is not None
    }
    only = list(params.context.only) if params.context.only else None
    if lazy(session):
        return code_actions(target, rng, only, params.context.diagnostics, by_finding, True)
    future, _thread = spawn(
        lambda: code_actions(target, rng, only, params.context.diagnostics, by_finding, False),
        "dtypeguard-actions",
    )
    out: list[types.CodeAction] = []
    for action in await future:
        action.edit = to_cells(session, view, action.edit)
        if action.edit is not None:
            out.append(action)
    return out


async def code_action_resolve(session: Session, action: types.CodeAction) -> types.CodeAction:
    data = action.data
    if not isinstance(data, dict) or not isinstance(data.get("uri"), str):
        raise JsonRpcInvalidParams(message="this code action carries no dtypeguard data")
    uri = data["uri"]
    state = session.state(uri)
    analysis = await session.analysis(uri)
    if not analysis.usable:
        raise JsonRpcInvalidParams(message="the document does not parse now; fix the syntax error first")
    target = target_of(session, analysis, state)
    future, _thread = spawn(lambda: compute_edit(target, data), "dtypeguard-resolve")
    edit = await future
    if edit is not None and session.notebooks.is_notebook(uri):
        edit = to_cells(session, session.notebook_view(analysis, uri), edit)
    if edit is not None:
        action.edit = edit
    return action


# ---------------------------------------------------------------------------- commands
async def document_command(
    session: Session, uri: str, compute: Callable[[Target], types.WorkspaceEdit | None], label: str, nothing: str
) -> dict[str, Any]:
    """Compute a whole-document edit off the event loop and ask the client to apply it."""
    uri = session.notebook_of_cell(uri) or uri
    state = session.state(uri)
    analysis = await session.analysis(uri)
    if not analysis.usable:
        return {"applied": False, "reason": "the document does not parse"}
    target = target_of(session, analysis, state)
    future, _thread = spawn(lambda: compute(target), f"dtypeguard-{label}")
    edit = await future
    if edit is not None and session.notebooks.is_notebook(uri):
        edit = to_cells(session, session.notebook_view(analysis, uri), edit)
    if edit is None:
        return {"applied": False, "reason": nothing}
    return {"applied": await session.apply_edit(edit, f"dtypeguard: {label}")}


async def fix_all(session: Session, *args: object) -> dict[str, Any]:
    """`dtypeguard.fixAll [uri]`: apply every safe fix."""
    uri = cast(str, command_args(args, 1, FIX_ALL_COMMAND)[0])
    return await document_command(session, uri, fix_all_edit, "fix all", "nothing to fix")


async def insert_setup(session: Session, *args: object) -> dict[str, Any]:
    """`dtypeguard.insertSetupBlock [uri]`: insert the default dtype/device setup block."""
    uri = cast(str, command_args(args, 1, SETUP_COMMAND)[0])
    return await document_command(session, uri, setup_edit, "insert setup block", "the setup block is already there")
