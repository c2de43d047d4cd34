"""Benchmark: our BM25 (engine.retrieval.bm25) against bm25s' numba backend on the same tokens, same run.

    python bench/bench_bm25.py [--docs 100000,1000000] [--queries 1000] [--repeats 3] [--seed 13] [--k 10]

For each collection size: a corpus with a Zipfian vocabulary (fixed seed; documents of 20-100
tokens) and two query sets of 2-6 tokens each, printed separately:

* **rare-term** queries: tokens drawn uniformly from vocabulary ranks 1,000-20,000 (each
  found in a few dozen to a few hundred documents per 100k), so a query touches a few hundred
  postings -- the shape where work proportional to the collection size shows;
* **frequent-term** queries: tokens drawn from the Zipf distribution itself (mostly the head
  of the vocabulary), so a query touches a large share of the collection.

Measured, each as the **median of ``--repeats`` interleaved repeats** (ours, peer, ours, peer,
...; min and max printed too, because the machine may be shared):

* index build time and **peak build memory** (peak RSS growth during the build, with the
  high-water mark reset first via ``/proc/self/clear_refs``; the first repeat builds in the
  benchmark process, whose indexes then serve the queries, later repeats in forked children); ours
  includes the scorer's per-posting weights, bm25s' includes its score matrix;
* queries per second for the top-k of each query set, one thread each: ours
  ``BM25.top_k`` (token lookup included), with numpy only and, when numba is installed (the
  ``fast`` extra), with the compiled kernels (after their compilation), and bm25s
  ``retrieve(..., backend_selection="numba", n_threads=1)`` after a JIT warm-up.

bm25s: ``method="lucene"``, ``dtype="float64"``; its scores lack the ``(k1 + 1)`` factor and
are multiplied by it before comparison. Top-k lists count as identical when the scores agree
rank by rank within 1e-9 and the documents strictly above the k-th score are the same (bm25s'
tie order is undocumented). The ratio is peer time / our time (> 1: ours is faster; for memory,
peer peak / our peak), printed as the ratio of the medians and as the median of the ratios of
each repeat's pair (ours and the peer measured back to back): this VM's speed drifts by up to
2x within minutes, and a pair shares the drift. numba drives bm25s' backend and our optional compiled kernels (the
``fast`` extra); it is never required at run time. A script, not a test: nothing here asserts
a time.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
os.environ.setdefault("DISABLE_TQDM", "1")

from engine.retrieval.bm25 import BM25  # noqa: E402
from engine.retrieval.index import build_index  # noqa: E402
from machine import cpu_model  # noqa: E402

K1, B = 1.2, 0.75
VOCAB = 50_000
RARE_RANKS = (1_000, 20_000)


def generate(n_docs: int, n_queries: int, seed: int, vocab_size: int = VOCAB, exponent: float = 1.0):
    """Documents of 20–100 tokens; frequent-term and rare-term queries of 2–6 tokens."""
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, vocab_size + 1) ** exponent
    p /= p.sum()
    vocab = [f"w{i}" for i in range(vocab_size)]
    lengths = rng.integers(20, 101, size=n_docs)
    docs, start = [], 0
    for block in range(0, n_docs, 100_000):    # draw in blocks: bounded temporary memory
        block_lengths = lengths[block:block + 100_000]
        ids = rng.choice(vocab_size, size=int(block_lengths.sum()), p=p).tolist()
        start = 0
        for n in block_lengths.tolist():
            docs.append([vocab[t] for t in ids[start:start + n]])
            start += n
    q_lengths = rng.integers(2, 7, size=n_queries)
    frequent = [[vocab[t] for t in rng.choice(vocab_size, size=int(n), p=p).tolist()] for n in q_lengths]
    rare = [[vocab[t] for t in rng.integers(*RARE_RANKS, size=int(n)).tolist()] for n in q_lengths]
    return docs, {"rare-term": rare, "frequent-term": frequent}


def same_top_k(ours: list[tuple[int, float]], peer: list[tuple[int, float]]) -> bool:
    if len(ours) != len(peer):
        return False
    if not ours:
        return True
    if not np.allclose([s for _, s in ours], [s for _, s in peer], rtol=0, atol=1e-9):
        return False
    cut = ours[-1][1] + 1e-9
    return {d for d, s in ours if s > cut} == {d for d, s in peer if s > cut}


def _status(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(field)


def build_here(build):
    """(seconds, peak RSS growth in bytes, result) of ``build()`` in this process."""
    Path("/proc/self/clear_refs").write_text("5")   # reset the RSS high-water mark
    base = _status("VmRSS")
    start = time.perf_counter()
    result = build()
    seconds = time.perf_counter() - start
    return seconds, _status("VmHWM") - base, result


def build_in_child(build) -> tuple[float, float]:
    """(seconds, peak RSS growth in bytes) of ``build()``, run in a forked child."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child
        os.close(read_end)
        try:
            Path("/proc/self/clear_refs").write_text("5")   # reset the RSS high-water mark
            base = _status("VmRSS")
            start = time.perf_counter()
            result = build()
            seconds = time.perf_counter() - start
            peak = _status("VmHWM") - base
            del result
            os.write(write_end, f"{seconds} {peak}".encode())
        finally:
            os._exit(0)
    os.close(write_end)
    data = os.read(read_end, 200).decode()
    os.close(read_end)
    os.waitpid(pid, 0)
    seconds, peak = data.split()
    return float(seconds), float(peak)


