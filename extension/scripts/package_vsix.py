#!/usr/bin/env python3
"""Build the platform-specific .vsix of one VS Code target (`make vsix-all` runs it per target).

The extension JS and the server source are the same everywhere; only `bundled/libs` differs
(libcst and PyYAML ship compiled modules, one wheel per platform and CPython). So each target
is packaged from its own staging folder, `out/vsix/<target>/`, holding copies of the shipped
files (the list .vscodeignore lets through) with that target's libs, and the repo's own
`bundled/` (which the extension-host tests load) is never touched.

Steps: libs for the target (bundle_python.py, from `--cache` when it holds them) -> stage ->
`vsce package --target <target>` -> check_vsix.py (wheel tags, binary headers, contents).

Usage: package_vsix.py --target darwin-arm64 --out dtypeguard-darwin-arm64-0.1.0.vsix
                       [--pythons 3.10,...] [--cache DIR]
Needs `make ext-build` first (dist/extension.js and bundled/server).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SCRIPTS = Path(__file__).resolve().parent
# what the package holds besides bundled/ (mirrors the re-included paths of .vscodeignore)
SHIPPED = ["package.json", "LICENSE", ".vscodeignore", "extension/icon.png", "extension/README.md",
           "dist/extension.js"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--pythons", default="3.10,3.11,3.12,3.13,3.14")
    ap.add_argument("--cache", default=None)
    args = ap.parse_args()
    out = Path(args.out).resolve()
    for need in [*SHIPPED, "bundled/server/dtypeguard/__init__.py"]:
        if not (REPO / need).is_file():
            raise SystemExit(f"package_vsix: {need} missing; run `make ext-build` first")

    stage = REPO / "out" / "vsix" / args.target
    shutil.rmtree(stage, ignore_errors=True)
    for rel in SHIPPED:
        (stage / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(REPO / rel, stage / rel)
    shutil.copytree(REPO / "bundled" / "server", stage / "bundled" / "server")
    bundle = [sys.executable, str(SCRIPTS / "bundle_python.py"), "--part", "libs",
              "--target", args.target, "--pythons", args.pythons, "--out", str(stage / "bundled")]
    if args.cache:
        bundle += ["--cache", args.cache]
    subprocess.run(bundle, check=True)

    vsce = REPO / "node_modules" / "@vscode" / "vsce" / "vsce"
    out.unlink(missing_ok=True)
    subprocess.run(["node", str(vsce), "package", "--target", args.target, "--no-dependencies",
                    "--allow-missing-repository", "--readme-path", "extension/README.md",
                    "--out", str(out)], cwd=stage, check=True)
    check = subprocess.run([sys.executable, str(SCRIPTS / "check_vsix.py"), str(out),
                            "--target", args.target, "--pythons", args.pythons])
    if check.returncode != 0:
        out.unlink(missing_ok=True)
        return 1
    print(f"package_vsix: {out.name}: {out.stat().st_size / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
