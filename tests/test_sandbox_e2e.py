"""`chapter-audit sandbox run` end to end on the bundled L03 fixture with the W03 parameters.

Every figure of the W03 worked case is asserted from the files the command writes.
"""

from __future__ import annotations

import csv
import io
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from engine.runs.hashing import sha256_file
from engine.runs.runlog import read_records
from engine.retrieval.text import TOKEN_PATTERN

REPO = Path(__file__).resolve().parents[1]
FIXTURE = REPO / "engine" / "fixtures" / "l03"
W03 = ["--k", "3", "--candidate-depth", "5", "--hybrid-alpha", "0.55", "--rerank-weight", "0.25",
       "--k1", "1.2", "--b", "0.75"]
DETERMINISTIC = ["runs/bm25.tsv", "runs/frozen_dense.tsv", "runs/hybrid.tsv", "runs/reranked.tsv",
                 "metrics.json", "topic_error_analysis.csv", "stage_boundary.json", "index_summary.json",
                 "rankings.json"]
METHODS = ("bm25", "frozen_dense", "hybrid", "reranked")


def inputs(fixture: Path = FIXTURE) -> list[str]:
    return ["--corpus", str(fixture / "corpus.jsonl"), "--topics", str(fixture / "topics.jsonl"),
            "--qrels", str(fixture / "qrels.txt"), "--dense-run", str(fixture / "supplied_run.tsv"),
            "--dense-metadata", str(fixture / "supplied_run_metadata.json")]


def sandbox_args(output: Path, log: Path, *extra: str, fixture: Path = FIXTURE) -> list[str]:
    return ["sandbox", "run", *inputs(fixture), "--output", str(output), *W03, "--log", str(log), *extra]


def invoke(args: list[str]):
    from cli import app
    return CliRunner().invoke(app, args, catch_exceptions=False)


@pytest.fixture(scope="module")
def w03(tmp_path_factory):
    """One W03 run shared by the figure tests: (output dir, log path, CLI result)."""
    root = tmp_path_factory.mktemp("w03")
    out, log = root / "out", root / "log.jsonl"
    result = invoke(sandbox_args(out, log))
    assert result.exit_code == 0, result.stderr
    return out, log, result


def load(out: Path, name: str):
    return json.loads((out / name).read_text(encoding="utf-8"))


def run_lists(out: Path, method: str) -> dict[str, list[tuple[str, str]]]:
    lists: dict[str, list[tuple[str, str]]] = {}
    for line in (out / "runs" / f"{method}.tsv").read_text().splitlines():
        topic, q0, doc, rank, score, tag = line.split()
        assert q0 == "Q0" and tag == method
        assert int(rank) == len(lists.get(topic, [])) + 1
        lists.setdefault(topic, []).append((doc, score))
    return lists


def top(out: Path, method: str, topic: str, k: int = 3) -> list[str]:
    return [doc for doc, _ in run_lists(out, method)[topic][:k]]


# ---- W03 section 3: representation and index ------------------------------------------------

def test_token_length_table_and_avgdl(w03):
    summary = load(w03[0], "index_summary.json")
    assert summary["doc_lengths"] == {"D-001": 21, "D-002": 20, "D-003": 20, "D-004": 19, "D-005": 21,
                                      "D-006": 18, "D-007": 21, "D-008": 20, "D-009": 24, "D-010": 21}
    assert summary["avgdl"] == 20.5 and summary["num_docs"] == 10


def test_t03_query_tokens_dfs_and_idfs(w03):
    t03 = load(w03[0], "index_summary.json")["topics"]["T-03"]
    assert t03["query_tokens"] == ["query", "sampling", "strata", "negative", "controls", "held", "out"]
    assert t03["document_frequency"] == {"query": 6, "sampling": 1, "strata": 2, "negative": 1,
                                         "controls": 1, "held": 1, "out": 1}
    assert {t: f"{v:.6f}" for t, v in t03["idf"].items()} == {
        "query": "0.526093", "sampling": "1.992430", "strata": "1.481605", "negative": "1.992430",
        "controls": "1.992430", "held": "1.992430", "out": "1.992430"}


# ---- W03 section 4: the BM25 trace -----------------------------------------------------------

