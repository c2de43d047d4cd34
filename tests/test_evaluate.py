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


# ---- files as the field ships them (issue 21) -------------------------------------------------

def _macro(out):
    return {name: run["macro"] for name, run in json.loads((out / "metrics.json").read_text())["runs"].items()}


def test_gzip_inputs_give_the_plain_files_metrics(cli, files):
    import gzip

    assert run_evaluate(cli, files).exit_code == 0
    (files / "qrels.gz").write_bytes(gzip.compress(QRELS.encode()))
    (files / "one.tsv.gz").write_bytes(gzip.compress(RUN_ONE.encode()))
    (files / "two-no-suffix").write_bytes(gzip.compress(RUN_TWO.encode()))   # gzip recognised by content
    result = cli("evaluate", "--qrels", files / "qrels.gz", "--run", files / "one.tsv.gz", "--run",
                 files / "two-no-suffix", "--measures", MEASURES, "--output", files / "gz", "--log",
                 files / "log.jsonl", "--draws", "2000")
    assert result.exit_code == 0, result.stderr
    assert _macro(files / "gz") == _macro(files / "out")
    (files / "bad.gz").write_bytes(gzip.compress(RUN_ONE.encode())[:30])     # truncated
    result = cli("evaluate", "--qrels", files / "qrels.txt", "--run", files / "bad.gz", "--output",
                 files / "bad", "--log", files / "log.jsonl")
    assert result.exit_code == 2 and "bad.gz" in result.stderr and "Traceback" not in result.stderr


def test_stdin_is_read_where_one_input_is(files):
    from typer.testing import CliRunner

    from cli import app

    runner = CliRunner()
    base = ["evaluate", "--qrels", str(files / "qrels.txt"), "--measures", MEASURES, "--log", str(files / "log.jsonl")]
    plain = runner.invoke(app, base + ["--run", str(files / "one.tsv"), "--output", str(files / "plain")])
    piped = runner.invoke(app, base + ["--run", "-", "--output", str(files / "piped")], input=RUN_ONE)
    assert plain.exit_code == 0 and piped.exit_code == 0, piped.stderr
    assert _macro(files / "piped") == _macro(files / "plain")
    manifest = json.loads((files / "piped" / "manifest.json").read_text())
    assert manifest["inputs"]["run 1"]["path"] == "-"
    assert manifest["run_id"] == json.loads((files / "plain" / "manifest.json").read_text())["run_id"]
    both = runner.invoke(app, ["evaluate", "--qrels", "-", "--run", "-", "--output", str(files / "x"), "--log",
                               str(files / "log.jsonl")], input=RUN_ONE)
    assert both.exit_code == 2 and "stdin" in both.stderr


def test_a_byte_order_mark_is_removed_with_a_warning(cli, files):
    assert run_evaluate(cli, files).exit_code == 0
    (files / "qrels.txt").write_bytes(b"\xef\xbb\xbf" + QRELS.encode())
    (files / "one.tsv").write_bytes(b"\xef\xbb\xbf" + RUN_ONE.encode())
    result = cli(
        "evaluate", "--qrels", files / "qrels.txt", "--run", files / "one.tsv", "--run", files / "two.run.tsv",
        "--measures", MEASURES, "--output", files / "bom", "--log", files / "log.jsonl", "--draws", "2000")
    assert result.exit_code == 0, result.stderr
    assert "qrels.txt: UTF-8 byte-order mark removed" in result.stderr
    assert "one.tsv: UTF-8 byte-order mark removed" in result.stderr
    metrics = json.loads((files / "bom" / "metrics.json").read_text())
    assert sorted(metrics["runs"]["one"]["per_topic"]) == ["q1", "q2"]       # no phantom "\ufeffq1"
    assert _macro(files / "bom") == _macro(files / "out")


