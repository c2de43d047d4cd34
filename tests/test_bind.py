"""`chapter-audit bind`: suggested bindings from logged runs (claims/suggest.py, claims/draft.py).

The demo chapter's 11 bound numbers are scored against the hand-written
``audit/examples/sandbox-chapter.claims.toml`` after re-running its experiments; the W03
restatement (``bench/data/w03-chapter-pack.txt``) against ``claims/bindings/w03.toml`` with
the placement table of ``bench/bench_bind.py``. The small cases below are hand-built logs.
"""

from __future__ import annotations

import importlib.util
import json
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from audit.pack import load_pack
from claims.bindings import load_claims_file
from claims.draft import draft_claims_toml, unmatched_note
from claims.extract import extract_claims
from claims.quantities import find_quantities
from claims.suggest import printed_values, run_values, suggest
from claims.verify import rerun_experiments, verify_bindings
from engine.runs.runlog import read_records, recorded_run

REPO = Path(__file__).resolve().parents[1]
DEMO_PACK = REPO / "audit/examples/sandbox-chapter-pack.txt"
DEMO_GOLD = REPO / "audit/examples/sandbox-chapter.claims.toml"
W03_PACK = REPO / "bench/data/w03-chapter-pack.txt"
W03_GOLD = REPO / "claims/bindings/w03.toml"


