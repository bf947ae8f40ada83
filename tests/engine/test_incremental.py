"""The incremental checker (what the language server runs on every keystroke) must give
exactly what `check_source` gives: same tree from its chunks, same result after resuming."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from dtypeguard.analysis import Analyzer, CheckResult, check_source, split_chunks
from dtypeguard.engine.events import Events
from dtypeguard.engine.resume import _marks

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples").rglob("*.py"))
CORPUS = sorted((ROOT / "tests" / "corpus").rglob("*.py"))

TRICKY = {
    "docstring with column-0 lines": '"""Usage:\npython train.py --epochs 3\nimport this\n"""\nimport torch\nx = torch.zeros(3)\n',
    "bracket with column-0 items": "import torch\nxs = [\n1.0, 2.0,\n3.0]\nt = torch.tensor(xs)\n",
    "backslash continuation": "import torch\nx = torch.zeros(3) + \\\n1\ny = x.double()\n",
    "decorators": "import functools\n@functools.cache\n@functools.wraps(print)\ndef f():\n    return 1\nclass A:\n    pass\n@dec\nclass B:\n    pass\n",
    "if/elif/else and try": "if a:\n    x = 1\nelif b:\n    x = 2\nelse:\n    x = 3\ntry:\n    pass\nexcept ValueError:\n    pass\nelse:\n    pass\nfinally:\n    pass\n",
    "for/while else": "for i in x:\n    pass\nelse:\n    pass\nwhile y:\n    break\nelse:\n    z = 1\n",
    "async and match": "async def f():\n    await g()\nmatch x:\n    case 1:\n        pass\n    case _:\n        pass\n",
    "CRLF": "import torch\r\nx = torch.zeros(3)\r\ndef f():\r\n    return x\r\n",
    "BOM": "\ufeffimport torch\nx = torch.zeros(3)\n",
    "no final newline": "import torch\nx = torch.zeros(3)",
    "comments and blank lines": "# header\n\nimport torch\n# between\n\n\nx = 1  # trailing\n#\n",
    "triple quotes of both kinds": "a = '''\nb = \"\"\"\n'''\nc = \"\"\"x\"\"\"\nd = 1\n",
    "string ending in a triple quote": 'a = "x"""\nb = 1\nc = 2\n',
    "non-ASCII": "s = 'héllo'  # ünïcode\nt = 'ß'\n",
    "form feed": "x = 1\n\f\ny = 2\n",
    "only comments": "# nothing\n",
    "empty": "",
}


def _chunked_tree(text: str) -> ast.Module:
    parsed = Analyzer()._parse(text)
    assert isinstance(parsed, tuple), f"not cut into chunks: {parsed!r}"
    return ast.Module(body=[stmt for body in parsed[1] for stmt in body], type_ignores=[])


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_chunks_parse_to_the_same_tree_as_the_whole_text(name: str) -> None:
    text = TRICKY[name]
    expected = ast.dump(ast.parse(text.removeprefix("\ufeff")), include_attributes=True)
    assert ast.dump(_chunked_tree(text), include_attributes=True) == expected


def test_chunks_of_every_sample_and_corpus_file_parse_to_the_same_tree() -> None:
    for path in SAMPLES + CORPUS:
        text = path.read_text(encoding="utf-8")
        try:
            ast.parse(text)
        except SyntaxError:
            assert not Analyzer().check(text).parsed
            continue
        expected = ast.dump(ast.parse(text), include_attributes=True)
        assert ast.dump(_chunked_tree(text), include_attributes=True) == expected, path


def test_chunks_concatenate_to_the_text() -> None:
    for text in TRICKY.values():
        assert "".join(chunk for _, chunk in split_chunks(text)) == text
        firsts = [line for line, _ in split_chunks(text)]
        assert firsts == sorted(firsts) and firsts[0] == 1


def test_a_bad_cut_is_merged_rather_than_reported() -> None:
    text = TRICKY["bracket with column-0 items"]
    assert len(split_chunks(text)) > len(ast.parse(text).body)  # the guess cut inside [...]
    result = Analyzer().check(text)
    assert result.parsed and result.findings == check_source(text).findings