def test_runs_are_named_by_their_tag_or_explicitly(cli, files):
    (files / "a").mkdir()
    (files / "b").mkdir()
    (files / "a" / "run.txt").write_text(RUN_ONE)
    (files / "b" / "run.txt").write_text(RUN_TWO)
    result = cli("evaluate", "--qrels", files / "qrels.txt", "--run", files / "a" / "run.txt", "--run",
                 files / "b" / "run.txt", "--output", files / "tags", "--log", files / "log.jsonl", "--draws", "200")
    assert result.exit_code == 0, result.stderr
    assert set(json.loads((files / "tags" / "metrics.json").read_text())["runs"]) == {"one", "two"}
    (files / "b" / "run.txt").write_text(RUN_ONE)                            # the same tag twice
    result = cli("evaluate", "--qrels", files / "qrels.txt", "--run", files / "a" / "run.txt", "--run",
                 files / "b" / "run.txt", "--output", files / "same", "--log", files / "log.jsonl")
    assert result.exit_code == 2 and "NAME=PATH" in result.stderr
    result = cli("evaluate", "--qrels", files / "qrels.txt", "--run", f"base={files / 'a' / 'run.txt'}", "--run",
                 f"again={files / 'b' / 'run.txt'}", "--output", files / "named", "--log", files / "log.jsonl",
                 "--draws", "200")
    assert result.exit_code == 0, result.stderr
    comparison = json.loads((files / "named" / "comparison.json").read_text())
    assert comparison["baseline"] == "base" and list(comparison["pairs"]) == ["again-minus-base"]


# ---- no number without a meaning (issue 20) ---------------------------------------------------

@pytest.mark.parametrize("top", ["1023.5", "1100", "5000", "1e300"])
def test_huge_grades_give_numbers_never_nan(cli, files, top):
    (files / "qrels.txt").write_text(f"q1 0 a {top}\nq1 0 b 1\n")
    result = cli("evaluate", "--qrels", files / "qrels.txt", "--run", files / "one.tsv", "--measures",
                 "nDCG@3,nDCG(dcg='exp-log2')@3,AP", "--output", files / "huge", "--log", files / "log.jsonl")
    assert result.exit_code == 0, result.stderr
    text = (files / "huge" / "metrics.json").read_text()
    assert "NaN" not in text and "Infinity" not in text
    q1 = json.loads(text)["runs"]["one"]["per_topic"]["q1"]
    assert q1["nDCG(dcg='exp-log2')@3"] == pytest.approx(1.0, abs=1e-12)    # a first: the ideal order
    assert q1["nDCG@3"] == 1.0 and q1["AP"] == 1.0


def test_sandbox_and_evaluate_agree_on_a_supplied_run_tied_at_nine_decimals(cli, tmp_path):
    """Issue 20: scores that differ only beyond the ninth decimal are written alike; the sandbox
    ranks on the written values, so evaluate --ties ours on its written runs gives its metrics."""
    import shutil
    from pathlib import Path

    fixture = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "l03"
    data = tmp_path / "l03"
    shutil.copytree(fixture, data, ignore=shutil.ignore_patterns("acquisition"))
    supplied = (data / "supplied_run.tsv").read_text().splitlines()
    # T-01: D-007 (not relevant) above D-002 (0.92) and D-001 (grade 3) in memory; written alike
    # (0.920000000), so by id: D-001, D-002, D-007
    supplied[1] = "T-01 Q0 D-001 2 0.9200000001 authored"
    supplied[3] = "T-01 Q0 D-007 4 0.9200000004 authored"
    (data / "supplied_run.tsv").write_text("\n".join(supplied) + "\n")
    out = tmp_path / "sandbox"
    result = cli("sandbox", "run", "--corpus", data / "corpus.jsonl", "--topics", data / "topics.jsonl", "--qrels",
                 data / "qrels.txt", "--dense-run", data / "supplied_run.tsv", "--dense-metadata",
                 data / "supplied_run_metadata.json", "--output", out, "--log", tmp_path / "log.jsonl")
    assert result.exit_code == 0, result.stderr
    sandbox = json.loads((out / "metrics.json").read_text())
    assert (out / "runs" / "frozen_dense.tsv").read_text().splitlines()[:2] == [
        "T-01 Q0 D-001 1 0.920000000 frozen_dense", "T-01 Q0 D-002 2 0.920000000 frozen_dense",
        "T-01 Q0 D-007 3 0.920000000 frozen_dense"][:2]
    for method in ("bm25", "frozen_dense", "hybrid", "reranked"):
        target = tmp_path / f"eval-{method}"
        result = cli("evaluate", "--qrels", data / "qrels.txt", "--run", out / "runs" / f"{method}.tsv", "--measures",
                     "nDCG(dcg='exp-log2')@3,R@3", "--ties", "ours", "--output", target, "--log", tmp_path / "log.jsonl")
        assert result.exit_code == 0, result.stderr
        evaluated = json.loads((target / "metrics.json").read_text())["runs"][method]
        for topic, values in sandbox["per_topic"][method].items():
            assert evaluated["per_topic"][topic]["nDCG(dcg='exp-log2')@3"] == values["ndcg@3"], (method, topic)
            assert evaluated["per_topic"][topic]["R@3"] == values["recall@3"], (method, topic)


