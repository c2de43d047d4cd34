"""`verify --junit FILE` and `--format json`: the CI formats, on a hand-made log.

The JUnit shape is checked against the common JUnit schema (the junit-10.xsd that Jenkins,
GitLab and GitHub reporters read): ``testsuites`` → ``testsuite`` (name, tests, failures,
errors, skipped) → ``testcase`` (name, classname) → at most one ``failure`` (message, type);
no element or attribute outside that schema.
"""

from __future__ import annotations

import json
from xml.etree import ElementTree as ET

from test_verify import CLAIMS, make_run

# element -> (required attributes, allowed attributes, allowed children), after junit-10.xsd
JUNIT_SHAPE = {
    "testsuites": ({"name", "tests", "failures", "errors"}, {"name", "tests", "failures", "errors", "time", "disabled"},
                   {"testsuite"}),
    "testsuite": ({"name", "tests", "failures", "errors"},
                  {"name", "tests", "failures", "errors", "skipped", "time", "timestamp", "hostname", "id",
                   "package", "disabled"}, {"properties", "testcase", "system-out", "system-err"}),
    "testcase": ({"name", "classname"}, {"name", "classname", "assertions", "time", "status"},
                 {"skipped", "error", "failure", "system-out", "system-err"}),
    "failure": ({"message", "type"}, {"message", "type"}, set()),
}


def check_shape(element: ET.Element) -> None:
    required, allowed, children = JUNIT_SHAPE[element.tag]
    assert required <= set(element.attrib), (element.tag, element.attrib)
    assert set(element.attrib) <= allowed, (element.tag, element.attrib)
    for child in element:
        assert child.tag in children, (element.tag, child.tag)
        check_shape(child)
    if element.tag == "testcase":
        assert len([c for c in element if c.tag == "failure"]) <= 1


def test_junit_has_one_case_per_binding_and_failures_carry_both_values(tmp_path, cli):
    log, claims, report = tmp_path / "log.jsonl", tmp_path / "claims.toml", tmp_path / "verify.xml"
    claims.write_text(CLAIMS)
    make_run(tmp_path, log)
    result = cli("verify", claims, "--log", log, "--junit", report)
    assert result.exit_code == 1
    root = ET.parse(report).getroot()
    check_shape(root)
    (suite,) = root
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("5", "2", "0")
    assert (suite.get("tests"), suite.get("failures"), suite.get("skipped")) == ("5", "2", "0")
    cases = {case.get("name"): case for case in suite}
    assert list(cases) == ["recall", "ndcg-wrong", "coverage", "selection", "absent"]
    assert all(case.get("classname") == "toy" for case in suite)
    assert cases["recall"].find("failure") is None
    mismatch = cases["ndcg-wrong"].find("failure")
    assert mismatch.get("type") == "MISMATCH"
    assert mismatch.get("message").startswith("MISMATCH: claimed 0.889, reproduced 0.888438 (difference -5.62e-04")
    assert "claimed: 0.889" in mismatch.text and "reproduced: 0.888438" in mismatch.text
    missing = cases["absent"].find("failure")
    assert missing.get("type") == "MISSING KEY" and "no key 'nothing'" in missing.get("message")

    # the same verdicts give the same bytes; our own report may be replaced
    first = report.read_bytes()
    assert cli("verify", claims, "--log", log, "--junit", report).exit_code == 1
    assert report.read_bytes() == first


def test_junit_no_run_is_a_failure(tmp_path, cli):
    log, claims, report = tmp_path / "log.jsonl", tmp_path / "claims.toml", tmp_path / "verify.xml"
    claims.write_text(CLAIMS)
    missing = cli("verify", claims, "--log", log, "--junit", report)
    assert missing.exit_code == 2 and "log.jsonl: execution log not found" in missing.output
    assert not report.exists()  # bad input writes nothing
    make_run(tmp_path, log, k=5)  # a run of other parameters: no run of this experiment
    assert cli("verify", claims, "--log", log, "--junit", report).exit_code == 1
    root = ET.parse(report).getroot()
    failures = root.findall("./testsuite/testcase/failure")
    assert [f.get("type") for f in failures] == ["NO RUN"] * 5
    assert "claimed 0.888889, reproduced —" in failures[0].get("message")


def test_junit_never_replaces_a_file_it_did_not_write(tmp_path, cli):
    log, claims, report = tmp_path / "log.jsonl", tmp_path / "claims.toml", tmp_path / "notes.xml"
    claims.write_text(CLAIMS)
    report.write_text("<notes>mine</notes>")
    result = cli("verify", claims, "--log", log, "--junit", report)
    assert result.exit_code == 3 and "not a chapter-audit JUnit report" in result.output
    assert report.read_text() == "<notes>mine</notes>"


def test_json_format_lists_every_verdict(tmp_path, cli):
    log, claims = tmp_path / "log.jsonl", tmp_path / "claims.toml"
    claims.write_text(CLAIMS)
    make_run(tmp_path, log)
    result = cli("verify", claims, "--log", log, "--format", "json")
    assert result.exit_code == 1
    rows = json.loads(result.output)
    assert [(r["id"], r["verdict"]) for r in rows] == [
        ("recall", "MATCH"), ("ndcg-wrong", "MISMATCH"), ("coverage", "MATCH"), ("selection", "MATCH"),
        ("absent", "MISSING KEY")]
    assert rows[1]["claimed"] == "0.889" and rows[1]["reproduced"] == 0.888438
    assert rows[1]["run_id"] == "sandbox-run-k3"
