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
