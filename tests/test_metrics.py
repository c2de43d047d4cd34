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


@pytest.mark.parametrize("top", [1023.5, 1100.0, 5000.0, 1e300])
def test_huge_grades_give_a_number_not_nan_or_overflow(top):
    # grades top and top - 1, listed worst first: (2^(top-1) - 1)/1 + (2^top - 1)/log2 3 over the
    # ideal, i.e. (1/2 + 1/log2 3) / (1 + 1/(2 log2 3)) up to 2^-top (exact for top - 1 != top)
    judged = {"a": top, "b": top - 1.0}
    value = ndcg_at_k(["b", "a"], judged, 2)
    assert math.isfinite(value)
    if top - 1.0 != top:
        assert value == pytest.approx((0.5 + 1 / math.log2(3)) / (1 + 0.5 / math.log2(3)), abs=1e-12)
    else:  # 1e300 - 1 == 1e300: two equal grades, an ideal order
        assert value == pytest.approx(1.0, abs=1e-12)
    assert ndcg_at_k(["a", "b"], judged, 2) == pytest.approx(1.0, abs=1e-12)


def test_measures_scale_huge_grades_linear_and_exponential():
    import numpy as np

    from engine.retrieval.measures import JudgedHits, evaluate_hits, parse_measures, topic_judgments

    stats = topic_judgments([{"a": 1100.0, "b": 1099.0}, {"c": 1e308, "d": 1e308}])
    hits = JudgedHits(np.array([0, 0, 1, 1]), np.array([1, 2, 1, 2]), np.array([1099.0, 1100.0, 1e308, 1e308]),
                      np.array([2, 2]))
    values = evaluate_hits(parse_measures("nDCG@2,nDCG(dcg='exp-log2')@2,ndcg@2"), hits, stats)
    linear = (1099 + 1100 / math.log2(3)) / (1100 + 1099 / math.log2(3))
    assert values["nDCG@2"].tolist() == pytest.approx([linear, 1.0], abs=1e-12)
    exp = (0.5 + 1 / math.log2(3)) / (1 + 0.5 / math.log2(3))
    assert values["nDCG(dcg='exp-log2')@2"].tolist() == pytest.approx([exp, 1.0], abs=1e-12)
    assert values["ndcg@2"].tolist() == values["nDCG(dcg='exp-log2')@2"].tolist()
