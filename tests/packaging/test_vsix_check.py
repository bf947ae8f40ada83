"""check_vsix.py's platform checks on hand-made packages: each compiled module's header, file
name and wheel tag must fit the package's target, and each kind of mismatch is reported.

The real packages are checked in test_vsix_packages.py (make test-packaging)."""

from __future__ import annotations

import io
import json
import struct
import zipfile

import pytest

from tests.packaging.support import PYTHONS, TARGETS, script

cv = script("check_vsix")


def elf(machine: int) -> bytes:
    return b"\x7fELF" + bytes([2, 1, 1]) + bytes(9) + struct.pack("<HH", 3, machine) + bytes(64)


def macho(cpu: int) -> bytes:
    return b"\xcf\xfa\xed\xfe" + struct.pack("<I", cpu) + bytes(64)


def fat(*cpus: int) -> bytes:
    table = b"".join(struct.pack(">IIIII", cpu, 0, 0, 0, 0) for cpu in cpus)
    return b"\xca\xfe\xba\xbe" + struct.pack(">I", len(cpus)) + table + bytes(64)


def pe(machine: int) -> bytes:
    head = bytearray(0x80)
    head[:2] = b"MZ"
    head[0x3C:0x40] = struct.pack("<I", 0x40)
    head[0x40:0x46] = b"PE\0\0" + struct.pack("<H", machine)
    return bytes(head)


X86_64, AARCH64 = 62, 183
MACHO_X86_64, MACHO_ARM64 = 0x01000007, 0x0100000C
PE_AMD64, PE_ARM64 = 0x8664, 0xAA64

# target -> (native file name for CPython 3.XY, its binary, the wheel's platform tag)
GOOD = {
    "linux-x64": ("native.cpython-{t}-x86_64-linux-gnu.so", elf(X86_64), "manylinux_2_17_x86_64"),
    "linux-arm64": ("native.cpython-{t}-aarch64-linux-gnu.so", elf(AARCH64), "manylinux_2_28_aarch64"),
    "darwin-x64": ("native.cpython-{t}-darwin.so", macho(MACHO_X86_64), "macosx_10_12_x86_64"),
    "darwin-arm64": ("native.cpython-{t}-darwin.so", macho(MACHO_ARM64), "macosx_11_0_arm64"),
    "win32-x64": ("native.cp{t}-win_amd64.pyd", pe(PE_AMD64), "win_amd64"),
}


def package(target: str, *, manifest_target: str | None = None, tag_platform: str | None = None,
            binary: bytes | None = None, extra: dict[str, bytes] | None = None,
            pythons: list[str] = PYTHONS) -> tuple[list[str], dict[str, bytes]]:
    """The listing and contents of a .vsix whose libcst has one native parser per Python."""
    name, good_binary, platform = GOOD[target]
    files: dict[str, bytes] = {
        "extension.vsixmanifest": f'<Identity Id="dtypeguard" TargetPlatform="{manifest_target or target}"/>'.encode(),
    }
    wheels = []
    for python in pythons:
        t = python.replace(".", "")
        native = "libcst/" + name.format(t=t)
        files[cv.LIBS + native] = binary or good_binary
        wheels.append({"dist": "libcst", "version": "1.9.0", "python": python,
                       "tags": [f"cp{t}-cp{t}-{tag_platform or platform}"], "natives": [native]})
    files[cv.WHEEL_TAGS] = json.dumps({"target": target, "pythons": pythons, "wheels": wheels}).encode()
    files.update(extra or {})
    return list(files), files


def problems(target: str, **kw: object) -> list[str]:
    names, files = package(target, **kw)  # type: ignore[arg-type]
    return list(cv.check_natives(names, files.__getitem__, target, PYTHONS))


@pytest.mark.parametrize("target", TARGETS)
def test_a_package_built_for_its_target_passes(target: str) -> None:
    assert problems(target) == []


@pytest.mark.parametrize(("data", "expected"), [
    (elf(X86_64), ("ELF", {"x86_64"})),
    (elf(AARCH64), ("ELF", {"aarch64"})),
    (macho(MACHO_X86_64), ("Mach-O", {"x86_64"})),
    (macho(MACHO_ARM64), ("Mach-O", {"arm64"})),
    (fat(MACHO_X86_64, MACHO_ARM64), ("Mach-O", {"x86_64", "arm64"})),
    (pe(PE_AMD64), ("PE", {"x86_64"})),
    (pe(PE_ARM64), ("PE", {"arm64"})),
    (b"#!/bin/sh\n" + bytes(64), None),
], ids=["elf-x86_64", "elf-aarch64", "macho-x86_64", "macho-arm64", "macho-universal2", "pe-amd64",
        "pe-arm64", "script"])
def test_binary_headers_are_read(data: bytes, expected: tuple[str, set[str]] | None) -> None:
    assert cv.binary_arch(data) == expected


