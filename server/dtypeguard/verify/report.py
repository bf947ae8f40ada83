"""How a VerifyResult reads in a terminal: a status line, the error at file:line with the rule's
hint, and the step report as a few aligned lines. Kept apart so the language server, which
only needs `summary()`/`to_json()`, never imports it."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from dtypeguard.verify.result import VerifyResult

LABEL_WIDTH = 13
TAIL_LINES = 12


def format_text(result: VerifyResult, cwd: str | None = None) -> str:
    lines = [_headline(result, cwd)]
    if result.limit:
        lines.append(f"  {result.limit}: {result.limit_message}")
    if result.hint:
        lines.append(f"  {result.hint}")
    if result.static_fix:
        fix = result.static_fix
        how = "dtypeguard fix" if fix.get("safe") else "dtypeguard fix --unsafe-fixes"
        lines.append(f"  fix ({fix.get('code')} at line {fix.get('line')}, {how}): {fix.get('title')}")
    if result.code_line and result.status in ("error", "timeout", "crashed"):
        lines.append(f"  > {result.code_line}")
    if result.step and (result.status == "ok" or result.through is not None):
        lines.extend(_step_lines(result))
    if result.through is not None:
        lines.extend(_through_lines(result))
    for warning in result.warnings:
        code = f"{warning.rule} " if warning.rule else ""
        lines.append(f"warning: {code}{warning.message}")
        if warning.hint:
            lines.append(f"  {warning.hint}")
    if result.status == "error" and result.traceback:
        lines.append("")
        lines.extend("  " + line for line in result.traceback.rstrip().splitlines())
    elif result.status in ("no-step", "crashed", "timeout") and result.stderr_tail.strip():
        lines.append("  stderr (last lines):")
        lines.extend("    " + line for line in result.stderr_tail.rstrip().splitlines()[-TAIL_LINES:])
    for note in result.notes:
        lines.append(f"note: {note}")
    if result.emulated and result.not_checked:
        lines.append("note: emulated CUDA does not check: " + "; ".join(result.not_checked))
    if result.scratch_dir:
        shown = ", ".join(result.written[:6]) + (", …" if len(result.written) > 6 else "")
        lines.append(f"note: ran in a scratch copy of the script's folder; what it wrote ({shown}) "
                     f"is in {result.scratch_dir} (your folder is untouched)")
    return "\n".join(lines)


def _through_lines(result: VerifyResult) -> list[str]:
    """Run-through: the phases reached in order (with lines), and each checkpoint's load-back."""
    through = result.through or {}
    shown: list[str] = []
    for phase in through.get("phases", []):
        name = str(phase.get("phase"))
        if name == "save":
            continue
        line = phase.get("line")
        shown.append(f"{name} (line {line})" if isinstance(line, int) else name)
    rows = [
        _row("run-through", f"{through.get('steps', 0)} optimizer step(s), DataLoaders capped at "
             f"{through.get('batches')} batches" + ("; ran to the end" if through.get("ended") else "")),
        _row("phases", ", ".join(shown) or "(none after the start)"),
    ]
    for checkpoint in through.get("checkpoints", []):
        line = checkpoint.get("line")
        checks = checkpoint.get("checks") or []
        verdicts = []
        for check in checks:
            how = "defaults" if check.get("check") == "defaults" else f"map_location={check.get('map_location')}"
            verdict = {True: "ok", False: f"FAILS ({check.get('error_type')})", None: "not tried"}.get(check.get("ok"), "?")
            verdicts.append(f"{how} {verdict}")
        at = f" (line {line})" if isinstance(line, int) else ""
        name = os.path.basename(str(checkpoint.get("file") or "?"))
        row = _row("checkpoint", f"{name}{at} loaded back: {'; '.join(verdicts) or 'not checked'}")
        if row not in rows:  # a file saved every epoch: said once
            rows.append(row)
    return rows


def _where(result: VerifyResult, cwd: str | None) -> str:
    path = result.path or result.file
    try:
        shown = os.path.relpath(path, cwd or os.getcwd())
    except ValueError:
        shown = path
    if shown.startswith(".." + os.sep + ".."):
        shown = path
    if result.line is not None and result.cell is not None:
        return f"{shown}:cell {result.cell}:{result.line}"
    return f"{shown}:{result.line}" if result.line is not None else shown


