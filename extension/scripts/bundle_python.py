#!/usr/bin/env python3
"""Fill `bundled/` for the .vsix: the server's Python dependencies and the server source.

Why: the user's interpreter (the one with torch) may lack pygls/lsprotocol/libcst, or have
incompatible versions. The client puts `bundled/libs` and `bundled/server` first on the
server's PYTHONPATH (docs/lsp-contract.md), so the server runs in any CPython >= 3.10.

libcst has a native parser, one wheel per CPython minor version, so we install the wheels of
every supported version for the target platform into one folder: the native modules carry
the version in their file name (`native.cpython-312-x86_64-linux-gnu.so`) and coexist.

Two pip behaviours this works around:
  * `pip install --target --python-version X` evaluates environment markers against the
    *running* interpreter, not X, so e.g. cattrs' `exceptiongroup; python_version < "3.11"`
    would be missing for 3.10 when building on 3.11. We compute the dependency closure
    ourselves, evaluating markers for the target version, and install what pip left out.
  * Resolving each version separately could pick different versions of a pure-Python package
    and merge a mixture; so the lowest Python version is resolved first and the others are
    pinned to exactly those versions.

Every compiled module's wheel is recorded in `libs/wheel-tags.json` (dist, version, Python,
wheel tags, the compiled files it brought), so check_vsix.py can check each one against the
package's target. With `--cache DIR` a finished `libs` folder is kept in DIR, keyed by this
script, the requirements, the target and the Pythons, and copied from there next time (a fresh
clone then bundles in a second instead of downloading again).

Usage: bundle_python.py [--target linux-x64] [--pythons 3.10,3.11,...] [--out bundled]
                        [--part all|libs|server] [--cache DIR]
"""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from email.parser import HeaderParser
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10 builds: pip vendors tomli
    from pip._vendor import tomli as tomllib  # type: ignore[no-redef]

try:
    from packaging.markers import Marker
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
except ModuleNotFoundError:  # pip always vendors packaging
    from pip._vendor.packaging.markers import Marker  # type: ignore[no-redef]  # noqa: F401
    from pip._vendor.packaging.requirements import Requirement  # type: ignore[no-redef]
    from pip._vendor.packaging.utils import canonicalize_name  # type: ignore[no-redef]

REPO = Path(__file__).resolve().parents[2]

# vsce target -> (pip --platform tags, packaging marker environment)
TARGETS: dict[str, tuple[list[str], dict[str, str]]] = {
    "linux-x64": (
        ["manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64"],
        {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "x86_64", "os_name": "posix"},
    ),
    "linux-arm64": (
        ["manylinux_2_28_aarch64", "manylinux_2_17_aarch64", "manylinux2014_aarch64"],
        {"sys_platform": "linux", "platform_system": "Linux", "platform_machine": "aarch64", "os_name": "posix"},
    ),
    # VS Code runs on macOS >= 10.15; pip expands the tag to every older macOS and universal2.
    "darwin-x64": (
        ["macosx_10_15_x86_64"],
        {"sys_platform": "darwin", "platform_system": "Darwin", "platform_machine": "x86_64", "os_name": "posix"},
    ),
    "darwin-arm64": (
        ["macosx_11_0_arm64"],
        {"sys_platform": "darwin", "platform_system": "Darwin", "platform_machine": "arm64", "os_name": "posix"},
    ),
    "win32-x64": (
        ["win_amd64"],
        {"sys_platform": "win32", "platform_system": "Windows", "platform_machine": "AMD64", "os_name": "nt"},
    ),
}


def log(msg: str) -> None:
    print(f"bundle: {msg}", flush=True)


def server_requirements() -> list[str]:
    with open(REPO / "pyproject.toml", "rb") as f:
        return list(tomllib.load(f)["project"]["dependencies"])


def marker_env(python: str, platform_env: dict[str, str]) -> dict[str, str]:
    return {
        "python_version": python,
        "python_full_version": f"{python}.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "extra": "",
        **platform_env,
    }


def applies(req: Requirement, env: dict[str, str]) -> bool:
    return req.marker is None or req.marker.evaluate(env)


def installed(target: Path) -> dict[str, tuple[str, Path]]:
    """canonical name -> (version, dist-info folder)."""
    out: dict[str, tuple[str, Path]] = {}
    for info in target.glob("*.dist-info"):
        meta = HeaderParser().parsestr((info / "METADATA").read_text(encoding="utf-8"))
        out[canonicalize_name(meta["Name"])] = (meta["Version"], info)
    return out