def test_t03_bm25_scores_to_nine_decimals(w03):
    t03 = run_lists(w03[0], "bm25")["T-03"]
    assert t03[:5] == [("D-005", "8.654282550"), ("D-006", "7.047062981"), ("D-008", "0.531395266"),
                       ("D-001", "0.520895689"), ("D-010", "0.520895689")]
    # the BM25 list holds every document with a positive score, and only those
    assert all(float(score) > 0 for _, score in t03)
    summary = load(w03[0], "index_summary.json")
    with_query = {doc for doc in summary["doc_lengths"]} - {"D-002", "D-003", "D-004", "D-007"}
    assert {doc for doc, _ in t03} == with_query     # the six documents containing "query"


# ---- W03 section 5: per-topic BM25 table -----------------------------------------------------

@pytest.mark.parametrize("topic, top3, recall, ndcg", [
    ("T-01", ["D-001", "D-004", "D-002"], 1.0, 0.955831),
    ("T-02", ["D-009", "D-003", "D-004"], 1.0, 0.665315),
    ("T-03", ["D-005", "D-006", "D-008"], 0.666667, 0.946768),
])
def test_bm25_per_topic_table(w03, topic, top3, recall, ndcg):
    out = w03[0]
    assert top(out, "bm25", topic) == top3
    per_topic = load(out, "metrics.json")["per_topic"]["bm25"][topic]
    assert round(per_topic["recall@3"], 6) == recall
    assert round(per_topic["ndcg@3"], 6) == ndcg


def test_bm25_macro_recall_by_hand(w03):
    macro = load(w03[0], "metrics.json")["macro"]["bm25"]
    assert macro["recall@3"] == pytest.approx((1 + 1 + 2 / 3) / 3, abs=1e-15)


# ---- W03 section 6: supplied, hybrid, reranked -----------------------------------------------

def test_supplied_and_hybrid_t03(w03):
    out = w03[0]
    assert top(out, "frozen_dense", "T-03") == ["D-005", "D-010", "D-006"]
    assert top(out, "hybrid", "T-03") == ["D-005", "D-006", "D-010"]
    hybrid_t03 = [doc for doc, _ in run_lists(out, "hybrid")["T-03"]]
    assert hybrid_t03.index("D-010") + 1 == 3
    per_topic = load(out, "metrics.json")["per_topic"]
    assert per_topic["frozen_dense"]["T-03"]["recall@3"] == 1.0
    assert per_topic["hybrid"]["T-03"]["recall@3"] == 1.0


def test_macro_table(w03):
    macro = load(w03[0], "metrics.json")["macro"]
    table = {m: (round(v["recall@3"], 6), round(v["ndcg@3"], 6)) for m, v in macro.items()}
    assert table == {"bm25": (0.888889, 0.855971), "frozen_dense": (1.0, 0.880035),
                     "hybrid": (1.0, 0.888438), "reranked": (1.0, 0.888438)}
    assert macro["reranked"] == macro["hybrid"]


def test_reranked_top3_equals_hybrid_and_set_is_the_hybrid_top5(w03):
    out = w03[0]
    hybrid, reranked = run_lists(out, "hybrid"), run_lists(out, "reranked")
    for topic in ("T-01", "T-02", "T-03"):
        assert top(out, "reranked", topic) == top(out, "hybrid", topic)
        assert {d for d, _ in reranked[topic]} == {d for d, _ in hybrid[topic][:5]}
        assert len(reranked[topic]) == 5


def test_metrics_json_shape(w03):
    metrics = load(w03[0], "metrics.json")
    assert set(metrics) == {"macro", "per_topic", "measure_definitions"}
    assert set(metrics["macro"]) == set(METHODS) == set(metrics["per_topic"])
    # the names say what they are: the sandbox's own measures, and the ranking they read
    assert metrics["measure_definitions"]["ndcg@3"].startswith("nDCG(dcg='exp-log2')@3 (gain 2**g - 1")
    assert "score as written (9 decimals) descending" in metrics["measure_definitions"]["recall@3"]
    for method in METHODS:
        assert set(metrics["macro"][method]) == {"recall@3", "ndcg@3"}
        assert set(metrics["per_topic"][method]) == {"T-01", "T-02", "T-03"}
    # full precision, not rounded
    assert metrics["macro"]["bm25"]["recall@3"] == 0.8888888888888888


# ---- diagnoses and the stage table -----------------------------------------------------------