def test_sandbox_reads_a_gzipped_beir_corpus_with_id_fields(cli, tmp_path):
    """BEIR's ``_id`` (and ``id``) name a document as ``doc_id`` does; a gzip corpus is read as is:
    the metrics are W03's."""
    import gzip
    import shutil
    from pathlib import Path

    fixture = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "l03"
    data = tmp_path / "l03"
    shutil.copytree(fixture, data, ignore=shutil.ignore_patterns("acquisition"))
    lines = []
    for i, line in enumerate((data / "corpus.jsonl").read_text().splitlines()):
        record = json.loads(line)
        record["_id" if i % 2 else "id"] = record.pop("doc_id")
        record.pop("license"), record.pop("source_type")
        lines.append(json.dumps(record))
    (data / "beir.jsonl.gz").write_bytes(gzip.compress(("\n".join(lines) + "\n").encode()))

    def sandbox(corpus, out):
        return cli("sandbox", "run", "--corpus", corpus, "--topics", data / "topics.jsonl", "--qrels",
                   data / "qrels.txt", "--dense-run", data / "supplied_run.tsv", "--dense-metadata",
                   data / "supplied_run_metadata.json", "--output", out, "--log", tmp_path / "log.jsonl")

    assert sandbox(data / "corpus.jsonl", tmp_path / "plain").exit_code == 0
    result = sandbox(data / "beir.jsonl.gz", tmp_path / "beir")
    assert result.exit_code == 0, result.stderr
    assert (json.loads((tmp_path / "beir" / "metrics.json").read_text())
            == json.loads((tmp_path / "plain" / "metrics.json").read_text()))
    (data / "both.jsonl").write_text('{"_id": "D-001", "doc_id": "D-002", "text": "x"}\n')
    result = sandbox(data / "both.jsonl", tmp_path / "both")
    assert result.exit_code == 2 and "both.jsonl:1" in result.stderr and "disagree" in result.stderr


def test_t_test_and_corrections_in_the_comparison_agree_with_scipy(cli, tmp_path):
    scipy_stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(4)
    qrels, runs = [], {"base": [], "up": [], "same": []}
    for t in range(12):
        for d in range(6):
            qrels.append(f"t{t} 0 d{d} {int(rng.integers(0, 3))}")
        for name, runs_rows in runs.items():
            scores = rng.permutation(6) if name != "same" else np.arange(6)[::-1]
            runs_rows.extend(f"t{t} Q0 d{d} 1 {float(s) + (0.5 if name == 'up' and d < 2 else 0)} {name}"
                             for d, s in enumerate(scores))
    (tmp_path / "qrels").write_text("\n".join(qrels) + "\n")
    for name, rows in runs.items():
        (tmp_path / name).write_text("\n".join(rows) + "\n")
    result = cli("evaluate", "--qrels", tmp_path / "qrels", "--run", tmp_path / "base", "--run", tmp_path / "up",
                 "--run", tmp_path / "same", "--measures", "nDCG@3,AP", "--output", tmp_path / "out", "--log",
                 tmp_path / "log.jsonl", "--draws", "500")
    assert result.exit_code == 0, result.stderr
    metrics = json.loads((tmp_path / "out" / "metrics.json").read_text())
    comparison = json.loads((tmp_path / "out" / "comparison.json").read_text())
    assert "Holm" in comparison["corrections"] and "2 compared pair" in comparison["corrections"]
    assert "paired Student t-test, two-sided" in comparison["t_test"]
    for key in ("nDCG@3", "AP"):
        p_values = []
        for name in ("up", "same"):
            a = [metrics["runs"][name]["per_topic"][t][key] for t in sorted(metrics["runs"]["base"]["per_topic"])]
            b = [metrics["runs"]["base"]["per_topic"][t][key] for t in sorted(metrics["runs"]["base"]["per_topic"])]
            expected = scipy_stats.ttest_rel(a, b)
            v = comparison["pairs"][f"{name}-minus-base"][key]
            assert v["t"] == pytest.approx(float(expected.statistic), rel=1e-9)
            assert v["t_test_p"] == pytest.approx(float(expected.pvalue), rel=1e-9)
            p_values.append(v["t_test_p"])
        low, high = sorted(p_values)
        holm_expected = {low: min(1.0, 2 * low), high: max(min(1.0, 2 * low), high)}
        for name, p in zip(("up", "same"), p_values):
            v = comparison["pairs"][f"{name}-minus-base"][key]
            assert v["t_test_p_holm"] == pytest.approx(holm_expected[p], abs=1e-15)
            assert v["t_test_p_bonferroni"] == pytest.approx(min(1.0, 2 * p), abs=1e-15)
    assert "t-test p=" in result.stdout and "Holm" in result.stdout