def _headline(result: VerifyResult, cwd: str | None) -> str:
    device = f"{result.device}: emulated CUDA (values computed on CPU)" if result.emulated else result.device
    timing = f"{device}, {result.duration_s:.2f} s"
    if result.import_torch_s is not None and result.mode == "cold":
        timing += f"; torch import {result.import_torch_s:.2f} s"
    if result.time_to_step_s is not None:
        timing += f"; first step after {result.time_to_step_s:.2f} s"
    if result.mode == "warm":
        timing += "; warm"
    where = _where(result, cwd)
    if result.through is not None and result.status == "ok":
        if result.warnings:
            return f"{where}: warning: ran through to the end, {len(result.warnings)} warning(s){_rules(result)} ({timing})"
        return f"{where}: ok: ran through to the end ({timing})"
    if result.through is not None and result.status == "error":
        rule = f" [{result.rule}]" if result.rule else ""
        after = " after the first step" if result.through.get("after_step") else ""
        return f"{where}: error{after}: {result.error_type or 'Error'}: {_one_line(result.message)}{rule} ({timing})"
    if result.status == "ok":
        name = (result.step or {}).get("optimizer", "optimizer")
        if result.warnings:  # the step ran, but what it did is wrong: not an "ok" line
            first = result.warnings[0].message.split("; ")[0]
            more = f" (+{len(result.warnings) - 1} more)" if len(result.warnings) > 1 else ""
            return f"{where}: warning: first {name}.step() completed, but {first}{more}{_rules(result)} ({timing})"
        return f"{where}: ok: first {name}.step() completed ({timing})"
    if result.status == "error":
        rule = f" [{result.rule}]" if result.rule else ""
        return f"{where}: error: {result.error_type or 'Error'}: {_one_line(result.message)}{rule} ({timing})"
    return f"{where}: {result.status}: {_one_line(result.message) or result.summary()} ({timing})"


def _one_line(text: str | None) -> str:
    if not text:
        return ""
    stripped = text.strip().splitlines()
    return stripped[0] if stripped else ""


def _counts(value: object) -> str:
    if not isinstance(value, Mapping) or not value:
        return "-"
    return ", ".join(f"{k}" if len(value) == 1 else f"{k} x{v}" for k, v in value.items())


def _state(step: Mapping[str, Any]) -> str:
    dtypes = step.get("state_dtypes") or {}
    devices = step.get("state_devices") or {}
    if not dtypes:
        return "(none)"
    parts = []
    for key, counts in dtypes.items():
        where = _counts(devices.get(key))
        parts.append(f"{key} {_counts(counts)} ({where})")
    return "; ".join(parts)


def _step_lines(result: VerifyResult) -> list[str]:
    step = result.step or {}
    if "report_error" in step:
        return [_row("step report", f"unavailable: {step['report_error']}")]
    options = step.get("options") or {}
    opts = ", ".join(f"{k}={v}" for k, v in options.items() if k in _SHOWN_OPTIONS)
    rows = [
        _row("optimizer", f"{step.get('optimizer')}({opts})"),
        _row(
            "parameters",
            f"{step.get('param_count')} tensors, {step.get('param_elements', 0):,} elements, "
            f"{_counts(step.get('param_dtypes'))} on {_counts(step.get('param_devices'))}",
        ),
        _row("gradients", f"{_counts(step.get('grad_dtypes'))} on {_counts(step.get('grad_devices'))}"),
        _row("state", _state(step)),
        _row(
            "step",
            f"{step.get('params_changed')}/{step.get('param_count')} parameters changed; "
            + ("all finite" if step.get("params_finite") else f"{step.get('nonfinite_params')} non-finite"),
        ),
    ]
    loss = result.loss
    if loss:
        value = f", {loss['value']:.6g}" if isinstance(loss.get("value"), float) else ""
        finite = "finite" if loss.get("finite") else "NOT finite"
        rows.append(_row("loss", f"{loss.get('dtype')} on {loss.get('device')}{value} ({finite})"))
    forward = result.first_forward
    if forward:
        inputs = ", ".join(
            f"{i.get('dtype')}{i.get('shape')} on {i.get('device')}" for i in forward.get("inputs", [])
        )
        rows.append(_row("first input", f"{forward.get('module')} <- {inputs or '(no tensors)'}"))
    memory = result.memory
    mem = []
    if isinstance(memory.get("ru_maxrss_kib"), int):
        mem.append(f"peak RSS {memory['ru_maxrss_kib'] / 1024:.0f} MiB")
    if isinstance(memory.get("cuda_max_allocated_bytes"), int):
        mem.append(f"CUDA max allocated {memory['cuda_max_allocated_bytes'] / 2**20:.1f} MiB")
    if mem:
        rows.append(_row("memory", ", ".join(mem)))
    return rows


_SHOWN_OPTIONS = ("lr", "eps", "momentum", "weight_decay", "foreach", "fused", "capturable")


def _row(label: str, text: str) -> str:
    return f"  {label:<{LABEL_WIDTH}}{text}"


def _rules(result: VerifyResult) -> str:
    codes = sorted({w.rule for w in result.warnings if w.rule})
    return f" [{', '.join(codes)}]" if codes else ""
