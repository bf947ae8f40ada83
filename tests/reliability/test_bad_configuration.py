"""Bad configuration never stops analysis: any `[tool.dtypeguard]` table, any pyproject.toml
bytes, any editor settings object gives a Config (or Settings) plus messages naming the key;
analysis runs with the rest. (The LSP path, a broken TOML next to an opened document, is in
test_server_abuse.py; the CLI's broken-TOML case is in tests/cli.)"""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from dtypeguard.analysis import check_source
from dtypeguard.config import Config, from_table, load_config
from dtypeguard.lsp.settings import KNOWN_KEYS, parse_settings, settings_from_init
from tests.reliability.support import ROOT, fuzz_settings

H06 = (ROOT / "samples" / "hazards" / "h06_numpy_float64_linear.py").read_text(encoding="utf-8")
KEYS = ["select", "ignore", "severity", "per-file-ignores", "colour", "Select", ""]
CODES = st.sampled_from(["DG004", "DG0", "dg008", "ALL", "DG999", "", "X", "DG", "DG004,DG008"])
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), CODES, st.text(max_size=8),
    st.just(datetime.date(2024, 1, 1)), st.sampled_from(["error", "warning", "information", "hint", "loud", "info"]),
)
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.one_of(CODES, st.text(max_size=5)), inner, max_size=4), max_leaves=12)


def analyse_with(config: Config) -> None:
    result = check_source(H06, "train.py", config)
    assert result.parsed and not result.internal_error


@fuzz_settings(300)
@given(st.dictionaries(st.sampled_from(KEYS), VALUES, max_size=5) | VALUES)
def test_any_table_gives_a_config_and_named_problems(table: Any) -> None:
    config = from_table(table)
    assert isinstance(config, Config)
    for problem in config.problems:
        assert "`" in problem or "must be a table" in problem, f"the problem names no key: {problem}"
    if isinstance(table, dict):
        for key in table:
            if key not in ("select", "ignore", "severity", "per-file-ignores"):
                assert any(f"`{key}`" in p for p in config.problems), f"unknown key {key!r} not reported"
    analyse_with(config)


@fuzz_settings(200)
@given(st.dictionaries(st.sampled_from([*sorted(KNOWN_KEYS), "bogus"]), VALUES, max_size=6) | VALUES)
def test_any_editor_settings_give_settings_and_named_problems(raw: Any) -> None:
    settings, problems = parse_settings(raw)
    for problem in problems:
        assert problem.startswith("settings")
    assert 0 < settings.verify_timeout <= 86_400 and 0 <= settings.debounce_ms <= 10_000
    assert settings.verify_device in ("auto", "cpu", "cuda")
    analyse_with(Config().merged(settings.config_overrides()))
    _, trusted, _ = settings_from_init({"workspaceTrusted": raw, "settings": raw})
    assert isinstance(trusted, bool)


@fuzz_settings(150)
@given(st.binary(max_size=200) | st.text(max_size=200).map(lambda t: ("[tool.dtypeguard]\n" + t).encode("utf-8", "surrogatepass")))
def test_any_pyproject_bytes_are_loaded_or_reported(tmp_path_factory: Any, data: bytes) -> None:
    folder = tmp_path_factory.mktemp("proj")
    (folder / "pyproject.toml").write_bytes(data)
    config = load_config(folder / "train.py")
    assert isinstance(config, Config)
    for problem in config.problems:
        assert "pyproject.toml" in problem or "`" in problem, problem
    analyse_with(config)


def test_each_kind_of_mistake_is_named(tmp_path: Path) -> None:
    cases = {
        'select = ["DG004", "DG999"]': "DG999",
        "select = 5": "`select`",
        'ignore = [1, 2]': "`ignore`",
        'severity = { DG004 = "loud" }': "severity.DG004",
        'severity = { NOPE = "hint" }': "NOPE",
        "severity = 3": "`severity`",
        '"per-file-ignores" = { "*.py" = "DG004" }': "",  # a string of codes is accepted
        '"per-file-ignores" = 7': "per-file-ignores",
        "colour = 1": "`colour`",
    }
    for n, (line, named) in enumerate(cases.items()):
        folder = tmp_path / f"p{n}"
        folder.mkdir()
        (folder / "pyproject.toml").write_text(f"[tool.dtypeguard]\n{line}\n", encoding="utf-8")
        config = load_config(folder / "train.py")
        if named:
            assert any(named in p for p in config.problems), (line, config.problems)
        analyse_with(config)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "pyproject.toml").write_bytes(b"[tool.dtypeguard\n\xff\xfe")
    config = load_config(broken / "train.py")
    assert len(config.problems) == 1 and "cannot read configuration" in config.problems[0]
    assert config.select == frozenset() and config.ignore == frozenset()
    analyse_with(config)


def test_non_finite_or_huge_verify_timeouts_are_refused() -> None:
    """JSON as Python reads it allows Infinity, NaN and 1e300; each used to reach
    `signal.alarm(int(timeout))` and fail the verify with an OverflowError."""
    for value in (float("inf"), float("nan"), 1e300, -1, 0):
        settings, problems = parse_settings({"verifyTimeout": value})
        assert settings.verify_timeout == 60.0 and any("`verifyTimeout`" in p for p in problems), value
