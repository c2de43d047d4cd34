"""Paired randomisation (sign-flip) test of a mean difference over topics.

Method: the paired randomisation test of Fisher (1935), as used for IR evaluation by Smucker,
Allan & Carterette (2007), "A comparison of statistical significance tests for information
retrieval evaluation", CIKM '07. Under the null hypothesis that the two systems are
exchangeable on every topic, each per-topic difference is equally likely to have either sign.

Exactly how the draws are made (so anyone can reproduce them):

* ``diff`` is the vector of per-topic differences ``a − b`` (topics in a fixed order);
* ``rng = numpy.random.default_rng(seed)``; signs are drawn in blocks of :data:`BLOCK` rows as
  ``rng.integers(0, 2, size=(rows, T)) * 2 − 1`` (the blocks concatenate to one
  ``(draws, T)`` matrix, independent of the block size);
* statistic of draw ``b``: ``|mean(sign_b · diff)|``; observed statistic ``|mean(diff)|``;
* two-sided p-value with the +1 correction of Phipson & Smyth (2010), "Permutation p-values
  should never be zero": ``p = (1 + #{b : stat_b ≥ observed − 1e-12}) / (1 + draws)``. The small
  tolerance counts draws that equal the observed statistic up to rounding of the mean.

It is a Monte-Carlo estimate of the exact randomisation p-value; it is reported as such
(``randomisation_p``), never as a t-test.
"""

from __future__ import annotations

import numpy as np

DEFAULT_DRAWS = 10_000
DEFAULT_SEED = 129_300
BLOCK = 1_000
TOLERANCE = 1e-12


def randomisation_p(diff: np.ndarray, draws: int = DEFAULT_DRAWS, seed: int = DEFAULT_SEED) -> float:
    """Two-sided Monte-Carlo p-value of the paired sign-flip test for ``mean(diff) = 0``."""
    diff = np.asarray(diff, dtype=np.float64)
    if diff.ndim != 1 or diff.size < 1:
        raise ValueError("the randomisation test needs a non-empty vector of differences")
    if draws < 1:
        raise ValueError("the randomisation test needs at least one draw")
    rng = np.random.default_rng(seed)
    observed = abs(float(diff.mean()))
    at_least = 0
    done = 0
    while done < draws:
        rows = min(BLOCK, draws - done)
        signs = rng.integers(0, 2, size=(rows, diff.size)) * 2 - 1
        stats = np.abs((signs * diff).mean(axis=1))
        at_least += int(np.count_nonzero(stats >= observed - TOLERANCE))
        done += rows
    return (1 + at_least) / (1 + draws)
