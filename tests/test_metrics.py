"""Hand-computed Recall/NDCG cases, including the W03 per-topic figures."""

from __future__ import annotations

import math

import pytest

from engine.retrieval.metrics import dcg, macro_mean, ndcg_at_k, recall_at_k

T01 = {"D-001": 3.0, "D-002": 2.0}
T02 = {"D-003": 3.0, "D-004": 2.0}
T03 = {"D-005": 3.0, "D-006": 2.0, "D-010": 1.0}


def test_dcg_by_hand():
    # (2^3-1)/log2(2) + (2^2-1)/log2(3) = 7 + 3/1.5849625
    assert dcg([3, 2]) == pytest.approx(7 + 3 / math.log2(3), abs=1e-15)


@pytest.mark.parametrize("ranking, judged, expected", [
    (["D-001", "D-004", "D-002"], T01, 0.955831),
    (["D-009", "D-003", "D-004"], T02, 0.665315),
    (["D-005", "D-006", "D-008"], T03, 0.946768),
])
def test_w03_bm25_per_topic_ndcg(ranking, judged, expected):
    assert round(ndcg_at_k(ranking, judged, 3), 6) == expected


def test_ideal_uses_all_judged_grades_not_only_retrieved():
    # only D-005 retrieved; the ideal still counts 3, 2, 1
    ideal = 7 + 3 / math.log2(3) + 1 / 2
    assert ndcg_at_k(["D-005"], T03, 3) == pytest.approx(7 / ideal, abs=1e-15)


def test_recall_and_macro():
    assert recall_at_k(["D-005", "D-006", "D-008"], T03, 3) == pytest.approx(2 / 3)
    assert round(macro_mean([1.0, 1.0, 2 / 3]), 6) == 0.888889
    assert ndcg_at_k(["X"], {"X": 0.0}, 3) == 0.0
    assert recall_at_k(["A"], {}, 3) == 0.0


def test_non_integer_grade_gain():
    # mean grade 2.5 → gain 2^2.5 - 1
    assert ndcg_at_k(["a", "b"], {"a": 2.5, "b": 3.0}, 2) == pytest.approx(
        ((2 ** 2.5 - 1) + 7 / math.log2(3)) / (7 + (2 ** 2.5 - 1) / math.log2(3)))