def missing_requirements(target: Path, roots: list[str], env: dict[str, str]) -> list[str]:
    """Requirements (markers evaluated for the *target* Python) not satisfied in `target`."""
    have = installed(target)
    wanted = [Requirement(r) for r in roots]
    for _version, info in have.values():
        meta = HeaderParser().parsestr((info / "METADATA").read_text(encoding="utf-8"))
        wanted += [Requirement(r) for r in meta.get_all("Requires-Dist") or []]
    missing: dict[str, str] = {}
    for req in wanted:
        if applies(req, env) and canonicalize_name(req.name) not in have:
            req.marker = None
            missing.setdefault(canonicalize_name(req.name), str(req))
    return sorted(missing.values())


def reachable(stage: Path, roots: list[str], env: dict[str, str]) -> set[str]:
    """Names of the dists in `stage` that `roots` need on the Python described by `env`."""
    have = installed(stage)
    todo = [Requirement(r) for r in roots]
    seen: set[str] = set()
    while todo:
        req = todo.pop()
        name = canonicalize_name(req.name)
        if name in seen or not applies(req, env) or name not in have:
            continue
        seen.add(name)
        meta = HeaderParser().parsestr((have[name][1] / "METADATA").read_text(encoding="utf-8"))
        todo += [Requirement(r) for r in meta.get_all("Requires-Dist") or []]
    return seen


def pip_install(target: Path, reqs: list[str], python: str, platforms: list[str], no_deps: bool) -> None:
    cmd = [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
           "--no-compile", "--upgrade", "--target", str(target), "--only-binary=:all:",
           "--python-version", python, "--implementation", "cp",
           # wheel tags already select the target Python; pip would check Requires-Python
           # against the interpreter running the build instead.
           "--ignore-requires-python"]
    for p in platforms:
        cmd += ["--platform", p]
    if no_deps:
        cmd.append("--no-deps")
    env = {**os.environ, "PIP_ROOT_USER_ACTION": "ignore"}
    subprocess.run([*cmd, *reqs], check=True, env=env)


def install_closure(stage: Path, roots: list[str], python: str, platforms: list[str],
                    env: dict[str, str], no_deps: bool) -> None:
    pip_install(stage, roots, python, platforms, no_deps)
    for _ in range(10):
        missing = missing_requirements(stage, roots, env)
        if not missing:
            return
        log(f"cp{python}: adding what pip's marker evaluation left out: {missing}")
        extra = Path(tempfile.mkdtemp(prefix="extra-", dir=stage.parent))
        pip_install(extra, missing, python, platforms, no_deps=False)
        for entry in extra.iterdir():
            if not (stage / entry.name).exists():
                shutil.move(str(entry), stage / entry.name)
        shutil.rmtree(extra)
    raise SystemExit(f"bundle: dependency closure for {python} did not converge")


def merge(src: Path, dst: Path) -> None:
    """Copy `src` into `dst`; code files may repeat only if identical.

    dist-info files (RECORD, WHEEL tags, METADATA generator lines) legitimately differ between
    the wheels of one release for different Pythons; the first one is kept.
    """
    for root, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        rel = Path(root).relative_to(src)
        (dst / rel).mkdir(parents=True, exist_ok=True)
        for name in files:
            s, d = Path(root) / name, dst / rel / name
            if not d.exists():
                shutil.copy2(s, d)
            elif not filecmp.cmp(s, d, shallow=False) and not rel.name.endswith(".dist-info"):
                raise SystemExit(f"bundle: {rel / name} differs between Python versions")


NATIVE_SUFFIXES = (".so", ".pyd", ".dylib", ".dll")
WHEEL_TAGS = "wheel-tags.json"


def wheel_records(stage: Path, python: str) -> list[dict[str, object]]:
    """One entry per dist installed in `stage`: its wheel tags and the compiled files it holds."""
    out: list[dict[str, object]] = []
    for name, (version, info) in sorted(installed(stage).items()):
        wheel = HeaderParser().parsestr((info / "WHEEL").read_text(encoding="utf-8"))
        record = (info / "RECORD").read_text(encoding="utf-8").splitlines()
        files = [line.rsplit(",", 2)[0] for line in record if line.strip()]
        out.append({
            "dist": name, "version": version, "python": python,
            "tags": sorted(wheel.get_all("Tag") or []),
            "natives": sorted(f for f in files if f.endswith(NATIVE_SUFFIXES)),
        })
    return out


def cache_key(target: str, pythons: list[str], roots: list[str]) -> str:
    h = hashlib.sha256(Path(__file__).read_bytes())
    h.update(json.dumps([target, pythons, roots, TARGETS[target][0]]).encode())
    return h.hexdigest()[:16]


