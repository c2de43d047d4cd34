"""Benchmark: `sandbox run` end to end against the equivalent bm25s + ranx pipeline, same collection.

    python bench/bench_pipeline.py [--docs 100000] [--topics 100] [--depth 100] [--workdir DIR]
                                   [--peer-runs 2] [--no-bm25-alone]

Generates a BEIR-style collection (bench/pipeline_collection.py, fixed seed), then runs, each as
its own process (wall time and peak RSS from ``os.wait4``, bytes written from the output files):

* ours: ``chapter-audit sandbox run`` with k 10, candidate depth 20, run depth 1000 — BM25, the
  dense run, the hybrid, the reranker, Recall/NDCG, error analysis, stage table, all outputs;
* the peer (bench/pipeline_peer.py): bm25s index + scores, top 1000, min–max normalisation over
  every positive score, ranx fusion (wsum), ranx ndcg_burges@10 and recall@10, three TREC runs.
  The peer runs ``--peer-runs`` times and its fastest run counts (numba compiles on the first
  run and caches; the cold figure is printed too);
* our BM25 retrieval alone (read, tokenise, index, top 1000 per topic): the yardstick of
  "sandbox within 3× its BM25 retrieval".

It prints the figures side by side, the ratios and whether the macro metrics of BM25, the
dense run and the hybrid agree (to 1e-12). A script, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

from pipeline_collection import generate  # noqa: E402

METRIC_TOLERANCE = 1e-12


def measured_wait4(argv: list[str]) -> tuple[float, int, str, str]:
    """Run a command; (wall seconds, peak RSS bytes of exactly this child via ``os.wait4``, stdout, stderr)."""
    start = time.perf_counter()
    with open(WORK / "stdout.txt", "w") as out, open(WORK / "stderr.txt", "w") as err:
        proc = subprocess.Popen(argv, stdout=out, stderr=err)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    stdout = (WORK / "stdout.txt").read_text()
    stderr = (WORK / "stderr.txt").read_text()
    if proc.returncode != 0:
        raise SystemExit(f"command failed ({proc.returncode}): {' '.join(argv)}\n{stderr}")
    return wall, usage.ru_maxrss * 1024, stdout, stderr


def tree_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file())


def gib(n: int) -> str:
    return f"{n / 2**30:.2f} GiB" if n >= 2**30 else f"{n / 2**20:.0f} MiB"


WORK = Path("/tmp")


def main() -> None:
    global WORK
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--depth", type=int, default=100, help="depth of the supplied dense-style run")
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--peer-runs", type=int, default=2)
    parser.add_argument("--no-bm25-alone", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the collection and outputs")
    args = parser.parse_args()
    WORK = args.workdir or Path(f"/tmp/bench_pipeline_{args.docs}_{args.topics}")
    if WORK.exists():
        shutil.rmtree(WORK)
    WORK.mkdir(parents=True)
    collection = WORK / "collection"
    t = time.perf_counter()
    generate(collection, args.docs, args.topics, args.depth, seed=14)
    print(f"collection: {args.docs:,} docs ({tree_bytes(collection) / 2**20:.0f} MiB), {args.topics:,} topics, "
          f"dense run depth {args.depth} (generated in {time.perf_counter() - t:.1f}s); cpu: {cpu_model()}, "
          f"{os.cpu_count()} cores, load average before {os.getloadavg()[0]:.1f}")
    python = sys.executable
    cli = str(Path(python).with_name("chapter-audit"))
    ours_out = WORK / "ours"
    ours = measured_wait4([cli, "sandbox", "run", "--corpus", str(collection / "corpus.jsonl"),
                           "--topics", str(collection / "queries.jsonl"), "--qrels", str(collection / "qrels.txt"),
                           "--dense-run", str(collection / "dense_run.tsv"),
                           "--dense-metadata", str(collection / "dense_metadata.json"),
                           "--output", str(ours_out), "--log", str(WORK / "log.jsonl"),
                           "--k", "10", "--candidate-depth", "20", "--run-depth", "1000"])
    ours_bytes = tree_bytes(ours_out)
    peers = []
    for i in range(args.peer_runs):
        peer_out = WORK / f"peer{i}"
        result = measured_wait4([python, str(REPO / "bench" / "pipeline_peer.py"), "peer", str(collection),
                                 str(peer_out)])
        peers.append((result, tree_bytes(peer_out)))
    alone = None
    if not args.no_bm25_alone:
        alone = measured_wait4([python, str(REPO / "bench" / "pipeline_peer.py"), "bm25-alone", str(collection)])
    print(f"{'':34} {'wall':>9} {'peak RSS':>10} {'written':>10}")
    print(f"{'ours: sandbox run (4 methods)':34} {ours[0]:>8.1f}s {gib(ours[1]):>10} {gib(ours_bytes):>10}")
    if alone is not None:
        print(f"{'ours: BM25 retrieval alone':34} {alone[0]:>8.1f}s {gib(alone[1]):>10}")
        print(f"sandbox / its BM25 retrieval alone: {ours[0] / alone[0]:.2f}x (goal <= 3.0)")
    if not peers:
        if not args.keep:
            shutil.rmtree(WORK)
        return
    best = min(peers, key=lambda item: item[0][0])
    (peer_wall, peer_rss, peer_stdout, peer_stderr), peer_bytes = best
    ours_metrics = json.loads((ours_out / "metrics.json").read_text())["macro"]
    peer_metrics = json.loads(peer_stdout.strip().splitlines()[-1])
    agree = all(abs(ours_metrics[m][key] - peer_metrics[m][key]) <= METRIC_TOLERANCE
                for m in peer_metrics for key in peer_metrics[m])
    label = f"peer: bm25s + ranx (best of {len(peers)})"
    print(f"{label:34} {peer_wall:>8.1f}s {gib(peer_rss):>10} {gib(peer_bytes):>10}")
    if len(peers) > 1:
        print(f"{'  peer cold (first run)':34} {peers[0][0][0]:>8.1f}s {gib(peers[0][0][1]):>10}")
    print("  peer phases (best run):", " ".join(line.strip().removeprefix("peer ") for line in peer_stderr.splitlines()
                                               if line.strip().startswith("peer ")))
    print(f"ratio ours/peer: wall {ours[0] / peer_wall:.2f}x (goal <= 1.0), peak RSS {ours[1] / peer_rss:.2f}x "
          f"(goal <= 1.0), bytes written {ours_bytes / peer_bytes:.2f}x")
    print(f"macro metrics identical to {METRIC_TOLERANCE:g} (bm25, dense, hybrid; ndcg@10, recall@10): {agree}")
    for method in peer_metrics:
        print(f"  {method:13} ours " + " ".join(f"{k}={ours_metrics[method][k]:.6f}" for k in sorted(peer_metrics[method]))
              + "  peer " + " ".join(f"{k}={v:.6f}" for k, v in sorted(peer_metrics[method].items())))
    if not args.keep:
        shutil.rmtree(WORK)


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown"


if __name__ == "__main__":
    main()