@pytest.mark.parametrize(("target", "platform", "ok"), [
    ("linux-x64", "manylinux_2_17_x86_64", True),
    ("linux-x64", "manylinux2014_x86_64", True),
    ("linux-x64", "manylinux_2_28_x86_64", True),
    ("linux-x64", "manylinux_2_34_x86_64", False),  # newer glibc than VS Code's minimum
    ("linux-x64", "musllinux_1_2_x86_64", False),
    ("linux-x64", "manylinux_2_17_aarch64", False),
    ("linux-arm64", "manylinux_2_17_aarch64", True),
    ("linux-arm64", "manylinux_2_17_x86_64", False),
    ("darwin-x64", "macosx_10_12_x86_64", True),
    ("darwin-x64", "macosx_10_9_universal2", True),
    ("darwin-x64", "macosx_11_0_x86_64", False),  # VS Code still runs on 10.15
    ("darwin-x64", "macosx_11_0_arm64", False),
    ("darwin-arm64", "macosx_11_0_arm64", True),
    ("darwin-arm64", "macosx_10_9_universal2", True),
    ("darwin-arm64", "macosx_10_12_x86_64", False),
    ("win32-x64", "win_amd64", True),
    ("win32-x64", "win32", False),
    ("win32-x64", "win_arm64", False),
    ("win32-x64", "any", False),
])
def test_platform_tags_per_target(target: str, platform: str, ok: bool) -> None:
    assert cv.platform_ok(target, platform) is ok


def test_a_wheel_for_another_cpython_is_reported() -> None:
    assert cv.tag_ok("linux-x64", "cp312-cp312-manylinux_2_17_x86_64", "312")
    assert not cv.tag_ok("linux-x64", "cp312-cp312-manylinux_2_17_x86_64", "311")
    assert cv.tag_ok("win32-x64", "cp310-abi3-win_amd64", None)
    assert not cv.tag_ok("win32-x64", "cp310-cp310-win_amd64", None)


@pytest.mark.parametrize("target", TARGETS)
def test_another_targets_binaries_are_reported(target: str) -> None:
    for other in TARGETS:
        if GOOD[other][1] == GOOD[target][1]:
            continue
        found = problems(target, binary=GOOD[other][1])
        assert len(found) == len(PYTHONS), (target, other, found)
        assert all(f"target {target} needs" in p for p in found)


def test_a_linux_module_in_the_windows_package_is_reported() -> None:
    stray = cv.LIBS + "yaml/_yaml.cpython-312-x86_64-linux-gnu.so"
    found = problems("win32-x64", extra={stray: elf(X86_64)})
    assert any(p.startswith(stray) and "needs PE for x86_64" in p for p in found), found
    assert any(p.startswith(stray) and "not a win32-x64 extension module" in p for p in found), found


def test_a_wheel_tag_for_another_platform_is_reported() -> None:
    found = problems("linux-x64", tag_platform="manylinux_2_17_aarch64")
    assert len(found) == len(PYTHONS)
    assert all("wheel tag cp3" in p and "not for linux-x64" in p for p in found), found


def test_a_module_no_wheel_brought_is_reported() -> None:
    stray = cv.LIBS + "libcst/other.cpython-312-x86_64-linux-gnu.so"
    found = problems("linux-x64", extra={stray: elf(X86_64)})
    assert found == [f"{stray}: no wheel in {cv.WHEEL_TAGS} brought it"]


def test_wrong_target_in_the_manifests_is_reported() -> None:
    found = problems("darwin-arm64", manifest_target="darwin-x64")
    assert found == ["extension.vsixmanifest: TargetPlatform is darwin-x64, not darwin-arm64"]
    names, files = package("darwin-arm64")
    files[cv.WHEEL_TAGS] = files[cv.WHEEL_TAGS].replace(b'"target": "darwin-arm64"', b'"target": "darwin-x64"')
    found = cv.check_natives(names, files.__getitem__, "darwin-arm64", PYTHONS)
    assert found == [f"{cv.WHEEL_TAGS}: libs were bundled for darwin-x64, not darwin-arm64"]


def test_a_missing_python_is_reported() -> None:
    names, files = package("win32-x64", pythons=PYTHONS[:-1])
    found = cv.check_natives(names, files.__getitem__, "win32-x64", PYTHONS)
    assert found == ["missing libcst native parser for CPython 3.14"]


def test_check_reads_a_real_zip(tmp_path: object) -> None:
    names, files = package("linux-arm64")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name in names:
            z.writestr(name, files[name])
    path = f"{tmp_path}/x.vsix"
    with open(path, "wb") as f:
        f.write(buf.getvalue())
    found, natives = cv.check(path, "linux-arm64", PYTHONS)
    assert natives == len(PYTHONS)
    assert found and all(p.startswith("missing extension/") for p in found)  # no README etc.
