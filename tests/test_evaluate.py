"""`chapter-audit evaluate`: hand-computed measures, the paired comparison, bad input, and a chapter's
printed metrics bound and verified through a claims file against the logged run."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from engine.runs.runlog import read_records
from engine.stats.bootstrap import blocked_intervals, index_matrix, interval
from engine.stats.randomisation import randomisation_p

QRELS = "q1 0 a 2\nq1 0 b 0\nq1 0 c 1\nq2 0 x 1\nq2 0 z -1\n"
RUN_ONE = ("q1 Q0 a 1 3.0 one\nq1 Q0 b 2 2.0 one\nq1 Q0 c 3 1.0 one\n"
           "q2 Q0 y 1 1.0 one\nq2 Q0 x 2 0.5 one\n")
RUN_TWO = ("q1 Q0 c 1 3.0 two\nq1 Q0 a 2 2.0 two\n"
           "q2 Q0 x 1 1.0 two\nq2 Q0 z 2 0.5 two\n")
MEASURES = "P@2,RR,AP,nDCG@3,R@1,Rprec,Success@1,Judged@2,nDCG(dcg='exp-log2')@3"


def ndcg_q1_one(exponential: bool = False) -> float:
    """nDCG@3 of run one on q1 (a: grade 2, b: 0, c: 1): linear gain (ir_measures' nDCG@3) or
    exponential gain 2**g - 1 (nDCG(dcg='exp-log2')@3)."""
    top = 3.0 if exponential else 2.0
    dcg = top / math.log2(2) + 0.0 + 1.0 / math.log2(4)
    ideal = top / math.log2(2) + 1.0 / math.log2(3)
    return dcg / ideal


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels.txt").write_text(QRELS)
    (tmp_path / "one.tsv").write_text(RUN_ONE)
    (tmp_path / "two.run.tsv").write_text(RUN_TWO)
    return tmp_path


def run_evaluate(cli, files, *extra):
    return cli("evaluate", "--qrels", files / "qrels.txt", "--run", files / "one.tsv", "--run", files / "two.run.tsv",
               "--measures", MEASURES, "--output", files / "out", "--log", files / "log.jsonl", "--draws", "2000", *extra)


def test_hand_computed_measures_and_the_printed_table(cli, files):
    result = run_evaluate(cli, files)
    assert result.exit_code == 0, result.stderr
    metrics = json.loads((files / "out" / "metrics.json").read_text())
    one, two = metrics["runs"]["one"], metrics["runs"]["two"]
    assert one["per_topic"]["q1"]["P@2"] == 0.5 and one["per_topic"]["q2"]["P@2"] == 0.5
    assert one["macro"]["RR"] == 0.75                                   # 1 and 1/2
    assert one["per_topic"]["q1"]["AP"] == pytest.approx((1 + 2 / 3) / 2, abs=1e-15)
    assert one["macro"]["AP"] == pytest.approx(((1 + 2 / 3) / 2 + 0.5) / 2, abs=1e-15)
    assert one["per_topic"]["q1"]["nDCG@3"] == pytest.approx(ndcg_q1_one(), abs=1e-15)
    assert one["per_topic"]["q1"]["nDCG(dcg='exp-log2')@3"] == pytest.approx(ndcg_q1_one(True), abs=1e-15)
    assert one["per_topic"]["q2"]["Rprec"] == 0.0 and one["per_topic"]["q1"]["Rprec"] == 0.5
    assert one["per_topic"]["q2"]["Judged@2"] == 0.5
    # run two: q2 lists z (grade −1) second: judged, non-relevant, gain 0
    assert two["per_topic"]["q2"]["nDCG@3"] == 1.0 and two["per_topic"]["q2"]["Judged@2"] == 1.0
    assert two["per_topic"]["q1"]["R@1"] == 0.5 and two["per_topic"]["q1"]["Success@1"] == 1.0
    lines = result.stdout.splitlines()
    assert lines[1].split()[0] == "run" and lines[2].split()[0] == "one" and lines[3].split()[0] == "two"
    assert f"{one['macro']['AP']:.6f}" in lines[2]
    assert any("two-minus-one" in line and "AP" in line for line in lines)


def test_paired_comparison_values(cli, files):
    assert run_evaluate(cli, files).exit_code == 0
    metrics = json.loads((files / "out" / "metrics.json").read_text())
    comparison = json.loads((files / "out" / "comparison.json").read_text())
    assert comparison["baseline"] == "one" and comparison["draws"] == 2000 and comparison["seed"] == 129300
    pair = comparison["pairs"]["two-minus-one"]
    for key in ("P@2", "AP", "nDCG@3"):
        per_topic = [metrics["runs"]["two"]["per_topic"][t][key] - metrics["runs"]["one"]["per_topic"][t][key]
                     for t in ("q1", "q2")]
        assert pair[key]["difference"] == pytest.approx(sum(per_topic) / 2, abs=1e-15)
        assert pair[key]["ci_low"] <= pair[key]["difference"] <= pair[key]["ci_high"]
        # two topics: the sign-flip test has 4 equally likely sign patterns
        assert 0.0 < pair[key]["randomisation_p"] <= 1.0


def test_printed_metrics_bind_and_verify_through_a_claims_file(cli, files):
    result = run_evaluate(cli, files)
    assert result.exit_code == 0
    printed = result.stdout.splitlines()[2].split()      # the row of run "one"
    ap_printed = printed[1 + MEASURES.split(",").index("AP")]
    claims = files / "claims.toml"
    claims.write_text(f"""
[experiment.eval]
command = "evaluate"
result = "metrics"
[experiment.eval.match]
ties = "trec_eval"

[[binding]]
id = "ap-one"
experiment = "eval"
quote = "run one reaches a mean AP of {ap_printed}"
claimed = "{ap_printed}"
key = "runs.one.macro.AP"

[[binding]]
id = "rr-one"
experiment = "eval"
claimed = "0.75"
key = "runs.one.macro.RR"
""")
    verified = cli("verify", claims, "--log", files / "log.jsonl")
    assert verified.exit_code == 0, verified.stdout + verified.stderr
    assert verified.stdout.count("MATCH") == 2
    claims.write_text(claims.read_text().replace('claimed = "0.75"', 'claimed = "0.76"'))
    assert cli("verify", claims, "--log", files / "log.jsonl").exit_code == 1


def test_the_run_is_logged_with_its_results(cli, files):
    assert run_evaluate(cli, files).exit_code == 0
    [record] = read_records(files / "log.jsonl")
    assert record["command"] == "evaluate" and record["status"] == "ok"
    assert set(record["results"]) == {"metrics", "comparison", "manifest"}
    assert record["parameters"]["measures"] == MEASURES.split(",")
    assert record["run_id"].startswith("evaluate-")


@pytest.mark.parametrize("change, message", [
    (lambda d: (d / "one.tsv").write_text(RUN_ONE + "q3 Q0 a 1\n"), "one.tsv:6"),
    (lambda d: (d / "one.tsv").write_text(RUN_ONE + "q2 Q0 y 3 nan one\n"), "one.tsv:6"),
    (lambda d: (d / "one.tsv").write_text(RUN_ONE + "q2 Q0 x 3 0.1 one\n"), "one.tsv:6"),
    (lambda d: (d / "qrels.txt").write_text(QRELS + "q3 0 a inf\n"), "qrels.txt:6"),
])
def test_bad_input_names_file_and_line_and_logs_nothing(cli, files, change, message):
    change(files)
    result = run_evaluate(cli, files)
    assert result.exit_code == 2
    assert message in result.stderr and "Traceback" not in result.stderr
    assert not (files / "out").exists() and not (files / "log.jsonl").exists()


@pytest.mark.parametrize("extra, option", [
    (("--ties", "random"), "--ties"),
    (("--draws", "0"), "--draws"),
])
def test_bad_options_name_the_option(cli, files, extra, option):
    result = run_evaluate(cli, files, *extra)
    assert result.exit_code == 2 and option in result.stderr


def test_bad_measure_and_duplicate_run_names(cli, files):
    result = cli("evaluate", "--qrels", files / "qrels.txt", "--run", files / "one.tsv", "--measures", "MAP@x",
                 "--output", files / "out", "--log", files / "log.jsonl")
    assert result.exit_code == 2 and "--measures" in result.stderr
    (files / "sub").mkdir()
    (files / "sub" / "one.tsv").write_text(RUN_ONE)
    result = cli("evaluate", "--qrels", files / "qrels.txt", "--run", files / "one.tsv", "--run",
                 files / "sub" / "one.tsv", "--output", files / "out", "--log", files / "log.jsonl")
    assert result.exit_code == 2 and "two runs are named 'one'" in result.stderr


def test_blocked_bootstrap_equals_the_whole_index_matrix():
    rng = np.random.default_rng(5)
    diffs = [rng.normal(size=37), rng.normal(size=37)]
    idx = index_matrix(37, draws=2500, seed=11)
    assert blocked_intervals(diffs, draws=2500, seed=11, block=300) == [interval(d, idx) for d in diffs]


def test_randomisation_p_by_hand():
    # one topic: every sign pattern gives |mean| = observed, so p = 1
    assert randomisation_p(np.array([0.3]), draws=500, seed=1) == 1.0
    # ten equal positive differences: only the 2 all-same-sign patterns of 1024 reach the observed 1
    p = randomisation_p(np.ones(10), draws=20000, seed=3)
    assert 0.0005 < p < 0.005
    assert randomisation_p(np.zeros(6), draws=100, seed=2) == 1.0


def test_topics_outside_the_qrels_are_counted_not_evaluated(cli, files):
    assert run_evaluate(cli, files).exit_code == 0
    before = json.loads((files / "out" / "metrics.json").read_text())
    (files / "one.tsv").write_text(RUN_ONE + "q9 Q0 a 1 1.0 one\nq8 Q0 b 1 1.0 one\n")
    result = cli("evaluate", "--qrels", files / "qrels.txt", "--run", files / "one.tsv", "--measures", MEASURES,
                 "--output", files / "out2", "--log", files / "log.jsonl")
    assert result.exit_code == 0, result.stderr
    after = json.loads((files / "out2" / "metrics.json").read_text())
    assert after["runs"]["one"]["topics_not_in_qrels"] == 2 and before["runs"]["one"]["topics_not_in_qrels"] == 0
    assert after["runs"]["one"]["macro"] == before["runs"]["one"]["macro"] and after["topics"] == 2


def test_document_order_is_python_string_order_with_and_without_nul():
    from engine.retrieval.trec_arrays import sorted_codes

    codes, distinct = sorted_codes(np.array(["b", "a", "c", "a", "B", "é"], dtype=object))
    assert codes.tolist() == [2, 1, 3, 1, 0, 4] and distinct == ["B", "a", "b", "c", "é"]
    codes, distinct = sorted_codes(np.array(["b", "a\x00", "a"], dtype=object))
    assert codes.tolist() == [2, 1, 0] and distinct == ["a", "a\x00", "b"]