def _bench():
    spec = importlib.util.spec_from_file_location("bench_bind", REPO / "bench" / "bench_bind.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def demo_log(tmp_path_factory):
    work = tmp_path_factory.mktemp("bind-demo")
    log = work / "log.jsonl"
    outcomes = rerun_experiments(load_claims_file(DEMO_GOLD), log, work / "runs")
    assert [o.code for o in outcomes] == [0, 0]
    return log


def test_demo_chapter_every_number_right_at_rank_1(demo_log):
    bench = _bench()
    gold = load_claims_file(DEMO_GOLD)
    suggestions = suggest(extract_claims(load_pack(DEMO_PACK)), run_values(read_records(demo_log), demo_log))
    right, misses = bench.score(gold, suggestions, lambda b, s: bench.place_demo(b.quote, b.claimed, s))
    assert (right, misses) == (11, [])
    (misrounded,) = [s for s in suggestions if s.best is None]
    assert misrounded.claimed == "0.889"
    assert unmatched_note(misrounded) == "no value within precision; nearest: macro.hybrid.ndcg@3 = 0.888438"


def test_bind_writes_a_draft_that_verifies_and_never_replaces_a_file(demo_log, tmp_path, cli):
    output = tmp_path / "draft.toml"
    result = cli("bind", DEMO_PACK, "--log", demo_log, "--output", output)
    assert result.exit_code == 0, result.output
    assert "C-004-01 0.889: no value within precision; nearest: macro.hybrid.ndcg@3 = 0.888438" in result.output
    assert "11 printed numbers: 10 bound, 0 ambiguous, 1 unmatched" in result.output
    text = output.read_text(encoding="utf-8")
    assert 'claimed = "0.889"' not in text  # never a binding without a matching value
    assert '# C-004-01 "0.889"' in text
    verdicts = verify_bindings(load_claims_file(output), demo_log)
    assert len(verdicts) == 10 and all(v.status == "MATCH" for v in verdicts)
    assert cli("verify", output, "--log", demo_log).exit_code == 0

    before = output.read_bytes()
    again = cli("bind", DEMO_PACK, "--log", demo_log, "--output", output)
    assert again.exit_code == 3 and "never replaces" in again.output
    assert output.read_bytes() == before


def test_bind_without_matching_runs_writes_nothing(tmp_path, cli):
    log = log_with(tmp_path, {"selectors": {"mmr": {"mean_units": 7.25}}})  # a run none of the numbers is
    output = tmp_path / "draft.toml"
    result = cli("bind", DEMO_PACK, "--log", log, "--output", output)
    assert result.exit_code == 1 and not output.exists()
    assert "0 bound, 0 ambiguous, 11 unmatched" in result.output
    missing = cli("bind", DEMO_PACK, "--log", tmp_path / "absent.jsonl", "--output", output)
    assert missing.exit_code == 2 and "absent.jsonl: execution log not found" in missing.output
    (tmp_path / "empty.jsonl").write_text("")
    empty = cli("bind", DEMO_PACK, "--log", tmp_path / "empty.jsonl", "--output", output)
    assert empty.exit_code == 2 and "empty.jsonl: execution log holds no run record" in empty.output


def test_w03_restatement_at_least_90_percent_at_rank_1(tmp_path):
    bench = _bench()
    gold = load_claims_file(W03_GOLD)
    log = tmp_path / "log.jsonl"
    assert [o.code for o in rerun_experiments(gold, log, tmp_path / "runs")] == [0, 0]
    suggestions = suggest(extract_claims(load_pack(W03_PACK)), run_values(read_records(log), log))
    right, misses = bench.score(gold, suggestions, lambda b, s: bench.place_w03(b.binding_id, b.claimed, s))
    assert len(gold.bindings) == 61
    assert right == 60, misses  # measured; the goal is >= 55 (90 %), issue 20 keeps >= 59
    assert sorted(m.split(" ")[0] for m in misses) == ["stage-d010-bm25-rank"]
    draft = tmp_path / "w03.toml"
    draft.write_text(draft_claims_toml(suggestions, pack_path="w03", log_path=str(log)), encoding="utf-8")
    assert all(v.status == "MATCH" for v in verify_bindings(load_claims_file(draft), log))


def test_labelled_chapters_no_false_bind_and_every_number_right(tmp_path):
    """Issue 20: four chapters of our own with planted coincidences (bench/data/bind/)."""
    bench = _bench()
    results = {name: bench.labelled_case(name, tmp_path) for name in
               ("ch1-evaluate", "ch2-percentages", "ch3-two-judgment-sets", "ch4-ledger-and-index",
                "ch5-heldout-cutoffs")}
    assert {name: (right, total, false) for name, (right, total, false, _) in results.items()} == {
        "ch1-evaluate": (14, 14, 0), "ch2-percentages": (9, 9, 0), "ch3-two-judgment-sets": (6, 6, 0),
        "ch4-ledger-and-index": (11, 11, 0),
        # held out: 10/14 and 1 false bind before the two rules it led to (p-values need a "p";
        # "0.205 in nDCG@5 and 0.132 in nDCG@10"); the misses left: a coreference ("on that
        # topic") and a sentence the extractor did not read as a measured result; once the new kind
        # rules read it (issue 19), it bound P@5 of one topic falsely until a metric named in the
        # parenthesis after the number counts ("80% of the topics (Success@1)"); one miss left
        "ch5-heldout-cutoffs": (14, 15, 0)}, {name: r[3] for name, r in results.items()}


# ---------------------------------------------------------------------------------------------
# Hand-built cases.

@dataclass
class Row:
    claim_id: str
    text: str
    kind: str = "measured result"
    location: str = ""
    quantities: list = field(default_factory=list)

    def __post_init__(self):
        self.quantities = find_quantities(self.text)


def log_with(tmp_path, result: dict, command: str = "budget run", parameters: dict | None = None) -> Path:
    log = tmp_path / "log.jsonl"
    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").write_text(json.dumps(result))
    (out / "manifest.json").write_text(json.dumps({"parameters": {"char_cap": 0.8333}}))
    with recorded_run(log, command, parameters or {"char_cap": 1200}) as rec:
        rec.run_id = "budget-run-000000000001"
        rec.add_outputs(out)
        rec.results = {"summary": str((out / "summary.json").resolve()),
                       "manifest": str((out / "manifest.json").resolve())}
    return log


def test_printed_values_skip_cutoffs_and_identifier_digits_and_read_id_lists():
    row = Row("C-001-01", "On T-03, BM25 ranks D-005, D-010, and D-006 first, with NDCG@3 of 0.946768.")
    assert [p.claimed for p in printed_values(row)] == ["[D-005, D-010, D-006]", "0.946768"]


def test_percentages_fractions_and_counts(tmp_path):
    result = {"selectors": {"mmr": {"positive_rate": 0.8333333333333334, "mean_units": 2.52,
                                    "positives_selected": 5}}}
    log = log_with(tmp_path, result)
    values = run_values(read_records(log), log)
    rows = [Row("C-001-01", "The MMR selector reached a positive rate of 83.3% on the sample."),
            Row("C-001-02", "The MMR selector reached a positive rate of 5/6."),
            Row("C-001-03", "The MMR selector found 3 positives selected."),
            Row("C-001-04", "The MMR selector averaged 2.5 mean units.")]
    got = {s.claim_id: s for s in suggest(rows, values)}
    assert got["C-001-01"].best.value.key == "selectors.mmr.positive_rate"
    assert got["C-001-02"].best.value.key == "selectors.mmr.positive_rate"
    # a printed whole number is a count: 2.52 is not "3", and 5 is too far from it
    assert got["C-001-03"].best is None
    assert got["C-001-04"].best.value.key == "selectors.mmr.mean_units"
    # the manifest holds parameters, never results
    assert all(v.result != "manifest" for v in values)


def test_contradicting_words_exclude_a_value_and_table_rows_are_read(tmp_path):
    result = {"macro": {"bm25": {"recall@3": 0.888889, "ndcg@3": 0.855971},
                        "hybrid": {"recall@3": 1.0, "ndcg@3": 0.888438}}}
    log = log_with(tmp_path, result)
    values = run_values(read_records(log), log)
    rows = [Row("C-001-01", "Fusion lifts macro NDCG@3 to 0.889 in this run."),
            Row("T-001-02-03", "Hybrid | 0.888438", kind="table value", location="table 1, row 2, column 3"),
            Row("C-001-02", "Fusion is described here with 0.888438 in passing.", kind="method or definition")]
    got = suggest(rows, values)
    assert [s.claim_id for s in got] == ["C-001-01", "T-001-02-03"]
    assert got[0].best is None and unmatched_note(got[0]) == (
        "no value within precision; nearest: macro.hybrid.ndcg@3 = 0.888438")
    assert got[1].best.value.key == "macro.hybrid.ndcg@3"


def test_a_metric_named_in_the_parenthesis_after_the_number_is_its_metric():
    from claims.meaning import Metric, number_metric

    text = "The dense run puts a relevant document first on 80% of the topics (Success@1)."
    start = text.index("80%")
    clause_end = text.index("(")
    assert number_metric(text, start, start + 3, clause_end) == Metric("success", 1)
    # a number between the two: the parenthesis names the other number's metric
    text = "BM25 reaches 0.41 on 12 topics (P@5)."
    start = text.index("0.41")
    assert number_metric(text, start, start + 4, text.index(" on")) is None


def test_one_definition_of_a_key_that_is_an_alternative():
    """``_leaves``' siblings and ``run_rivals``' rivals use one predicate (claims/suggest.py
    ``_is_alternative``): a system's per-topic results (``per_topic.bm25`` → ``{"q1": …}``) are an
    alternative to the other system's, in both; a container named by its items (``tasks`` →
    ``{"T1": …}``), a scope key (``per_topic``) and text are alternatives in neither. Before, the
    rivals left out every dict keyed by identifiers, so ``bm25`` had no rival in this file."""
    from claims.suggest import _leaves, run_rivals

    data = {"per_topic": {"bm25": {"q1": 0.5, "q2": 0.25}, "hybrid": {"q1": 0.75, "q2": 0.5}},
            "tasks": {"T1": {"ndcg": 0.4}, "T2": {"ndcg": 0.6}}, "note": "two systems",
            "macro": {"ndcg": 0.5}}
    siblings = {key: dict(sib) for key, _, _, sib in _leaves(data, [], frozenset())}
    assert siblings["per_topic.bm25.q1"]["per_topic"] == frozenset({"macro"})  # tasks, note: no alternatives
    assert siblings["per_topic.bm25.q1"]["bm25"] == frozenset({"hybrid"})
    rivals = run_rivals([data])
    assert rivals["bm25"] == frozenset({"hybrid"}) and rivals["hybrid"] == frozenset({"bm25"})
    assert "per_topic" not in rivals and "tasks" not in rivals and "note" not in rivals
    assert rivals["t1"] == frozenset({"T2"})  # the tasks' items are alternatives to each other, as in _leaves


# ---------------------------------------------------------------------------------------------
# What a sentence says a number is (claims/suggest.py ``reading_conflict``; campaign n's four
# wrong verdicts with exit 0, tests/journeys/test_campaign_n.py). Two files shaped as `evaluate`'s
# metrics.json and comparison.json: BM25 finds topics 1 and 2 at rank 1 (P@1 1, 1, 0: macro
# 0.666667), the dense run only topic 1 (0.333333); dense − BM25 = −0.333333, randomisation p 1.0,
# t-test df 2, interval [−1, 0]; run x holds both nDCG conventions (ndcg@10 exponential 0.684406,
# nDCG@10 linear 0.733190: the ranx case of the journeys).

METRICS_LIKE = {
    "runs": {"bm25": {"macro": {"P@1": 0.666667},
                      "per_topic": {"1": {"P@1": 1.0}, "2": {"P@1": 1.0}, "3": {"P@1": 0.0}}},
             "dense": {"macro": {"P@1": 0.333333},
                       "per_topic": {"1": {"P@1": 1.0}, "2": {"P@1": 0.0}, "3": {"P@1": 0.0}}},
             "x": {"macro": {"ndcg@10": 0.684406, "nDCG@10": 0.733190}}},
}
COMPARISON_LIKE = {
    "pairs": {"dense-minus-bm25": {"P@1": {"difference": -0.333333, "randomisation_p": 1.0, "t_test_df": 2,
                                           "ci_low": -1.0, "ci_high": 0.0}}},
}


def _best_keys(tmp_path, *sentences: str) -> list[str | None]:
    """The bound key of each printed decimal of each sentence (None: unmatched or ambiguous)."""
    log = tmp_path / "log.jsonl"
    out = tmp_path / "out"
    out.mkdir()
    (out / "metrics.json").write_text(json.dumps(METRICS_LIKE))
    (out / "comparison.json").write_text(json.dumps(COMPARISON_LIKE))
    with recorded_run(log, "evaluate", {"draws": 200}) as rec:
        rec.run_id = "evaluate-000000000001"
        rec.add_outputs(out)
        rec.results = {"metrics": str((out / "metrics.json").resolve()),
                       "comparison": str((out / "comparison.json").resolve())}
    rows = [Row(f"C-001-{i:02d}", text) for i, text in enumerate(sentences, 1)]
    got = suggest(rows, run_values(read_records(log), log))
    return [s.best.value.key if s.status == "bound" else None for s in got if "." in s.claimed]


def test_a_change_between_runs_binds_only_their_logged_difference(tmp_path):
    assert _best_keys(tmp_path,
                      "The dense run improves P@1 by 0.333 over BM25.",          # its own value: never
                      "The dense run changes P@1 by -0.333 against BM25.",       # the pair's difference
                      "BM25 changes P@1 by -0.333 against the dense run.",       # baseline dense: the pair is dense − BM25
                      "The dense run reaches a P@1 of 0.333.",                   # an absolute value
                      "Fusion lifts the dense run's P@1 to 0.333.",              # "to": the new value
                      "The dense run drops P@1 against BM25, reaching 0.333.") == [  # "reaching": its value
        None, "pairs.dense-minus-bm25.P@1.difference", None, "runs.dense.macro.P@1", "runs.dense.macro.P@1",
        "runs.dense.macro.P@1"]


def test_a_statistic_of_a_measure_binds_only_when_the_sentence_names_it(tmp_path):
    assert _best_keys(tmp_path,
                      "The pair's P@1 is 1.00.",                                 # the P of P@1 is no p-value
                      "The dense run's P@1 difference has a randomisation p of 1.00.",
                      "The confidence interval of the dense run's P@1 has a lower bound of -1.00.") == [
        None, "pairs.dense-minus-bm25.P@1.randomisation_p", "pairs.dense-minus-bm25.P@1.ci_low"]


def test_a_cutoffs_digit_names_no_topic(tmp_path):
    assert _best_keys(tmp_path,
                      "On our three topics, BM25 reaches a P@1 of 1.00.",        # the 1 of P@1 is no topic 1
                      "On topic 1, BM25 reaches a P@1 of 1.00.",
                      "On topic 3, BM25 reaches a P@1 of 1.00.") == [            # topic 3's is 0.0
        None, "runs.bm25.per_topic.1.P@1", None]


def test_ndcg_is_bound_by_the_convention_its_spelling_names(tmp_path):
    from claims.suggest import _ndcg_convention, read_number

    assert [_ndcg_convention(k) for k in ("nDCG@10", "ndcg@3", "nDCG(dcg='exp-log2')@10", "NDCG@3", "P@1")] == [
        "linear", "exponential", "exponential", None, None]
    assert [read_number(t, t.index("0."), 0).ndcg_convention for t in (
        "nDCG@10 of 0.7", "ndcg@10 of 0.7", "NDCG@10 of 0.7", "nDCG@10 and ndcg@10 of 0.7")] == [
        "linear", "exponential", None, None]
    assert _best_keys(tmp_path,
                      "Run x reaches an nDCG@10 of 0.684.",   # ir_measures' name: the linear one, 0.733
                      "Run x reaches an nDCG@10 of 0.733.",
                      "Run x reaches an ndcg@10 of 0.684.",   # the sandbox's name: the exponential one
                      "Run x reaches an NDCG@10 of 0.684.") == [  # no convention named, both logged: never
        None, "runs.x.macro.nDCG@10", "runs.x.macro.ndcg@10", None]
