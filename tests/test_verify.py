"""Bindings and verify on a hand-made log: verdicts come from the log, nothing is recomputed."""

from __future__ import annotations

import json

import pytest

from claims.bindings import load_claims_file, parse_claimed
from claims.verify import compare, lookup_key, verify_bindings
from engine.runs.errors import InputError
from engine.runs.runlog import recorded_run

CLAIMS = """
[experiment.toy]
command = "sandbox run"
result = "metrics"
[experiment.toy.match]
k = 3

[[binding]]
id = "recall"
experiment = "toy"
quote = "macro Recall@3 of 0.888889"
claimed = "0.888889"
key = "macro.bm25.recall@3"

[[binding]]
id = "ndcg-wrong"
experiment = "toy"
claimed = "0.889"
key = "macro.hybrid.ndcg@3"

[[binding]]
id = "coverage"
experiment = "toy"
claimed = "2/4"
key = "tasks.A21.dense.coverage@5"

[[binding]]
id = "selection"
experiment = "toy"
claimed = "[3429, 3449, 4684]"
key = "tasks.A21.oracle_selection"

[[binding]]
id = "absent"
experiment = "toy"
claimed = "1"
key = "macro.nothing"
"""

RESULT = {"macro": {"bm25": {"recall@3": 0.8888888888888888}, "hybrid": {"ndcg@3": 0.888438}},
          "tasks": {"A21": {"dense": {"coverage@5": 0.5}, "oracle_selection": [3429, 3449, 4684]}}}


def make_run(tmp_path, log, k=3, result=RESULT, status_error=False):
    out = tmp_path / f"run-k{k}"
    out.mkdir(exist_ok=True)
    metrics = out / "metrics.json"
    metrics.write_text(json.dumps(result))
    (out / "manifest.json").write_text(json.dumps({"run_id": f"sandbox-run-k{k}"}))
    with recorded_run(log, "sandbox run", {"k": k, "b": 0.75}) as rec:
        rec.run_id = f"sandbox-run-k{k}"
        rec.add_outputs(out)
        rec.results = {"metrics": str(metrics.resolve()), "manifest": str((out / "manifest.json").resolve())}
    return metrics


@pytest.mark.parametrize("text, kind, value, tol", [
    ("0.888889", "number", 0.888889, 5e-7),
    ("0.7656", "number", 0.7656, 5e-5),
    ("1,298", "number", 1298.0, 0.5),
    ("83.3%", "number", 0.833, 5e-4),
    ("2/4", "fraction", 0.5, 1e-12),
    (".7", "number", 0.7, 0.05),
    ("2.5e-3", "number", 0.0025, 5e-5),      # half a unit of the mantissa's last digit (issue 9)
    ("3×10^-4", "number", 0.0003, 5e-5),
    ("1.2E+06", "number", 1.2e6, 5e4),
    ("-4.10e-3", "number", -0.0041, 5e-6),
])
def test_parse_claimed_precision(text, kind, value, tol):
    parsed = parse_claimed(text)
    assert parsed.kind == kind
    assert parsed.value == pytest.approx(value, abs=1e-15)
    assert parsed.tolerance == pytest.approx(tol, rel=1e-12)


def test_compare_rounding_boundaries():
    assert compare(parse_claimed("0.888889"), 0.8888888888)[0]
    assert not compare(parse_claimed("0.888889"), 0.8888896)[0]
    assert compare(parse_claimed("0.889"), 0.888438)[0] is False
    assert lookup_key({"a": [{"b": 1}]}, "a.0.b") == 1


def test_scientific_notation_is_compared_as_a_number():
    # before issue 9 "2.5e-3" was compared as text and reported a false contradiction against 0.0025
    assert compare(parse_claimed("2.5e-3"), 0.0025) == (True, 0.0)
    assert compare(parse_claimed("2.5e-3"), 0.002549)[0]
    assert not compare(parse_claimed("2.5e-3"), 0.002551)[0]
    assert compare(parse_claimed("3×10^-4"), 0.00034)[0] and not compare(parse_claimed("3×10^-4"), 0.00036)[0]
    from reports.assess import same_precision
    assert same_precision("2.5e-3", 0.00261) == "2.6e-3"
    assert same_precision("3×10^-4", 0.00036) == "4×10^-4"