def _normal(result: CheckResult) -> tuple[object, ...]:
    """Everything a shell reads, with AST node identities (object addresses) left out."""

    def plain(x: object) -> str:
        return re.sub(r" at 0x[0-9a-f]+", "", repr(x))

    return (result.findings, result.parsed, plain(result.events), plain(result.facts), result.optimizer_sites, result.internal_error)


SNIPPETS = [
    "x", " ", "\n", "torch.zeros(3)", "model.half()\n", "(", ")", '"""', "#", "    ", "\n\n",
    "torch.set_default_dtype(torch.float64)\n", "y = x.cuda()\n", "def f():\n    pass\n", "@dec\n",
    "else:\n", "opt.step()\n", "\nfor i in range(3):\n    model(x)\n", ".double()", "dtype=torch.float16",
]


def test_random_edits_give_what_check_source_gives() -> None:
    """Edits land mostly near the previous one, as typing does, and a typo that breaks the
    syntax is mostly undone at once, so many checks resume."""
    rng = random.Random(20261202)
    checks = resumed = 0
    for path in SAMPLES[:14] + CORPUS[:10]:
        text = path.read_text(encoding="utf-8")
        checker, last, before = Analyzer(), 0, text
        for step in range(20):
            result = checker.check(text)
            checks += 1
            resumed += checker.resumed_from > 0 or checker.reused
            expected = check_source(text)
            assert _normal(result) == _normal(expected), f"{path.name} after {step} edits:\n{text}"
            if not expected.parsed and rng.random() < 0.7:
                text = before
                continue
            before = text
            near = step and rng.random() < 0.8
            pos = min(len(text), max(0, last + rng.randint(-30, 30))) if near else rng.randrange(len(text) + 1)
            if rng.random() < 0.3:
                text = text[:pos] + text[pos + rng.randint(1, 8) :]
            else:
                text = text[:pos] + rng.choice(SNIPPETS) + text[pos:]
            last = pos
    assert checks == 480
    assert resumed >= 40, f"only {resumed} of {checks} checks resumed: the test no longer exercises resuming"


def _typed(text: str, anchor: str, typed: str) -> list[str]:
    at = text.index(anchor)
    return [text[:at] + typed[:k] + text[at:] for k in range(1, len(typed) + 1)]


def test_typing_in_the_last_function_resumes_there() -> None:
    text = (ROOT / "samples" / "hazards" / "h06_numpy_float64_linear.py").read_text(encoding="utf-8")
    text += "\n\ndef later():\n    x = torch.zeros(2)\n    return x\n"
    checker = Analyzer()
    checker.check(text)
    versions = _typed(text, "    return x\n", "    y = x.double()\n")
    resumed = []
    for version in versions:
        result = checker.check(version)
        resumed.append(checker.resumed_from)
        assert _normal(result) == _normal(check_source(version))
    last_chunk = len(split_chunks(text)) - 1
    assert resumed[0] == -1  # the first edit: no snapshot there yet
    parsed = [r for v, r in zip(versions, resumed, strict=True) if check_source(v).parsed]
    assert parsed and all(r == last_chunk for r in parsed[1:])


def test_an_edit_above_the_snapshot_starts_again_from_the_top() -> None:
    text = "import torch\nx = torch.zeros(3)\ny = x.double()\nz = y.float()\n"
    checker = Analyzer()
    checker.check(text)
    checker.check(text.replace("z = y", "z  = y"))
    checker.check(text.replace("z = y", "z   = y"))
    assert checker.resumed_from == 3
    edited = text.replace("x = torch.zeros(3)", "x = torch.ones(3)").replace("z = y", "z   = y")
    result = checker.check(edited)
    assert checker.resumed_from == -1
    assert _normal(result) == _normal(check_source(edited))


def test_texts_it_leaves_to_the_full_analysis() -> None:
    for text in ("x = 1\ry = 2\r", "x = 1\x00", "x = (\n", "import torch\nx = torch.zeros(3\n"):
        checker = Analyzer()
        assert _normal(checker.check(text)) == _normal(check_source(text))


