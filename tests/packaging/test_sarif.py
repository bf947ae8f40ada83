"""`dtypeguard check --format sarif` validates against the SARIF 2.1.0 schema, vendored here
(tests/packaging/sarif-schema-2.1.0.json: OASIS errata01, from oasis-tcs/sarif-spec at
e0583813, sarif-2.1/schema/), so no network is needed at test time."""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
import urllib.parse
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tests.packaging.support import REPO

SCHEMA = json.loads((Path(__file__).parent / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
VALIDATOR = jsonschema.Draft4Validator(SCHEMA)
# RFC 3986 URI-reference characters (the schema's "format": "uri-reference" is not enforced by
# jsonschema without extra packages, so the test checks the characters itself)
URI_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*")


def check(*args: str, cwd: Path = REPO) -> tuple[int, dict[str, Any]]:
    proc = subprocess.run([sys.executable, "-m", "dtypeguard", "check", "--format", "sarif", *args],
                          cwd=cwd, capture_output=True, text=True, timeout=300)
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, json.loads(proc.stdout)


def errors(log: dict[str, Any]) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in VALIDATOR.iter_errors(log)]


def test_the_vendored_schema_is_sarif_2_1_0() -> None:
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["version"]["enum"] == ["2.1.0"]


def test_findings_on_every_sample_validate(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n")
    code, log = check("samples/hazards", "samples/blog_mnist_trick.py", str(broken))
    assert code == 1
    assert errors(log) == []
    run = log["runs"][0]
    results = run["results"]
    assert len(results) >= 17
    rules = {r["id"] for r in run["tool"]["driver"]["rules"]}
    assert {r["ruleId"] for r in results} <= rules and "DG000" in {r["ruleId"] for r in results}
    for result in results:
        uri = result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
        assert URI_CHARS.fullmatch(uri), uri
        region = result["locations"][0]["physicalLocation"]["region"]
        assert 1 <= region["startLine"] <= region["endLine"] and region["startColumn"] >= 1
    relative = [r for r in results if "broken" not in json.dumps(r)]
    assert all(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].startswith("samples/")
               for r in relative)
    absolute = [r for r in results if r["ruleId"] == "DG000"]
    assert absolute[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == broken.as_uri()


def test_no_findings_is_a_valid_empty_run() -> None:
    code, log = check("samples/clean")
    assert code == 0 and errors(log) == [] and log["runs"][0]["results"] == []


def test_paths_with_spaces_and_unicode_are_percent_encoded(tmp_path: Path) -> None:
    folder = tmp_path / "my project"
    folder.mkdir()
    (folder / "träin 1.py").write_bytes((REPO / "samples/hazards/h06_numpy_float64_linear.py").read_bytes())
    code, log = check("my project", cwd=tmp_path)
    assert code == 1 and errors(log) == []
    uri = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert URI_CHARS.fullmatch(uri), uri
    assert urllib.parse.unquote(uri) == "my project/träin 1.py"


@pytest.mark.parametrize(("where", "value"), [
    (("version",), "2.0.0"),
    (("runs", 0, "results", 0, "level"), "fatal"),
    (("runs", 0, "results", 0, "locations", 0, "physicalLocation", "region", "startLine"), 0),
    (("runs", 0, "tool", "driver", "name"), None),
])
def test_the_validator_rejects_broken_logs(where: tuple[object, ...], value: object) -> None:
    _, log = check("samples/hazards/h06_numpy_float64_linear.py")
    bad = copy.deepcopy(log)
    node: Any = bad
    for key in where[:-1]:
        node = node[key]
    if value is None:
        del node[where[-1]]
    else:
        node[where[-1]] = value
    assert errors(log) == [] and errors(bad) != []
