#!/usr/bin/env python3
"""Check a built .vsix: it must hold what runs (bundled server, its libs for every CPython,
README, LICENSE, icon), nothing from development (sources, tests, node_modules, caches), and
only compiled modules for its target platform:

  * the package's manifest says `TargetPlatform="<target>"`;
  * every compiled module (.so/.pyd/.dylib/.dll) is a binary for the target's OS and CPU (read
    from its ELF / Mach-O / PE header, not from its name), carries the target's file-name
    suffix, and is listed in `bundled/libs/wheel-tags.json` under a wheel whose every tag has a
    platform the target runs (manylinux <= 2.28 on x86_64 or aarch64, macOS <= 10.15 x86_64 or
    11.0 arm64 / universal2, win_amd64) and the CPython of the module's file name;
  * libcst's native parser is there for each supported CPython.

Usage: check_vsix.py dtypeguard-X.Y.Z.vsix --target linux-x64 [--pythons 3.10,3.11,...]
"""

from __future__ import annotations

import argparse
import json
import re
import struct
import sys
import zipfile
from collections.abc import Callable

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


TARGETS = ("linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "win32-x64")
NATIVE_SUFFIXES = (".so", ".pyd", ".dylib", ".dll")
LIBS = "extension/bundled/libs/"
WHEEL_TAGS = LIBS + "wheel-tags.json"

# target -> (binary format, CPU) as read from the file header
_BINARY = {
    "linux-x64": ("ELF", "x86_64"), "linux-arm64": ("ELF", "aarch64"),
    "darwin-x64": ("Mach-O", "x86_64"), "darwin-arm64": ("Mach-O", "arm64"),
    "win32-x64": ("PE", "x86_64"),
}
_ELF_MACHINES = {62: "x86_64", 183: "aarch64", 3: "x86", 40: "arm"}
_MACHO_CPUS = {0x01000007: "x86_64", 0x0100000C: "arm64", 7: "x86", 12: "arm"}
_PE_MACHINES = {0x8664: "x86_64", 0xAA64: "arm64", 0x14C: "x86"}
# target -> file-name suffix of a CPython extension module (PEP 3149 / PEP 720); group 1 = "3XY"
_SUFFIX = {
    "linux-x64": re.compile(r"\.cpython-(3\d+)-x86_64-linux-gnu\.so$|\.abi3\.so$"),
    "linux-arm64": re.compile(r"\.cpython-(3\d+)-aarch64-linux-gnu\.so$|\.abi3\.so$"),
    "darwin-x64": re.compile(r"\.cpython-(3\d+)-darwin\.so$|\.abi3\.so$"),
    "darwin-arm64": re.compile(r"\.cpython-(3\d+)-darwin\.so$|\.abi3\.so$"),
    "win32-x64": re.compile(r"\.cp(3\d+)-win_amd64\.pyd$|(?<!-)\.pyd$"),
}


def binary_arch(data: bytes) -> tuple[str, set[str]] | None:
    """(format, CPUs) of a compiled module from its header; None if not a known binary."""
    if data[:4] == b"\x7fELF" and len(data) >= 20:
        endian = "<" if data[5] == 1 else ">"
        (machine,) = struct.unpack(endian + "H", data[18:20])
        return "ELF", {_ELF_MACHINES.get(machine, f"machine {machine}")}
    if data[:4] in (b"\xcf\xfa\xed\xfe", b"\xce\xfa\xed\xfe") and len(data) >= 8:  # thin, little-endian
        (cpu,) = struct.unpack("<I", data[4:8])
        return "Mach-O", {_MACHO_CPUS.get(cpu, f"cputype {cpu:#x}")}
    if data[:4] == b"\xca\xfe\xba\xbe" and len(data) >= 8:  # fat (universal2): big-endian table
        (count,) = struct.unpack(">I", data[4:8])
        cpus = set()
        for i in range(min(count, 16)):
            (cpu,) = struct.unpack(">I", data[8 + 20 * i: 12 + 20 * i])
            cpus.add(_MACHO_CPUS.get(cpu, f"cputype {cpu:#x}"))
        return "Mach-O", cpus
    if data[:2] == b"MZ" and len(data) >= 0x40:
        (pe,) = struct.unpack("<I", data[0x3C:0x40])
        if data[pe: pe + 4] == b"PE\0\0":
            (machine,) = struct.unpack("<H", data[pe + 4: pe + 6])
            return "PE", {_PE_MACHINES.get(machine, f"machine {machine:#x}")}
    return None


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split("_"))


def platform_ok(target: str, platform: str) -> bool:
    """Whether a wheel's platform tag runs on the target (what pip was asked for, no newer)."""
    if m := re.fullmatch(r"manylinux_(\d+)_(\d+)_(\w+)", platform):
        glibc, arch = (int(m[1]), int(m[2])), m[3]
    elif m := re.fullmatch(r"manylinux(1|2010|2014)_(\w+)", platform):
        glibc, arch = {"1": (2, 5), "2010": (2, 12), "2014": (2, 17)}[m[1]], m[2]
    elif m := re.fullmatch(r"macosx_(\d+)_(\d+)_(\w+)", platform):
        mac, arch = (int(m[1]), int(m[2])), m[3]
        if target == "darwin-x64":
            return mac <= (10, 15) and arch in ("x86_64", "universal2", "intel", "universal")
        if target == "darwin-arm64":
            return mac <= (11, 0) and arch in ("arm64", "universal2")
        return False
    else:
        return target == "win32-x64" and platform == "win_amd64"
    want = {"linux-x64": "x86_64", "linux-arm64": "aarch64"}.get(target)
    return arch == want and glibc <= (2, 28)


