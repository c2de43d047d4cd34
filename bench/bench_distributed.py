"""Scaling of the distributed paths: `encode`, `book` and `sandbox run`, serially and on 1 and 2 Dask workers.

    python bench/bench_distributed.py [--passages 20000] [--shard-size 1000] [--chapters 40]
                                      [--merge-rows 1000000] [--sandbox-docs 100000] [--sandbox-topics 100]
                                      [--skip encode,book,merge,sandbox]

* **encode** — ``--passages`` mixed-length passages (bench/bench_encoder.py's generator: 40 %
  3-15 words, 40 % 20-80, 20 % 150-350), shards of ``--shard-size``: serially (one onnxruntime
  session, 1 intra-op thread), then ``--workers 1`` and ``--workers 2`` (a Dask LocalCluster,
  one session of 1 intra-op thread per worker). Wall time of the whole ``run_encode`` (cluster
  start and each worker's model load included), speed-up against serial, texts/s per worker;
  the vectors of every run are compared byte for byte with the serial ones.
* **book** — a generated ``--chapters``-chapter book (the test book's nine chapters, each
  repeated with its own generated paragraphs, four of them binding a logged sandbox run):
  serially, then on 1 and 2 workers (fresh output each time), and a second serial pass with
  nothing changed (every report reused). Files compared byte for byte with the serial pass.
* **sandbox** — ``sandbox run`` (k 10, candidate depth 20, run depth 1000) on bench_pipeline's
  generated BEIR-style collection of ``--sandbox-docs`` documents and ``--sandbox-topics``
  topics: serially, then with BM25 on 1 and 2 index shards (``--workers 1`` / ``2``; cluster
  start and each worker's shard indexing included); every output but the manifest compared
  byte for byte with the serial run's.
* **merge** — the cost of merging ``--merge-rows`` x 384 float32 vectors from shards of
  ``--shard-size`` rows into one ``vectors.npy`` exactly as ``encode`` does it (one hashing pass
  over the shards, then the streamed write, fsynced), timed alone.

Then, on paper: the wall time of a 16-worker cluster on 8.8 M passages, from the measured
per-worker rate (1 worker) and the merge cost scaled linearly from ``--merge-rows``. A script,
not a test; it prints the load average before and after, since this machine is shared.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from machine import cpu_model  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def load() -> str:
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


def timed(fn):
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def bench_encode(work: Path, passages: int, shard_size: int) -> dict:
    from bench_encoder import generate_texts

    from engine.encoder.encode import EncoderConfig, load_encoder, run_encode

    load_encoder(EncoderConfig())   # the ONNX graph built or read from the cache before timing
    work.mkdir(parents=True, exist_ok=True)
    source = work / "passages.jsonl"
    source.write_text("".join(json.dumps({"_id": f"p{i}", "text": t}) + "\n"
                              for i, t in enumerate(generate_texts(passages, 20240611))), encoding="utf-8")
    config = EncoderConfig(intra_op_threads=1, inter_op_threads=1)
    rows = {}
    serial_bytes = None
    for label, workers in (("serial", None), ("1 worker", 1), ("2 workers", 2)):
        out = work / label.replace(" ", "-") / "vectors.npy"
        seconds, _ = timed(lambda: run_encode(source, "text", out, config=config, log=None, progress=False,
                                              shard_size=shard_size, workers=workers))
        data = out.read_bytes()
        serial_bytes = serial_bytes or data
        rows[label] = {"seconds": seconds, "workers": workers or 1, "identical": data == serial_bytes}
        print(f"encode {label:>9}: {seconds:8.1f} s  {passages / seconds:7.1f} texts/s  "
              f"{passages / seconds / (workers or 1):7.1f} texts/s per worker  "
              f"speed-up {rows['serial']['seconds'] / seconds:4.2f}x  identical to serial: {data == serial_bytes}"
              f"  (load {load()})", flush=True)
    return rows


def make_book(work: Path, chapters: int) -> tuple[Path, Path]:
    """A ``chapters``-chapter book from the test book, each chapter with its own paragraphs."""
    from bench_encoder import generate_texts

    source = REPO / "tests" / "data" / "book"
    base = sorted(p for p in source.iterdir() if p.suffix in (".md", ".txt"))
    claims = {"02-bm25-baseline.txt": source / "claims" / "02-bm25-baseline.toml",
              "03-candidate-recall.txt": source / "03-candidate-recall.claims.toml",
              "04-fusion.md": source / "claims" / "04-fusion.toml",
              "05-reranking.md": source / "claims" / "05-reranking.toml"}
    book = work / "book"
    book.mkdir()
    sentences = generate_texts(chapters * 30, 7)
    for number in range(chapters):
        original = base[number % len(base)]
        name = f"{number + 1:02d}-{original.name[3:]}"
        text = original.read_text(encoding="utf-8")
        extra = " ".join(sentences[number * 30:(number + 1) * 30])
        if original.suffix == ".md":
            text += f"\n\n## Notes of part {number + 1}\n\n{extra}\n"
        else:  # a pack: the paragraph goes into its chapter text, before section 3
            text = text.replace("\n== 3.", f"\n{extra}\n\n== 3.", 1) if "== 3." in text else text + "\n" + extra + "\n"
        (book / name).write_text(text, encoding="utf-8")
        if original.name in claims:
            shutil.copy(claims[original.name], book / (name[: -len(original.suffix)] + ".claims.toml"))
    log = work / "log.jsonl"
    from engine.experiments import run_experiment
    from engine.runs.fixtures_path import fixtures_dir

    l03 = fixtures_dir() / "l03"
    run_experiment("sandbox run", dict(
        corpus=l03 / "corpus.jsonl", topics=l03 / "topics.jsonl", qrels=l03 / "qrels.txt",
        dense_run=l03 / "supplied_run.tsv", dense_metadata=l03 / "supplied_run_metadata.json",
        output=work / "sandbox", k=3, candidate_depth=5, hybrid_alpha=0.55, rerank_weight=0.25), log=log)
    return book, log


def files_of(directory: Path) -> dict[str, bytes]:
    return {p.relative_to(directory).as_posix(): p.read_bytes() for p in sorted(directory.rglob("*"))
            if p.is_file() and p.name != "manifest.json"}


def bench_book(work: Path, chapters: int) -> dict:
    from books.run import BookOptions, run_book

    book, log = make_book(work, chapters)
    logged = log.read_bytes()
    rows = {}
    serial_files = None
    for label, workers in (("serial", None), ("1 worker", 1), ("2 workers", 2)):
        log.write_bytes(logged)
        options = BookOptions(directory=book, output=work / f"out-{label.replace(' ', '-')}", log=log,
                              offline=True, report_date="2026-12-01", sources_cache=work / "cache",
                              workers=workers)
        seconds, _ = timed(lambda: run_book(options))
        files = files_of(options.output)
        serial_files = serial_files or files
        rows[label] = {"seconds": seconds}
        print(f"book   {label:>9}: {seconds:8.1f} s  {chapters / seconds:6.2f} chapters/s  "
              f"{chapters / seconds / (workers or 1):6.2f} chapters/s per worker  "
              f"speed-up {rows['serial']['seconds'] / seconds:4.2f}x  identical to serial: {files == serial_files}"
              f"  (load {load()})", flush=True)
    log.write_bytes(logged)
    again = BookOptions(directory=book, output=work / "out-serial", log=log, offline=True,
                        report_date="2026-12-02", sources_cache=work / "cache")
    seconds, result = timed(lambda: run_book(again))
    unchanged = sum(1 for r in result.rows if r["state"] == "unchanged")
    print(f"book   second pass, nothing changed: {seconds:6.1f} s, {unchanged}/{chapters} reports reused", flush=True)
    return rows


def bench_sandbox(work: Path, docs: int, topics: int) -> dict:
    from pipeline_collection import generate

    from engine.retrieval.sandbox import SandboxInputs, SandboxParameters, run_sandbox

    collection = work / "collection"
    generate(collection, docs, topics, 100, seed=14)
    inputs = SandboxInputs(collection / "corpus.jsonl", collection / "queries.jsonl", collection / "qrels.txt",
                           collection / "dense_run.tsv", collection / "dense_metadata.json")
    params = SandboxParameters(k=10, candidate_depth=20, run_depth=1000)
    rows = {}
    serial_files = None
    for label, workers in (("serial", None), ("1 worker", 1), ("2 workers", 2)):
        output = work / f"out-{label.replace(' ', '-')}"
        seconds, _ = timed(lambda: run_sandbox(inputs, output, params, log=work / "log.jsonl", workers=workers))
        files = {name: data for name, data in files_of(output).items() if name != "run_manifest.json"}
        serial_files = serial_files or files
        rows[label] = {"seconds": seconds}
        print(f"sandbox {label:>9}: {seconds:8.1f} s  {topics / seconds:6.2f} topics/s  "
              f"speed-up {rows['serial']['seconds'] / seconds:4.2f}x  identical to serial: {files == serial_files}"
              f"  (load {load()})", flush=True)
    return rows


def bench_merge(work: Path, rows: int, shard_size: int) -> float:
    import numpy as np

    from engine.encoder.stream import ShardStore
    from engine.runs.outdir import write_files_atomically

    store = ShardStore(work / "merge.shards", "bench-merge", shard_size, rows)
    rng = np.random.default_rng(3)
    for number, start in enumerate(range(0, rows, shard_size)):
        store.add(number, rng.standard_normal((min(shard_size, rows - start), 384), dtype=np.float32))

    def merge():   # as engine.encoder.encode.run_encode does it: hash pass, then the streamed write
        digest = hashlib.sha256()
        for _ in store.stream_npy(384, digest):
            pass
        write_files_atomically({work / "merged.npy": store.stream_npy(384, hashlib.sha256())})
        return digest.hexdigest()

    seconds, _ = timed(merge)
    size = (work / "merged.npy").stat().st_size
    print(f"merge  {rows:,} x 384 float32 ({size / 2**30:.2f} GiB) from shards of {shard_size:,}: {seconds:.1f} s "
          f"(load {load()})", flush=True)
    (work / "merged.npy").unlink()
    store.remove()
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--passages", type=int, default=20_000)
    parser.add_argument("--shard-size", type=int, default=1000)
    parser.add_argument("--chapters", type=int, default=40)
    parser.add_argument("--merge-rows", type=int, default=1_000_000)
    parser.add_argument("--sandbox-docs", type=int, default=100_000)
    parser.add_argument("--sandbox-topics", type=int, default=100)
    parser.add_argument("--skip", default="", help="comma-separated parts to skip: encode, book, merge, sandbox")
    args = parser.parse_args()
    skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    print(f"{cpu_model()}, {os.cpu_count()} CPUs; load average before: {load()}", flush=True)
    work = Path(tempfile.mkdtemp(prefix="bench-distributed-"))
    try:
        encode_rows = bench_encode(work / "encode", args.passages, args.shard_size) if "encode" not in skip else None
        if "book" not in skip:
            (work / "book").mkdir()
            bench_book(work / "book", args.chapters)
        if "sandbox" not in skip:
            (work / "sandbox").mkdir()
            bench_sandbox(work / "sandbox", args.sandbox_docs, args.sandbox_topics)
        merge = bench_merge(work, args.merge_rows, 8192) if "merge" not in skip else None
        if encode_rows and merge is not None:
            rate = args.passages / encode_rows["1 worker"]["seconds"]
            total, workers = 8_800_000, 16
            encode_seconds = total / (workers * rate)
            merge_seconds = merge * total / args.merge_rows
            print(f"on paper: 8.8 M passages on {workers} workers at the measured {rate:.1f} texts/s per worker "
                  f"(1 intra-op thread each): encode {encode_seconds / 3600:.2f} h + merge "
                  f"{merge_seconds / 60:.1f} min (the {args.merge_rows:,}-row merge scaled linearly) = "
                  f"{(encode_seconds + merge_seconds) / 3600:.2f} h", flush=True)
        print(f"load average after: {load()}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
