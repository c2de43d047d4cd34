"""Benchmark: `evaluate`'s engine against ranx on the same TREC files, same run.

    python bench/bench_evaluate.py [--topics 10000] [--depth 1000] [--seed 7] [--workdir DIR]

Generates qrels (5–30 judged documents a topic, grades 0–3) and a run of ``--depth`` documents
a topic (scores with ties) as TREC files, then times, for ours and ranx 0.3.x:

* **read + evaluate**: from the two files to the macro values of nDCG@10, R@100, P@10, RR@10
  and AP@1000 (ours: ``read_qrels`` + ``read_run_arrays`` + ``evaluate_runs``; ranx:
  ``Qrels.from_file`` + ``Run.from_file`` + ``evaluate``);
* **evaluate only**: the same measures from data already in memory (ours: coded arrays; ranx:
  its Qrels/Run objects); ranx's numba functions are compiled on a small warm-up first;
* **the CLI**: ``chapter-audit evaluate`` as a user runs it (a fresh process: imports, sha256 of
  the inputs, read, evaluate, metrics.json with per-topic values, the log record), against
  ranx's read + evaluate above.

Measures are paired by definition: our ``nDCG(dcg='exp-log2')`` (gain 2^g − 1) with ranx ``ndcg_burges``, R with
``recall``, P with ``precision``, RR@10 with ``mrr@10``, AP@1000 with ``map@1000``; the macro
values are compared to 1e-9. ranx orders score ties its own way, so ties are broken in the
generated run by tiny distinct offsets (the comparison is of throughput and values, not of tie
rules), and ours runs with ``--ties ours`` (doubles: the offsets are below single precision).
A script, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.retrieval.evaluate import evaluate_runs  # noqa: E402
from engine.retrieval.measures import macro, parse_measures  # noqa: E402
from engine.retrieval.trec import read_qrels  # noqa: E402
from engine.retrieval.trec_arrays import read_run_arrays  # noqa: E402

OURS = "nDCG(dcg='exp-log2')@10,R@100,P@10,RR@10,AP@1000"
RANX = {"nDCG(dcg='exp-log2')@10": "ndcg_burges@10", "R@100": "recall@100", "P@10": "precision@10", "RR@10": "mrr@10",
        "AP@1000": "map@1000"}


def generate(work: Path, n_topics: int, depth: int, seed: int) -> tuple[Path, Path]:
    rng = np.random.default_rng(seed)
    n_docs = 200_000
    qrels_lines, run_chunks = [], []
    for t in range(n_topics):
        tid = f"q{t:05d}"
        judged = rng.choice(n_docs, size=int(rng.integers(5, 31)), replace=False)
        grades = rng.integers(0, 4, size=judged.size)
        grades[0] = max(grades[0], 1)
        qrels_lines.extend(f"{tid} 0 d{d} {g}" for d, g in zip(judged.tolist(), grades.tolist()))
        listed = rng.choice(n_docs, size=depth, replace=False)
        listed[rng.random(depth) < 0.01] = -1
        keep = judged[rng.random(judged.size) < 0.6]
        listed[rng.choice(depth, size=keep.size, replace=False)] = keep
        listed = np.unique(listed[listed >= 0])
        scores = np.round(rng.random(listed.size) * 20) / 2 + np.arange(listed.size) * 1e-7
        order = np.argsort(-scores, kind="stable")
        run_chunks.append("".join(f"{tid} Q0 d{d} {r} {s:.7f} gen\n" for r, (d, s) in
                                  enumerate(zip(listed[order].tolist(), scores[order].tolist()), start=1)))
    qrels_path, run_path = work / "qrels.txt", work / "run.tsv"
    qrels_path.write_text("\n".join(qrels_lines) + "\n")
    with open(run_path, "w") as handle:
        handle.writelines(run_chunks)
    return qrels_path, run_path


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=10_000)
    parser.add_argument("--depth", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/bench_evaluate"))
    args = parser.parse_args()
    import ranx

    if args.workdir.exists():
        shutil.rmtree(args.workdir)
    args.workdir.mkdir(parents=True)
    t, (qrels_path, run_path) = timed(lambda: generate(args.workdir, args.topics, args.depth, args.seed))
    rows = sum(1 for _ in open(run_path))
    print(f"{args.topics:,} topics x {args.depth:,} docs: {rows:,} run rows ({run_path.stat().st_size / 2**20:.0f} MiB), "
          f"generated in {t:.1f}s; load average {os.getloadavg()[0]:.1f}")
    measures = parse_measures(OURS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        # warm-up: numba compiles ranx's metric functions once per process
        ranx.evaluate(ranx.Qrels({"q": {"a": 1}}), ranx.Run({"q": {"a": 1.0, "b": 0.5}}), list(RANX.values()))

        def ours_files():
            qrels = read_qrels(qrels_path)
            run = read_run_arrays(run_path)
            return qrels, run, evaluate_runs(qrels, {"run": run}, measures, ties="ours")

        def ranx_files():
            qrels = ranx.Qrels.from_file(str(qrels_path), kind="trec")
            run = ranx.Run.from_file(str(run_path), kind="trec")
            return qrels, run, ranx.evaluate(qrels, run, list(RANX.values()))

        ours_t, (qrels, run, (_, [ours_eval])) = timed(ours_files)
        ranx_t, (rq, rr, ranx_values) = timed(ranx_files)
        ours_mem_t, (_, [ours_eval2]) = timed(lambda: evaluate_runs(qrels, {"run": run}, measures, ties="ours"))
        ranx_mem_t, ranx_values2 = timed(lambda: ranx.evaluate(rq, rr, list(RANX.values())))
    cli_t, cli = timed(lambda: subprocess.run(
        [sys.executable, "-m", "cli", "evaluate", "--qrels", str(qrels_path), "--run", str(run_path),
         "--measures", OURS, "--ties", "ours", "--output", str(args.workdir / "out"), "--log", str(args.workdir / "log.jsonl")],
        cwd=Path(__file__).resolve().parents[1], capture_output=True, text=True))
    if cli.returncode != 0:
        raise SystemExit(f"chapter-audit evaluate failed: {cli.stderr.strip()}")
    ours_macro = {m.key: macro(ours_eval.per_topic[m.key]) for m in measures}
    agree = all(abs(ours_macro[k] - float(ranx_values[v])) <= 1e-9 for k, v in RANX.items())
    print(f"{'':24} {'ours':>10} {'ranx':>10} {'ours/ranx throughput':>22}")
    print(f"{'read + evaluate':24} {ours_t:>9.2f}s {ranx_t:>9.2f}s {ranx_t / ours_t:>21.2f}x")
    print(f"{'evaluate only':24} {ours_mem_t:>9.2f}s {ranx_mem_t:>9.2f}s {ranx_mem_t / ours_mem_t:>21.2f}x")
    print(f"{'CLI vs ranx read + eval':24} {cli_t:>9.2f}s {ranx_t:>9.2f}s {ranx_t / cli_t:>21.2f}x")
    print(f"topics/s (read + evaluate): ours {args.topics / ours_t:,.0f}, ranx {args.topics / ranx_t:,.0f}; "
          f"evaluate only: ours {args.topics / ours_mem_t:,.0f}, ranx {args.topics / ranx_mem_t:,.0f}")
    print(f"macro values agree to 1e-9 with ranx: {agree}")
    for k, v in RANX.items():
        print(f"  {k:8} ours {ours_macro[k]:.9f}  ranx {v} {float(ranx_values[v]):.9f}")
    shutil.rmtree(args.workdir)


if __name__ == "__main__":
    main()