def test_topic_error_analysis(w03):
    rows = list(csv.DictReader(io.StringIO((w03[0] / "topic_error_analysis.csv").read_text())))
    assert len(rows) == 12
    by = {(r["topic_id"], r["method"]): r for r in rows}
    t03 = by[("T-03", "bm25")]
    assert (t03["relevant"], t03["top_3"], t03["misses"], t03["miss_ranks"]) == \
        ("D-005;D-006;D-010", "D-005;D-006;D-008", "D-010", "D-010@5")
    assert t03["diagnosis"] == "candidate miss at cutoff" and t03["recall@3"] == "0.666666667"
    assert by[("T-02", "bm25")]["diagnosis"] == "ordering problem"
    assert by[("T-02", "bm25")]["gain_zero_in_top_k"] == "D-009"
    assert by[("T-03", "hybrid")]["diagnosis"] == "none"
    assert by[("T-03", "frozen_dense")]["method_label"] == "supplied opaque run"
    assert by[("T-03", "frozen_dense")]["diagnosis"] == "ordering problem"   # D-010 (grade 1) above D-006


def test_stage_boundary_generated_from_results(w03):
    boundary = load(w03[0], "stage_boundary.json")
    rows = [(o["observation"], o["stage_diagnosis"], o["cannot_claim"]) for o in boundary["observations"]]
    assert rows[0] == ("D-010 is BM25 rank 5 for T-03", "lexical candidate miss at cutoff 3",
                       "D-010 is absent from all indexes")
    assert rows[1] == ("D-010 is hybrid rank 3 for T-03", "candidate membership changes under declared fusion",
                       "hybrid retrieval is generally superior")
    assert rows[2][0].startswith("D-009 ranks first for T-02 under BM25")
    assert rows[2][1] == "ordering problem under supplied qrels"
    assert rows[3] == ("Reranked metrics equal hybrid", "no top-3 metric change under this reranker/weight",
                       "reranking never helps")
    assert rows[4] == ("Macro Recall@3 rises by 0.111111 from BM25 to hybrid",
                       "average change over 3 topics of this fixture",
                       "expected production lift of 11.1 percentage points")
    assert boundary["observations"][0]["held_fixed"] == ["corpus", "query", "tokenizer", "index", "qrels",
                                                         "parameters"]
    assert boundary["observations"][0]["evidence"]["matched_query_tokens"] == ["query"]
    assert boundary["observations"][1]["evidence"]["supplied_run_rank"] == 2
    assert boundary["methods"]["frozen_dense"] == "supplied opaque run"
    change = boundary["macro_change_bm25_to_hybrid"]
    assert round(change["recall@3"], 6) == 0.111111
    assert round(change["ndcg@3"], 6) == round(0.8884384153476468 - 0.8559711705052736, 6)


def test_no_output_calls_the_supplied_run_a_dense_model(w03):
    out = w03[0]
    for path in out.rglob("*"):
        if path.is_file():
            assert "dense model" not in path.read_text(encoding="utf-8").lower(), path
    assert "supplied opaque run" in (out / "stage_boundary.json").read_text()
    assert "supplied opaque run" in w03[2].stdout


# ---- manifest and log ------------------------------------------------------------------------

def test_manifest(w03):
    out, log, _ = w03
    manifest = load(out, "run_manifest.json")
    assert manifest["command"] == "sandbox run"
    assert manifest["run_id"].startswith("sandbox-run-")
    roles = {"corpus": "corpus.jsonl", "topics": "topics.jsonl", "qrels": "qrels.txt",
             "supplied_run": "supplied_run.tsv", "supplied_run_metadata": "supplied_run_metadata.json"}
    assert set(manifest["inputs"]) == set(roles)
    for role, name in roles.items():
        assert manifest["inputs"][role]["sha256"] == sha256_file(FIXTURE / name)
    assert manifest["parameters"] == {"k": 3, "candidate_depth": 5, "hybrid_alpha": 0.55,
                                      "rerank_weight": 0.25, "k1": 1.2, "b": 0.75,
                                      "run_depth": 1000, "measures": "", "tokenizer_pattern": TOKEN_PATTERN}
    assert manifest["tokenizer"]["pattern"] == TOKEN_PATTERN
    assert manifest["versions"]["numpy"] != "not installed" and "python" in manifest["versions"]
    assert manifest["created_at"].endswith("Z")
    assert manifest["supplied_run_metadata"] == {"values": "authored", "model_identity": "none"}


