"""Configuration: `[tool.dtypeguard]` in the nearest pyproject.toml, merged with editor settings.

Bad configuration never stops analysis: each problem becomes a message naming the key, and the
default is used instead.
"""

from __future__ import annotations

import fnmatch
import sys
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

SEVERITIES = ("error", "warning", "information", "hint")


@dataclass(frozen=True)
class Config:
    select: frozenset[str] = frozenset()  # empty: every rule
    ignore: frozenset[str] = frozenset()
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()
    severity: tuple[tuple[str, str], ...] = ()
    problems: tuple[str, ...] = ()  # messages about configuration that was ignored

    def enabled(self, code: str, path: str | None = None) -> bool:
        if code == "DG000":
            return code not in self.ignore
        if self.select and not any(code.startswith(s) for s in self.select):
            return False
        if any(code.startswith(i) for i in self.ignore):
            return False
        if path and self.per_file_ignores:
            posix = Path(path).as_posix()
            for pattern, codes in self.per_file_ignores:
                if (fnmatch.fnmatch(posix, pattern) or fnmatch.fnmatch(posix, f"*/{pattern}")) and any(code.startswith(c) for c in codes):
                    return False
        return True

    def severity_for(self, code: str) -> str | None:
        for key, value in self.severity:
            if key == code:
                return value
        return None

    def merged(self, overrides: dict[str, Any]) -> Config:
        """Editor settings on top of the file's configuration (settings win)."""
        problems: list[str] = list(self.problems)
        cfg = self
        if overrides.get("select"):
            cfg = replace(cfg, select=_codes(overrides["select"], "select", problems))
        if overrides.get("ignore"):
            cfg = replace(cfg, ignore=cfg.ignore | _codes(overrides["ignore"], "ignore", problems))
        if overrides.get("severityOverrides"):
            cfg = replace(cfg, severity=cfg.severity + _severities(overrides["severityOverrides"], "severityOverrides", problems))
        return replace(cfg, problems=tuple(problems))


def _known_codes() -> frozenset[str]:
    from dtypeguard.rules import BY_CODE

    return frozenset(BY_CODE)


def _codes(value: object, key: str, problems: list[str]) -> frozenset[str]:
    if isinstance(value, str):
        value = [v.strip() for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        problems.append(f"`{key}` must be a list of rule codes; ignored")
        return frozenset()
    known = _known_codes()
    good = set()
    for code in value:
        code = code.upper()
        if code == "ALL" or any(k.startswith(code) for k in known):
            good.add("DG" if code == "ALL" else code)
        else:
            problems.append(f"`{key}`: unknown rule code {code!r}; ignored")
    return frozenset(good)


def _severities(value: object, key: str, problems: list[str]) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        problems.append(f"`{key}` must be a table of CODE = severity; ignored")
        return ()
    out = []
    known = _known_codes()
    for code, sev in value.items():
        if code not in known:
            problems.append(f"`{key}`: unknown rule code {code!r}; ignored")
        elif sev not in SEVERITIES:
            problems.append(f"`{key}.{code}`: severity must be one of {', '.join(SEVERITIES)}; ignored")
        else:
            out.append((code, sev))
    return tuple(out)


def from_table(table: object, source: str = "[tool.dtypeguard]") -> Config:
    problems: list[str] = []
    if not isinstance(table, dict):
        return Config(problems=(f"{source} must be a table; using defaults",))
    known_keys = {"select", "ignore", "per-file-ignores", "severity"}
    for key in table:
        if key not in known_keys:
            problems.append(f"{source}: unknown key `{key}`; ignored")
    cfg = Config()
    if "select" in table:
        cfg = replace(cfg, select=_codes(table["select"], "select", problems))
    if "ignore" in table:
        cfg = replace(cfg, ignore=_codes(table["ignore"], "ignore", problems))
    pfi = table.get("per-file-ignores")
    if pfi is not None:
        if isinstance(pfi, dict):
            cfg = replace(cfg, per_file_ignores=tuple((str(k), _codes(v, f"per-file-ignores.{k}", problems)) for k, v in pfi.items()))
        else:
            problems.append("`per-file-ignores` must be a table of glob = [codes]; ignored")
    if "severity" in table:
        cfg = replace(cfg, severity=_severities(table["severity"], "severity", problems))
    return replace(cfg, problems=tuple(problems))


def find_pyproject(start: Path) -> Path | None:
    start = start if start.is_dir() else start.parent
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


_CACHE: dict[Path, tuple[float, Config]] = {}


def load_config(path: Path | str) -> Config:
    """The configuration that applies to `path` (cached by the pyproject's mtime)."""
    return config_of(find_pyproject(Path(path).resolve()))


def config_of(pyproject: Path | None) -> Config:
    """The configuration a pyproject.toml gives (cached by its mtime); defaults without one."""
    if pyproject is None:
        return Config()
    try:
        mtime = pyproject.stat().st_mtime
    except OSError:
        return Config()
    cached = _CACHE.get(pyproject)
    if cached and cached[0] == mtime:
        return cached[1]
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        cfg = Config(problems=(f"{pyproject}: cannot read configuration ({exc}); using defaults",))
    else:
        table = data.get("tool", {}).get("dtypeguard") if isinstance(data.get("tool"), dict) else None
        cfg = Config() if table is None else from_table(table, f"{pyproject} [tool.dtypeguard]")
    _CACHE[pyproject] = (mtime, cfg)
    return cfg


__all__ = ["Config", "field", "from_table", "load_config"]
