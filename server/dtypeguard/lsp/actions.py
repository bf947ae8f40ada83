"""Code actions: quick fixes, "Ignore DGxxx on this line", fix-all and the setup block.

Edits come from `dtypeguard.fixes` (libcst: a 2,000-line file costs most of a second), so when
the client can resolve code actions lazily the list carries only titles and `data`, and the
edits are computed on `codeAction/resolve`; otherwise they are computed up front.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcContentModified, JsonRpcInvalidParams

from dtypeguard.analysis import CheckResult
from dtypeguard.config import Config
from dtypeguard.findings import Finding, FixSpec, Span
from dtypeguard.lsp.convert import VERIFY_SOURCE, Lines, diff_edits, text_edits

log = logging.getLogger(__name__)

FIX_ALL_KIND = "source.fixAll.dtypeguard"
SETUP_KIND = "source.dtypeguard.insertSetupBlock"
FIX_ALL_TITLE = "Fix all dtypeguard hazards (safe fixes)"
SETUP_TITLE = "Insert default dtype/device setup block"


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
    return fix.title if fix.safe else f"{fix.title} (unsafe: changes behaviour, review it)"


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
    fixes = fixes_module()
    edits = fixes.setup_block_edits(target.text)
    if not edits:
        return None
    return workspace_edit(target, text_edits(edits, target.lines, target.encoding))