def test_a_snapshot_refuses_a_record_field_it_does_not_know() -> None:
    events = Events()
    events.__dict__["surprise"] = 3.5  # not a field: ignored
    _marks(events)

    class Odd(Events):
        pass

    odd = Odd()
    odd.uses_cuda_check = "yes"  # type: ignore[assignment]
    with pytest.raises(TypeError, match="uses_cuda_check"):
        _marks(odd)


def _main_layout(count: int = 6) -> str:
    """Sample scripts wrapped as functions, all called from `main()` at the end."""
    parts = ["import numpy as np\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"]
    for i, path in enumerate(SAMPLES[:count]):
        body = re.sub(r'^"""[\s\S]*?"""\n', "", path.read_text(encoding="utf-8"))
        body = "\n".join("    " + line if line.strip() else "" for line in body.splitlines())
        parts.append(f"\ndef block_{i}():\n{body}\n    return None\n")
    calls = "".join(f"    block_{i}()\n" for i in range(count))
    parts.append(f"\ndef main():\n    torch.manual_seed(0)\n{calls}\n\nif __name__ == \"__main__\":\n    main()\n")
    return "".join(parts)


def test_typing_in_a_function_main_calls_resumes_inside_main() -> None:
    """`main()` runs everything, so resuming before its chunk would save nothing: the checker
    resumes inside `main()`, at the first statement that calls the edited function."""
    text = _main_layout()
    anchor = text.index("    return None\n\ndef block_4")
    text = text[:anchor] + "    \n" + text[anchor:]  # a new line in block_3, typed into below
    anchor += 4
    checker = Analyzer()
    checker.check(text)
    inside: list[int] = []
    typed = "extra = torch.zeros(4, dtype=torch.float64).cuda()"
    for k in range(1, len(typed) + 1):
        version = text[:anchor] + typed[:k] + text[anchor:]
        result = checker.check(version)
        assert _normal(result) == _normal(check_source(version)), typed[:k]
        inside.append(checker.resumed_in_entry)
    assert inside.count(4) >= 10, inside  # `block_3()` is main's statement 4
    assert set(inside) <= {-1, 4}


def test_main_layout_random_edits_give_what_check_source_gives() -> None:
    """Typing statements character by character at random places inside the functions
    `main()` calls (a new line, then the statement: half-typed states do not parse)."""
    rng = random.Random(7)
    text = _main_layout()
    statements = ["x = torch.zeros(3).half()", "model = model.double()", "print(1)", "y = np.ones(2)", "opt = None"]
    checker, checks, resumed = Analyzer(), 0, 0
    for _ in range(8):
        starts = [m.start() + 1 for m in re.finditer(r"\n    [a-z]", text[: text.index("def main")])]
        at = rng.choice(starts)
        text = text[:at] + "    \n" + text[at:]
        at += 4
        for char in rng.choice(statements):
            text = text[:at] + char + text[at:]
            at += 1
            result = checker.check(text)
            checks += 1
            assert _normal(result) == _normal(check_source(text)), text[at - 40 : at + 10]
            resumed += checker.resumed_in_entry >= 0
    assert resumed >= checks // 4, f"{resumed} of {checks}"


def test_a_comment_edit_reuses_the_last_run_and_still_reads_suppressions() -> None:
    text = (ROOT / "samples" / "hazards" / "h06_numpy_float64_linear.py").read_text(encoding="utf-8")
    line = next(ln for ln in text.splitlines() if "expect: DG004" in ln)  # the root cause
    checker = Analyzer()
    checker.check(text)
    codes = []
    for comment in ["  # note", "  # dtypeguard: ignore[DG004]", "  # dtypeguard: ignore[DG001]"]:
        edited = text.replace(line, line.split("#")[0].rstrip() + comment)
        result = checker.check(edited)
        assert checker.reused
        assert _normal(result) == _normal(check_source(edited))
        codes.append(sorted(f.code for f in result.findings))
    assert "DG004" in codes[0] and "DG004" not in codes[1] and codes[2] == codes[0]
    code_edit = text.replace("model(inputs)", "model(inputs.float())")
    result = checker.check(code_edit)
    assert not checker.reused and _normal(result) == _normal(check_source(code_edit))


