"""Settings changes (`workspace/didChangeConfiguration`): parse, apply, analyse again.

Clients send the new settings in the notification, or (VS Code with `workspace/configuration`
support) only say that something changed; then the `dtypeguard` section is asked for. Parsing
is `settings.py`'s (a bad value is a problem naming its key and keeps the old value). Applied
settings reach every open document at once: a new configuration generation is analysed
without debounce, and the client is asked to refresh pulled diagnostics, lenses and, when they
are or were on, inlay hints.
"""

from __future__ import annotations

from lsprotocol import types

from dtypeguard.lsp import workspace
from dtypeguard.lsp.session import Session
from dtypeguard.lsp.settings import Settings, parse_settings, settings_from_change


async def did_change_configuration(session: Session, params: types.DidChangeConfigurationParams) -> None:
    raw = settings_from_change(params.settings)
    ws = session.caps.workspace
    if raw is None and ws is not None and ws.configuration:
        items = await session.client.workspace_configuration_async(
            types.ConfigurationParams(items=[types.ConfigurationItem(section="dtypeguard")])
        )
        raw = items[0] if items and isinstance(items[0], dict) else None
    if raw is None:
        return
    settings, problems = parse_settings(raw, session.settings)
    if problems:
        session.report_problems(problems)
    old = session.settings
    apply_settings(session, settings)
    if old.workspace_diagnostics != settings.workspace_diagnostics or (settings.workspace_diagnostics and old != settings):
        await workspace.scan(session)  # on: check the workspace (with the new rules); off: take it back


def apply_settings(session: Session, settings: Settings) -> None:
    old = session.settings
    session.settings = settings
    session.documents.debounce_s = settings.debounce_ms / 1000.0
    session.documents.reanalyse_all()
    session.refresh(diagnostics=True, lenses=True, inlay=old.inlay_hints != settings.inlay_hints or settings.inlay_hints)
