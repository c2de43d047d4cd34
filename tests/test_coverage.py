"""R03 facets, normaliser, objective and greedy selection on hand-computed cases."""

from __future__ import annotations

import numpy as np
import pytest

from engine.r03.coverage import greedy_select, normalised_scores, objective, pair_cosines


def test_normaliser_divides_by_pool_maximum_and_keeps_all_zero_facet_zero():
    facets = np.array([[1.0, 0, 0], [0, 0, 0], [0, 1.0, 0]])
    docs = np.array([[1.0, 0, 0], [0.6, 0.8, 0], [0, -1.0, 0]])
    ncos = normalised_scores(facets, docs)
    assert ncos.tolist() == [[1.0, 0.6, 0.0], [0.0, 0.0, 0.0], [0.0, 1.0, 0.0]]


def test_normaliser_uses_the_complete_pool_not_a_selection():
    facets = np.array([[0.0, 1.0]])
    pool = np.array([[0.6, 0.8], [1.0, 0.0], [0.0, 1.0]])
    # over the whole pool the maximum is 1.0 (third document), so the first scores 0.8
    assert normalised_scores(facets, pool)[0, 0] == pytest.approx(0.8)
    # normalising on the first document alone would have given 1.0
    assert normalised_scores(facets, pool[:1])[0, 0] == pytest.approx(1.0)


# Toy: facets q = (1,0), r = (0,1) (m = 1, weight 1/2); docs a = (1,0), b = (0.6,0.8), c = (0,1).
# ncos: q -> [1, .6, 0], r -> [0, .8, 1]; positive pair cosines ab .6, ac 0, bc .8.
FACETS = np.array([[1.0, 0.0], [0.0, 1.0]])
DOCS = np.array([[1.0, 0.0], [0.6, 0.8], [0.0, 1.0]])


def toy():
    return normalised_scores(FACETS, DOCS), pair_cosines(DOCS)


def test_objective_on_three_document_toy_with_pair_penalty():
    ncos, pairs = toy()
    assert objective(ncos, pairs, []) == 0.0
    assert objective(ncos, pairs, [1]) == pytest.approx((0.6 + 0.8) / 2)
    assert objective(ncos, pairs, [0, 1]) == pytest.approx((1.0 + 0.8 - 0.6 / 10) / 2)     # 0.87
    assert objective(ncos, pairs, [0, 2]) == pytest.approx((1.0 + 1.0 - 0.0) / 2)          # 1.0
    assert objective(ncos, pairs, [0, 1, 2]) == pytest.approx((2.0 - (0.6 + 0.0 + 0.8) / 10) / 2)  # 0.93
    # fsum: the value of a set does not depend on the order of its members
    assert objective(ncos, pairs, [2, 0, 1]) == objective(ncos, pairs, [0, 1, 2])


def test_greedy_follows_marginal_gains():
    ncos, pairs = toy()
    steps = greedy_select(ncos, pairs, [10, 20, 30], budget=3)
    # step 1: F(b) = .7 beats F(a) = F(c) = .5; step 2: F(b,a) = .87 beats F(b,c) = .76
    assert [s.doc_id for s in steps] == [20, 10, 30]
    assert steps[0].gain == pytest.approx(0.7)
    assert steps[1].gain == pytest.approx(0.87 - 0.7)
    assert steps[2].objective == pytest.approx(0.93)


def test_exact_tie_chooses_smaller_checked_id_not_pool_position():
    facets = np.array([[1.0, 0.0], [0.0, 1.0]])
    docs = np.array([[1.0, 0.0], [1.0, 0.0], [0.0, 1.0], [0.0, 1.0], [0.6, 0.8]])
    ncos, pairs = normalised_scores(facets, docs), pair_cosines(docs)
    steps = greedy_select(ncos, pairs, [9, 4, 8, 3, 7], budget=5)
    # step 1: 7 (0.7) beats the tied 0.5 of 9, 4, 8, 3; step 2: 9 and 4 tie at (0.4 - 0.06)/2 -> 4;
    # step 3: 8 and 3 tie (0.8 in the pair penalty with 7, 0 with 4) -> 3; then 9 (penalty 1.6) before 8 (1.8)
    assert [s.doc_id for s in steps] == [7, 4, 3, 9, 8]
    assert steps[1].gain == pytest.approx((0.4 - 0.06) / 2)


def test_pool_smaller_than_budget_is_rejected():
    ncos, pairs = toy()
    with pytest.raises(ValueError, match="fewer than the budget of 5"):
        greedy_select(ncos, pairs, [1, 2, 3])