def test_a_function_held_as_a_value_before_its_call_is_not_patched_but_run_again() -> None:
    """`main()` keeps `train` in a list before calling it: a snapshot inside `main()` would
    hold the old function, so none is taken there and the result is still exact."""
    text = (
        "import torch\n\n\ndef train():\n    x = torch.zeros(2)\n    return x\n\n\n"
        "def main():\n    steps = [train]\n    torch.manual_seed(0)\n    for step in steps:\n        step()\n\n\n"
        'if __name__ == "__main__":\n    main()\n'
    )
    checker = Analyzer()
    anchor = text.index("    return x")
    for k, typed in enumerate(["    y = x.double()\n", "    y = x.half()\n", "    y = x.cuda()\n"]):
        edited = text[:anchor] + typed + text[anchor:]
        result = checker.check(edited)
        assert _normal(result) == _normal(check_source(edited))
        assert checker.resumed_in_entry == -1, k


def test_mentions_finds_a_function_inside_values_and_heap_objects() -> None:
    from dtypeguard.engine.resume import _mentions
    from dtypeguard.engine.values import (
        Bound,
        Const,
        Func,
        InstanceObj,
        Many,
        ModuleObj,
        Origin,
        Tensor,
        TupleV,
    )
    from dtypeguard.findings import Span

    node = ast.parse("def f():\n    pass\n").body[0]
    other = ast.parse("def g():\n    pass\n").body[0]
    assert isinstance(node, ast.FunctionDef) and isinstance(other, ast.FunctionDef)
    f, g = Func(node, "f"), Func(other, "g")
    origin = Origin(Span(1, 0, 1, 1), "x")
    holders = [
        f, TupleV((None, f)), Bound(f, Const(1)), Many(f), {"k": f},
        ModuleObj("torch.nn.Linear", origin, attrs={"act": f}), InstanceObj("A", None, attrs={"cb": TupleV((f,))}),
    ]
    for holder in holders:
        assert _mentions(holder, node), holder
        assert not _mentions(holder, other), holder
    assert not _mentions(Tensor("tensor", "float32", "cpu", origin), node)
    assert not _mentions(g, node)


def test_old_trees_are_freed_while_typing() -> None:
    """Caches keyed by AST node (generators, forward scans) hold them weakly: typing for long in
    one function does not keep every old version of its tree alive."""
    import gc

    text = _main_layout(3)
    anchor = text.index("    return None\n\ndef block_2")
    text = text[:anchor] + "    \n" + text[anchor:]
    anchor += 4
    checker = Analyzer()

    def live_defs() -> int:
        gc.collect()
        return sum(1 for o in gc.get_objects() if type(o) is ast.FunctionDef)

    counts = []
    for k in range(300):
        text = text[:anchor] + "x" + text[anchor:]  # `xxx...` is a valid statement each time
        assert checker.check(text).parsed
        if k in (20, 299):
            counts.append(live_defs())
    assert counts[1] <= counts[0] + 5, counts


def test_resuming_at_the_end_of_a_main_that_returns() -> None:
    """`main()` ends with `return 0` and the edited function is never called (it is analysed
    alone at the end): the snapshot sits after main's last statement, with the state its
    `return` left, which later work must not change under it."""
    text = (
        "import torch\nfrom torch import nn\n\n\ndef unused():\n    x = torch.zeros(2)\n"
        "    if torch.cuda.is_available():\n        layer = nn.Linear(2, 2).half()\n        layer(x)\n    return x\n\n\n"
        "def helper(m):\n    if torch.cuda.is_available():\n        return m.cuda()\n    return m\n\n\n"
        "def main():\n    model = helper(nn.Linear(3, 1))\n    out = model(torch.randn(4, 3))\n    return 0\n\n\n"
        'if __name__ == "__main__":\n    main()\n'
    )
    checker = Analyzer()
    anchor = text.index("    return x")
    text = text[:anchor] + "    \n" + text[anchor:]
    anchor += 4
    resumed = []
    for char in "y = x.double().cuda()":
        text = text[:anchor] + char + text[anchor:]
        anchor += 1
        result = checker.check(text)
        assert _normal(result) == _normal(check_source(text)), text[anchor - 30 : anchor]
        resumed.append(checker.resumed_in_entry if checker.converged_at < 0 else "ended early")
    # main has 3 statements: resumed after all of them, or (`unused` is named nowhere below)
    # ended early before main and took over what the last run recorded of it
    assert resumed.count(3) + resumed.count("ended early") >= 5, resumed


