"""The fix engine the CLI and the language server share: one fix -> edits, all fixes -> text.

`fix_all` works in rounds: check, pick one fix per finding (safe ones, or unsafe ones too when
asked), apply every pick whose edits do not overlap another's, check again. Fixes that
reorganise the top of the file (`move_to_setup`, `replace_default_tensor_type`,
`insert_setup_block`) change what everything below them means, so a round applies one of them
alone, before any local conversion. A round whose fix leaves its finding in place is undone
and that fix is not tried again, so the result only ever holds fixes that worked, and running
`fix_all` on its own output changes nothing.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import dataclass, field

from dtypeguard.analysis import check_source
from dtypeguard.config import Config
from dtypeguard.engine import source
from dtypeguard.findings import Finding, FixSpec, TextEdit
from dtypeguard.fixes import calls, device, lowprec, serialization, setup
from dtypeguard.fixes.base import NotApplicable, Transform
from dtypeguard.fixes.cst import parse
from dtypeguard.fixes.textedit import apply_edits, diff_edits, edits_overlap

log = logging.getLogger("dtypeguard.fixes")

TRANSFORMS: dict[str, Transform] = {
    "append_call": calls.append_call,
    "add_kwarg": calls.add_kwarg,
    "set_kwarg": calls.set_kwarg,
    "remove_kwarg": calls.remove_kwarg,
    "replace_expression": calls.replace_expression,
    "int_bounds": calls.int_bounds,
    "to_device": device.to_device,
    "cuda_to_device": device.cuda_to_device,
    "register_buffer": device.register_buffer,
    "move_to_setup": setup.move_to_setup,
    "replace_default_tensor_type": setup.replace_default_tensor_type,
    "insert_setup_block": setup.insert_setup_block,
    "replace_cuda_default": setup.replace_default_tensor_type,
    "replace_tensor_type_call": setup.replace_tensor_type_call,
    "master_weights_autocast": lowprec.master_weights_autocast,
    "allow_globals": serialization.allow_globals,
    "plain_number": serialization.plain_number,
}
GLOBAL_KINDS = frozenset({"move_to_setup", "replace_default_tensor_type", "insert_setup_block", "replace_cuda_default", "replace_tensor_type_call"})
MAX_ROUNDS = 12


def fixed_text(text: str, fix: FixSpec) -> str:
    """The whole text with one fix applied; raises NotApplicable with the reason."""
    transform = TRANSFORMS.get(fix.kind)
    if transform is None:
        raise NotApplicable(f"no transform for fix kind `{fix.kind}`")
    parsed = parse(text)
    if parsed is None:
        if source.parse_quiet(text) is not None:
            # Python reads it, libcst does not: a block indented with spaces inside tab-indented code
            # (scan 37's fine_tune_wm811.py); edits keep formatting only through libcst
            raise NotApplicable("libcst cannot read this file's layout (tabs and spaces mixed in one block?), so no edit is made")
        raise NotApplicable("the file does not parse")
    new = transform(parsed, fix)
    if new == text:
        raise NotApplicable("the fix changes nothing")
    if source.parse_quiet(new) is None:  # a transform bug must never reach a file
        log.error("fix %s produced code that does not parse; not applied", fix.kind)
        raise NotApplicable("the fixed code would not parse")
    return new


def why_not(text: str, fix: FixSpec) -> str | None:
    """None when the fix applies to `text`, else the reason it does not."""
    try:
        fixed_text(text, fix)
    except NotApplicable as exc:
        return str(exc)
    return None


def edits_for_fix(text: str, fix: FixSpec) -> list[TextEdit] | None:
    """Minimal edits for one fix, or None when it does not apply (the reason is logged)."""
    try:
        new = fixed_text(text, fix)
    except NotApplicable as exc:
        log.info("fix `%s` not applicable: %s", fix.title, exc)
        return None
    return diff_edits(text, new)


def setup_block_edits(text: str) -> list[TextEdit] | None:
    """The source action: add the setup block; None when the file lacks torch or has it.

    In a file whose `set_default_dtype` runs too late (DG001), the block is that call's fix:
    the call moves above the first creation, or (when it cannot move) the block sets the dtype
    it sets, so nothing is duplicated and no unused name is added. A legacy CUDA default
    (`if cuda: set_default_tensor_type("torch.cuda.FloatTensor")`) becomes the block in place."""
    tree = source.parse_quiet(text)
    if tree is None or not source.uses_torch(tree):
        return None
    parsed = parse(text)
    if parsed is None:
        return None
    findings = check_source(text).findings
    # a late `set_default_dtype` (DG001) first, then the legacy CUDA-default block (DG002), which
    # the block replaces where it stands
    for finding in sorted((f for f in findings if f.code in ("DG001", "DG002")), key=lambda f: f.code):
        for fix in finding.fixes:
            if fix.kind in ("move_to_setup", "insert_setup_block") or (fix.kind == "replace_default_tensor_type" and fix.param("cuda")):
                try:
                    return diff_edits(text, fixed_text(text, fix))
                except NotApplicable as exc:
                    log.info("setup block: %s", exc)
    try:
        new = setup.setup_block(parsed)
    except NotApplicable as exc:
        log.info("no setup block: %s", exc)
        return None
    return diff_edits(text, new)


@dataclass
class FixAllResult:
    text: str
    applied: list[Finding] = field(default_factory=list)
    remaining: list[Finding] = field(default_factory=list)
    not_applied: list[tuple[Finding, str]] = field(default_factory=list)  # (finding, why)
    rounds: int = 0
    # findings rooted in another file this analysis ran (a helper's `torch.load` when this script
    # calls it): shown in that file by a folder `check`, not fixed from here
    elsewhere: list[Finding] = field(default_factory=list)
    # False where Python reads the file and libcst does not (tabs and spaces mixed in one block):
    # no fix, safe or unsafe, can be applied to it
    editable: bool = True

    @property
    def changed(self) -> bool:
        return bool(self.applied)


_Key = tuple[str, str, str, str, tuple[tuple[str, str], ...]]


def _key(finding: Finding, fix: FixSpec) -> _Key:
    # the title tells apart one conversion offered at two places (where made, where used)
    return (finding.code, finding.message, fix.kind, fix.title, fix.params)


def choose_fix(finding: Finding, unsafe: bool, failed: dict[_Key, str] | None = None) -> FixSpec | None:
    """The fix `fix` applies for a finding: its first safe one (or first of any, if unsafe)."""
    for fix in finding.fixes:
        if (fix.safe or unsafe) and fix.kind in TRANSFORMS and (failed is None or _key(finding, fix) not in failed):
            return fix
    return None


def ordered_candidates(findings: list[Finding], unsafe: bool, failed: dict[_Key, str] | None = None) -> list[tuple[Finding, FixSpec]]:
    """Fixes in the order they are applied: top-of-file reorganisations first, then the rest."""
    picks = [(f, fix) for f in findings if (fix := choose_fix(f, unsafe, failed)) is not None]
    return [p for p in picks if p[1].kind in GLOBAL_KINDS] + [p for p in picks if p[1].kind not in GLOBAL_KINDS]


def _moved(line: int, col: int, edits: list[TextEdit]) -> tuple[int, int]:
    """Where a position of the old text lies in the text the edits make. Edits are taken last
    first, so each one's span is still in the coordinates the position is in."""
    for e in sorted(edits, key=lambda e: (e.span.line, e.span.col), reverse=True):
        if (e.span.end_line, e.span.end_col) > (line, col):
            continue  # at or after the position: it does not move it
        breaks = e.new_text.count("\n")
        end_line = e.span.line + breaks
        end_col = len(e.new_text.rsplit("\n", 1)[-1]) + (0 if breaks else e.span.col)
        if line == e.span.end_line:
            line, col = end_line, end_col + (col - e.span.end_col)
        else:
            line += end_line - e.span.end_line
    return line, col


