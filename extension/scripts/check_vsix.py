#!/usr/bin/env python3
"""Check a built .vsix: it must hold what runs (bundled server, its libs for every CPython,
README, LICENSE, icon) and nothing from development (sources, tests, node_modules, caches).

Usage: check_vsix.py dtypeguard-X.Y.Z.vsix [--pythons 3.10,3.11,...]
"""

from __future__ import annotations

import argparse
import re
import sys
import zipfile

REQUIRED = [
    "extension/package.json",
    "extension/dist/extension.js",
    "extension/readme.md",
    "extension/LICENSE.txt",
    "extension/extension/icon.png",
    "extension/bundled/server/dtypeguard/__init__.py",
    "extension/bundled/server/dtypeguard/__main__.py",
    "extension/bundled/libs/pygls/__init__.py",
    "extension/bundled/libs/lsprotocol/__init__.py",
    "extension/bundled/libs/libcst/__init__.py",
]
FORBIDDEN = re.compile(
    r"(^|/)(node_modules|\.venv|\.git|\.e2e|out|samples|tests|__pycache__)/"
    r"|\.ts$|\.map$|\.pyc$|(^|/)(tsconfig\.json|package-lock\.json|Makefile)$"
    r"|^extension/extension/(src|test|e2e|scripts)/"
)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("vsix")
    ap.add_argument("--pythons", default="3.10,3.11,3.12,3.13,3.14")
    args = ap.parse_args()
    names = zipfile.ZipFile(args.vsix).namelist()
    problems = [f"missing {r}" for r in REQUIRED if r not in names]
    for v in args.pythons.split(","):
        tag = v.replace(".", "")
        if not any(re.match(rf"extension/bundled/libs/libcst/native\.cpython-{tag}-", n) for n in names):
            problems.append(f"missing libcst native parser for CPython {v}")
    problems += [f"dev file shipped: {n}" for n in names if FORBIDDEN.search(n)]
    if problems:
        print("\n".join(f"check_vsix: {p}" for p in problems), file=sys.stderr)
        return 1
    print(f"check_vsix: {args.vsix} ok ({len(names)} files)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