def test_freezing_parameters_below_changes_what_an_earlier_filter_means() -> None:
    """`[p for p in m.parameters() if p.requires_grad]` depends on whether the file freezes
    parameters anywhere: typing `requires_grad_(False)` at the end changes the finding on the
    optimizer above it (whether its float16 part is among the parameters a GradScaler steps),
    and the incremental result must follow."""
    head = (
        "import torch\nfrom torch import nn\n\nmodel = nn.Sequential(nn.Linear(4, 2).half(), nn.Linear(2, 2))\n\n"
        "opt = torch.optim.SGD([p for p in model.parameters() if p.requires_grad], lr=0.1)\n"
        "scaler = torch.amp.GradScaler('cpu')\nscaler.step(opt)\n\n"
        "def later():\n    return 1\n"
    )
    checker = Analyzer()
    texts = [head, head + "\nnn.Linear(2, 2).requires_grad_(False)\n", head]
    codes = []
    for text in texts:
        result = checker.check(text)
        assert _normal(result) == _normal(check_source(text))
        codes.append(sorted(f.code for f in result.findings))
    assert codes[0] == codes[2] == ["DG014"] and codes[1] == []


def _calls_layout(count: int = 8) -> str:
    """Sample scripts wrapped as functions, each called right after its definition (a long
    top-level script: where a run ends early past the edited function)."""
    parts = ["import numpy as np\nimport torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n"]
    for i, path in enumerate(SAMPLES[:count]):
        body = re.sub(r'^"""[\s\S]*?"""\n', "", path.read_text(encoding="utf-8"))
        body = "\n".join("    " + line if line.strip() else "" for line in body.splitlines())
        parts.append(f"\ndef block_{i}():\n{body}\n    return None\n\n\nblock_{i}()\n")
    return "".join(parts)


# statements typed into a function: some change nothing later code sees, some change what
# later code reads (a global, the default dtype, a saved file, a class of a name used below)
CALLS_STATEMENTS = [
    "x = torch.zeros(3).half()", "print(1)", "y = np.ones(2)", "opt = None",
    "global block_7\n    block_7 = None", "global np\n    np = None",
    "torch.set_default_dtype(torch.float64)", "torch.save(torch.zeros(2).double(), 'ckpt.pt')",
    "global shared\n    shared = torch.zeros(2).cuda()", "class Net(nn.Module):\n        pass",
]


def test_calls_layout_random_edits_give_what_check_source_gives() -> None:
    """Typing statements (and comments, blank lines) character by character at random places
    inside functions of a long top-level script: each result, events and facts included, is
    what a fresh `check_source` gives, whether the run ended early or not."""
    rng = random.Random(17)
    base = _calls_layout()
    text = base + "\nz = shared + 1\nn = Net()\nw = torch.load('ckpt.pt')\nblock_7()\n"
    checker, checks, early = Analyzer(), 0, 0
    checker.check(text)
    for round_ in range(12):
        starts = [m.start() + 1 for m in re.finditer(r"\n    [a-z]", text)]
        at = rng.choice(starts)
        kind = rng.random()
        if kind < 0.15:  # a blank line
            text = text[:at] + "\n" + text[at:]
            typed = ""
        elif kind < 0.3:  # a comment
            text = text[:at] + "    # \n" + text[at:]
            at += 6
            typed = "note: float64 here"
        else:
            text = text[:at] + "    \n" + text[at:]
            at += 4
            typed = rng.choice(CALLS_STATEMENTS)
        for char in typed or " ":
            if typed:
                text = text[:at] + char + text[at:]
                at += 1
            result = checker.check(text)
            checks += 1
            assert _normal(result) == _normal(check_source(text)), f"round {round_}: {text[at - 60 : at + 10]}"
            early += checker.converged_at >= 0
    assert early >= checks // 4, f"only {early} of {checks} checks ended early: the test no longer exercises it"