def test_verdicts_from_log(tmp_path):
    log = tmp_path / "log.jsonl"
    claims_path = tmp_path / "claims.toml"
    claims_path.write_text(CLAIMS)
    claims = load_claims_file(claims_path)
    with pytest.raises(InputError, match="log.jsonl: execution log not found"):
        verify_bindings(claims, log)  # a missing log is bad input, not five NO RUN verdicts
    log.write_text("")
    with pytest.raises(InputError, match="log.jsonl: execution log holds no run record"):
        verify_bindings(claims, log)
    make_run(tmp_path, log, k=5)  # other parameters: not this experiment's run
    assert verify_bindings(claims, log)[0].status == "NO RUN"
    make_run(tmp_path, log, k=3)
    verdicts = verify_bindings(claims, log)
    assert [v.status for v in verdicts] == ["MATCH", "MISMATCH", "MATCH", "MATCH", "MISSING KEY"]
    assert verdicts[0].run_id == "sandbox-run-k3"
    assert verdicts[1].difference == pytest.approx(0.888438 - 0.889)


def test_failed_runs_are_never_evidence(tmp_path):
    log = tmp_path / "log.jsonl"
    claims_path = tmp_path / "claims.toml"
    claims_path.write_text(CLAIMS)
    with pytest.raises(RuntimeError):
        with recorded_run(log, "sandbox run", {"k": 3}) as rec:
            rec.run_id = "sandbox-run-broken"
            raise RuntimeError("crashed")
    assert verify_bindings(load_claims_file(claims_path), log)[0].status == "NO RUN"


def test_changed_result_file_is_flagged(tmp_path):
    log = tmp_path / "log.jsonl"
    claims_path = tmp_path / "claims.toml"
    claims_path.write_text(CLAIMS)
    metrics = make_run(tmp_path, log)
    metrics.write_text(json.dumps({**RESULT, "macro": {"bm25": {"recall@3": 1.0}}}))
    verdict = verify_bindings(load_claims_file(claims_path), log)[0]
    assert verdict.status == "CHANGED" and "changed since the run" in verdict.note


def test_verify_cli_exit_codes(tmp_path, cli):
    log = tmp_path / "log.jsonl"
    claims_path = tmp_path / "claims.toml"
    claims_path.write_text(CLAIMS.split("[[binding]]\nid = \"ndcg-wrong\"")[0])
    make_run(tmp_path, log)
    result = cli("verify", claims_path, "--log", log)
    assert result.exit_code == 0, result.output
    assert "1 matched, 0 not matched" in result.output
    claims_path.write_text(CLAIMS)
    result = cli("verify", claims_path, "--log", log)
    assert result.exit_code == 1
    assert "MISMATCH" in result.output and "0.888438" in result.output


def test_bad_claims_file_names_field(tmp_path, cli):
    bad = tmp_path / "bad.toml"
    bad.write_text('[experiment.x]\ncommand = "sandbox run"\nresult = "metrics"\n[[binding]]\nid = "a"\n'
                   'experiment = "y"\nclaimed = "1"\nkey = "a"\n')
    with pytest.raises(InputError, match=r"bad.toml: field 'binding\[1\].experiment'"):
        load_claims_file(bad)
    result = cli("verify", bad, "--log", tmp_path / "log.jsonl")
    assert result.exit_code == 2
    bad.write_text("this is = = not toml")
    result = cli("verify", bad, "--log", tmp_path / "log.jsonl")
    assert result.exit_code == 2 and "invalid TOML" in result.output


