"""The engine never crashes: hypothesmith programs, generated torch programs, mutated samples
(the states a file passes through while typed), arbitrary Unicode and bytes, and adversarial
inputs all end in findings or one clear "cannot parse" finding, never a traceback and never an
internal error, within a time proportional to their size.

(`tests/engine/test_robustness.py` covers the basic cases: a 50k-line file, 500-deep parens, a
NUL, BOM/CRLF/tabs, 40 seeded mutations, random text over a small alphabet.)"""

from __future__ import annotations

import time

import hypothesmith
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dtypeguard.analysis import CheckResult, check_source
from dtypeguard.engine.parse import decode_source, split_lines
from tests.reliability.support import CORPUS, SAMPLES, fuzz_settings, mutate, torch_programs

pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")  # hypothesmith compiles what it generates
TEXTS = [p.read_text(encoding="utf-8") for p in SAMPLES + CORPUS]
S_PER_LINE = 1e-3  # the bound: 1 ms a line (measured: about 0.15 ms), plus a fixed 5 s (a loaded shared machine stalls a process for a second at times)
FIXED_S = 5.0


def ok(text: str, path: str | None = None) -> CheckResult:
    """check_source, asserting the contract: no exception, no internal error, positions inside
    the text, and a failure to parse is exactly one DG000 error."""
    result = check_source(text, path)
    assert not result.internal_error, f"internal error: {result.internal_error}"
    n_lines = len(split_lines(text))  # lines end at \r\n, \r or \n, as Python and LSP count them
    for f in result.findings:
        assert f.code.startswith("DG") and f.message, f
        assert 1 <= f.span.line <= f.span.end_line <= n_lines, (f, n_lines)
    if not result.parsed:
        assert [f.code for f in result.findings] == ["DG000"], result.findings
        assert result.findings[0].message.startswith(("cannot parse", "not analysed"))
    return result


def timed(text: str, parses: bool = False) -> float:
    started = time.perf_counter()
    result = ok(text)
    assert result.parsed or not parses
    elapsed = time.perf_counter() - started
    lines = text.count("\n") + 1
    assert elapsed < FIXED_S + S_PER_LINE * lines, f"{lines} lines took {elapsed:.2f} s"
    return elapsed


# ---------------------------------------------------------------------------- generated programs
@fuzz_settings(150)
@given(hypothesmith.from_grammar())
def test_hypothesmith_grammar_programs(text: str) -> None:
    ok(text)


@fuzz_settings(25)
@given(hypothesmith.from_node())
def test_hypothesmith_node_programs(text: str) -> None:
    ok(text)


@fuzz_settings(150)
@given(torch_programs())
def test_generated_torch_programs(text: str) -> None:
    result = ok(text)
    assert result.parsed, "the generator only makes valid programs"


@fuzz_settings(100)
@given(torch_programs(), st.lists(st.tuples(st.integers(0, 6), st.integers(0, 10_000), st.integers(0, 10_000)), min_size=1, max_size=8))
def test_generated_torch_programs_mid_edit(text: str, ops: list[tuple[int, int, int]]) -> None:
    ok(mutate(text, ops))


# ---------------------------------------------------------------------------- typing states
@fuzz_settings(200)
@given(st.sampled_from(TEXTS), st.lists(st.tuples(st.integers(0, 6), st.integers(0, 10_000), st.integers(0, 10_000)), min_size=1, max_size=10))
def test_mutated_samples_and_corpus(text: str, ops: list[tuple[int, int, int]]) -> None:
    ok(mutate(text, ops))


@fuzz_settings(60)
@given(st.sampled_from(TEXTS), st.integers(0, 100_000), st.integers(0, 100_000))
def test_any_slice_of_a_sample(text: str, a: int, b: int) -> None:
    """Truncated at both ends (a paste of part of a file, a file cut while saving)."""
    a, b = sorted((a % (len(text) + 1), b % (len(text) + 1)))
    ok(text[a:b])


@fuzz_settings(100)
@given(st.sampled_from(TEXTS), st.integers(0, 100_000), st.text(st.characters(codec=None, exclude_categories=[]), max_size=20))
def test_any_unicode_inserted_anywhere(text: str, at: int, junk: str) -> None:
    """Including lone surrogates (what a non-UTF-8 file decoded with surrogateescape, or a
    JSON client, can hand us), control characters and astral characters."""
    at %= len(text) + 1
    ok(text[:at] + junk + text[at:])


@fuzz_settings(100)
@given(st.sampled_from(TEXTS), st.integers(0, 100_000), st.binary(max_size=16))
def test_any_bytes_inserted_anywhere(text: str, at: int, junk: bytes) -> None:
    """What the CLI and `fix` read: UTF-8 decodes to text the engine takes; anything else is
    the CLI's "not UTF-8" error (tests/cli) or, decoded leniently, lone surrogates."""
    data = text.encode("utf-8")
    at %= len(data) + 1
    data = data[:at] + junk + data[at:]
    try:
        decoded = decode_source(data)
    except UnicodeDecodeError:
        decoded = data.decode("utf-8", "surrogateescape")
    ok(decoded)


# ---------------------------------------------------------------------------- adversarial
H = "import torch\nfrom torch import nn\nimport numpy as np\n"
BODY = "\n".join(t for t in TEXTS if "expect: DG000" not in t)  # valid: analysed, not refused


