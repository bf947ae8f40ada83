"""The hover's call facts (engine/library/call_facts.py): facts about library calls, which refer
to a rule's words where a rule states the fact, and name only calls the engine knows."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from dtypeguard.analysis import check_source
from dtypeguard.engine import library
from dtypeguard.engine.library.call_facts import CALL_FACTS, OPTIMIZER_FACT, CallFact
from dtypeguard.hover import call_fact_text, hover_markdown
from dtypeguard.rules import ALL_RULES, BY_CODE

ENGINE = Path(__file__).resolve().parents[2] / "server" / "dtypeguard" / "engine"
FACTS: list[tuple[str, CallFact]] = [*CALL_FACTS.items(), ("torch.optim.<Optimizer>", OPTIMIZER_FACT)]
REFERENCE = re.compile(r"\{(DG\d{3})\.(\w+)\}")


@pytest.mark.parametrize(("name", "fact"), FACTS, ids=[n for n, _ in FACTS])
def test_every_rule_a_call_fact_names_is_in_the_registry(name: str, fact: CallFact) -> None:
    for code in fact.rules:
        assert code in BY_CODE, f"{name} names {code}, which is not in the rule registry"
    for code, key in REFERENCE.findall(fact.text):
        assert code in BY_CODE and key in BY_CODE[code].facts, f"{name} refers to {code}.{key}, which {code} does not state"
    for code in re.findall(r"\bDG\d{3}\b", REFERENCE.sub("", fact.text)):
        assert code in BY_CODE, f"{name} mentions {code}, which is not in the rule registry"
    text = call_fact_text(fact)
    assert "{" not in text and text.strip() == text and text


def test_a_rule_fact_is_part_of_its_explanation_and_is_referred_to() -> None:
    referred = {ref for _, fact in FACTS for ref in REFERENCE.findall(fact.text)}
    for rule in ALL_RULES:
        for key, words in rule.facts.items():
            assert words in rule.explanation, f"{rule.code}.{key} is not said in its explanation"
            assert (rule.code, key) in referred, f"{rule.code}.{key} is referred to by no call fact"


@pytest.mark.parametrize(("name", "fact"), FACTS, ids=[n for n, _ in FACTS])
def test_a_call_fact_does_not_copy_a_rules_fact(name: str, fact: CallFact) -> None:
    """Where a rule states it, the call fact refers to the rule (`{DG017.leak}`), not a copy."""
    own = REFERENCE.sub("\0", fact.text)
    for rule in ALL_RULES:
        for key, words in rule.facts.items():
            assert words not in own, f"{name} copies {rule.code}.{key}: write {{{rule.code}.{key}}}"


@pytest.mark.parametrize(("name", "fact"), FACTS, ids=[n for n, _ in FACTS])
def test_a_call_fact_quotes_no_error_message_a_rule_explains(name: str, fact: CallFact) -> None:
    """torch's own words for an error are a rule's: a call fact that quotes one refers to the rule's
    fact instead, so the two cannot drift apart (as DG003's shuffle error and DG014's unscale error did)."""
    own = REFERENCE.sub("\0", fact.text)
    for quoted in re.findall(r'"([^"]{12,})"', own):
        for rule in ALL_RULES:
            assert quoted not in rule.explanation, f"{name} quotes {rule.code}'s error {quoted!r}: make it a fact of {rule.code}"


def test_hover_says_the_rules_words() -> None:
    text = "import torch\ntorch.set_default_tensor_type('torch.FloatTensor')\n"
    hover = hover_markdown(check_source(text), 2, 8)
    assert hover is not None
    assert hover.startswith(f"`torch.set_default_tensor_type`: {BY_CODE['DG002'].facts['deprecated']} (DG002)")
    autocast = call_fact_text(CALL_FACTS["torch.autocast"])
    assert autocast.startswith(BY_CODE["DG017"].facts["scope"] + " " + BY_CODE["DG017"].facts["leak"] + ";")


def _special_cased() -> set[str]:
    """Names the interpreter handles by code rather than from the library tables: the string
    constants of engine/call_effects.py and engine/library/vocabulary.py (`last == "GradScaler"`, `"torch.from_numpy"`)."""
    names: set[str] = set()
    for path in (ENGINE / "call_effects.py", ENGINE / "library" / "vocabulary.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names.update(n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str))
    return names


@pytest.mark.parametrize("name", list(CALL_FACTS))
def test_every_call_fact_names_a_call_the_engine_knows(name: str) -> None:
    """A fact about a call the engine does not know would be a hover about nothing in particular.
    None of today's entries is in the library tables (engine/library: `library.FUNCTIONS`);
    each is special-cased by name in engine/call_effects.py (factories, defaults, load, data, amp)."""
    if library.function(name) is not None:
        return
    short = name.rsplit(".", 1)[-1]
    assert name in _special_cased() or short in _special_cased(), (
        f"{name}: neither in the engine's library tables nor handled by name in engine/call_effects.py"
    )
