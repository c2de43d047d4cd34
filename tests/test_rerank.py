"""The fixed-set reranker: coverage feature, interpolation, and no document ever enters."""

from __future__ import annotations

import pytest

import engine.retrieval.rerank as rerank_module
from engine.retrieval.rerank import coverage, rerank

DOCS = {"a": {"x", "y"}, "b": {"x"}, "c": {"z", "x", "y", "w"}, "d": {"w"}, "e": {"x", "y", "z"}}


def test_coverage_counts_distinct_query_tokens():
    assert coverage(["x", "y", "x"], {"x"}) == 0.5           # distinct {x, y}; x present
    assert coverage(["x", "y"], {"x", "y", "q"}) == 1.0
    assert coverage(["q"], {"x"}) == 0.0
    assert coverage([], {"x"}) == 0.0


def test_rerank_interpolates_and_reorders_within_depth():
    hybrid = [("a", 0.9), ("b", 0.8), ("d", 0.7), ("e", 0.2), ("c", 0.05)]
    out = rerank(hybrid, ["x", "y", "z"], DOCS, depth=4, weight=0.5)
    expected = {"a": 0.5 * 0.9 + 0.5 * 2 / 3, "b": 0.5 * 0.8 + 0.5 / 3,
                "d": 0.5 * 0.7, "e": 0.5 * 0.2 + 0.5}
    assert dict(out) == pytest.approx(expected)
    assert [d for d, _ in out] == ["a", "e", "b", "d"]        # e rises from 4th to 2nd
    assert "c" not in dict(out)       # full coverage, but below the depth: never enters


def test_reranker_never_admits_a_document():
    hybrid = [("b", 0.9), ("d", 0.8)]
    out = rerank(hybrid, ["x", "y", "z"], DOCS, depth=5, weight=1.0)
    assert {d for d, _ in out} == {"b", "d"}


def test_weight_zero_keeps_hybrid_order_and_ties_by_doc_id():
    hybrid = [("b", 0.5), ("a", 0.5), ("c", 0.4)]
    assert [d for d, _ in rerank(hybrid, ["x"], DOCS, 3, 0.0)] == ["a", "b", "c"]


def test_set_check_fires_if_ordering_changes_the_set(monkeypatch):
    monkeypatch.setattr(rerank_module, "order_by_score",
                        lambda scores: sorted(scores.items()) + [("intruder", 1.0)])
    with pytest.raises(AssertionError, match="candidate set"):
        rerank([("a", 0.9)], ["x"], DOCS, 1, 0.5)


def test_bad_parameters():
    with pytest.raises(ValueError):
        rerank([("a", 1.0)], ["x"], DOCS, 0, 0.5)
    with pytest.raises(ValueError):
        rerank([("a", 1.0)], ["x"], DOCS, 1, 1.5)