def build_libs(libs: Path, target: str, pythons: list[str], roots: list[str]) -> None:
    platforms, platform_env = TARGETS[target]
    with tempfile.TemporaryDirectory(prefix="dtypeguard-bundle-") as tmp:
        staged: list[Path] = []
        records: list[dict[str, object]] = []
        first: Path | None = None
        for python in pythons:
            stage = Path(tmp) / f"cp{python}"
            env = marker_env(python, platform_env)
            if first is None:
                install_closure(stage, roots, python, platforms, env, no_deps=False)
                first = stage
            versions = installed(first)
            pins = [f"{n}=={versions[n][0]}" for n in sorted(reachable(first, roots, env))]
            log(f"cp{python}: {' '.join(pins)}")
            if stage != first:
                install_closure(stage, pins, python, platforms, env, no_deps=True)
            staged.append(stage)
            records += wheel_records(stage, python)
        shutil.rmtree(libs, ignore_errors=True)
        libs.mkdir(parents=True)
        for stage in staged:
            merge(stage, libs)
    shutil.rmtree(libs / "bin", ignore_errors=True)  # console scripts: useless without their shebang Python
    # Wheels such as libcst ship their test suites (~2 MB that never runs in the server).
    for tests in sorted(libs.glob("*/**/tests"), reverse=True):
        if tests.is_dir():
            shutil.rmtree(tests)
    manifest = {"target": target, "pythons": pythons, "wheels": records}
    (libs / WHEEL_TAGS).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")


def prune_cache(keep: Path, per_target: int = 2) -> None:
    """Drop older libs of the same target (from earlier requirements or scripts): the newest
    `per_target` stay, so two branches built in turn do not rebuild each time."""
    target = keep.name.rsplit("-", 1)[0]
    entries = [p for p in keep.parent.glob(f"{target}-*") if p.is_dir() and "." not in p.name
               and p.name.rsplit("-", 1)[0] == target]
    entries.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    for old in [p for p in entries if p != keep][per_target - 1:]:
        log(f"cache: removing {old.name}")
        shutil.rmtree(old, ignore_errors=True)


def copy_server(out: Path) -> None:
    src = REPO / "server" / "dtypeguard"
    dst = out / "server" / "dtypeguard"
    shutil.rmtree(out / "server", ignore_errors=True)
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info"))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--target", default="linux-x64", choices=sorted(TARGETS))
    ap.add_argument("--pythons", default="3.10,3.11,3.12,3.13,3.14")
    ap.add_argument("--out", default=str(REPO / "bundled"))
    ap.add_argument("--part", choices=["all", "libs", "server"], default="all",
                    help="the server source changes often, the libraries rarely: rebuild apart")
    ap.add_argument("--cache", default=None,
                    help="folder (outside the repo) that keeps finished libs per target")
    args = ap.parse_args()
    out = Path(args.out)
    if args.part in ("all", "server"):
        copy_server(out)
        log(f"{out / 'server'}: dtypeguard source copied")
    if args.part == "server":
        return 0
    pythons = sorted(args.pythons.split(","), key=lambda v: tuple(int(x) for x in v.split(".")))
    libs = out / "libs"
    roots = server_requirements()
    log(f"target {args.target}, CPython {', '.join(pythons)}, requirements {roots}")
    cached = Path(args.cache) / f"libs-{args.target}-{cache_key(args.target, pythons, roots)}" if args.cache else None
    if cached is not None and (cached / WHEEL_TAGS).is_file():
        log(f"libs from the cache {cached}")
        shutil.rmtree(libs, ignore_errors=True)
        shutil.copytree(cached, libs)
        os.utime(cached)  # recently used: kept by prune_cache
    else:
        build_libs(libs, args.target, pythons, roots)
        if cached is not None:  # copy then rename: a parallel build never sees half a folder
            cached.parent.mkdir(parents=True, exist_ok=True)
            partial = Path(tempfile.mkdtemp(prefix=f"{cached.name}.", dir=cached.parent))
            shutil.copytree(libs, partial, dirs_exist_ok=True)
            try:
                partial.rename(cached)
            except OSError:  # another build stored it first
                shutil.rmtree(partial, ignore_errors=True)
            prune_cache(cached)
    natives = sorted(p.name for p in libs.rglob("*.so")) + sorted(p.name for p in libs.rglob("*.pyd"))
    log(f"{libs}: {len(list(libs.iterdir()))} entries, native modules: {', '.join(natives)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