def tag_ok(target: str, tag: str, cpython: str | None) -> bool:
    """A wheel tag `py-abi-platform` (one of each) for the target; `cpython` is "312" or None."""
    try:
        py, abi, platform = tag.split("-")
    except ValueError:
        return False
    if not platform_ok(target, platform):
        return False
    if cpython is None:  # abi3 / untagged: a stable-ABI wheel
        return abi in ("abi3", "none")
    return py == f"cp{cpython}" and abi in (f"cp{cpython}", "abi3")


def check_natives(names: list[str], read: Callable[[str], bytes], target: str,
                  pythons: list[str]) -> list[str]:
    """Problems with the package's target and its compiled modules (empty when all is well)."""
    problems: list[str] = []
    manifest = read("extension.vsixmanifest").decode("utf-8", "replace") if "extension.vsixmanifest" in names else ""
    m = re.search(r'TargetPlatform="([^"]*)"', manifest)
    if (m[1] if m else None) != target:
        problems.append(f"extension.vsixmanifest: TargetPlatform is {m[1] if m else 'missing'}, not {target}")
    wheels: list[dict[str, object]] = []
    if WHEEL_TAGS not in names:
        problems.append(f"missing {WHEEL_TAGS}")
    else:
        data = json.loads(read(WHEEL_TAGS))
        if data.get("target") != target:
            problems.append(f"{WHEEL_TAGS}: libs were bundled for {data.get('target')}, not {target}")
        wheels = list(data.get("wheels", []))
    by_file: dict[str, list[dict[str, object]]] = {}
    for wheel in wheels:
        for native in wheel.get("natives", []):  # type: ignore[attr-defined]
            by_file.setdefault(LIBS + str(native), []).append(wheel)
    want_format, want_cpu = _BINARY[target]
    natives = [n for n in names if n.startswith("extension/") and n.lower().endswith(NATIVE_SUFFIXES)]
    for name in natives:
        kind = binary_arch(read(name)[:4096])
        if kind is None:
            problems.append(f"{name}: not a binary this checker knows")
        elif kind[0] != want_format or want_cpu not in kind[1]:
            problems.append(f"{name}: {kind[0]} for {'/'.join(sorted(kind[1]))}, target {target} "
                            f"needs {want_format} for {want_cpu}")
        suffix = _SUFFIX[target].search(name)
        if suffix is None:
            problems.append(f"{name}: file name is not a {target} extension module")
            continue
        cpython = suffix[1]
        if cpython is not None and f"{cpython[0]}.{cpython[1:]}" not in pythons:
            problems.append(f"{name}: built for CPython {cpython[0]}.{cpython[1:]}, not one of {pythons}")
        owners = by_file.get(name)
        if not owners:
            problems.append(f"{name}: no wheel in {WHEEL_TAGS} brought it")
            continue
        for wheel in owners:
            tags = [str(t) for t in wheel.get("tags", [])]  # type: ignore[attr-defined]
            bad = [t for t in tags if not tag_ok(target, t, cpython)]
            if bad or not tags:
                problems.append(f"{name}: from {wheel.get('dist')} {wheel.get('version')} with wheel "
                                f"tag {', '.join(bad) or 'none'}, not for {target}"
                                + (f" / CPython {cpython}" if cpython else ""))
    for v in pythons:
        tag = v.replace(".", "")
        pattern = re.compile(rf"extension/bundled/libs/libcst/native\.(cpython-{tag}-|cp{tag}-)")
        if not any(pattern.match(n) for n in names):
            problems.append(f"missing libcst native parser for CPython {v}")
    return problems


def check(path: str, target: str, pythons: list[str]) -> tuple[list[str], int]:
    """(problems, number of compiled modules checked) for the .vsix at `path`."""
    with zipfile.ZipFile(path) as z:
        names = z.namelist()
        problems = [f"missing {r}" for r in REQUIRED if r not in names]
        problems += check_natives(names, z.read, target, pythons)
    problems += [f"dev file shipped: {n}" for n in names if FORBIDDEN.search(n)]
    natives = sum(n.lower().endswith(NATIVE_SUFFIXES) for n in names)
    return problems, natives


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("vsix")
    ap.add_argument("--target", required=True, choices=TARGETS)
    ap.add_argument("--pythons", default="3.10,3.11,3.12,3.13,3.14")
    args = ap.parse_args()
    problems, natives = check(args.vsix, args.target, args.pythons.split(","))
    if problems:
        print("\n".join(f"check_vsix: {p}" for p in problems), file=sys.stderr)
        return 1
    print(f"check_vsix: {args.vsix} ok for {args.target} ({natives} compiled modules, all {args.target} "
          f"wheels and binaries)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
