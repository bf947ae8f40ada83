"""Command line: `dtypeguard check|fix|verify|lsp`.

Each sub-command lives in its own module and registers its own arguments; this file only
dispatches, so the language server never pays for importing the CLI's formatting code and the
CLI never imports pygls unless `lsp` is asked for.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence

from dtypeguard import __version__

# sub-command -> module exposing `add_arguments(parser)` and `run(args) -> int`
_COMMANDS: dict[str, tuple[str, str]] = {
    "check": ("dtypeguard.check_cmd", "report dtype/device hazards in files or folders"),
    "fix": ("dtypeguard.fix_cmd", "apply the safe quick fixes to files"),
    "verify": ("dtypeguard.verify_cmd", "run a script up to its first optimizer step"),
    "lsp": ("dtypeguard.lsp.cmd", "start the language server (stdio by default)"),
    "rules": ("dtypeguard.rules_cmd", "list the rules and their explanations"),
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser; with `only`, just that sub-command's module is imported for its arguments
    (a warm `check` from the cache takes less time than importing `fix`'s libcst would)."""
    parser = argparse.ArgumentParser(
        prog="dtypeguard",
        description="Catch PyTorch dtype and device hazards before they cost you an hour.",
    )
    parser.add_argument("--version", action="version", version=f"dtypeguard {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in _COMMANDS.items():
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        sub_parser.set_defaults(_module=module_name)
        if only is not None and name != only:
            continue
        try:
            module = importlib.import_module(module_name)
        except ImportError:
            continue  # a shell still under construction must not break the others
        module.add_arguments(sub_parser)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv[0] if argv and argv[0] in _COMMANDS else None)
    args, extra = parser.parse_known_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    if extra and args.command != "verify":
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    args.extra_args = extra
    module = importlib.import_module(args._module)
    try:
        code = int(module.run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away mid-output (`dtypeguard verify ... | head`)
        _quiet_stdout()
        return 1
    try:
        sys.stdout.flush()  # a closed pipe shows up here, not at exit (the LSP client has gone, too)
    except (BrokenPipeError, ValueError):
        _quiet_stdout()
    return code


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so Python's own flush at exit does not raise again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
