"""The outcome of one verification, as the CLI, the language server and tests see it.

The harness reports raw facts as JSON; this class is the typed, stable shape built from them
(`to_json()` is the CLI's `--format json` and the language server's command result).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Status = Literal[
    "ok", "error", "timeout", "no-step", "crashed", "no-torch", "no-cuda", "cancelled",
    "cannot-emulate",
]
# "cannot-emulate": emulated CUDA reached something it cannot stand in for (custom CUDA
# kernels, torch.compile for CUDA, NCCL); the script itself is not known to be wrong.
STATUSES: tuple[Status, ...] = (
    "ok", "error", "timeout", "no-step", "crashed", "no-torch", "no-cuda", "cancelled",
    "cannot-emulate",
)


WarningKind = Literal["nonfinite", "stalled", "nonfinite-loss", "checkpoint"]


@dataclass(frozen=True)
class VerifyWarning:
    """A silent hazard seen at the step (the run itself succeeded).

    `kind` says what was seen (parameters inf/NaN after the step, parameters with gradients
    that did not move, a non-finite loss); `rule` links it to a static rule when the cause is
    one (DG012 for float16 Adam, DG013 for bfloat16)."""

    kind: WarningKind
    rule: str | None
    message: str
    hint: str | None = None
    line: int | None = None  # where it comes from in the script (a checkpoint's torch.save)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "rule": self.rule, "message": self.message, "hint": self.hint,
                "line": self.line}


@dataclass
class VerifyResult:
    status: Status
    device: str
    duration_s: float
    file: str
    mode: Literal["cold", "warm"] = "cold"
    path: str | None = None
    line: int | None = None
    cell: int | None = None  # a notebook's 1-based cell; `line` then counts inside it
    function: str | None = None
    code_line: str | None = None
    error_type: str | None = None
    message: str | None = None
    traceback: str | None = None
    rule: str | None = None
    rule_name: str | None = None
    hint: str | None = None
    step: dict[str, Any] | None = None
    first_forward: dict[str, Any] | None = None
    loss: dict[str, Any] | None = None
    memory: dict[str, Any] = field(default_factory=dict)
    warnings: list[VerifyWarning] = field(default_factory=list)
    returncode: int | None = None
    signal: str | None = None
    exit_code: int | str | None = None
    torch_version: str | None = None
    python: str | None = None
    import_torch_s: float | None = None
    time_to_step_s: float | None = None
    stdout_tail: str = ""
    stderr_tail: str = ""
    stdout_bytes: int = 0
    stderr_bytes: int = 0
    notes: list[str] = field(default_factory=list)
    # Emulated CUDA (no usable GPU): values computed on the CPU, devices checked as on a GPU;
    # `not_checked` lists what the emulation cannot see (the report shows it).
    emulated: bool = False
    not_checked: list[str] = field(default_factory=list)
    # run-through mode (through.py): phases reached, steps, checkpoints loaded back; None if off
    through: dict[str, Any] | None = None
    # why the run could not go on when the environment is the cause (missing-file, needs-gpu,
    # needs-input), with the explanation; the status stays what happened ("error")
    limit: str | None = None
    limit_message: str | None = None
    scratch_dir: str | None = None  # kept only when the run wrote files there
    written: list[str] = field(default_factory=list)  # what it wrote (relative to scratch_dir)
    # run-through: the static finding's quick fix for the error's rule ({code, line, title, safe})
    static_fix: dict[str, Any] | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def summary(self) -> str:
        """One line for a status bar: "Adam step OK on cpu, 0.4 s" / "RuntimeError at line 42: ..."."""
        took = f"{self.duration_s:.1f} s"
        message = _first_line(self.message)
        if self.through is not None and self.status in ("ok", "error", "timeout"):
            return self._through_summary(took, message)
        if self.status == "ok":
            name = (self.step or {}).get("optimizer", "optimizer")
            if not self.warnings:
                return f"{name} step OK on {self._device_label()}, {took}"
            # never "OK" over NaN parameters or a stalled step: the first warning says what went wrong
            codes = sorted({w.rule for w in self.warnings if w.rule})
            first = self.warnings[0].message.split("; ")[0]
            more = f" (+{len(self.warnings) - 1} more)" if len(self.warnings) > 1 else ""
            rules = f" [{', '.join(codes)}]" if codes else ""
            return f"{name} step ran on {self._device_label()} but {first}{more}{rules}, {took}"
        if self.status == "error":
            where = self._at()
            rule = f" [{self.rule}]" if self.rule else ""
            return f"{self.error_type or 'Error'}{where}: {message}{rule}"
        if self.status == "timeout":
            where = f", stopped{self._at()}" if self.line is not None else ""
            return f"Timed out without an optimizer step ({took}{where})"
        if self.status == "crashed":
            where = self._at()
            return f"Crashed with {self.signal or 'a signal'}{where}"
        if self.status == "no-step":
            return f"No optimizer step: {message}"
        if self.status == "cancelled":
            return "Verification cancelled"
        if self.status == "cannot-emulate":
            return f"{message}{self._at()} (emulated CUDA; not an error in the script)"
        return message or self.status

    @property
    def outcome(self) -> str:
        """What an editor shows: "ok" (clean), "warning" (the step ran, but NaN parameters, a
        stalled update or a checkpoint that does not load back), "error", "timeout", "no-step",
        or "inconclusive" (no torch, no GPU, cancelled, cannot emulate)."""
        if self.status == "ok":
            return "warning" if self.warnings else "ok"
        if self.status in ("error", "crashed"):
            return "error"
        if self.status in ("timeout", "no-step"):
            return self.status
        return "inconclusive"

    def _device_label(self) -> str:
        return f"{self.device} (emulated)" if self.emulated else self.device
    def _through_summary(self, took: str, message: str) -> str:
        """"Ran through on cpu (3 steps; eval, save), 2.1 s" / "RuntimeError at line 40 after
        the first step: ..."."""
        through = self.through or {}
        reached = [str(p.get("phase")) for p in through.get("phases", []) if p.get("phase") not in ("step", "second-step")]
        seen = ", ".join(dict.fromkeys(reached))
        steps = through.get("steps", 0)
        detail = f"{steps} step(s)" + (f"; {seen}" if seen else "")
        warned = f"; {len(self.warnings)} warning(s)" if self.warnings else ""
        if self.warnings:
            codes = sorted({w.rule for w in self.warnings if w.rule})
            warned += f" ({', '.join(codes)})" if codes else ""
        if self.status == "ok":
            return f"Ran through on {self.device} ({detail}), {took}{warned}"
        if self.status == "timeout":
            return f"Run-through timed out ({detail}{self._at() and ', stopped' + self._at()}), {took}"
        after = " after the first step" if through.get("after_step") else ""
        rule = f" [{self.rule}]" if self.rule else ""
        limit = f" ({self.limit})" if self.limit else ""
        return f"{self.error_type or 'Error'}{self._at()}{after}{limit}: {message}{rule}"

    def _at(self) -> str:
        if self.line is None:
            return ""
        return f" at line {self.line} of cell {self.cell}" if self.cell is not None else f" at line {self.line}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "status": self.status,
            "outcome": self.outcome,
            "summary": self.summary(),
            "device": self.device,
            "duration_s": round(self.duration_s, 4),
            "file": self.file,
            "mode": self.mode,
            "path": self.path,
            "line": self.line,
            "cell": self.cell,
            "function": self.function,
            "code_line": self.code_line,
            "error_type": self.error_type,
            "message": self.message,
            "traceback": self.traceback,
            "rule": self.rule,
            "rule_name": self.rule_name,
            "hint": self.hint,
            "step": self.step,
            "first_forward": self.first_forward,
            "loss": self.loss,
            "memory": self.memory,
            "warnings": [w.to_json() for w in self.warnings],
            "returncode": self.returncode,
            "signal": self.signal,
            "exit_code": self.exit_code,
            "torch_version": self.torch_version,
            "python": self.python,
            "import_torch_s": self.import_torch_s,
            "time_to_step_s": self.time_to_step_s,
            "stdout_tail": self.stdout_tail,
            "stderr_tail": self.stderr_tail,
            "stdout_bytes": self.stdout_bytes,
            "stderr_bytes": self.stderr_bytes,
            "notes": list(self.notes),
            "emulated": self.emulated,
            "through": self.through,
            "limit": self.limit,
            "limit_message": self.limit_message,
            "scratch_dir": self.scratch_dir,
            "written": list(self.written),
            "static_fix": self.static_fix,
        }
        if self.emulated:
            out["not_checked"] = list(self.not_checked)
        return out


def _first_line(text: str | None, limit: int = 200) -> str:
    if not text:
        return ""
    line = text.strip().splitlines()[0] if text.strip() else ""
    return line if len(line) <= limit else line[: limit - 1] + "…"