def test_plot_draws_the_logged_differences_deterministically(cli, files, monkeypatch):
    pytest.importorskip("matplotlib")
    from engine.retrieval.comparison_plot import pair_differences

    first = run_evaluate(cli, files, "--plot", files / "a.svg")
    assert first.exit_code == 0, first.stderr
    second = cli("evaluate", "--qrels", files / "qrels.txt", "--run", files / "one.tsv", "--run", files / "two.run.tsv",
                 "--measures", MEASURES, "--output", files / "out2", "--log", files / "log.jsonl", "--draws", "2000",
                 "--plot", files / "b.svg")
    assert second.exit_code == 0, second.stderr
    svg = (files / "a.svg").read_bytes()
    assert svg == (files / "b.svg").read_bytes() and svg.startswith(b"<?xml") and b"<dc:date>" not in svg
    metrics = json.loads((files / "out" / "metrics.json").read_text())
    comparison = json.loads((files / "out" / "comparison.json").read_text())
    panels = pair_differences(metrics, comparison)
    assert [(p["pair"], p["measure"]) for p in panels] == [("two-minus-one", m) for m in MEASURES.split(",")]
    ap = next(p for p in panels if p["measure"] == "AP")
    one, two = metrics["runs"]["one"]["per_topic"], metrics["runs"]["two"]["per_topic"]
    assert ap["differences"] == sorted(two[t]["AP"] - one[t]["AP"] for t in ("q1", "q2"))
    assert ap["ci_low"] == comparison["pairs"]["two-minus-one"]["AP"]["ci_low"]
    logged = read_records(files / "log.jsonl")
    assert any(str((files / "a.svg").resolve()) in r["outputs"] for r in logged)
    # an existing plot is never replaced; without matplotlib, one line and nothing written
    again = run_evaluate(cli, files, "--plot", files / "a.svg")
    assert again.exit_code == 3 and "never replaced" in again.stderr
    import sys
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    missing = run_evaluate(cli, files, "--plot", files / "c.svg")
    assert missing.exit_code == 2 and "--plot" in missing.stderr and "chapter-audit[plot]" in missing.stderr
    assert not (files / "c.svg").exists()


@pytest.mark.parametrize("grade", ["1023.5", "1100", "5000"])
def test_sandbox_with_huge_grades_writes_numbers(cli, tmp_path, grade):
    import math
    import shutil
    from pathlib import Path

    fixture = Path(__file__).resolve().parents[1] / "engine" / "fixtures" / "l03"
    data = tmp_path / "l03"
    shutil.copytree(fixture, data, ignore=shutil.ignore_patterns("acquisition"))
    (data / "qrels.txt").write_text((data / "qrels.txt").read_text().replace("T-01 0 D-001 3", f"T-01 0 D-001 {grade}"))
    out = tmp_path / "out"
    result = cli("sandbox", "run", "--corpus", data / "corpus.jsonl", "--topics", data / "topics.jsonl", "--qrels",
                 data / "qrels.txt", "--dense-run", data / "supplied_run.tsv", "--dense-metadata",
                 data / "supplied_run_metadata.json", "--output", out, "--log", tmp_path / "log.jsonl",
                 "--measures", "nDCG@3")
    assert result.exit_code == 0, result.stderr
    text = (out / "metrics.json").read_text()
    assert "NaN" not in text and "Infinity" not in text
    values = json.loads(text)["per_topic"]["frozen_dense"]["T-01"]
    # supplied T-01: D-002 (2), D-001 (huge), D-004 (0): exponential gain is all D-001's
    assert values["ndcg@3"] == pytest.approx(1 / math.log2(3), abs=1e-12)
    assert 0.0 < values["nDCG@3"] < 1.0


