"""Run the engine over real repositories' training files and print every finding.

The file list is tests/realworld/repo_files.txt (`owner/repo commit path` per line); the repos
are extracted under ROOT as `owner__repo/` (fetch them, then `git --git-dir=<mirror> archive
HEAD | tar -x -C ROOT/owner__repo`). Every finding printed here must be triaged (REPOS.md): a
false alarm becomes a reduction in tests/realworld/repo_fp/.

Usage: .venv/bin/python bench/scan_repos.py [ROOT ...]   (default: /tmp/repos /tmp/repos2)
"""

from __future__ import annotations

import pathlib
import sys
import time

from dtypeguard.analysis import check_source

HERE = pathlib.Path(__file__).resolve().parents[1]


def main() -> int:
    roots = [pathlib.Path(r) for r in (sys.argv[1:] or ["/tmp/repos", "/tmp/repos2"])]
    files = missing = findings = crashed = 0
    started = time.perf_counter()
    for line in (HERE / "tests/realworld/repo_files.txt").read_text().splitlines():
        if not line.strip():
            continue
        repo, _commit, path = line.split(maxsplit=2)
        file = next((r / repo.replace("/", "__") / path for r in roots if (r / repo.replace("/", "__") / path).is_file()), None)
        if file is None:
            missing += 1
            continue
        files += 1
        text = file.read_text(encoding="utf-8", errors="replace")
        result = check_source(text, str(file))
        if result.internal_error:  # a crash of the analysis is a bug to fix, not a quiet file
            crashed += 1
            print(f"{repo}/{path}: INTERNAL ERROR {result.internal_error}")
        for f in result.findings:
            findings += 1
            print(f"{repo}/{path}:{f.span.line}: {f.code} {f.message[:140]}")
    print(f"{files} files, {findings} findings, {missing} missing, {crashed} internal errors, {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
