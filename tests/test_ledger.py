"""`sandbox ledger`: stage counts read from the acquisition fixture, per-stage ratios, no visibility %."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.runs.errors import InputError
from engine.ledger.acquisition import parse_response, run_ledger
from engine.runs.runlog import read_records

FIXTURE = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "l03"
LOCATORS = FIXTURE / "locators.json"
ACQ = FIXTURE / "acquisition"


def invoke(*args: str):
    from cli import app
    return CliRunner().invoke(app, [str(a) for a in args], catch_exceptions=False)


def copy_fixture(tmp_path: Path) -> tuple[Path, Path]:
    locators = tmp_path / "locators.json"
    shutil.copy(LOCATORS, locators)
    acq = tmp_path / "acq"
    shutil.copytree(ACQ, acq)
    return locators, acq


def edit_json(path: Path, edit) -> None:
    value = json.loads(path.read_text())
    edit(value)
    path.write_text(json.dumps(value))


def test_fixture_stage_counts_and_ratios():
    ledger = run_ledger(LOCATORS, ACQ, log=None)
    assert ledger.counts() == {"declared": 12, "discovered": 11, "attempted": 11, "usable": 10,
                               "parsed": 10, "admitted": 10}
    ratios = {r["name"]: (r["numerator"], r["denominator"], r["conditional_on"]) for r in ledger.ratios()}
    assert ratios["discovery coverage"] == (11, 12, "the declared locator population")
    assert ratios["usable-response rate"] == (10, 11, "authorised local reads attempted")
    assert ratios["index admission"] == (10, 10, "parsed representations")
    by_id = {r.locator_id: r for r in ledger.records}
    assert by_id["S-012"].outcome == "not discovered" and not by_id["S-012"].discovered
    assert by_id["S-011"].attempted and not by_id["S-011"].usable
    assert by_id["S-011"].outcome == "unsupported media type application/octet-stream"
    assert [by_id[f"S-{i:03d}"].doc_id for i in range(1, 11)] == [f"D-{i:03d}" for i in range(1, 11)]
    # the files were really read: titles come from their contents (JSON and text records)
    assert by_id["S-001"].title == "Why pooled judging works"
    assert by_id["S-009"].title == "Parameter sheets"
    assert by_id["S-011"].sha256 is not None
    assert ledger.as_dict()["statement"] == ("10 of 12 declared locators produced admitted representations "
                                             "in this constructed acquisition trace.")


def test_cli_prints_each_ratio_and_refuses_a_visibility_figure(tmp_path):
    log = tmp_path / "log.jsonl"
    result = invoke("sandbox", "ledger", "--locators", LOCATORS, "--fixtures", ACQ, "--log", log)
    assert result.exit_code == 0, result.stderr
    text = result.stdout
    assert "discovery coverage: 11/12 = 0.916667, conditional on the declared locator population" in text
    assert "usable-response rate: 10/11 = 0.909091, conditional on authorised local reads attempted" in text
    assert "index admission: 10/10 = 1.000000, conditional on parsed representations" in text
    assert "No single 'visibility' percentage is reported" in text
    assert "Recall@k" in text
    assert "%" not in text and "83.3" not in text
    assert "S-011: unsupported media type" in text and "S-012: not discovered" in text
    records = read_records(log)
    assert [(r["command"], r["status"]) for r in records] == [("sandbox ledger", "ok")]
    assert str(ACQ / "S-011.bin") in records[0]["inputs"]
    refused = invoke("sandbox", "ledger", "--locators", LOCATORS, "--fixtures", ACQ, "--visibility")
    assert refused.exit_code == 2 and "No such option" in refused.stderr


def test_output_writes_ledger_json_and_is_logged(tmp_path):
    out, log = tmp_path / "ledger", tmp_path / "log.jsonl"
    assert invoke("sandbox", "ledger", "--locators", LOCATORS, "--fixtures", ACQ, "--output", out,
                  "--log", log).exit_code == 0
    data = json.loads((out / "ledger.json").read_text())
    assert [(s["stage"], s["count"]) for s in data["stages"]] == [
        ("declared", 12), ("discovered", 11), ("attempted", 11), ("usable", 10), ("parsed", 10), ("admitted", 10)]
    assert "visibility" not in {r["name"] for r in data["ratios"]}
    record = read_records(log)[-1]
    assert record["results"]["ledger"] == str((out / "ledger.json").resolve())
    assert record["run_id"] == data["run_id"] == json.loads((out / "ledger_manifest.json").read_text())["run_id"]
    first = (out / "ledger.json").read_bytes()
    assert invoke("sandbox", "ledger", "--locators", LOCATORS, "--fixtures", ACQ, "--output", out,
                  "--log", log).exit_code == 0
    assert (out / "ledger.json").read_bytes() == first          # deterministic re-run


def test_counts_follow_the_fixture_contents(tmp_path):
    locators, acq = copy_fixture(tmp_path)
    (acq / "S-003.json").write_text(json.dumps({"title": "Only a title", "body": "  "}))   # parse fails
    (acq / "S-004.json").unlink()                                                          # no response
    (acq / "S-006.json").write_text((acq / "S-005.json").read_text())                      # duplicate content
    edit_json(locators, lambda v: v["locators"][1].update(authorised=False))              # S-002 not attempted
    ledger = run_ledger(locators, acq, log=None)
    assert ledger.counts() == {"declared": 12, "discovered": 11, "attempted": 10, "usable": 8,
                               "parsed": 7, "admitted": 6}
    outcomes = {r.locator_id: r.outcome for r in ledger.records}
    assert outcomes["S-002"] == "not authorised"
    assert outcomes["S-003"] == "unparseable (no title plus body)"
    assert outcomes["S-004"].startswith("no response")
    assert outcomes["S-006"] == "not admitted (duplicate content)"
    assert [r.doc_id for r in ledger.records if r.admitted] == [f"D-{i:03d}" for i in range(1, 7)]


def test_undeclared_locator_in_fixture_is_bad_input(tmp_path):
    locators, acq = copy_fixture(tmp_path)
    edit_json(acq / "fixture_manifest.json",
              lambda v: v["entries"].append({"locator_id": "S-099", "file": "S-001.json",
                                             "media_type": "application/json"}))
    log = tmp_path / "log.jsonl"
    result = invoke("sandbox", "ledger", "--locators", locators, "--fixtures", acq, "--log", log)
    assert result.exit_code == 2
    assert "fixture_manifest.json: field 'entries[11]'" in result.stderr and "S-099" in result.stderr
    assert not log.exists()


def test_malformed_locators(tmp_path):
    locators = tmp_path / "locators.json"
    locators.write_text('{"format": "chapter-audit/locators@1",\n "locators": [}\n')
    with pytest.raises(InputError, match=r"locators.json:2: invalid JSON"):
        run_ledger(locators, ACQ, log=None)
    locators.write_text(json.dumps({"format": "chapter-audit/locators@1",
                                    "locators": [{"locator_id": "S-001", "locator": "x", "authorised": "yes"}]}))
    with pytest.raises(InputError, match=r"locators\[0\]\.authorised"):
        run_ledger(locators, ACQ, log=None)


def test_parse_response_formats():
    assert parse_response(b'{"title": "T", "body": "b  c"}', "application/json") == ("T", "b c")
    assert parse_response(b"Title line\n\nbody text\n", "text/plain") == ("Title line", "body text")
    assert parse_response(b"only a title\n", "text/plain") is None
    assert parse_response(b"[1]", "application/json") is None