def _still_there(finding: Finding, edits: list[TextEdit], after: list[Finding]) -> bool:
    """The finding survives its fix: the same report starts where it started (moved by the
    edits). The same message elsewhere is another root of the same failure (the second of
    three `from_numpy` arrays fed to one `cat`), for the next round to fix."""
    where = _moved(finding.span.line, finding.span.col, edits)
    return any(f.code == finding.code and f.message == finding.message and (f.span.line, f.span.col) == where for f in after)


def _edits_again(text: str, finding: Finding, edits: list[TextEdit]) -> bool:
    """Would the fix of a finding that appeared after `edits` edit where they did (`.half()` then
    `.float()` on the same expression, round after round)? Its sibling on the same line (`s, r =
    t[:, 0].long(), t[:, 1]`) is fixed elsewhere: the next round's to fix."""
    fix = next((x for x in finding.fixes if x.safe), None)
    if fix is None or any("\n" in e.new_text or e.span.line != e.span.end_line for e in edits):
        return True
    try:
        theirs = diff_edits(text, fixed_text(text, fix))
    except NotApplicable:
        return True
    placed = []  # each edit's range in the edited text: earlier edits on its line move it
    for e in sorted(edits, key=lambda e: (e.span.line, e.span.col)):
        shift = sum(len(o.new_text) - (o.span.end_col - o.span.col) for o in edits if o.span.line == e.span.line and o.span.col < e.span.col)
        placed.append((e.span.line, e.span.col + shift, e.span.col + shift + len(e.new_text)))
    return any(
        t.span.line <= line <= t.span.end_line and (t.span.line < line or t.span.col <= end + 1) and (t.span.end_line > line or t.span.end_col >= start - 1)
        for t in theirs
        for line, start, end in placed
    )


