"""`dtypeguard fix [--diff] [--unsafe-fixes] [--select/--ignore] [--verify [--force]] PATH...`.

Applies the fixes in place, or with `--diff` prints a unified diff and writes nothing. With
`--verify` it prints the diff, runs the original and the fixed copy up to their first optimizer
step, and writes only when the fixed copy verifies ok (`--force`: anyway); exit 1 when a file
was not written. Writes
are atomic (a temporary file in the same folder, then `os.replace`), and a file that changed
on disk after it was read is never overwritten: the editor or another tool got there first.

Exit status: 0 nothing left to report, 1 findings remain (with `--diff`: also when the diff is
not empty, since nothing was written), 2 on errors (a file that cannot be read, decoded or
written; it is left untouched).
"""

from __future__ import annotations

import argparse
import difflib
import hashlib
import os
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from dtypeguard.check_cmd import config_for, read_source
from dtypeguard.config import Config
from dtypeguard.files import iter_python_files
from dtypeguard.findings import Finding
from dtypeguard.fixes.api import fix_all
from dtypeguard.notebook import fix_notebook, is_notebook


def _only_unsafe(finding: Finding, unsafe: bool) -> bool:
    """Whether a finding left has an unsafe fix that this run did not apply."""
    return any(not x.safe for x in finding.fixes) and not unsafe


def report_remaining(path: Path, remaining: list[Finding], unsafe: bool, changed: bool, stream: TextIO | None = None, editable: bool = True) -> int:
    """Print the findings left; say which of them have only unsafe fixes, and how to apply them,
    so a user whose file did not change learns why. Returns how many have only unsafe fixes.
    With `--diff` they go to stderr (`stream`), so stdout is a patch `git apply` takes. In a file
    libcst cannot read (`editable` False) no fix applies, so none is offered."""
    unsafe_only: list[Finding] = []
    if not editable and any(f.fixes for f in remaining):
        print(f"{path}: no fix can be applied: libcst cannot read this file's layout (tabs and spaces mixed in one block?)", file=sys.stderr)
    for f in remaining:
        has_unsafe = editable and _only_unsafe(f, unsafe)
        if has_unsafe:
            unsafe_only.append(f)
        marker = " (an unsafe fix exists: --unsafe-fixes)" if has_unsafe else ""
        print(f"{path}:{f.span.line}:{f.span.col + 1}: {f.code} {f.message}{marker}", file=stream or sys.stdout)
    if unsafe_only:
        listed = ", ".join(f"{f.code} at line {f.span.line}" for f in unsafe_only)
        titles = "; ".join(sorted({next(x.title for x in f.fixes if not x.safe) for f in unsafe_only}))
        n = len(unsafe_only)
        print(f"{path}: {'left' if changed else 'no safe fix applies'}: {n} finding{'s' * (n != 1)} ({listed}) "
              f"{'have' if n != 1 else 'has'} only unsafe fixes, which may change behaviour ({titles}); "
              "`dtypeguard fix --unsafe-fixes` (or --unsafe) applies them.", file=sys.stderr)
    return len(unsafe_only)


def _report_roots_elsewhere(files: list[Path], own: dict[str, set[tuple[int, int, str]]], rooted: dict[tuple[str, int, int, str], tuple[Finding, Path]], stream: TextIO | None = None) -> int:
    """Findings a folder `check` shows in a file because another script's run reaches it (a
    helper's `torch.load` that `partial_quant.py` calls): `fix` edits each file from its own
    analysis, so these are listed as left, with the script that finds them, not silently
    dropped from the count. Returns how many."""
    checked = {os.path.realpath(p): p for p in files}
    left = 0
    for (real, line, col, code), (finding, runner) in sorted(rooted.items()):
        shown = checked.get(real)
        if shown is None or (line, col, code) in own.get(real, set()):
            continue
        told = f"when {runner.name} runs it" in finding.message
        print(f"{shown}:{line}:{col + 1}: {code} {finding.message}{'' if told else f' (when {runner.name} runs it)'} "
              "(not fixed: `fix` edits each file from its own analysis; see `dtypeguard check` for where the fix goes)", file=stream or sys.stdout)
        left += 1
    return left


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or folders")
    parser.add_argument("--diff", action="store_true", help="print a unified diff instead of writing")
    parser.add_argument("--unsafe-fixes", "--unsafe", dest="unsafe_fixes", action="store_true", help="also apply fixes that may change behaviour")
    parser.add_argument("--select", default="", help="comma-separated rule codes to fix (default: all)")
    parser.add_argument("--ignore", default="", help="comma-separated rule codes to skip")
    parser.add_argument(
        "--verify", action="store_true",
        help="run the script and its fixed copy up to their first optimizer step (as `dtypeguard verify`), "
             "show the diff and both outcomes, and write the file only if the fixed copy verifies ok",
    )
    parser.add_argument("--force", action="store_true", help="with --verify: write the fixes even if the fixed copy does not verify ok")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda", "auto"), help="with --verify: the device to run on (default: cpu)")
    parser.add_argument("--timeout", type=float, default=60.0, help="with --verify: seconds each run may take (default: 60)")