def test_the_engine_reads_back_only_the_records_resume_compares() -> None:
    """Ending a run early (engine.resume.Converge) compares what the engine reads back of its
    own records: `facts.values` (by index), `facts.defaults_at` (by line) and the whole-list
    reads in `_READ_BACK`. A new read-back of events or facts must be taught there first."""
    from dtypeguard.engine import resume

    engine = ROOT / "server" / "dtypeguard" / "engine"
    reads: set[str] = set()
    for path in engine.rglob("*.py"):
        if path.name == "resume.py":
            continue
        for match in re.finditer(r"self\.(events|facts)\.(\w+)(.{0,12})", path.read_text(encoding="utf-8")):
            record, name, after = match.groups()
            if after.startswith((".append(", ".extend(", " = ", "[line] = ")):
                continue  # a write
            reads.add(f"{record}.{name}")
    known = {f"events.{name}" for name in resume._READ_BACK} | {"facts.values", "facts.defaults_at"}
    assert reads <= known, sorted(reads - known)


def _shown(result: CheckResult) -> list[object]:
    """What a diagnostic shows of each finding (a provisional result offers no fixes)."""
    return [(f.code, f.severity, f.message, f.span, f.related, f.rule, f.note) for f in result.findings]


LINES_ADDED = ["", "    ", "# a comment", "        # an indented comment", "\t", "#"]


def test_blank_and_comment_line_edits_shift_the_last_findings_exactly() -> None:
    """Random sequences of blank and comment-only lines added or removed anywhere (in code, in
    strings, between statements, in brackets), each followed by the odd code edit: every
    provisional result (`Analyzer.shifted`) shows what a fresh `check_source` shows, or there
    is none; `check` afterwards is the fresh result whole."""
    rng = random.Random(4)
    texts = [_calls_layout(5), _main_layout(4), TRICKY["docstring with column-0 lines"] * 3, TRICKY["bracket with column-0 items"]]
    texts += [path.read_text(encoding="utf-8") for path in SAMPLES[:12]]
    shifted = tried = 0
    for text in texts:
        checker = Analyzer()
        checker.check(text)
        for step in range(12):
            lines = text.split("\n")
            at = rng.randrange(len(lines) + 1)
            removable = at < len(lines) and (not lines[at].strip() or lines[at].lstrip().startswith("#"))
            if removable and rng.random() < 0.4:
                lines[at : at + 1] = []
            elif rng.random() < 0.1:
                lines.insert(at, "x = 1")  # code: no shortcut, and the base moves on
            else:
                lines[at:at] = [rng.choice(LINES_ADDED) for _ in range(rng.choice((1, 1, 2)))]
            text = "\n".join(lines)
            tried += 1
            expected = check_source(text)
            early = checker.shifted(text)
            if early is not None:
                shifted += 1
                assert early.provisional and expected.parsed
                assert _shown(early) == _shown(expected), f"step {step}: line {at + 1}"
            if step % 3 == 2 or early is None:
                assert _normal(checker.check(text)) == _normal(expected)
    assert shifted >= tried // 3, f"only {shifted} of {tried}"  # (code edits and lines in strings: none)


def test_no_shortcut_for_lines_in_a_string_or_a_suppression() -> None:
    text = 'import torch\nDOC = """\nusage\n"""\nx = torch.zeros(3).double()\n'
    checker = Analyzer()
    checker.check(text)
    assert checker.shifted(text.replace("usage\n", "usage\n\n")) is None  # the string's value changes
    assert checker.shifted(text.replace("x =", "# dtypeguard: ignore\nx =")) is None
    assert checker.shifted(text.replace("x =", "\nx =")) is not None


