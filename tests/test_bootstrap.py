"""Paired percentile bootstrap: determinism, pairing, and a hand-checkable case."""

from __future__ import annotations

import numpy as np
import pytest

from engine.stats.bootstrap import index_matrix, interval, paired_bootstrap

CONTRASTS = [("a-minus-b", "a", "b"), ("b-minus-a", "b", "a")]


def values(a, b):
    return {"ndcg": {"a": a, "b": b}, "coverage": {"a": b, "b": a}}


def test_index_matrix_is_the_documented_draw():
    expected = np.random.default_rng(129300).integers(0, 48, size=(10000, 48))
    assert np.array_equal(index_matrix(48), expected)


def test_same_seed_same_result_other_seed_other_result():
    a = [0.1, 0.5, 0.9, 0.3, 0.7]
    b = [0.2, 0.4, 0.6, 0.6, 0.1]
    first = paired_bootstrap(values(a, b), CONTRASTS, draws=2000, seed=7)
    assert first == paired_bootstrap(values(a, b), CONTRASTS, draws=2000, seed=7)
    assert first != paired_bootstrap(values(a, b), CONTRASTS, draws=2000, seed=8)


def test_contrasts_share_one_index_matrix():
    a = [0.1, 0.5, 0.9, 0.3, 0.7]
    b = [0.2, 0.4, 0.6, 0.6, 0.1]
    out = paired_bootstrap(values(a, b), CONTRASTS, draws=999, seed=3)
    mean, lo, hi = out["a-minus-b"]["ndcg"]
    assert out["b-minus-a"]["ndcg"] == pytest.approx([-mean, -hi, -lo])
    # the coverage metric swaps a and b, so with one shared matrix it mirrors ndcg exactly
    assert out["a-minus-b"]["coverage"] == pytest.approx([-mean, -hi, -lo])


def test_hand_checkable_two_task_case():
    diff = np.array([0.0, 1.0])
    idx = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [1, 1]])
    # draw means: 0, .5, .5, 1, 1 -> sorted [0, .5, .5, 1, 1]
    # linear percentile at 2.5%: position 0.025 * 4 = 0.1 -> 0 + 0.1 * (0.5 - 0) = 0.05
    # at 97.5%: position 3.9 -> 1 + 0.9 * (1 - 1) = 1
    assert interval(diff, idx) == pytest.approx([0.5, 0.05, 1.0])


def test_single_task_gives_a_degenerate_interval():
    out = paired_bootstrap({"ndcg": {"a": [0.75], "b": [0.5]}}, [("a-minus-b", "a", "b")], draws=100, seed=1)
    assert out["a-minus-b"]["ndcg"] == [0.25, 0.25, 0.25]


def test_bad_shapes_are_rejected():
    with pytest.raises(ValueError):
        paired_bootstrap({"ndcg": {"a": [1.0, 2.0], "b": [1.0]}}, [("x", "a", "b")])
