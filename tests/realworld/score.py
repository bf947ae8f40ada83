"""Score the engine on scripts adapted from real users' reports (tests/realworld/).

A broken script marks the line where the fix goes with `# root-cause` (and at most one
equally good place with `# root-cause-alt`); a finding whose primary range covers one of them
is a hit. "any-line" counts a finding anywhere in the file (the old forward/loss-line
convention). Correct scripts, and the reductions of real repos' false alarms in `repo_fp/`,
must produce no finding at all.

Usage: python tests/realworld/score.py [-v] [--json]
(with PYTHONPATH pointing at another checkout's `server/`, it scores that engine: this is how
the first score was taken on the commit before any change made for this set).
"""

from __future__ import annotations

import argparse
import json
import pathlib
import re
import sys
from dataclasses import dataclass, field

HERE = pathlib.Path(__file__).resolve().parent
ROOT_MARK = re.compile(r"#\s*root-cause(-alt)?\b")
EXPECT = re.compile(r"^expect:\s*(.+)$", re.M)


@dataclass
class Script:
    path: pathlib.Path
    roots: set[int] = field(default_factory=set)
    expect: set[str] = field(default_factory=set)
    findings: list[tuple[int, int, str, str]] = field(default_factory=list)  # line, end, code, severity

    @property
    def root_hit(self) -> bool:
        return any(start <= r <= end for start, end, _, _ in self.findings for r in self.roots)

    @property
    def code_hit(self) -> bool:
        return any(start <= r <= end and code in self.expect for start, end, code, _ in self.findings for r in self.roots)


def load(group: str, base: pathlib.Path = HERE) -> list[Script]:
    out = []
    for path in sorted((base / group).glob("*.py")):
        text = path.read_text(encoding="utf-8")
        roots = {n for n, line in enumerate(text.splitlines(), 1) if ROOT_MARK.search(line)}
        match = EXPECT.search(text)
        codes = set(re.findall(r"DG\d{3}", match.group(1))) if match else set()
        out.append(Script(path, roots, codes))
    return out


def analyse(scripts: list[Script]) -> None:
    from dtypeguard.analysis import check_source

    for script in scripts:
        text = script.path.read_text(encoding="utf-8")
        result = check_source(text, str(script.path))
        script.findings = [(f.span.line, f.span.end_line, f.code, f.severity.value) for f in result.findings]


def score(base: pathlib.Path = HERE) -> dict[str, object]:
    broken, correct, repo_fp = load("broken", base), load("correct", base), load("repo_fp", base)
    analyse(broken + correct + repo_fp)
    marked = [s for s in broken if s.roots]
    return {
        "broken": len(marked),
        "root_hits": sum(s.root_hit for s in marked),
        "code_hits": sum(s.code_hit for s in marked),
        "any_line_hits": sum(bool(s.findings) for s in marked),
        "correct": len(correct),
        "false_alarms": sorted(f"{s.path.name}:{f[0]}:{f[2]}" for s in correct for f in s.findings),
        "repo_fp": len(repo_fp),
        "repo_false_alarms": sorted(f"{s.path.name}:{f[0]}:{f[2]}" for s in repo_fp for f in s.findings),
        "misses": sorted(
            f"{s.path.name} root={sorted(s.roots)} expect={','.join(sorted(s.expect))} got={[(f[0], f[2]) for f in s.findings]}"
            for s in marked
            if not s.root_hit
        ),
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("-v", action="store_true", help="list misses and false alarms")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("folder", nargs="?", default=str(HERE), help="a set laid out like this one (broken/, correct/)")
    args = parser.parse_args()
    result = score(pathlib.Path(args.folder).resolve())
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    n = result["broken"] or 1
    print(
        f"root-cause recall {result['root_hits']}/{result['broken']} ({result['root_hits'] / n:.2f}), "  # type: ignore[operator]
        f"with the expected code {result['code_hits']}/{result['broken']}, "
        f"any line {result['any_line_hits']}/{result['broken']} ({result['any_line_hits'] / n:.2f}); "  # type: ignore[operator]
        f"false alarms: {len(result['false_alarms'])} on {result['correct']} correct scripts, "  # type: ignore[arg-type]
        f"{len(result['repo_false_alarms'])} on {result['repo_fp']} repo reductions"  # type: ignore[arg-type]
    )
    if args.v:
        for line in result["misses"]:  # type: ignore[attr-defined]
            print("  miss:", line)
        for line in result["false_alarms"]:  # type: ignore[attr-defined]
            print("  false alarm:", line)
        for line in result["repo_false_alarms"]:  # type: ignore[attr-defined]
            print("  repo false alarm:", line)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parents[1]))
    sys.exit(main())