def _main_layout_rich(count: int = 8) -> str:
    """The main() layout with more in `main()` than calls: a function run twice, a helper and
    a nested function and a lambda that read globals an edit may set, a class and a file an
    edit may define or write, a name bound after the calls."""
    text = _main_layout(count)
    head, tail = text.rsplit("\ndef main():\n", 1)
    helper = "\ndef helper():\n    return shared\n\n"
    body, guard = tail.split("\n\nif __name__")
    lines = body.split("\n")
    lines.insert(5, "    z = helper()\n    def inner():\n        return block_5\n    n = Net()")
    lines.append("    w = torch.load('ckpt.pt')\n    inner()\n    block_2()\n    lam = lambda: shared\n    lam()\n    q = np.ones(3) + z")
    return head + helper + "\ndef main():\n" + "\n".join(lines) + "\n\nif __name__" + guard


def test_main_layout_ending_early_random_edits_give_what_check_source_gives() -> None:
    """Typing statements character by character at random places inside the functions a
    `main()` calls, main() also reading what such statements change (globals, the default
    dtype, saved files, classes, a function it calls twice): each result, events and facts
    included, is what a fresh `check_source` gives, whether the run ended early inside
    `main()` or not."""
    rng = random.Random(29)
    text = _main_layout_rich()
    checker, checks, early = Analyzer(), 0, 0
    checker.check(text)
    for round_ in range(12):
        starts = [m.start() + 1 for m in re.finditer(r"\n    [a-z]", text[: text.index("def helper")])]
        at = rng.choice(starts)
        text = text[:at] + "    \n" + text[at:]
        at += 4
        for char in rng.choice(CALLS_STATEMENTS):
            text = text[:at] + char + text[at:]
            at += 1
            result = checker.check(text)
            checks += 1
            assert _normal(result) == _normal(check_source(text)), f"round {round_}: {text[at - 60 : at + 10]}"
            early += checker.entry_converged_at >= 0
    assert early >= checks // 4, f"only {early} of {checks} checks ended early inside main(): the test no longer exercises it"


def test_typing_in_a_function_main_calls_ends_early_after_its_call() -> None:
    """With `main()` at the end calling everything, an edit in `block_1` runs `main()` from
    its call to `block_1` and stops after it: the rest of `main()` is what the last run had."""
    text = _main_layout()
    anchor = text.index("    return None\n\ndef block_2")
    text = text[:anchor] + "    \n" + text[anchor:]
    anchor += 4
    checker = Analyzer()
    checker.check(text)
    ended: list[int] = []
    for k, _ in enumerate(typed := "extra = torch.zeros(4, dtype=torch.float64) + 1.0", 1):
        version = text[:anchor] + typed[:k] + text[anchor:]
        result = checker.check(version)
        assert _normal(result) == _normal(check_source(version)), typed[:k]
        if result.parsed:  # (half-typed code does not: nothing runs)
            ended.append(checker.entry_converged_at)
    # `block_1()` is main's statement 2: stopped before statement 3, except where the edit adds
    # or removes a value record that the rest reads back (block_2's nested `main` sees its
    # caller's locals, and where a name was bound is looked up in those records)
    assert ended.count(3) >= len(ended) - 4, ended


@pytest.mark.parametrize("layout", ["chunks", "main"])
def test_a_global_read_only_inside_an_earlier_function_stops_ending_early(layout: str) -> None:
    """`X` is named nowhere below the edit, but `g`, defined above and called below, reads
    it: the code the rest runs counts as much as its own text."""
    if layout == "chunks":
        template = (
            "import torch\nimport torch.nn as nn\nlin = nn.Linear(3, 3)\ndef g():\n    t = torch.ones(3, dtype=X)\n"
            "    return lin(t)\nX = VALUE\ny = 1\nz = 2\nw = 3\ng()\n"
        )
    else:
        template = (
            "import torch\nimport torch.nn as nn\nlin = nn.Linear(3, 3)\ndef g():\n    t = torch.ones(3, dtype=X)\n"
            "    return lin(t)\ndef f():\n    global X\n    X = VALUE\ndef main():\n    f()\n    y = 1\n    g()\n\n"
            "main()\n"
        )
    checker = Analyzer()
    for value in ("torch.float64", "torch.float16", "torch.float32", "torch.float64"):
        text = template.replace("VALUE", value)
        assert _normal(checker.check(text)) == _normal(check_source(text)), value


