"""Score the engine on scripts adapted from real users' reports (tests/realworld/).

A broken script marks the line where the fix goes with `# root-cause` (and at most one
equally good place with `# root-cause-alt`); a finding whose primary range covers one of them
is a hit. "any-line" counts a finding anywhere in the file (the old forward/loss-line
convention). Correct scripts, and the reductions of real repos' false alarms in `repo_fp/`,
must produce no finding at all.

A case may also be a project folder (tests/realworld29/): several files, `# root-cause` in the
one where the fix goes, the header in the entry script. Every file of the folder is checked,
as `dtypeguard check FOLDER` does (a finding rooted in another file of the project is shown
there too); a hit is a finding in the root's file covering its line. "root named" also counts a finding in
another file (where the hazard fails) whose related information points at the root.

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
    """One case: a script, or a project folder (several files, an entry whose header says what to expect)."""

    path: pathlib.Path
    roots: set[tuple[str, int]] = field(default_factory=set)  # (file relative to the case, line)
    expect: set[str] = field(default_factory=set)
    # file, line, end, code, severity, and where related information points (file, line)
    findings: list[tuple[str, int, int, str, str, tuple[tuple[str, int], ...]]] = field(default_factory=list)

    @property
    def files(self) -> list[pathlib.Path]:
        return sorted(self.path.rglob("*.py")) if self.path.is_dir() else [self.path]

    def rel(self, file: pathlib.Path | str) -> str:
        file = pathlib.Path(file).resolve()
        return file.relative_to(self.path.resolve()).as_posix() if self.path.is_dir() else file.name

    def _hits(self, code: bool) -> bool:
        return any(
            file == rf and start <= rl <= end and (not code or c in self.expect)
            for file, start, end, c, _, _ in self.findings
            for rf, rl in self.roots
        )

    @property
    def root_hit(self) -> bool:
        return self._hits(code=False)

    @property
    def code_hit(self) -> bool:
        return self._hits(code=True)

    @property
    def root_named(self) -> bool:
        """In a project, a finding in another file whose related information points at the root."""
        return self.root_hit or any(r in self.roots and r[0] != f[0] for f in self.findings for r in f[5])


def load(group: str, base: pathlib.Path = HERE) -> list[Script]:
    out = []
    for path in sorted((base / group).iterdir()) if (base / group).is_dir() else []:
        if path.suffix != ".py" and not (path.is_dir() and any(path.rglob("*.py"))):
            continue
        script = Script(path)
        for file in script.files:
            text = file.read_text(encoding="utf-8")
            script.roots |= {(script.rel(file), n) for n, line in enumerate(text.splitlines(), 1) if ROOT_MARK.search(line)}
            match = EXPECT.search(text) if text.startswith('"""') or not path.is_dir() else None
            if match:
                script.expect |= set(re.findall(r"DG\d{3}", match.group(1)))
        out.append(script)
    return out


def analyse(scripts: list[Script]) -> None:
    from dtypeguard.analysis import check_source

    for script in scripts:
        for file in script.files:
            result = check_source(file.read_text(encoding="utf-8"), str(file))
            script.findings += [
                (
                    script.rel(file), f.span.line, f.span.end_line, f.code, f.severity.value,
                    tuple((script.rel(r.span.file) if r.span.file else script.rel(file), r.span.line) for r in f.related),
                )
                for f in result.findings
            ]
            if script.path.is_dir():  # a root in another file of the project is shown there too
                script.findings += [
                    (
                        script.rel(f.span.file), f.span.line, f.span.end_line, f.code, f.severity.value,
                        tuple((script.rel(r.span.file) if r.span.file else script.rel(f.span.file), r.span.line) for r in f.related),
                    )
                    for f in result.elsewhere
                    if pathlib.Path(f.span.file).resolve().is_relative_to(script.path.resolve())
                ]


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
        "root_named": sum(s.root_named for s in marked),
        "false_alarms": sorted(f"{s.path.name}:{_where(s, f)}:{f[3]}" for s in correct for f in s.findings),
        "repo_fp": len(repo_fp),
        "repo_false_alarms": sorted(f"{s.path.name}:{_where(s, f)}:{f[3]}" for s in repo_fp for f in s.findings),
        "misses": sorted(
            f"{s.path.name} root={_roots(s)} expect={','.join(sorted(s.expect))} got={[(_where(s, f), f[3]) for f in s.findings]}"
            for s in marked
            if not s.root_hit
        ),
    }


def _where(script: Script, finding: tuple[str, int, int, str, str, tuple[tuple[str, int], ...]]) -> str:
    return f"{finding[0]}:{finding[1]}" if script.path.is_dir() else str(finding[1])


def _roots(script: Script) -> list[str] | list[int]:
    return sorted(f"{f}:{n}" for f, n in script.roots) if script.path.is_dir() else sorted(n for _, n in script.roots)


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
        + (f"root named in related information {result['root_named']}/{result['broken']}; " if result["root_named"] != result["root_hits"] else "")
        + f"false alarms: {len(result['false_alarms'])} on {result['correct']} correct scripts, "  # type: ignore[arg-type]
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