def test_log_record(w03):
    out, log, _ = w03
    records = read_records(log)
    assert len(records) == 1
    record = records[0]
    assert record["status"] == "ok" and record["error"] is None
    assert record["command"] == "sandbox run"
    assert record["run_id"] == load(out, "run_manifest.json")["run_id"]
    assert record["results"] == {name: str((out / f"{file}").resolve()) for name, file in (
        ("metrics", "metrics.json"), ("manifest", "run_manifest.json"), ("index_summary", "index_summary.json"),
        ("rankings", "rankings.json"), ("stage_boundary", "stage_boundary.json"))}
    assert Path(record["results"]["metrics"]).is_absolute()
    assert record["inputs"][str(FIXTURE / "corpus.jsonl")] == sha256_file(FIXTURE / "corpus.jsonl")
    assert record["outputs"][str(out / "metrics.json")] == sha256_file(out / "metrics.json")
    assert record["parameters"]["k"] == 3


# ---- determinism, re-runs, stop conditions, refusals ------------------------------------------

def test_two_runs_are_byte_identical(w03, tmp_path):
    first = w03[0]
    second = tmp_path / "again"
    assert invoke(sandbox_args(second, tmp_path / "log.jsonl")).exit_code == 0
    for name in DETERMINISTIC:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name
    a, b = load(first, "run_manifest.json"), load(second, "run_manifest.json")
    for volatile in ("created_at", "versions"):
        a.pop(volatile), b.pop(volatile)
    assert a == b