def test_log_paths_are_written_relative_to_the_log_and_read_back_absolute(tmp_path):
    from engine.runs.runlog import Invocation, invoked, log_base, portable_path, read_log, read_records

    log = tmp_path / "project" / "log.jsonl"
    out = tmp_path / "project" / "out"
    out.mkdir(parents=True)
    (out / "metrics.json").write_text("{}")
    outside = tmp_path / "elsewhere.txt"
    outside.write_text("x")
    with invoked(Invocation("sandbox run", {"qrels": str(outside)}, {"output": str(out)}, {"k": 3})):
        with recorded_run(log, "sandbox run", {"k": 3}) as rec:
            rec.run_id = "sandbox-run-rel"
            rec.add_inputs(outside)
            rec.add_outputs(out)
            rec.results = {"metrics": str(out / "metrics.json")}
    raw = json.loads(log.read_text())
    assert raw["results"] == {"metrics": "out/metrics.json"} and list(raw["outputs"]) == ["out/metrics.json"]
    assert list(raw["inputs"]) == [str(outside)]  # outside the log's folder: absolute
    assert raw["invocation"] == {"inputs": {"qrels": {"path": str(outside), "sha256": raw["inputs"][str(outside)]}},
                                 "outputs": {"output": {"path": "out"}}, "options": {"k": 3}}
    (record,) = read_records(log)
    assert record["results"]["metrics"] == str(out / "metrics.json")
    assert record["invocation"]["outputs"]["output"]["path"] == str(out)
    # the default layout: a log in .chapter-audit/ is relative to the project folder holding it
    assert log_base(tmp_path / "p" / ".chapter-audit" / "log.jsonl") == tmp_path / "p"
    assert portable_path(tmp_path / "p" / "data" / "q.txt", tmp_path / "p") == "data/q.txt"
    # an invocation of the wrong shape is a damaged line, not a record
    log.write_text(json.dumps({**raw, "invocation": {"inputs": {"qrels": "not-an-object"}}}) + "\n")
    records, damaged = read_log(log)
    assert records == [] and "invocation.inputs" in damaged[0].reason


def test_a_run_of_unstated_inputs_says_the_log_holds_others(tmp_path):
    from engine.runs.runlog import Invocation, invoked

    log = tmp_path / "log.jsonl"
    claims_path = tmp_path / "claims.toml"
    claims_path.write_text(CLAIMS)
    for name in ("a", "b"):
        qrels = tmp_path / f"qrels-{name}.txt"
        qrels.write_text(name)
        out = tmp_path / f"out-{name}"
        out.mkdir()
        (out / "metrics.json").write_text(json.dumps(RESULT))
        with invoked(Invocation("sandbox run", {"qrels": str(qrels)}, {"output": str(out)}, {})):
            with recorded_run(log, "sandbox run", {"k": 3}) as rec:
                rec.run_id = f"sandbox-run-{name}"
                rec.add_inputs(qrels)
                rec.add_outputs(out)
                rec.results = {"metrics": str(out / "metrics.json")}
    first = verify_bindings(load_claims_file(claims_path), log)[0]
    assert (first.status, first.run_id) == ("MATCH", "sandbox-run-b")  # the latest, and it says so
    assert first.note == ("the log also holds 1 run(s) of these parameters with other inputs; "
                          "add [experiment.toy.inputs] to say which is meant")


def test_a_value_the_run_did_not_compute_is_not_computed_never_a_match_or_mismatch(tmp_path):
    """R03 writes a one-task subset's bootstrap bounds as null ("one task: no interval"): a
    binding to such a bound is NOT COMPUTED (exit 1 like every non-MATCH), neither a MATCH of a
    degenerate [x, x] nor a MISMATCH that would say the chapter is contradicted."""
    log = tmp_path / "log.jsonl"
    result = {"bootstrap": {"development": {"typed-minus-dense": {"coverage": [-0.25, None, None]}}},
              "notes": {"development": "one task in subset 'development': no interval"}}
    make_run(tmp_path, log, result=result)
    claims_path = tmp_path / "claims.toml"
    claims_path.write_text(CLAIMS.split("[[binding]]")[0] + """
[[binding]]
id = "dev-low"
experiment = "toy"
claimed = "-0.25"
key = "bootstrap.development.typed-minus-dense.coverage.1"

[[binding]]
id = "dev-mean"
experiment = "toy"
claimed = "-0.25"
key = "bootstrap.development.typed-minus-dense.coverage.0"
""")
    low, mean = verify_bindings(load_claims_file(claims_path), log)
    assert low.status == "NOT COMPUTED" and not low.ok and low.difference is None
    assert "null" in low.note and "one task in subset 'development': no interval" in low.note
    assert mean.status == "MATCH"
