"""Editor settings (`initializationOptions.settings`, `workspace/didChangeConfiguration`).

The keys are those of docs/lsp-contract.md. A bad value never stops the server: it is reported
as a problem naming the key and the previous (or default) value is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

DEVICES = ("auto", "cpu", "cuda")
SEVERITIES = ("error", "warning", "information", "hint")
MAX_VERIFY_TIMEOUT_S = 86_400  # a day; also keeps inf, nan and 1e300 (valid JSON for Python) out
KNOWN_KEYS = frozenset(
    {
        "interpreter", "verifyTimeout", "verifyDevice", "select", "ignore",
        "severityOverrides", "inlayHints", "debounceMs", "workspaceDiagnostics",
    }
)


@dataclass(frozen=True)
class Settings:
    interpreter: tuple[str, ...] = ()  # the Python (argv) used for verify; () = the server's own
    verify_timeout: float = 60.0
    verify_device: str = "auto"
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity_overrides: tuple[tuple[str, str], ...] = ()
    inlay_hints: bool = False
    debounce_ms: int = 200
    workspace_diagnostics: bool = False  # every Python file of the workspace, not only open ones

    @property
    def python(self) -> str | None:
        return self.interpreter[0] if self.interpreter else None

    def config_overrides(self) -> dict[str, Any]:
        """The part `Config.merged` understands."""
        return {
            "select": list(self.select),
            "ignore": list(self.ignore),
            "severityOverrides": dict(self.severity_overrides),
        }


def _str_list(value: object) -> list[str] | None:
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return [v for v in value if v]
    return None


def parse_settings(raw: object, base: Settings | None = None) -> tuple[Settings, list[str]]:
    """Apply the keys present in `raw` on top of `base`; return the settings and problems."""
    settings = base or Settings()
    problems: list[str] = []
    if raw is None:
        return settings, problems
    if not isinstance(raw, dict):
        return settings, [f"settings must be an object, not {type(raw).__name__}; ignored"]
    for key in raw:
        if key not in KNOWN_KEYS:
            problems.append(f"settings: unknown key `{key}`; ignored")
    if "interpreter" in raw:
        value = raw["interpreter"]
        items = [value] if isinstance(value, str) else value
        if value is None or items == []:
            settings = replace(settings, interpreter=())
        elif isinstance(items, list) and all(isinstance(v, str) and v for v in items):
            settings = replace(settings, interpreter=tuple(items))
        else:
            problems.append("settings: `interpreter` must be a path or a list of strings; ignored")
    if "verifyTimeout" in raw:
        value = raw["verifyTimeout"]
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 < value <= MAX_VERIFY_TIMEOUT_S:
            settings = replace(settings, verify_timeout=float(value))
        else:
            problems.append(f"settings: `verifyTimeout` must be a number of seconds (above 0, at most {MAX_VERIFY_TIMEOUT_S}); ignored")
    if "verifyDevice" in raw:
        value = raw["verifyDevice"]
        if value in DEVICES:
            settings = replace(settings, verify_device=str(value))
        else:
            problems.append(f"settings: `verifyDevice` must be one of {', '.join(DEVICES)}; ignored")
    for key, attr in (("select", "select"), ("ignore", "ignore")):
        if key in raw:
            items_ = _str_list(raw[key]) if raw[key] is not None else []
            if items_ is None:
                problems.append(f"settings: `{key}` must be a list of rule codes; ignored")
            else:
                settings = replace(settings, select=tuple(items_)) if attr == "select" else replace(settings, ignore=tuple(items_))
    if "severityOverrides" in raw:
        value = raw["severityOverrides"]
        if value is None:
            settings = replace(settings, severity_overrides=())
        elif isinstance(value, dict):
            pairs: list[tuple[str, str]] = []
            for code, sev in value.items():
                level = sev.strip().lower() if isinstance(sev, str) else ""
                level = "information" if level == "info" else level
                if level in SEVERITIES:
                    pairs.append((str(code).upper(), level))
                else:
                    problems.append(
                        f"settings: `severityOverrides.{code}` must be one of {', '.join(SEVERITIES)}; ignored"
                    )
            settings = replace(settings, severity_overrides=tuple(pairs))
        else:
            problems.append("settings: `severityOverrides` must be an object of CODE: severity; ignored")
    if "inlayHints" in raw:
        value = raw["inlayHints"]
        if isinstance(value, bool):
            settings = replace(settings, inlay_hints=value)
        else:
            problems.append("settings: `inlayHints` must be true or false; ignored")
    if "workspaceDiagnostics" in raw:
        value = raw["workspaceDiagnostics"]
        if isinstance(value, bool):
            settings = replace(settings, workspace_diagnostics=value)
        else:
            problems.append("settings: `workspaceDiagnostics` must be true or false; ignored")
    if "debounceMs" in raw:
        value = raw["debounceMs"]
        if isinstance(value, (int, float)) and not isinstance(value, bool) and 0 <= value <= 10_000:
            settings = replace(settings, debounce_ms=int(value))
        else:
            problems.append("settings: `debounceMs` must be a number of milliseconds (0-10000); ignored")
    return settings, problems


def settings_from_init(options: object) -> tuple[Settings, bool, list[str]]:
    """`initializationOptions` -> (settings, workspace trusted, problems).

    Accepts the contract's `{"workspaceTrusted": ..., "settings": {...}}` and, for editors
    configured by hand, the settings keys at the top level. Trust defaults to True (the user
    asking for a verify is the consent).
    """
    if options is None:
        return Settings(), True, []
    if not isinstance(options, dict):
        return Settings(), True, ["initializationOptions must be an object; ignored"]
    trusted_raw = options.get("workspaceTrusted", True)
    problems: list[str] = []
    trusted = trusted_raw if isinstance(trusted_raw, bool) else True
    if not isinstance(trusted_raw, bool):
        problems.append("initializationOptions: `workspaceTrusted` must be true or false; assumed true")
    if "settings" in options:
        raw = options["settings"]
    else:
        raw = {k: v for k, v in options.items() if k in KNOWN_KEYS}
    settings, more = parse_settings(raw)
    return settings, trusted, problems + more


def settings_from_change(payload: object) -> dict[str, Any] | None:
    """The dtypeguard section of a didChangeConfiguration payload, if it carries one."""
    if not isinstance(payload, dict):
        return None
    section = payload.get("dtypeguard")
    if isinstance(section, dict):
        return section
    if any(key in KNOWN_KEYS for key in payload):
        return payload
    return None