def test_a_run_sharing_no_topic_with_the_qrels_is_said_not_silent(cli, files):
    """trec_eval -c semantics kept (every qrels topic counts, a missing one scores 0), but said."""
    (files / "r3.txt").write_text("q7 Q0 a 1 1.0 r3\nq8 Q0 b 1 1.0 r3\n")
    result = cli("evaluate", "--qrels", files / "qrels.txt", "--run", files / "r3.txt", "--measures", "P@2,AP",
                 "--output", files / "ev2", "--log", files / "log.jsonl")
    assert result.exit_code == 0, result.stderr
    assert (f"warning: {files / 'r3.txt'}: run r3 has no topic in common with the qrels (2 topics): "
            "every measure is 0") in result.stderr
    metrics = json.loads((files / "ev2" / "metrics.json").read_text())
    assert metrics["runs"]["r3"]["topics_without_results"] == 2
    assert metrics["runs"]["r3"]["macro"] == {"P@2": 0.0, "AP": 0.0}
    as_json = cli("evaluate", "--qrels", files / "qrels.txt", "--run", files / "r3.txt", "--measures", "P@2,AP",
                  "--output", files / "ev3", "--log", files / "log.jsonl", "--format", "json")
    assert as_json.exit_code == 0, as_json.stderr
    document = json.loads(as_json.stdout)
    assert document["metrics"]["runs"]["r3"]["topics_without_results"] == 2
    assert any("no topic in common" in w for w in document["warnings"])


def test_a_run_missing_some_qrels_topics_says_how_many(cli, files):
    (files / "half.txt").write_text("q1 Q0 a 1 1.0 half\n")
    result = cli("evaluate", "--qrels", files / "qrels.txt", "--run", files / "half.txt", "--run", files / "one.tsv",
                 "--measures", "P@2", "--output", files / "ev", "--log", files / "log.jsonl", "--draws", "200")
    assert result.exit_code == 0, result.stderr
    assert (f"warning: {files / 'half.txt'}: run half lists no result for 1 of the 2 qrels topics "
            "(they score 0)") in result.stderr
    assert "one.tsv" not in result.stderr                     # a run answering every topic: no word
    metrics = json.loads((files / "ev" / "metrics.json").read_text())
    assert metrics["runs"]["half"]["topics_without_results"] == 1
    assert metrics["runs"]["one"]["topics_without_results"] == 0
    assert metrics["runs"]["half"]["per_topic"]["q2"]["P@2"] == 0.0


def test_one_topic_gives_no_bootstrap_interval(cli, tmp_path):
    """A bootstrap over one topic resamples it every time: [x, x] is not an interval. The bounds
    are null with a note (as the t-test's), printed as such; the difference stays."""
    (tmp_path / "q.txt").write_text("q1 0 a 1\n")
    (tmp_path / "x.txt").write_text("q1 Q0 a 1 1.0 x\n")
    (tmp_path / "y.txt").write_text("q1 Q0 b 1 1.0 y\nq1 Q0 a 2 0.5 y\n")
    result = cli("evaluate", "--qrels", tmp_path / "q.txt", "--run", tmp_path / "x.txt", "--run", tmp_path / "y.txt",
                 "--measures", "AP", "--output", tmp_path / "out", "--log", tmp_path / "log.jsonl", "--draws", "100")
    assert result.exit_code == 0, result.stderr
    pair = json.loads((tmp_path / "out" / "comparison.json").read_text())["pairs"]["y-minus-x"]["AP"]
    assert pair["difference"] == -0.5 and pair["ci_low"] is None and pair["ci_high"] is None
    assert pair["ci_note"] == "one topic: no interval"
    assert "-0.500000 [one topic: no interval]" in result.stdout
    assert "[-0.500000, -0.500000]" not in result.stdout