def test_typing_in_a_called_function_takes_over_the_uncalled_functions() -> None:
    """After ending early, the functions nobody called would start from the machine they had
    last time: their records are taken over, not run again, and the result is still exactly
    `check_source`'s (uncalled methods inside the edited function are new nodes of the same
    text: they count as the same)."""
    text = _calls_layout()
    anchor = text.index("    return None\n\n\nblock_1()")
    text = text[:anchor] + "    \n" + text[anchor:]
    anchor += 4
    checker = Analyzer()
    checker.check(text)
    taken: list[bool] = []
    for k, _ in enumerate(typed := "extra = torch.zeros(4, dtype=torch.float64) + 1.0", 1):
        version = text[:anchor] + typed[:k] + text[anchor:]
        result = checker.check(version)
        assert _normal(result) == _normal(check_source(version)), typed[:k]
        if result.parsed and checker.converged_at >= 0:
            taken.append(checker.uncalled_reused)
    assert taken and taken.count(True) >= len(taken) - 1, taken


def test_an_uncalled_function_reading_a_global_the_edit_changed_runs_again() -> None:
    """`report` is called by nobody and defined above the edit; the edit changes `DATA`, which
    nothing below it names, so the run ends early, but `report` reads `DATA`: it runs again
    (its DG004 comes and goes with the dtype)."""
    template = (
        "import numpy as np\nimport torch\nimport torch.nn as nn\n\n\ndef report():\n    net = nn.Linear(3, 1)\n"
        "    return net(torch.from_numpy(DATA))\n\n\nDATA = np.zeros((2, 3), dtype=np.DTYPE)\nprint('a')\nprint('b')\nprint('c')\n"
    )
    checker = Analyzer()
    seen = []
    for dtype in ("float32", "float64", "float32", "float64"):
        text = template.replace("DTYPE", dtype)
        result = checker.check(text)
        assert _normal(result) == _normal(check_source(text)), dtype
        seen.append(any(f.code == "DG004" for f in result.findings))
    assert seen == [False, True, False, True]


LOADER_LAYOUT = '''import torch
import torch.nn as nn


def load(path, model, map_location=None):
    state = torch.load(path, map_location=map_location)
    model.load_state_dict(state)
    return model


def block_1(model):
    x = torch.zeros(3)
    return x


def block_2(model):
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    return load("m.pt", model)


def block_3(model):
    y = torch.ones(2)
    return y


def main():
    model = nn.Linear(2, 2)
    block_1(model)
    block_2(model)
    block_3(model)


main()
'''


@pytest.mark.parametrize("anchor", ["    return y\n", "    model.load_state_dict(state)\n", "    return load("])
def test_typing_around_a_loading_helper_gives_what_check_source_gives(anchor: str) -> None:
    """DG010 through a helper whose `map_location` defaults to None is reported at the call that
    passes none (the engine keeps which user calls are running); the incremental path resumes
    inside `main()` without that stack, so typing inside the helper, in the block that calls it
    and after it must still give the full check's findings at every keystroke."""
    assert [(f.code, f.span.line) for f in check_source(LOADER_LAYOUT).findings] == [("DG010", 18)]
    checker = Analyzer()
    checker.check(LOADER_LAYOUT)
    at = LOADER_LAYOUT.index(anchor)
    typed = "    z = torch.zeros(4, dtype=torch.float64)\n"
    for k in range(1, len(typed) + 1):
        version = LOADER_LAYOUT[:at] + typed[:k] + LOADER_LAYOUT[at:]
        assert _normal(checker.check(version)) == _normal(check_source(version)), typed[:k]