@dataclass(frozen=True)
class Fingerprint:
    """What the file was when it was read: compared right before replacing it."""

    mtime_ns: int
    size: int
    sha256: str


def fingerprint(path: Path) -> Fingerprint:
    data = path.read_bytes()
    st = path.stat()
    return Fingerprint(st.st_mtime_ns, st.st_size, hashlib.sha256(data).hexdigest())


class ChangedOnDisk(Exception):
    pass


def write_atomic(path: Path, text: str, before: Fingerprint) -> None:
    """Replace `path` with `text` (UTF-8, keeping a BOM and the file mode), or raise.

    The new content goes to a temporary file next to it, flushed to disk, and `os.replace`
    swaps it in, so a crash leaves either the old file or the new one, never half of one.
    A symlink is written through (its target gets the new content; the link stays a link).
    A file with hard links is rewritten in place instead, so every name keeps seeing the one
    file (a rename would leave the other names on the old content); that write is not atomic.
    """
    path = Path(os.path.realpath(path))
    raw = path.read_bytes()
    bom = b"\xef\xbb\xbf" if raw.startswith(b"\xef\xbb\xbf") else b""
    mode = path.stat().st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".dtypeguard-tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(bom + text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        if fingerprint(path) != before:
            raise ChangedOnDisk("changed on disk since it was read; not overwritten (run `dtypeguard fix` again)")
        if path.stat().st_nlink > 1:
            with open(path, "r+b") as target:
                target.write(bom + text.encode("utf-8"))
                target.truncate()
                target.flush()
                os.fsync(target.fileno())
            os.unlink(tmp)
        else:
            os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def run(args: argparse.Namespace) -> int:
    try:
        files = list(iter_python_files(args.paths))
    except FileNotFoundError as exc:
        print(f"dtypeguard: no such file or folder: {exc}", file=sys.stderr)
        return 2
    errors = 0
    not_written = 0  # --verify: the fixed copy did not verify ok
    remaining = 0
    unsafe_left = 0
    changed_files = 0
    fixed: Counter[str] = Counter()
    reported_problems: set[str] = set()
    own: dict[str, set[tuple[int, int, str]]] = {}  # each file's own findings (applied or left)
    rooted: dict[tuple[str, int, int, str], tuple[Finding, Path]] = {}  # roots other files' runs found
    for path in files:
        try:
            before = fingerprint(path)
            text = read_source(path)
        except (OSError, ValueError) as exc:
            print(f"dtypeguard: {path}: {exc}; not changed", file=sys.stderr)
            errors += 1
            continue
        config = config_for(path, args, reported_problems)
        if is_notebook(str(path)):
            outcome = _fix_notebook(path, text, before, config, args)
            errors += outcome[0]
            remaining += outcome[1]
            unsafe_left += outcome[3]  # (the summary counts a notebook's unsafe-only findings too)
            if outcome[2]:
                changed_files += 1
                fixed.update(outcome[2])
            continue
        result = fix_all(text, str(path), config, unsafe=args.unsafe_fixes)
        own[os.path.realpath(path)] = {(f.span.line, f.span.col, f.code) for f in [*result.applied, *result.remaining]}
        for f in result.elsewhere:
            rooted.setdefault((os.path.realpath(f.span.file), f.span.line, f.span.col, f.code), (f, path))
        for finding, why in result.not_applied:
            print(f"dtypeguard: {path}:{finding.span.line}: {finding.code} fix not applied: {why}", file=sys.stderr)
        if result.text != text:
            changed_files += 1
            fixed.update(f.code for f in result.applied)
            if args.diff or getattr(args, "verify", False):
                sys.stdout.writelines(difflib.unified_diff(text.splitlines(keepends=True), result.text.splitlines(keepends=True), f"a/{path.as_posix().lstrip('/')}", f"b/{path.as_posix().lstrip('/')}"))
            if getattr(args, "verify", False) and not args.diff:
                if not _verified(path, result.text, args):
                    remaining += len(result.applied)  # not written: those findings are still there
                    changed_files -= 1
                    fixed.subtract(f.code for f in result.applied)
                    fixed += Counter()  # drop the zero counts
                    not_written += 1
                    for f in result.applied:
                        print(f"{path}:{f.span.line}:{f.span.col + 1}: {f.code} {f.message} (fixed in the copy; not written)")
                    for f in result.remaining:
                        print(f"{path}:{f.span.line}:{f.span.col + 1}: {f.code} {f.message}")
                    remaining += len(result.remaining)
                    continue
            if args.diff:
                remaining += len(result.applied)
            else:
                try:
                    write_atomic(path, result.text, before)
                except (OSError, ChangedOnDisk) as exc:
                    print(f"dtypeguard: {path}: {exc}", file=sys.stderr)
                    errors += 1
                    continue
        unsafe_left += report_remaining(path, result.remaining, args.unsafe_fixes, changed=result.text != text, stream=sys.stderr if args.diff else None, editable=result.editable)
        remaining += len(result.remaining)
    remaining += _report_roots_elsewhere(files, own, rooted, sys.stderr if args.diff else None)
    verb = "Would fix" if args.diff else "Fixed"
    summary = ", ".join(f"{code} x{n}" for code, n in sorted(fixed.items()))
    total = sum(fixed.values())
    if total:
        print(f"{verb} {total} finding{'s' * (total != 1)} in {changed_files} file{'s' * (changed_files != 1)} ({summary}).", file=sys.stderr)
    left = remaining - (total if args.diff else 0)
    if unsafe_left:
        print(f"{left} finding{'s' * (left != 1)} left: {unsafe_left} with only an unsafe fix (--unsafe-fixes applies it), "
              f"{left - unsafe_left} without a fix.", file=sys.stderr)
    else:
        print(f"{left} finding{'s' * (left != 1)} left without a fix.", file=sys.stderr)
    if not_written:
        print(f"{not_written} file{'s' * (not_written != 1)} not written: the fixed copy did not verify ok (--force writes anyway).", file=sys.stderr)
    if errors:
        return 2
    return 1 if remaining or not_written else 0


