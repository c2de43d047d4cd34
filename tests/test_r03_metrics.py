"""R03 metrics on hand-computed selections."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.r03.benchmark import Judgment
from engine.r03.metrics import (aggregate, case_rows, label_redundancy, mean_pair_cosine,
                                pooled_ndcg, selection_metrics, signed)


def J(grade_a, grade_b, ob_a=(), ob_b=()):
    return Judgment(float(grade_a), float(grade_b), tuple(ob_a), tuple(ob_b))


JUDGED = {
    1: J(3, 3, [1, 4], [1, 4]),
    2: J(3, 2, [1, 2, 4], [1, 2]),     # agreed {1, 2}
    3: J(1, 1, [3], []),               # no agreement
    4: J(0, 0),
    5: J(2, 3, [4], [4]),
    6: J(1, 2),
}


def test_agreed_labels_are_per_document_intersections():
    assert JUDGED[2].agreed == (1, 2)
    assert JUDGED[3].agreed == ()
    assert JUDGED[2].mean_grade == 2.5


def test_redundancy_zero_without_assignments_and_hand_value():
    assert label_redundancy([3, 4, 6, 7, 8], JUDGED) == 0.0
    # assignments: {1,4} + {1,2} + {4} = 5, union {1,2,4} = 3 -> 2/5
    assert label_redundancy([1, 2, 5, 3, 4], JUDGED) == pytest.approx(0.4)


def test_pooled_ndcg_with_unjudged_member_and_ideal_over_whole_pool():
    sel = [9, 1, 3, 4, 6]  # 9 is an unjudged pool member: gain 0
    gains = [0, 2**3 - 1, 2**1 - 1, 0, 2**1.5 - 1]
    dcg = sum(g / math.log2(r + 2) for r, g in enumerate(gains))
    ideal_grades = sorted([3, 2.5, 1, 0, 2.5, 1.5], reverse=True)[:5]
    idcg = sum((2**g - 1) / math.log2(r + 2) for r, g in enumerate(ideal_grades))
    assert pooled_ndcg(sel, JUDGED) == pytest.approx(dcg / idcg)


def test_mean_pair_cosine_clips_negatives():
    v = {1: np.array([1.0, 0.0]), 2: np.array([0.0, 1.0]), 3: np.array([-1.0, 0.0]),
         4: np.array([0.6, 0.8]), 5: np.array([0.8, 0.6])}
    pairs = [0, 0, .6, .8, 0, .8, .6, 0, 0, .96]  # 12 13 14 15 23 24 25 34 35 45
    assert mean_pair_cosine([1, 2, 3, 4, 5], v) == pytest.approx(sum(pairs) / 10)


def test_selection_metrics_coverage_lost_gained():
    vecs = {d: np.eye(9)[d] for d in range(1, 9)}
    dense = [1, 3, 4, 6, 7]          # union {1, 4}
    ours = [2, 5, 3, 4, 6]           # union {1, 2, 4}
    m = selection_metrics(ours, JUDGED, 4, vecs, dense)
    assert m["coverage@5"] == 0.75
    assert (m["lost_vs_dense"], m["gained_vs_dense"]) == (0, 1)
    assert m["docs_without_agreed"] == 3
    assert m["mean_pair_cosine"] == 0.0
    other = selection_metrics([3, 4, 6, 7, 8], JUDGED, 4, vecs, dense)
    assert (other["lost_vs_dense"], other["gained_vs_dense"], other["coverage@5"]) == (2, 0, 0.0)


def test_aggregate_sums_lost_gained_and_averages_the_rest():
    rows = [{"ndcg@5": 0.5, "coverage@5": 0.5, "label_redundancy": 0.0, "mean_pair_cosine": 0.2,
             "docs_without_agreed": 2, "lost_vs_dense": 1, "gained_vs_dense": 2},
            {"ndcg@5": 1.0, "coverage@5": 0.75, "label_redundancy": 0.5, "mean_pair_cosine": 0.4,
             "docs_without_agreed": 3, "lost_vs_dense": 0, "gained_vs_dense": 3}]
    agg = aggregate(rows)
    assert agg["ndcg@5"] == 0.75 and agg["coverage@5"] == 0.625 and agg["docs_without_agreed"] == 2.5
    assert agg["lost_vs_dense"] == 1 and agg["gained_vs_dense"] == 5


def test_case_rows_new_requirements_at_rank():
    rows = case_rows([2, 1, 5, 3, 4], JUDGED, {})
    assert [r["agreed"] for r in rows] == [[1, 2], [1, 4], [4], [], []]
    assert [r["new"] for r in rows] == [[1, 2], [4], [], [], []]


def test_signed_format():
    assert signed(-0.00001) == "+0.0000" and signed(0.0260) == "+0.0260" and signed(-0.0878) == "-0.0878"
