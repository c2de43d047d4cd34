"""ir_measures' parameterised names in claims/meaning.py: keys (``key_metric``) and prose
(``mentions``), hand-decided."""

from __future__ import annotations

from claims.meaning import Metric, key_metric, mentions, meaning_conflict, parameter_spans, without_measures


def test_key_metric_reads_ir_measures_parameters():
    assert [key_metric(k) for k in (
        "runs.a.macro.nDCG(dcg='exp-log2')@10", "runs.a.macro.nDCG@10", "runs.a.macro.P(rel=2)@5",
        "runs.a.macro.AP(rel=3)", "pairs.b-minus-a.nDCG(dcg='exp-log2')@3.t_test_df", "runs.a.macro.tasks")] == [
        Metric("ndcg", 10), Metric("ndcg", 10), Metric("precision", 5, 2), Metric("ap", None, 3),
        Metric("ndcg", 3), None]


def test_prose_names_the_gain_and_the_level():
    text = "nDCG(dcg='exp-log2')@10 of 0.7, nDCG@10 of 0.8, ndcg@3 of 0.6, NDCG@3 of 0.5, P(rel=2)@5 of 0.4"
    assert [m for _, m in mentions(text)] == [
        Metric("ndcg", 10, 1, "exponential"), Metric("ndcg", 10, 1, "linear"), Metric("ndcg", 3, 1, "exponential"),
        Metric("ndcg", 3), Metric("precision", 5, 2)]
    # the 2 of (rel=2) is a parameter: blanked with its measure, and no printed value
    assert [text[a:b] for a, b in parameter_spans(text)] == ["(dcg='exp-log2')", "(rel=2)"]
    assert "rel" not in without_measures(text) and "exp" not in without_measures(text)


def test_a_relevance_level_rules_out_a_key_of_another_level():
    def conflict(key: str, said: Metric) -> str | None:
        return meaning_conflict(key, (), "0.4", said, "", frozenset())

    assert conflict("runs.a.macro.P(rel=2)@5", Metric("precision", 5)) == (
        "the sentence names relevance level 1, the key 2")
    assert conflict("runs.a.macro.P@5", Metric("precision", 5, 2)) == (
        "the sentence names relevance level 2, the key 1")
    assert conflict("runs.a.macro.P(rel=2)@5", Metric("precision", 5, 2)) is None