def _verified(path: Path, fixed_text: str, args: argparse.Namespace) -> bool:
    """`fix --verify`: run the original and the fixed copy (in a scratch mirror of the script's
    folder, so its data files are there; nothing is written in the user's folder) up to their
    first optimizer step, print both outcomes, and say whether the fixed file may be written."""
    import shutil

    from dtypeguard.verify.runner import run_verify
    from dtypeguard.verify.through import prepare_scratch

    before = run_verify(str(path), device=args.device, timeout=args.timeout)
    print(f"{path}: before the fix: {before.outcome}: {before.summary()}")
    try:
        scratch = prepare_scratch(str(path))
    except OSError as exc:
        print(f"{path}: cannot make a scratch copy to verify the fix: {exc}", file=sys.stderr)
        return bool(args.force)
    try:
        Path(scratch.script).write_text(fixed_text, encoding="utf-8")
        after = run_verify(scratch.script, device=args.device, timeout=args.timeout)
    finally:
        shutil.rmtree(scratch.root, ignore_errors=True)
    print(f"{path}: after the fix:  {after.outcome}: {after.summary()}")
    if after.outcome == "ok":
        return True
    if args.force:
        print(f"{path}: written anyway (--force)")
        return True
    return False


def _fix_notebook(path: Path, text: str, before: Fingerprint, config: Config, args: argparse.Namespace) -> tuple[int, int, Counter[str], int]:
    """Fix one notebook: (errors, findings left to report, codes fixed, how many of those left
    have only an unsafe fix). Only the changed cells' sources are rewritten; outputs and
    metadata stay as they are."""
    nb = fix_notebook(text, str(path), config, unsafe=args.unsafe_fixes)
    for where, finding, why in nb.not_applied:
        print(f"dtypeguard: {path}: {where}: {finding.code} fix not applied: {why}", file=sys.stderr)
    errors = 0
    fixed: Counter[str] = Counter(f.code for f in nb.applied)
    left = 0
    if nb.error and not nb.unreadable:  # (an unreadable notebook's DG000 is reported below)
        print(f"dtypeguard: {path}: {nb.error}", file=sys.stderr)
        errors += 1
    if nb.text != text:
        if args.diff:
            for cell, (old, new) in sorted(nb.changed.items()):
                name = f"{path.as_posix().lstrip('/')}:cell {cell + 1}"
                for line in difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{name}", f"b/{name}"):
                    sys.stdout.write(line if line.endswith("\n") else line + "\n\\ No newline at end of cell\n")
            left += sum(fixed.values())
        else:
            try:
                write_atomic(path, nb.text, before)
            except (OSError, ChangedOnDisk) as exc:
                print(f"dtypeguard: {path}: {exc}", file=sys.stderr)
                return errors + 1, 0, Counter(), 0
    unsafe_only = 0
    for f in nb.remaining:
        finding = f.finding
        has_unsafe = _only_unsafe(finding, args.unsafe_fixes)
        unsafe_only += has_unsafe
        unsafe = " (an unsafe fix exists: --unsafe-fixes)" if has_unsafe else ""
        where = f"cell {f.cell + 1}:" if f.cell >= 0 else ""
        print(f"{path}:{where}{finding.span.line}:{finding.span.col + 1}: {finding.code} {finding.message}{unsafe}", file=sys.stderr if args.diff else sys.stdout)
    left += len(nb.remaining)
    return errors, left, fixed, unsafe_only