def spread(values: list[float]) -> str:
    return f"{statistics.median(values):,.2f} ({min(values):,.2f}–{max(values):,.2f})"


def bench_size(n_docs: int, args, bm25s) -> None:
    t = time.perf_counter()
    docs, query_sets = generate(n_docs, args.queries, args.seed)
    n_tokens = sum(map(len, docs))
    doc_ids = [f"d{i:07d}" for i in range(n_docs)]   # zero-padded: doc-id order = position order
    print(f"\n== {n_docs:,} documents, {n_tokens / 1e6:.1f} M tokens, vocabulary {VOCAB:,} Zipf(1), "
          f"seed {args.seed} (generated in {time.perf_counter() - t:.0f} s)")

    def ours_build():
        return BM25(build_index(doc_ids, docs), k1=K1, b=B)

    def peer_build():
        model = bm25s.BM25(method="lucene", k1=K1, b=B, dtype="float64", backend="numba")
        model.index(docs, show_progress=False)
        return model

    # the first repeat's builds run here (their indexes serve the queries), later ones in children
    figures: dict[str, dict[str, list[float]]] = {}
    built = {}
    for name, build in (("ours", ours_build), ("peer", peer_build)):
        seconds, peak, built[name] = build_here(build)
        figures.setdefault("build s", {}).setdefault(name, []).append(seconds)
        figures.setdefault("build peak RSS MB", {}).setdefault(name, []).append(peak / 2**20)
    ours, peer = built["ours"], built["peer"]
    scorers = {"ours": ours.numpy_only()}
    if ours.compiled:
        scorers["ours compiled"] = ours
    for queries in query_sets.values():   # JIT warm-up (compiles for these argument types)
        peer.retrieve(queries[:5], k=args.k, show_progress=False, backend_selection="numba", n_threads=1)
        ours.top_k(queries[0], args.k)
    for repeat in range(args.repeats):
        for name, build in (("ours", ours_build), ("peer", peer_build)) if repeat else ():
            seconds, peak = build_in_child(build)
            figures.setdefault("build s", {}).setdefault(name, []).append(seconds)
            figures.setdefault("build peak RSS MB", {}).setdefault(name, []).append(peak / 2**20)
        for set_name, queries in query_sets.items():
            for name, scorer in scorers.items():
                t = time.perf_counter()
                for q in queries:
                    scorer.top_k(q, args.k)
                figures.setdefault(f"{set_name} queries/s" + name[4:], {}).setdefault("ours", []).append(
                    len(queries) / (time.perf_counter() - t))
            t = time.perf_counter()
            peer.retrieve(queries, k=args.k, show_progress=False, backend_selection="numba", n_threads=1)
            for name in scorers:
                figures.setdefault(f"{set_name} queries/s" + name[4:], {}).setdefault("peer", []).append(
                    len(queries) / (time.perf_counter() - t))

    print(f"{'median of ' + str(args.repeats) + ' (min–max)':<32} {'ours':>30} "
          f"{'bm25s ' + bm25s.__version__ + ' numba':>30} {'ratio of medians':>17} {'median ratio per repeat (min–max)':>34}")
    for row, values in figures.items():
        ours_med, peer_med = statistics.median(values["ours"]), statistics.median(values["peer"])
        faster = "queries/s" in row
        ratio = ours_med / peer_med if faster else peer_med / ours_med
        paired = [o / p if faster else p / o for o, p in zip(values["ours"], values["peer"])]
        print(f"{row:<32} {spread(values['ours']):>30} {spread(values['peer']):>30} {ratio:>16.2f}x "
              f"{statistics.median(paired):>17.2f}x ({min(paired):.2f}–{max(paired):.2f})")
    for (set_name, queries), name in ((item, name) for item in query_sets.items() for name in scorers):
        ours = scorers[name]
        touched = np.mean([ours.postings_touched(ours.term_ids(q)) for q in queries])
        peer_docs, peer_scores = peer.retrieve(queries, k=args.k, show_progress=False,
                                               backend_selection="numba", n_threads=1)
        mismatches = []
        for qi, query in enumerate(queries):
            a = [(int(d[1:]), s) for d, s in ours.top_k(query, args.k)]
            b = [(int(d), float(s) * (K1 + 1)) for d, s in zip(peer_docs[qi], peer_scores[qi]) if s > 0]
            if not same_top_k(a, b):
                mismatches.append(qi)
        print(f"{set_name} ({name}): {len(queries)} queries, mean postings touched {touched:,.0f}; top-{args.k} identical "
              f"by score {len(queries) - len(mismatches)}/{len(queries)}"
              + (f"; mismatching queries: {mismatches[:10]}" if mismatches else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", default="100000,1000000", help="collection sizes, comma separated")
    parser.add_argument("--queries", type=int, default=1_000, help="queries per query set")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--k", type=int, default=10)
    args = parser.parse_args()
    import bm25s
    import numba

    print(f"CPU: {cpu_model()}, {os.cpu_count()} cpus; python {platform.python_version()}, numpy {np.__version__}, "
          f"bm25s {bm25s.__version__}, numba {numba.__version__}; one thread each; "
          f"median of {args.repeats} interleaved repeats")
    for n_docs in (int(x) for x in args.docs.split(",")):
        bench_size(n_docs, args, bm25s)


if __name__ == "__main__":
    main()
