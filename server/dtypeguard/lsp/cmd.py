"""`dtypeguard lsp [--tcp HOST:PORT] [--log-file FILE] [--verbose]`: start the language server."""

from __future__ import annotations

import argparse
import logging
import sys


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--stdio", action="store_true", help="talk LSP over stdin/stdout (the default)")
    # vscode-languageclient may add this to a stdio server's command line
    parser.add_argument("--clientProcessId", type=int, default=None, help=argparse.SUPPRESS)
    parser.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP socket instead (for debugging)")
    parser.add_argument("--log-file", metavar="FILE", help="write the server's own log here (default: stderr)")
    parser.add_argument(
        "--max-lines", type=int, default=None, metavar="N",
        help="do not analyse documents longer than N lines (default 100000; 0: no limit)",
    )
    parser.add_argument("--verbose", "-v", action="store_true", help="log debug messages")


def _parse_tcp(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"--tcp wants HOST:PORT, not {value!r}")
    return host or "127.0.0.1", int(port)


def run(args: argparse.Namespace) -> int:
    level = logging.DEBUG if getattr(args, "verbose", False) else logging.WARNING
    log_file = getattr(args, "log_file", None)
    if log_file:
        logging.basicConfig(filename=log_file, level=level, format="%(asctime)s %(name)s %(levelname)s %(message)s")
    else:
        logging.basicConfig(stream=sys.stderr, level=level, format="%(name)s %(levelname)s %(message)s")
    tcp = getattr(args, "tcp", None)
    if tcp:
        try:
            address = _parse_tcp(tcp)
        except ValueError as exc:
            print(f"dtypeguard lsp: {exc}", file=sys.stderr)
            return 2
    from dtypeguard.lsp.server import build_server

    server = build_server()
    max_lines = getattr(args, "max_lines", None)
    if max_lines is not None:
        server.session.documents.max_lines = max(0, int(max_lines))
    import gc

    gc.freeze()  # the server's own long-lived objects: never walked by collections again
    gc.disable()  # the analysis thread collects when the editor is quiet (lsp.documents)
    try:
        if tcp:
            server.start_tcp(*address)
        else:
            server.start_io()
    finally:
        server.cleanup()
    return 0