def _adversarial() -> dict[str, str]:
    lf = TEXTS[0]
    mixed = "".join(line + ("\r\n", "\n", "\r")[i % 3] for i, line in enumerate(lf.split("\n")))
    return {
        "50k_lines": "\n".join([BODY] * max(1, 50_000 // BODY.count("\n"))),
        "500_deep_parens": "x = " + "(" * 500 + "1" + ")" * 500 + "\n",
        "500_deep_calls": H + "x = " + "torch.relu(" * 500 + "torch.zeros(3)" + ")" * 500 + "\n",
        "500_deep_lists": "x = " + "[" * 500 + "]" * 500 + "\n",
        "5000_chained_methods": H + "x = torch.zeros(3)" + ".float()" * 5000 + "\n",
        "50000_term_sum": H + "x = torch.zeros(3)" + " + torch.ones(3)" * 50_000 + "\n",
        "90_nested_blocks": "".join("    " * i + "if x:\n" for i in range(90)) + "    " * 90 + "y = 1\n",
        "500_nested_lambdas": "f = " + "lambda: " * 500 + "0\n",
        "exponential_call_tree": H + "".join(f"def f{i}(x):\n    return f{i + 1}(x) + f{i + 1}(x)\n" for i in range(40)) + "def f40(x):\n    return nn.Linear(3, 1)(x)\nf0(torch.zeros(2, 3))\n",
        "exponential_method_tree": H + "class A:\n" + "".join(f"    def m{i}(self, x):\n        return self.m{i + 1}(x) * self.m{i + 1}(x)\n" for i in range(40)) + "    def m40(self, x):\n        return x\nA().m0(torch.zeros(1))\n",
        "19_nested_loops": H + "".join("    " * i + f"for i{i} in range(2):\n" for i in range(19)) + "    " * 19 + "x = nn.Linear(3, 1)(torch.zeros(2, 3).double())\n",
        "10000_functions": H + "".join(f"def g{i}():\n    return torch.zeros({i})\n" for i in range(10_000)) + "g0()\n",
        "self_recursive_class": H + "class N:\n    def __init__(self):\n        self.n = N()\n    def forward(self, x):\n        return self.n.forward(x)\nN().forward(torch.zeros(1))\n",
        "long_line_1mb": H + "x = [" + ", ".join("1.0" for _ in range(200_000)) + "]\n",
        "long_string_4mb": "x = '" + "a" * 4_000_000 + "'\n",
        "long_identifier": H + "a" * 100_000 + " = torch.zeros(3)\n",
        "huge_int_literal": "x = " + "9" * 100_000 + "\n",
        "20000_decorators": "".join("@d\n" for _ in range(20_000)) + "def f(): pass\n",
        "nul_byte": H + "x = 1\x00\n",
        "nul_everywhere": "\x00" * 10_000,
        "non_utf8_as_surrogates": (H + "x = 'caf\xe9'\n").encode("latin-1").decode("utf-8", "surrogateescape"),
        "crlf": lf.replace("\n", "\r\n"),
        "mixed_line_endings": mixed,
        "lone_cr_only": lf.replace("\n", "\r"),
        "tabs": lf.replace("    ", "\t"),
        "mixed_tabs_spaces": "if x:\n\tif y:\n        z = 1\n",
        "bom": "\ufeff" + lf,
        "bom_twice": "\ufeff\ufeff" + lf,
        "form_feeds": lf.replace("\n\n", "\n\x0c\n"),
        "unicode_line_separators": lf.replace("#", "# \u2028\u2029\x85"),
        "only_whitespace": " \t\n" * 10_000,
        "empty": "",
        "astral_identifiers": H + "𝔁 = torch.zeros(3)\n𝔪 = nn.Linear(3, 1)\n𝔪(𝔁.double())\n",
    }


ADVERSARIAL = _adversarial()


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_adversarial_input(name: str) -> None:
    timed(ADVERSARIAL[name], parses=name in ("50k_lines", "crlf", "mixed_line_endings", "tabs", "bom", "form_feeds"))


def test_cost_grows_about_linearly() -> None:
    """Ten times the text costs far less than a hundred times the time (what a quadratic step
    would cost); the absolute bound of `timed` holds for both."""
    small = "\n".join([BODY] * 2)
    big = "\n".join([BODY] * 20)
    t_small = min(timed(small, parses=True) for _ in range(2))
    t_big = timed(big, parses=True)
    assert t_big < 40 * t_small + 0.5, f"{t_small:.2f} s -> {t_big:.2f} s for 10x the text"


@pytest.mark.parametrize("end", ["\r", "\r\n"])
def test_findings_sit_at_the_same_places_whatever_the_line_ends(end: str) -> None:
    """Old Mac (lone CR) and Windows line ends: the same lines and columns as with LF, on a
    line with a non-ASCII string before the hazard, and a suppression comment is read."""
    lf = next(p for p in SAMPLES if p.name == "h06_numpy_float64_linear.py" and p.parent.name == "hazards").read_text(encoding="utf-8")
    lf = lf.replace("preds = model(inputs)", 'tag = "é"; preds = model(inputs)')
    for text in (lf, lf.replace("# expect: DG004", "# dtypeguard: ignore[DG004]")):
        expected = [(f.code, f.span, [r.span for r in f.related]) for f in check_source(text).findings]
        other = [(f.code, f.span, [r.span for r in f.related]) for f in check_source(text.replace("\n", end)).findings]
        assert other == expected
    assert "DG004" in {f.code for f in check_source(lf.replace("\n", end)).findings}
    suppressed = lf.replace("# expect: DG004", "# dtypeguard: ignore[DG004]").replace("\n", end)
    assert "DG004" not in {f.code for f in check_source(suppressed).findings}
