"""Paired percentile bootstrap over tasks (seed 003 ``statistics``; seed 000 paired-effect tables).

Shared by ``engine.r03`` (R03 contrasts) and ``engine.retrieval.evaluate`` (paired run comparison).

Exactly how the draws are made (so anyone can reproduce them):

* the tasks of a subset are put in ascending ``task_id`` order (``T`` of them);
* ``rng = numpy.random.default_rng(seed)`` is created afresh *for each subset*;
* one index matrix ``idx = rng.integers(0, T, size=(draws, T))`` is drawn (row ``b`` is
  bootstrap sample ``b``: ``T`` task positions drawn with replacement);
* the same ``idx`` is used for every contrast and every metric of the subset, so all
  contrasts are paired on the same resampled tasks;
* for a contrast ``a − b`` with per-task differences ``diff = a − b`` (length ``T``), the
  bootstrap statistic is ``diff[idx].mean(axis=1)`` (one mean per draw);
* the interval is the percentile interval ``numpy.percentile(stat, [2.5, 97.5],
  method="linear")`` (numpy's default linear interpolation between order statistics);
* the reported point estimate is the plain mean difference over the ``T`` tasks (not the
  bootstrap mean).

No p-values are computed here (``engine.stats.randomisation`` gives a paired randomisation
test). ``[mean, lo, hi]`` is returned as plain floats. :func:`blocked_intervals` draws the same
index matrix in blocks of rows, so that many topics need no ``(draws, T)`` matrix in memory; it
returns exactly what :func:`interval` returns on the whole matrix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

DEFAULT_DRAWS = 10_000
DEFAULT_SEED = 129_300
LEVEL = 0.95
PERCENTILE_METHOD = "linear"


def index_matrix(n_tasks: int, draws: int = DEFAULT_DRAWS, seed: int = DEFAULT_SEED) -> np.ndarray:
    """The shared ``(draws, n_tasks)`` matrix of resampled task positions (see module docstring)."""
    if n_tasks < 1:
        raise ValueError("bootstrap needs at least one task")
    if draws < 1:
        raise ValueError("bootstrap needs at least one draw")
    rng = np.random.default_rng(seed)
    return rng.integers(0, n_tasks, size=(draws, n_tasks))


def interval(diff: np.ndarray, idx: np.ndarray) -> list[float]:
    """``[mean difference, lo, hi]`` for one vector of per-task differences and one index matrix."""
    diff = np.asarray(diff, dtype=np.float64)
    stats = diff[idx].mean(axis=1)
    alpha = (1.0 - LEVEL) / 2.0
    lo, hi = np.percentile(stats, [100 * alpha, 100 * (1 - alpha)], method=PERCENTILE_METHOD)
    return [float(diff.mean()), float(lo), float(hi)]


def blocked_intervals(diffs: Sequence[np.ndarray], draws: int = DEFAULT_DRAWS, seed: int = DEFAULT_SEED,
                      block: int = 1_000) -> list[list[float]]:
    """:func:`interval` for several difference vectors sharing one index matrix, drawn in blocks.

    ``rng.integers(0, T, size=(rows, T))`` called block after block yields the rows of
    :func:`index_matrix` in order, so the statistics (and the percentiles) are identical.
    """
    if not diffs:
        return []
    vectors = [np.asarray(d, dtype=np.float64) for d in diffs]
    n_tasks = vectors[0].size
    if n_tasks < 1 or any(v.size != n_tasks for v in vectors):
        raise ValueError("every difference vector needs the same, non-zero number of tasks")
    if draws < 1:
        raise ValueError("bootstrap needs at least one draw")
    rng = np.random.default_rng(seed)
    stats = np.empty((len(vectors), draws), dtype=np.float64)
    done = 0
    while done < draws:
        rows = min(block, draws - done)
        idx = rng.integers(0, n_tasks, size=(rows, n_tasks))
        for i, v in enumerate(vectors):
            stats[i, done:done + rows] = v[idx].mean(axis=1)
        done += rows
    alpha = (1.0 - LEVEL) / 2.0
    out = []
    for i, v in enumerate(vectors):
        lo, hi = np.percentile(stats[i], [100 * alpha, 100 * (1 - alpha)], method=PERCENTILE_METHOD)
        out.append([float(v.mean()), float(lo), float(hi)])
    return out


def paired_bootstrap(values: Mapping[str, Mapping[str, Sequence[float]]],
                     contrasts: Sequence[tuple[str, str, str]],
                     draws: int = DEFAULT_DRAWS, seed: int = DEFAULT_SEED,
                     ) -> dict[str, dict[str, list[float]]]:
    """Paired bootstrap for several contrasts and metrics over one subset of tasks.

    ``values[metric][method]`` is the per-task vector (tasks in ascending id order, same order
    for every method); ``contrasts`` are ``(name, a, b)`` meaning ``a − b``. Returns
    ``{contrast: {metric: [mean, lo, hi]}}``. One index matrix serves every contrast and metric.
    """
    lengths = {len(v) for per_method in values.values() for v in per_method.values()}
    if len(lengths) != 1:
        raise ValueError("every metric and method needs one value per task")
    idx = index_matrix(lengths.pop(), draws, seed)
    out: dict[str, dict[str, list[float]]] = {}
    for name, a, b in contrasts:
        out[name] = {}
        for metric, per_method in values.items():
            diff = np.asarray(per_method[a], dtype=np.float64) - np.asarray(per_method[b], dtype=np.float64)
            out[name][metric] = interval(diff, idx)
    return out
