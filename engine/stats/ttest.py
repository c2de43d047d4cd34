"""Paired Student t-test on per-topic differences (two-sided), with our own t distribution.

Method: Student (1908), "The probable error of a mean", Biometrika 6(1); for IR evaluation as
in Smucker, Allan & Carterette (2007), CIKM '07. For differences ``d_1 … d_T`` of two systems
on the same topics:

    t = mean(d) / (sd(d) / sqrt(T)),   sd with the T − 1 denominator,   df = T − 1
    p = P(|T_df| >= |t|) = I_{df / (df + t²)}(df / 2, 1 / 2)

where ``I_x(a, b)`` is the regularised incomplete beta function, evaluated by its continued
fraction (modified Lentz's method; Press et al., "Numerical Recipes", 3rd ed., §6.4) on the
side where it converges, with ``math.lgamma`` for the beta function. This is what
``scipy.stats.ttest_rel`` computes (tests/test_stats_ttest.py agrees to 1e-9); it is ours so that
the runtime does not depend on scipy (README "Dependencies").

Undefined cases are refused as numbers, never written as NaN: fewer than two topics, or
differences that do not vary (sd = 0), give ``None`` with the reason (:func:`paired_t_test`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

_EPS = 1e-16
_TINY = 1e-300
_MAX_ITERATIONS = 10_000


@dataclass(frozen=True)
class TTest:
    """``t`` and the two-sided ``p`` (None when undefined, with ``reason``), and ``df``."""

    t: float | None
    p: float | None
    df: int
    reason: str = ""


def _beta_continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of ``I_x(a, b)`` (Numerical Recipes ``betacf``, modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _TINY else _TINY)
    h = d
    for m in range(1, _MAX_ITERATIONS + 1):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _TINY else _TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _TINY else _TINY
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            return h
    raise ArithmeticError("incomplete beta: continued fraction did not converge")  # pragma: no cover


def regularised_incomplete_beta(a: float, b: float, x: float) -> float:
    """``I_x(a, b)`` for a, b > 0 and 0 <= x <= 1."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    front = math.exp(log_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_continued_fraction(a, b, x) / a
    return 1.0 - front * _beta_continued_fraction(b, a, 1.0 - x) / b


def two_sided_p(t: float, df: int) -> float:
    """``P(|T_df| >= |t|)`` for Student's t with ``df`` degrees of freedom."""
    if math.isinf(t):
        return 0.0
    return regularised_incomplete_beta(df / 2.0, 0.5, df / (df + t * t))


def paired_t_test(diff: np.ndarray) -> TTest:
    """Two-sided paired t-test of ``mean(diff) = 0`` over topics (``diff`` = run − baseline)."""
    values = np.asarray(diff, dtype=np.float64)
    n = int(values.size)
    if n < 2:
        return TTest(None, None, max(n - 1, 0), "undefined: fewer than two topics")
    mean = math.fsum(values.tolist()) / n
    sd = math.sqrt(math.fsum(((values - mean) ** 2).tolist()) / (n - 1))
    if sd == 0.0 or sd < abs(mean) * 1e-15:
        return TTest(None, None, n - 1, "undefined: the per-topic differences do not vary")
    t = mean / (sd / math.sqrt(n))
    return TTest(t, two_sided_p(t, n - 1), n - 1)