def test_installed_entry_point_subprocess(w03, tmp_path):
    exe = Path(sys.executable).parent / "chapter-audit"
    if not exe.exists():
        exe = Path(shutil.which("chapter-audit") or "chapter-audit")
    out = tmp_path / "sub"
    proc = subprocess.run([str(exe), *sandbox_args(out, tmp_path / "log.jsonl")],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "sandbox-run-" in proc.stdout
    for name in DETERMINISTIC:
        assert (out / name).read_bytes() == (w03[0] / name).read_bytes(), name


def test_rerun_into_same_directory_replaces_the_same_run(tmp_path):
    out, log = tmp_path / "out", tmp_path / "log.jsonl"
    assert invoke(sandbox_args(out, log)).exit_code == 0
    before = (out / "metrics.json").read_bytes()
    assert invoke(sandbox_args(out, log)).exit_code == 0
    assert (out / "metrics.json").read_bytes() == before
    assert [r["status"] for r in read_records(log)] == ["ok", "ok"]


def snapshot(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in directory.rglob("*") if p.is_file()}


def test_frozen_manifest_parameter_change_is_invalid(tmp_path):
    out, log = tmp_path / "out", tmp_path / "log.jsonl"
    assert invoke(sandbox_args(out, log)).exit_code == 0
    frozen = tmp_path / "frozen_manifest.json"
    shutil.copy(out / "run_manifest.json", frozen)
    before = snapshot(out)
    args = sandbox_args(out, log, "--frozen-manifest", str(frozen))
    args[args.index("--hybrid-alpha") + 1] = "0.6"
    result = invoke(args)
    assert result.exit_code == 4
    assert "parameter hybrid_alpha: 0.55 -> 0.6" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert snapshot(out) == before                       # nothing overwritten
    records = read_records(log)
    assert [r["status"] for r in records] == ["ok", "invalid"]
    assert "hybrid_alpha" in records[-1]["error"] and records[-1]["outputs"] == {}
    # the same frozen manifest with unchanged inputs and parameters is a valid re-run
    assert invoke(sandbox_args(out, log, "--frozen-manifest", str(frozen))).exit_code == 0
    assert read_records(log)[-1]["status"] == "ok"


def test_frozen_manifest_input_change_names_each_difference(tmp_path):
    out, log = tmp_path / "out", tmp_path / "log.jsonl"
    assert invoke(sandbox_args(out, log)).exit_code == 0
    changed = tmp_path / "changed"
    shutil.copytree(FIXTURE, changed, ignore=shutil.ignore_patterns("acquisition"))
    with open(changed / "qrels.txt", "a") as handle:
        handle.write("T-03 0 D-008 1\n")
    new_out = tmp_path / "new"
    args = sandbox_args(new_out, log, "--frozen-manifest", str(out / "run_manifest.json"), fixture=changed)
    args[args.index("--k1") + 1] = "1.5"
    result = invoke(args)
    assert result.exit_code == 4
    assert "input qrels: sha256" in result.stderr and "parameter k1: 1.2 -> 1.5" in result.stderr
    assert "input corpus" not in result.stderr
    assert not new_out.exists()
    assert read_records(log)[-1]["status"] == "invalid"


def test_output_of_a_different_run_is_refused(tmp_path):
    out, log = tmp_path / "out", tmp_path / "log.jsonl"
    assert invoke(sandbox_args(out, log)).exit_code == 0
    before = snapshot(out)
    args = sandbox_args(out, log)
    args[args.index("--rerank-weight") + 1] = "0.5"
    result = invoke(args)
    assert result.exit_code == 3
    assert "refusing to overwrite" in result.stderr
    assert snapshot(out) == before
    assert len(read_records(log)) == 1                    # a refusal is not a run


def test_user_directory_is_refused(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    result = invoke(sandbox_args(out, tmp_path / "log.jsonl"))
    assert result.exit_code == 3
    assert (out / "notes.txt").read_text() == "mine" and len(list(out.iterdir())) == 1


def test_declared_model_identity_names_the_supplied_run(tmp_path):
    fixture = tmp_path / "fx"
    shutil.copytree(FIXTURE, fixture, ignore=shutil.ignore_patterns("acquisition"))
    (fixture / "supplied_run_metadata.json").write_text('{"model_identity": "example-encoder-v1"}\n')
    out = tmp_path / "out"
    result = invoke(sandbox_args(out, tmp_path / "log.jsonl", fixture=fixture))
    assert result.exit_code == 0
    boundary = load(out, "stage_boundary.json")
    assert boundary["methods"]["frozen_dense"] == "example-encoder-v1"
    assert "supplied opaque run" not in (out / "topic_error_analysis.csv").read_text()
    assert (out / "runs" / "frozen_dense.tsv").exists()


def test_cli_fixture_runs_the_same_command(cli, tmp_path):
    result = cli(*sandbox_args(tmp_path / "o", tmp_path / "log.jsonl"))
    assert result.exit_code == 0
    assert "0.888889" in result.stdout and "0.855971" in result.stdout


def test_topic_matching_no_document_is_diagnosed_not_retrieved(tmp_path):
    fixture = tmp_path / "fx"
    shutil.copytree(FIXTURE, fixture, ignore=shutil.ignore_patterns("acquisition"))
    with open(fixture / "topics.jsonl", "a") as handle:
        handle.write('{"topic_id": "T-04", "query": "zebra xylophone"}\n')
    with open(fixture / "qrels.txt", "a") as handle:
        handle.write("T-04 0 D-007 2\n")
    out = tmp_path / "out"
    result = invoke(sandbox_args(out, tmp_path / "log.jsonl", fixture=fixture))
    assert result.exit_code == 0, result.stderr
    assert "T-04" not in (out / "runs" / "bm25.tsv").read_text()          # BM25 list is empty
    rows = {(r["topic_id"], r["method"]): r for r in
            csv.DictReader(io.StringIO((out / "topic_error_analysis.csv").read_text()))}
    assert rows[("T-04", "bm25")]["diagnosis"] == "not retrieved"
    assert rows[("T-04", "bm25")]["miss_ranks"] == "D-007@absent"
    observations = [o["observation"] for o in load(out, "stage_boundary.json")["observations"]]
    assert "D-007 shares no query token with T-04 and is not in the BM25 list" in observations
    assert "D-007 is not in the hybrid list for T-04" in observations
    metrics = load(out, "metrics.json")
    assert metrics["per_topic"]["bm25"]["T-04"] == {"recall@3": 0.0, "ndcg@3": 0.0}
    assert metrics["macro"]["bm25"]["recall@3"] == pytest.approx((1 + 1 + 2 / 3 + 0) / 4)


# ---- issue 14: run depth, measures, negative grades ------------------------------------------

def test_run_depth_limits_written_rows_but_not_the_analyses(w03, tmp_path):
    out, log = tmp_path / "shallow", tmp_path / "log.jsonl"
    assert invoke(sandbox_args(out, log, "--run-depth", "3")).exit_code == 0
    for method in METHODS:
        lists = run_lists(out, method)
        assert all(len(rows) <= 3 for rows in lists.values())
        full = run_lists(w03[0], method)
        assert {t: rows[:3] for t, rows in full.items()} == lists
    assert any(len(rows) > 3 for rows in run_lists(w03[0], "bm25").values())
    # metrics at k = 3 and the error analysis (ranks in the whole candidate lists) are unchanged
    assert load(out, "metrics.json") == load(w03[0], "metrics.json")
    assert (out / "topic_error_analysis.csv").read_text() == (w03[0] / "topic_error_analysis.csv").read_text()
    assert load(out, "stage_boundary.json")["observations"] == load(w03[0], "stage_boundary.json")["observations"]
    assert all(len(scores) <= 3 for per_topic in load(out, "rankings.json")["scores"].values()
               for scores in per_topic.values())


def test_measures_in_ir_measures_notation_are_kept_in_metrics(w03, tmp_path):
    out, log = tmp_path / "measures", tmp_path / "log.jsonl"
    exp = "nDCG(dcg='exp-log2')@3"
    result = invoke(sandbox_args(out, log, "--measures", f"P@3,RR,AP@5,nDCG@3,{exp},Judged@2"))
    assert result.exit_code == 0, result.stderr
    metrics, base = load(out, "metrics.json"), load(w03[0], "metrics.json")
    for method in METHODS:
        macro = metrics["macro"][method]
        assert set(macro) == {"recall@3", "ndcg@3", "P@3", "RR", "AP@5", "nDCG@3", exp, "Judged@2"}
        assert macro["recall@3"] == base["macro"][method]["recall@3"]
        # the sandbox's ndcg@3 is ir_measures' nDCG(dcg='exp-log2')@3; nDCG@3 is the linear-gain one
        assert macro[exp] == macro["ndcg@3"] == base["macro"][method]["ndcg@3"]
        assert metrics["measure_definitions"]["ndcg@3"].startswith(exp)
        # P@3 = recall@3 · |relevant| / 3 (W03: two relevant for T-01 and T-02, three for T-03)
        relevant = {"T-01": 2, "T-02": 2, "T-03": 3}
        expected = sum(metrics["per_topic"][method][t]["recall@3"] * n / 3 for t, n in relevant.items()) / 3
        assert macro["P@3"] == pytest.approx(expected, abs=1e-15)
    # BM25 T-03 lists D-005 (3), D-006 (2), D-008, D-001, D-010 (1): AP@5 = (1/1 + 2/2 + 3/5) / 3
    assert metrics["per_topic"]["bm25"]["T-03"]["AP@5"] == pytest.approx(2.6 / 3, abs=1e-15)
    assert metrics["per_topic"]["bm25"]["T-03"]["RR"] == 1.0
    # linear gain on BM25 T-03 (D-005 grade 3, D-006 2, D-008 unjudged; judged 3, 2, 1):
    # nDCG@3 = (3 + 2/log2 3) / (3 + 2/log2 3 + 1/log2 4)
    linear = (3 + 2 / math.log2(3)) / (3 + 2 / math.log2(3) + 1 / math.log2(4))
    assert metrics["per_topic"]["bm25"]["T-03"]["nDCG@3"] == pytest.approx(linear, abs=1e-15)
    assert any(metrics["macro"][m]["nDCG@3"] != metrics["macro"][m][exp] for m in METHODS)


def test_negative_grades_are_non_relevant_with_gain_zero(w03, tmp_path):
    fixture = tmp_path / "fx"
    shutil.copytree(FIXTURE, fixture, ignore=shutil.ignore_patterns("acquisition"))
    with open(fixture / "qrels.txt", "a", encoding="utf-8") as handle:
        handle.write("T-01 0 D-004 -1\nT-03 0 D-008 -2\n")
    out = tmp_path / "negative"
    assert invoke(sandbox_args(out, tmp_path / "log.jsonl", fixture=fixture)).exit_code == 0
    # D-004 is rank 3 of the supplied run for T-01 and D-008 rank 3 of BM25 for T-03: with a
    # negative gain they would lower nDCG; as gain 0 every metric is the W03 one
    assert load(out, "metrics.json") == load(w03[0], "metrics.json")
    assert run_lists(out, "frozen_dense")["T-01"][2][0] == "D-004"
    assert run_lists(out, "bm25")["T-03"][2][0] == "D-008"
