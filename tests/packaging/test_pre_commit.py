"""The pre-commit hooks, run by `pre-commit try-repo` (pre-commit installs this repository into
its own environment, as it would from GitHub) in a temporary git repository: the check fails
on a hazard and passes on a clean file, the fix hook rewrites the hazard and then passes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import yaml

from tests.packaging.support import REPO

pytestmark = pytest.mark.packaging
# what `pip install .` needs, plus the hook definitions
HOOK_REPO_FILES = [".pre-commit-hooks.yaml", "pyproject.toml", "README.md", "LICENSE", "server"]
GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@example.com", "GIT_CONFIG_GLOBAL": os.devnull,
           "GIT_CONFIG_NOSYSTEM": "1"}


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                   env={**os.environ, **GIT_ENV})


@dataclass
class Project:
    hooks: Path  # a committed copy of this repository's hook definitions and package
    path: Path  # the user's project (a git repository)
    env: dict[str, str]

    def try_repo(self, hook: str, *files: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "try-repo", str(self.hooks), hook, "--verbose",
             "--files", *files], cwd=self.path, env=self.env, capture_output=True, text=True,
            timeout=600)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Project]:
    root = tmp_path_factory.mktemp("pre-commit")
    hooks = root / "hooks"
    hooks.mkdir()
    for name in HOOK_REPO_FILES:
        src = REPO / name
        if src.is_dir():
            shutil.copytree(src, hooks / name, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
        else:
            shutil.copy(src, hooks / name)
    git(hooks, "init", "-q")
    git(hooks, "add", "-A")
    git(hooks, "commit", "-q", "-m", "hooks")
    path = root / "project"
    path.mkdir()
    git(path, "init", "-q")
    shutil.copy(REPO / "samples" / "hazards" / "h06_numpy_float64_linear.py", path / "hazard.py")
    shutil.copy(REPO / "samples" / "clean" / "numpy_float32_pipeline.py", path / "clean.py")
    shutil.copy(REPO / "samples" / "hazards" / "h06_numpy_float64_linear.py", path / "fixme.py")
    shutil.copy(REPO / "samples" / "notebooks" / "cross_cell_default_dtype.ipynb", path / "notebook.ipynb")
    # the same hazard in a text file: the hooks' types keep it out
    shutil.copy(REPO / "samples" / "hazards" / "h06_numpy_float64_linear.py", path / "notes.txt")
    git(path, "add", "-A")
    env = {**os.environ, **GIT_ENV, "PRE_COMMIT_HOME": str(root / "cache"),
           "PIP_ROOT_USER_ACTION": "ignore"}
    env.pop("VIRTUAL_ENV", None)
    yield Project(hooks, path, env)


def test_hook_definitions() -> None:
    hooks = {h["id"]: h for h in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"dtypeguard-check", "dtypeguard-fix"}
    assert hooks["dtypeguard-check"]["entry"] == "dtypeguard check"
    assert hooks["dtypeguard-fix"]["entry"] == "dtypeguard fix"
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook["types_or"] == ["python", "jupyter"]


def test_check_hook_fails_on_a_hazard(project: Project) -> None:
    proc = project.try_repo("dtypeguard-check", "hazard.py", "notes.txt")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "dtypeguard check" in proc.stdout and "Failed" in proc.stdout
    assert "hazard.py:25:" in proc.stdout and "DG004" in proc.stdout
    assert "notes.txt" not in proc.stdout  # python files only


def test_check_hook_reads_notebooks(project: Project) -> None:
    proc = project.try_repo("dtypeguard-check", "notebook.ipynb")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "notebook.ipynb:cell" in proc.stdout and "DG001" in proc.stdout


def test_check_hook_passes_a_clean_file(project: Project) -> None:
    proc = project.try_repo("dtypeguard-check", "clean.py")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed" in proc.stdout


def test_fix_hook_rewrites_the_hazard_then_passes(project: Project) -> None:
    before = (project.path / "fixme.py").read_text()
    proc = project.try_repo("dtypeguard-fix", "fixme.py")
    assert proc.returncode == 1, proc.stdout + proc.stderr  # pre-commit: files were modified
    assert "files were modified by this hook" in proc.stdout
    after = (project.path / "fixme.py").read_text()
    assert after != before and "torch.from_numpy(X).float()" in after
    again = project.try_repo("dtypeguard-check", "fixme.py")
    assert again.returncode == 0, again.stdout + again.stderr
