"""`dtypeguard verify [--device cpu|cuda|auto] [--python PATH] [--timeout S] [--through [--batches N]]
[--format text|json] FILE [-- SCRIPT_ARGS...]`

Exit codes: 0 ok (warnings included); 1 error, no-step, timeout, crashed, cancelled;
2 usage, no-torch, no-cuda, cannot-emulate (the run could not be attempted, or finished, as
asked).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import sys

from dtypeguard.verify.result import VerifyResult

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2
_EXIT_BY_STATUS = {
    "ok": EXIT_OK, "no-torch": EXIT_USAGE, "no-cuda": EXIT_USAGE, "cannot-emulate": EXIT_USAGE,
}
# dtypeguard itself never needs torch (a `pip install dtypeguard` has none): say what to do.
NO_TORCH_HINT = (
    "verify runs your script with a Python that has torch (dtypeguard itself does not need it): "
    "install torch into that environment ({python} -m pip install torch), or pass --python PATH "
    "naming the interpreter of the environment you train in."
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--device", choices=("cpu", "cuda", "auto", "cuda-emulated"), default="auto",
        help="cpu hides CUDA from the script; cuda uses the GPU, or emulated CUDA (values "
        "computed on the CPU, devices checked as on a GPU) when none is usable; cuda-emulated "
        "forces the emulation; auto (default) uses cuda when available, else cpu",
    )
    parser.add_argument(
        "--python", metavar="PATH", default=None,
        help="interpreter that runs the script (needs torch, not dtypeguard); default: this one",
    )
    parser.add_argument(
        "--timeout", metavar="S", type=float, default=60.0,
        help="seconds before the script's process group is killed (default 60)",
    )
    parser.add_argument(
        "--through", action="store_true",
        help="run-through: run the whole script past the first step (eval, checkpoint save and "
        "load-back, later epochs) with every DataLoader capped at --batches batches",
    )
    parser.add_argument(
        "--batches", metavar="N", type=int, default=2,
        help="with --through: batches per DataLoader iteration (default 2)",
    )
    parser.add_argument("--format", choices=("text", "json"), default="text")
    parser.add_argument("file", metavar="FILE", help="the training script to run")
    parser.add_argument(
        "script_args", metavar="SCRIPT_ARGS", nargs=argparse.REMAINDER,
        help="arguments for the script, after --",
    )


def exit_code(result: VerifyResult) -> int:
    return _EXIT_BY_STATUS.get(result.status, EXIT_FAILED)


def script_args(args: argparse.Namespace) -> list[str]:
    """Arguments after FILE: argparse's REMAINDER keeps a leading `--`, the dispatcher's
    parse_known_args may put some in `extra_args`."""
    rest = [*(getattr(args, "script_args", None) or []), *(getattr(args, "extra_args", None) or [])]
    if rest and rest[0] == "--":
        rest = rest[1:]
    return rest


def _usage_error(message: str) -> int:
    print(f"dtypeguard verify: error: {message}", file=sys.stderr)
    return EXIT_USAGE


def run(args: argparse.Namespace) -> int:
    from dtypeguard.verify.report import format_text
    from dtypeguard.verify.runner import run_verify

    if not os.path.isfile(args.file):
        return _usage_error(f"no such file: {args.file}")
    if not (args.timeout > 0 and math.isfinite(args.timeout)):
        return _usage_error("--timeout must be a positive, finite number of seconds")
    through = args.batches if getattr(args, "through", False) else 0
    if getattr(args, "through", False) and args.batches < 1:
        return _usage_error("--batches N must be a positive number of batches")
    python = args.python
    if python is not None and os.sep not in python:
        python = shutil.which(python) or python
    if python is not None and not (os.path.isfile(python) and os.access(python, os.X_OK)):
        return _usage_error(f"--python {args.python}: not an executable file")
    if args.file.lower().endswith(".ipynb"):
        from dtypeguard.notebook import NotebookError, verify_notebook

        try:
            result = verify_notebook(
                args.file, device=args.device, python=python, timeout=args.timeout, args=script_args(args),
                **({"through": through} if through else {}),
            )
        except NotebookError as exc:
            return _usage_error(f"{args.file}: {exc}")
    else:
        result = run_verify(
            args.file, device=args.device, python=python, timeout=args.timeout, args=script_args(args),
            through=through,
        )
    if result.status == "no-torch" and not result.hint:
        result.hint = NO_TORCH_HINT.format(python=result.python or python or sys.executable)
    if args.format == "json":
        print(json.dumps(result.to_json(), indent=2))
    else:
        print(format_text(result))
    return exit_code(result)