def fix_all(text: str, path: str | None = None, config: Config | None = None, unsafe: bool = False) -> FixAllResult:
    """Apply every applicable fix (safe ones; unsafe ones too when `unsafe`) until none is left."""
    applied: list[Finding] = []
    failed: dict[_Key, str] = {}
    result = check_source(text, path, config)
    rounds = 0
    for rounds in range(1, MAX_ROUNDS + 1):  # noqa: B007 - reported
        if not result.parsed:
            break
        candidates = ordered_candidates(result.findings, unsafe, failed)
        if not candidates:
            break
        if candidates[0][1].kind in GLOBAL_KINDS:
            candidates = candidates[:1]
        accepted: list[tuple[Finding, FixSpec, list[TextEdit]]] = []
        for finding, fix in candidates:
            try:
                new = fixed_text(text, fix)
            except NotApplicable as exc:
                failed[_key(finding, fix)] = str(exc)
                continue
            edits = diff_edits(text, new)
            same = next((a for a in accepted if a[2] == edits), None)
            if same is not None:
                accepted.append((finding, fix, []))  # the same edit fixes both findings
                continue
            if any(edits_overlap(text, edits, a[2]) for a in accepted):
                continue  # next round, against the text this round produces
            accepted.append((finding, fix, edits))
        if not accepted:
            continue
        new_text = apply_edits(text, [e for a in accepted for e in a[2]])
        if source.parse_quiet(new_text) is None:
            accepted = accepted[:1]
            new_text = apply_edits(text, accepted[0][2])
        new_result = check_source(new_text, path, config)
        before = Counter((f.code, f.message) for f in result.findings)
        after = Counter((f.code, f.message) for f in new_result.findings)
        used = Counter((f.code, f.message) for f, _, _ in accepted)
        stuck = [
            (f, fix) for f, fix, edits in accepted
            if after[f.code, f.message] > before[f.code, f.message] - used[f.code, f.message] and _still_there(f, edits, new_result.findings)
        ]
        # a fix must not create a finding where it edits: `.float()` for a layer's input that is
        # also a class-index target makes the target wrong (and the next round would undo it)
        fresh = [f for f in new_result.findings if before[f.code, f.message] == 0]
        for f, fix, edits in accepted:
            lines = {line for e in edits for line in range(e.span.line, e.span.end_line + 1)}
            # (the same hazard in a sibling the edit did not touch, `s, r = t[:, 0].long(), t[:, 1]`,
            # is the next round's to fix, not a clash)
            clash = next((n for n in fresh if n.span.line in lines and (n.code != f.code or _edits_again(new_text, n, edits))), None)
            if clash is not None and (f, fix) not in stuck:
                stuck.append((f, fix))
                failed[_key(f, fix)] = f"the fix creates a new finding ({clash.code} at line {clash.span.line})"
        if stuck:
            for f, fix in stuck:
                failed.setdefault(_key(f, fix), "the fix did not remove the finding")
                log.info("fix %s for %s did not remove the finding; not applied", fix.kind, f.code)
            continue  # undo the round: the text only ever holds fixes that worked
        text, result = new_text, new_result
        applied += [f for f, _, _ in accepted]
    not_applied = [(f, failed[_key(f, fix)]) for f in result.findings for fix in f.fixes if _key(f, fix) in failed and (fix.safe or unsafe)]
    # (libcst read the text where a fix was applied; else it is asked once, only when a fix is left)
    editable = bool(applied) or not (result.parsed and any(f.fixes for f in result.findings)) or parse(text) is not None
    return FixAllResult(text, applied, list(result.findings), not_applied, rounds, list(result.elsewhere), editable)
