"""Min–max fusion: normalisation per list, edge cases, union candidate set, tie order."""

from __future__ import annotations

import pytest

from engine.retrieval.fusion import fuse, min_max_normalise


def test_min_max_maps_max_to_one_and_min_to_zero():
    norm = min_max_normalise([("a", 8.0), ("b", 6.0), ("c", 4.0)])
    assert norm == {"a": 1.0, "b": 0.5, "c": 0.0}


def test_all_equal_list_normalises_to_zero():
    assert min_max_normalise([("a", 0.7), ("b", 0.7)]) == {"a": 0.0, "b": 0.0}
    assert min_max_normalise([("a", 3.0)]) == {"a": 0.0}      # one document: no spread
    assert min_max_normalise([]) == {}


def test_missing_document_gets_zero_for_that_component():
    bm25 = [("a", 10.0), ("b", 5.0), ("c", 0.0)]
    supplied = [("d", 0.9), ("a", 0.5), ("e", 0.1)]
    fused = dict(fuse(bm25, supplied, alpha=0.55))
    assert set(fused) == {"a", "b", "c", "d", "e"}                 # union of both lists
    assert fused["a"] == pytest.approx(0.55 * 1.0 + 0.45 * 0.5)
    assert fused["b"] == pytest.approx(0.55 * 0.5)                 # absent from supplied → 0
    assert fused["d"] == pytest.approx(0.45 * 1.0)                 # absent from BM25 → 0
    assert fused["c"] == 0.0 and fused["e"] == 0.0


def test_order_and_ties():
    fused = fuse([("b", 2.0), ("a", 1.0)], [("a", 2.0), ("b", 1.0)], alpha=0.5)
    assert fused == [("a", 0.5), ("b", 0.5)]                      # tie → doc id ascending
    fused = fuse([("x", 3.0), ("y", 1.0)], [("y", 1.0), ("x", 0.0)], alpha=0.25)
    assert [d for d, _ in fused] == ["y", "x"]


def test_alpha_extremes_reproduce_one_component():
    bm25 = [("a", 3.0), ("b", 2.0), ("c", 1.0)]
    supplied = [("c", 0.9), ("b", 0.8), ("a", 0.1)]
    assert [d for d, _ in fuse(bm25, supplied, 1.0)] == ["a", "b", "c"]
    assert [d for d, _ in fuse(bm25, supplied, 0.0)] == ["c", "b", "a"]
    with pytest.raises(ValueError):
        fuse(bm25, supplied, 1.5)


def test_equal_list_contributes_nothing():
    fused = dict(fuse([("a", 5.0), ("b", 5.0)], [("a", 0.2), ("b", 0.6)], alpha=0.9))
    assert fused == {"a": 0.0, "b": pytest.approx(0.1)}
