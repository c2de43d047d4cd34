"""The labelled oracle: vectorised enumeration checked against brute force and the seed."""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest

from engine.r03.oracle import combination_index, oracle_select, popcount


def brute_force(pool, agreed, grades, k=5):
    def key(subset):
        covered = set().union(*(agreed.get(d, ()) for d in subset))
        ordered = sorted(subset, key=lambda d: (-grades.get(d, 0.0), d))
        dcg = 0.0
        for rank, d in enumerate(ordered):
            dcg += (2.0 ** grades.get(d, 0.0) - 1.0) / math.log2(rank + 2)
        return (-len(covered), -round(dcg, 12), tuple(sorted(subset)))

    best = min(itertools.combinations(pool, k), key=key)
    return sorted(best, key=lambda d: (-grades.get(d, 0.0), d)), -key(best)[0]


@pytest.mark.parametrize("n,k", [(5, 5), (6, 2), (10, 5), (15, 5), (7, 3), (3, 5), (4, 1)])
def test_combination_index_matches_itertools(n, k):
    expected = np.array(list(itertools.combinations(range(n), k)), dtype=np.int32).reshape(-1, k)
    assert np.array_equal(combination_index(n, k), expected)


def test_popcount():
    assert popcount(np.array([0, 1, 3, 2**62 + 7], dtype=np.uint64)).tolist() == [0, 1, 2, 4]


@pytest.mark.parametrize("trial", range(30))
def test_oracle_matches_brute_force_on_small_random_pools(trial):
    rng = random.Random(trial)
    n = rng.randint(5, 9)
    pool = rng.sample(range(1, 60), n)
    grades = {d: rng.choice([0, 0.5, 1, 2, 3]) for d in pool if rng.random() < 0.9}
    agreed = {d: sorted(rng.sample(range(1, 5), rng.randint(0, 2))) for d in pool}
    result = oracle_select(pool, agreed, grades)
    expected, covered = brute_force(pool, agreed, grades)
    assert result.selection == expected
    assert result.covered == covered
    assert result.subsets_enumerated == math.comb(n, 5)


def test_ties_fall_to_lexicographically_smaller_sorted_ids():
    pool = [50, 40, 30, 20, 10, 60]
    grades = {d: 1.0 for d in pool}
    result = oracle_select(pool, {}, grades)
    assert result.selection == [10, 20, 30, 40, 50]
    assert result.covered == 0 and result.attainable == 0


def test_seed_a21_pool_gives_the_published_oracle():
    # Seed 000, A21 (grades, agreed requirements as published)
    docs = {147: (0, []), 2750: (0, []), 3426: (2, [4]), 3428: (2.5, [3, 4]), 3429: (3, [4]),
            3449: (3, [1, 4]), 3450: (0, []), 3460: (1, []), 3472: (1, []), 3475: (1, []),
            3478: (0, []), 4189: (1, []), 4288: (0, []), 4684: (3, [1, 2, 4]), 4699: (1, [])}
    result = oracle_select(list(docs), {d: v[1] for d, v in docs.items()}, {d: v[0] for d, v in docs.items()})
    assert result.selection == [3429, 3449, 4684, 3428, 3426]
    assert result.subsets_enumerated == 3003
    assert result.covered == 4 and result.attainable == 4


def test_huge_grades_are_scaled_not_overflowed():
    """Issue 21: 2.0 ** 1101 overflows a float; the gains are scaled by 2**-M (M = 1101), a common
    factor, so the choice is the one of the same grades shifted down by 1000 (hand-checked:
    with no coverage anywhere the five largest grades win, doc 5 (1096) is left out; giving
    doc 5 the only requirement makes coverage win, and the smallest other grade, doc 4, goes)."""
    pool = [1, 2, 3, 4, 5, 6]
    huge = {1: 1100.0, 2: 1099.0, 3: 1098.0, 4: 1097.0, 5: 1096.0, 6: 1101.0}
    with pytest.raises(OverflowError):
        2.0 ** huge[6]
    result = oracle_select(pool, {}, huge)
    assert result.selection == [6, 1, 2, 3, 4]
    shifted = {d: g - 1000.0 for d, g in huge.items()}
    assert oracle_select(pool, {}, shifted).selection == result.selection
    covered = oracle_select(pool, {5: [1]}, huge)
    assert covered.selection == [6, 1, 2, 3, 5] and covered.covered == 1
    assert oracle_select(pool, {5: [1]}, {d: 5000.0 + g for d, g in shifted.items()}).selection == [6, 1, 2, 3, 5]
