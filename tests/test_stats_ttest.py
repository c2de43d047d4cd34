"""The paired t-test and the corrections against scipy (and Holm by hand), to 1e-9."""

from __future__ import annotations

import math

import numpy as np
import pytest

from engine.stats.corrections import bonferroni, holm
from engine.stats.ttest import paired_t_test, regularised_incomplete_beta, two_sided_p

scipy_stats = pytest.importorskip("scipy.stats")


@pytest.mark.parametrize("n, seed, shift", [(2, 1, 0.3), (3, 2, 0.0), (10, 3, 0.1), (50, 4, 0.02), (1000, 5, 0.001),
                                            (7, 6, 5.0), (30, 7, -0.2)])
def test_paired_t_test_equals_scipy_ttest_rel(n, seed, shift):
    rng = np.random.default_rng(seed)
    base = rng.uniform(size=n)
    other = np.clip(base + shift + rng.normal(scale=0.1, size=n), 0, 1)
    ours = paired_t_test(other - base)
    theirs = scipy_stats.ttest_rel(other, base)
    assert ours.t == pytest.approx(float(theirs.statistic), rel=1e-9, abs=1e-12)
    assert ours.p == pytest.approx(float(theirs.pvalue), rel=1e-9, abs=1e-12)
    assert ours.df == n - 1


@pytest.mark.parametrize("t, df", [(0.0, 1), (1.0, 1), (2.5, 3), (10.0, 5), (40.0, 2), (3.3, 200), (0.01, 10_000)])
def test_two_sided_p_equals_scipy(t, df):
    assert two_sided_p(t, df) == pytest.approx(2 * scipy_stats.t.sf(t, df), rel=1e-9, abs=1e-15)


def test_incomplete_beta_by_hand():
    # I_x(1, 1) = x; I_x(a, 1) = x^a
    assert regularised_incomplete_beta(1.0, 1.0, 0.3) == pytest.approx(0.3, abs=1e-15)
    assert regularised_incomplete_beta(2.5, 1.0, 0.4) == pytest.approx(0.4 ** 2.5, abs=1e-14)


def test_t_test_by_hand_and_undefined_cases():
    # d = (1, 2, 3): mean 2, sd 1, t = 2 / (1/sqrt 3) = 2 sqrt 3, df 2: p = 1 - 2 sqrt3/sqrt(4+12)·…
    result = paired_t_test(np.array([1.0, 2.0, 3.0]))
    assert result.t == pytest.approx(2 * math.sqrt(3), abs=1e-12)
    # df = 2: P(|T| >= t) = 1 - t / sqrt(2 + t²)
    assert result.p == pytest.approx(1 - result.t / math.sqrt(2 + result.t ** 2), abs=1e-12)
    assert paired_t_test(np.array([0.5])).p is None
    undefined = paired_t_test(np.array([0.2, 0.2, 0.2]))
    assert undefined.p is None and undefined.t is None and "do not vary" in undefined.reason


def test_holm_and_bonferroni_by_hand():
    p = [0.01, 0.04, 0.03, 0.005]
    # sorted: 0.005 (×4 = 0.02), 0.01 (×3 = 0.03), 0.03 (×2 = 0.06), 0.04 (×1 = 0.04 → max 0.06)
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02], abs=1e-15)
    assert bonferroni(p) == pytest.approx([0.04, 0.16, 0.12, 0.02], abs=1e-15)
    assert holm([0.5, 0.9]) == [1.0, 1.0]
    assert holm([None, 0.02, 0.03]) == [None, 0.04, 0.04]
    assert bonferroni([None, 0.3]) == [None, 0.3]


def test_holm_equals_the_statsmodels_procedure_on_random_p_values():
    rng = np.random.default_rng(9)
    for _ in range(50):
        p = rng.uniform(0, 0.2, size=int(rng.integers(1, 9))).tolist()
        m = len(p)
        order = np.argsort(p, kind="stable")
        expected = np.empty(m)
        running = 0.0
        for rank, i in enumerate(order):      # statsmodels' multipletests(method="holm"), written out
            running = max(running, min(1.0, (m - rank) * p[i]))
            expected[i] = running
        assert holm(p) == pytest.approx(expected.tolist(), abs=1e-15)
