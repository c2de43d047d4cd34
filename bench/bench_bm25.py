"""Benchmark: our BM25 (engine.retrieval.bm25) against bm25s on the same tokens, same run.

    python bench/bench_bm25.py [--docs 100000] [--queries 1000] [--seed 13] [--k 10]

Generates a corpus with a Zipfian vocabulary (fixed seed), indexes it with ours and with
bm25s (``method="lucene"``, ``dtype="float64"``, numpy backend = bm25s' default; the numba
backend is reported too when numba is installed), retrieves the top-k for every query and
prints build time, queries per second, the throughput ratio ours/bm25s and whether the top-k
lists are identical by score (bm25s scores × (k1 + 1); bm25s' tie order is undocumented, so
two lists count as identical when the scores agree rank by rank within 1e-9 and the documents
strictly above the k-th score are the same). Mismatches are printed, not hidden.
A script, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DISABLE_TQDM", "1")

from engine.retrieval.bm25 import BM25  # noqa: E402
from engine.retrieval.index import build_index  # noqa: E402

K1, B = 1.2, 0.75


def generate(n_docs: int, n_queries: int, seed: int, vocab_size: int = 50_000, exponent: float = 1.0):
    """Documents of 20–100 tokens and queries of 2–6 tokens drawn from one Zipf(exponent) vocabulary."""
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, vocab_size + 1) ** exponent
    p /= p.sum()
    vocab = [f"w{i}" for i in range(vocab_size)]
    lengths = rng.integers(20, 101, size=n_docs)
    ids = rng.choice(vocab_size, size=int(lengths.sum()), p=p)
    docs, start = [], 0
    for n in lengths.tolist():
        docs.append([vocab[t] for t in ids[start:start + n].tolist()])
        start += n
    q_lengths = rng.integers(2, 7, size=n_queries)
    q_ids = rng.choice(vocab_size, size=int(q_lengths.sum()), p=p)
    queries, start = [], 0
    for n in q_lengths.tolist():
        queries.append([vocab[t] for t in q_ids[start:start + n].tolist()])
        start += n
    return docs, queries


def same_top_k(ours: list[tuple[int, float]], peer: list[tuple[int, float]]) -> bool:
    if len(ours) != len(peer):
        return False
    if not ours:
        return True
    if not np.allclose([s for _, s in ours], [s for _, s in peer], rtol=0, atol=1e-9):
        return False
    cut = ours[-1][1] + 1e-9
    return {d for d, s in ours if s > cut} == {d for d, s in peer if s > cut}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--queries", type=int, default=1_000)
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--no-numba", action="store_true", help="skip the bm25s numba backend row")
    args = parser.parse_args()
    import bm25s

    t = time.perf_counter()
    docs, queries = generate(args.docs, args.queries, args.seed)
    n_tokens = sum(map(len, docs))
    print(f"corpus: {args.docs} docs, {n_tokens} tokens, {args.queries} queries, "
          f"seed {args.seed} (generated in {time.perf_counter() - t:.1f}s)")
    doc_ids = [f"d{i:06d}" for i in range(args.docs)]   # zero-padded: doc-id order = position order

    t = time.perf_counter()
    ours = BM25(build_index(doc_ids, docs), k1=K1, b=B)
    build_ours = time.perf_counter() - t
    t = time.perf_counter()
    peer = bm25s.BM25(method="lucene", k1=K1, b=B, dtype="float64")
    peer.index(docs, show_progress=False)
    build_peer = time.perf_counter() - t

    # ours: token ids looked up per query, top-k by argpartition (timing includes the lookup)
    t = time.perf_counter()
    mine = [ours.top_k(q, args.k) for q in queries]
    time_ours = time.perf_counter() - t
    t = time.perf_counter()
    peer_docs, peer_scores = peer.retrieve(queries, k=args.k, show_progress=False, n_threads=0)
    time_peer = time.perf_counter() - t

    mismatches = []
    for qi, query in enumerate(queries):
        a = [(int(d[1:]), s) for d, s in mine[qi]]
        b = [(int(d), float(s) * (K1 + 1)) for d, s in zip(peer_docs[qi], peer_scores[qi]) if s > 0]
        if not same_top_k(a, b):
            mismatches.append(qi)

    qps_ours, qps_peer = args.queries / time_ours, args.queries / time_peer
    print(f"{'engine':<28} {'build s':>8} {'queries/s':>10}")
    print(f"{'ours (engine.retrieval.bm25)':<28} {build_ours:>8.2f} {qps_ours:>10.1f}")
    print(f"{'bm25s ' + bm25s.__version__ + ' numpy':<28} {build_peer:>8.2f} {qps_peer:>10.1f}")
    if not args.no_numba:
        try:
            numba_peer = bm25s.BM25(method="lucene", k1=K1, b=B, dtype="float64", backend="numba")
            numba_peer.index(docs, show_progress=False)
            numba_peer.retrieve(queries[:5], k=args.k, show_progress=False, backend_selection="numba")  # JIT warm-up
            t = time.perf_counter()
            numba_peer.retrieve(queries, k=args.k, show_progress=False, backend_selection="numba")
            qps_numba = args.queries / (time.perf_counter() - t)
            print(f"{'bm25s numba (warm)':<28} {'':>8} {qps_numba:>10.1f}")
            print(f"throughput ratio ours/bm25s(numba): {qps_ours / qps_numba:.2f}x")
        except Exception as exc:  # noqa: BLE001 - optional row
            print(f"bm25s numba backend unavailable: {exc}")
    print(f"throughput ratio ours/bm25s(numpy): {qps_ours / qps_peer:.2f}x; "
          f"build ratio ours/bm25s: {build_ours / build_peer:.2f}x")
    print(f"top-{args.k} identical by score: {args.queries - len(mismatches)}/{args.queries}"
          + (f"; mismatching queries: {mismatches[:10]}" if mismatches else ""))


if __name__ == "__main__":
    main()
