"""Benchmark the R03 oracle enumeration and the paired bootstrap.

Goals (issue 4): oracle enumeration >= 2 million five-document subsets per second
(C(40,5) = 658,008 well under a second); bootstrap of 48 tasks x 4 contrasts x 10,000 draws
(both metrics) in < 0.5 s. Synthetic pools: random agreed labels over 4 requirements and
grades in {0, 0.5, ..., 3}. Prints best-of-N wall times.

Usage: python bench/bench_r03.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from engine.stats.bootstrap import paired_bootstrap
from engine.r03.oracle import oracle_select
from engine.r03.pipeline import CONTRASTS


def best_time(func, repeats: int) -> float:
    best = math.inf
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print("oracle enumeration (best of %d)" % args.repeats)
    for n in (15, 25, 40):
        pool = list(range(1000, 1000 + n))
        agreed = {d: sorted(rng.choice(np.arange(1, 5), size=rng.integers(0, 3), replace=False).tolist()) for d in pool}
        grades = {d: float(rng.integers(0, 7)) / 2 for d in pool}
        seconds = best_time(lambda: oracle_select(pool, agreed, grades), args.repeats)
        subsets = math.comb(n, 5)
        print(f"  pool {n:>2}: {subsets:>9,} subsets in {seconds:.4f} s = {subsets / seconds / 1e6:6.2f} M subsets/s "
              f"(goal >= 2.00 M/s: {'met' if subsets / seconds >= 2e6 else 'NOT met'})")
    tasks = 48
    methods = ("dense", "typed", "coverage", "oracle")
    values = {metric: {m: rng.random(tasks).tolist() for m in methods} for metric in ("ndcg", "coverage")}
    seconds = best_time(lambda: paired_bootstrap(values, CONTRASTS, draws=10_000, seed=129300), args.repeats)
    print(f"bootstrap: {tasks} tasks x {len(CONTRASTS)} contrasts x 2 metrics x 10,000 draws in {seconds:.4f} s "
          f"(goal < 0.5 s: {'met' if seconds < 0.5 else 'NOT met'})")


if __name__ == "__main__":
    main()
