"""Benchmark the budgeted selectors: Count, Characters and MMR over many queries at once.

Default workload: 10,000 queries x depth 100 candidates, 384-d L2-normalised float32 unit
vectors (seeded standard normal), unit lengths uniform on [50, 1,500] codepoints, unit cap 3,
allowance 1,200, separator 2. The goal is all 10,000 MMR selections in under one second.

Timed: the batched selector calls of engine.budget.selection on arrays already in memory (lengths
(Q, D), vectors (Q, D, dim)) -- the form engine.budget.run builds before selecting. Data
generation is not timed. Also reported: the per-query path (engine.budget.selection.select, one query
at a time) on a subset, as a ratio, and an agreement check between the two.

    python bench/bench_budget.py [--queries 10000] [--depth 100] [--dim 384] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

from engine.budget.selection import BudgetParams, Candidate, batch_characters, batch_count, batch_mmr, select


def make_data(queries: int, depth: int, dim: int, seed: int):
    rng = np.random.default_rng(seed)
    lengths = rng.integers(50, 1501, size=(queries, depth), dtype=np.int64)
    vectors = rng.standard_normal((queries, depth, dim), dtype=np.float32)
    vectors /= np.linalg.norm(vectors, axis=2, keepdims=True)
    valid = np.ones((queries, depth), dtype=bool)
    ranks = np.broadcast_to(np.arange(1, depth + 1, dtype=np.float64), (queries, depth)).copy()
    # reference order among synthetic ids "d<query>-<rank>": string order, not numeric
    names = [f"d-{r}" for r in range(1, depth + 1)]
    order = sorted(range(depth), key=lambda i: names[i])
    keys = np.empty(depth, dtype=np.int64)
    keys[order] = np.arange(depth)
    tie_keys = np.broadcast_to(keys, (queries, depth)).copy()
    return lengths, valid, ranks, tie_keys, vectors, names


def best_of(repeats: int, fn):
    times, result = [], None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--chunk", type=int, default=128)
    parser.add_argument("--subset", type=int, default=300, help="queries for the per-query comparison")
    parser.add_argument("--seed", type=int, default=15)
    args = parser.parse_args()

    params = BudgetParams()
    print(f"python {platform.python_version()}, numpy {np.__version__}, cpus {os.cpu_count()}")
    print(f"workload: {args.queries:,} queries x depth {args.depth} x {args.dim}-d float32, "
          f"unit cap {params.unit_cap}, allowance {params.char_cap:,}, seed {args.seed}")
    t0 = time.perf_counter()
    lengths, valid, ranks, keys, vectors, names = make_data(args.queries, args.depth, args.dim, args.seed)
    print(f"data generated in {time.perf_counter() - t0:.1f} s (not timed below); "
          f"vectors {vectors.nbytes / 1e9:.2f} GB")

    timings = {}
    timings["count"], count = best_of(args.repeats, lambda: batch_count(lengths, valid, params))
    timings["characters"], chars = best_of(args.repeats, lambda: batch_characters(lengths, valid, params))
    timings["mmr"], mmr = best_of(args.repeats, lambda: batch_mmr(lengths, valid, ranks, keys, vectors, params,
                                                                  chunk=args.chunk))
    for name, seconds in timings.items():
        print(f"{name:<11} {args.queries / seconds:>14,.0f} selections/s   ({seconds:.3f} s for "
              f"{args.queries:,} queries, best of {args.repeats})")
    verdict = "meets" if timings["mmr"] < 1.0 else "MISSES"
    print(f"MMR total: {timings['mmr']:.3f} s for {args.queries:,} selections at depth {args.depth} "
          f"-> {verdict} the < 1 s goal")
    units = (mmr >= 0).sum(axis=1)
    print(f"MMR mean units {units.mean():.3f}; Characters mean units {(chars >= 0).sum(axis=1).mean():.3f}; "
          f"MMR packets differing from Characters: {int((mmr != chars).any(axis=1).sum()):,}")

    # the per-query path (same code, one row at a time) on a subset: ratio and agreement
    n = min(args.subset, args.queries)
    per_query = []
    start = time.perf_counter()
    for q in range(n):
        cands = [Candidate(names[j], j + 1, int(lengths[q, j])) for j in range(args.depth)]
        vecs = {names[j]: vectors[q, j] for j in range(args.depth)}
        per_query.append([c.rank - 1 for c in select("mmr", cands, params, vecs)])
    seconds = time.perf_counter() - start
    batched = [[int(j) for j in row if j >= 0] for row in mmr[:n]]
    print(f"per-query MMR path: {n / seconds:,.0f} selections/s on {n} queries; batched is "
          f"{(args.queries / timings['mmr']) / (n / seconds):.0f}x faster; "
          f"agreement {sum(a == b for a, b in zip(per_query, batched))}/{n}")
    assert count.shape == (args.queries, params.unit_cap)


if __name__ == "__main__":
    main()
