"""Scores on scripts adapted from real users' reports (tests/realworld/, written by helpers who
never read the engine) and on reductions of real repos' false alarms.

The bar the detection issue sets is recall >= 0.90 at the root-cause line with zero false
alarms. Recall is not there yet: this test keeps what has been reached from slipping (first
score, before any engine change for this set: 11/47 = 0.23) and holds false alarms at zero.
"""

from __future__ import annotations

from pathlib import Path

from tests.realworld.score import score

REPO_FP = sorted((Path(__file__).resolve().parents[1] / "realworld" / "repo_fp").glob("*.py"))

RESULT = score()


def test_the_set_is_the_size_the_issue_asks_for() -> None:
    assert RESULT["broken"] >= 40 and RESULT["correct"] >= 20


def test_recall_does_not_slip() -> None:
    """Findings stay at the failing line for now (editors and tests rely on it); the root
    cause is named in their related information ("fix here"). First score: 11/47 found the
    root cause, 19/47 any line."""
    total = RESULT["broken"]
    fix, any_line = RESULT["fix_hits"], RESULT["any_line_hits"]
    assert fix / total >= 0.45, f"{fix}/{total}: " + "\n".join(RESULT["misses"])  # type: ignore[operator, arg-type]
    assert any_line / total >= 0.55, f"{any_line}/{total}"  # type: ignore[operator]


def test_no_false_alarm_on_correct_scripts() -> None:
    assert RESULT["false_alarms"] == []


# False alarms found on real repositories (tests/realworld/REPOS.md), reduced to runnable
# correct code in tests/realworld/repo_fp/, not fixed yet. A new one, or one that goes away,
# fails here: the list is updated as the engine is.
KNOWN_REPO_FALSE_ALARMS = {
    "denoising-diffusion-pytorch_sinusoidal_time_emb.py:48:DG005",
    "examples_snli_vector_cache.py:67:DG010",
    "pytorch-lightning_dqn_get_action_device.py:108:DG009",
}


def test_real_repos_reductions_raise_no_new_false_alarm() -> None:
    got = set(RESULT["repo_false_alarms"])  # type: ignore[call-overload]
    present = {k for k in KNOWN_REPO_FALSE_ALARMS if k.split(":")[0] in {p.name for p in REPO_FP}}
    assert got == present
