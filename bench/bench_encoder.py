"""Throughput of the local ONNX encoder vs sentence-transformers on torch (same texts, same threads, same run).

    HF_HUB_OFFLINE=1 .venv-bench/bin/python bench/bench_encoder.py [--n 2000] [--threads 1,2] [--repeats 3]

Texts: ``--n`` generated texts (seeded) of mixed length: 40 % short (3-15 words), 40 % medium
(20-80 words), 20 % long (150-350 words, most beyond 256 wordpieces and so truncated).

Fairness: for each thread count T (never more than the machine's cores; larger values are
dropped with a note) both sides run with **T intra-op threads and 1 inter-op thread**: ours
with onnxruntime ``intra_op_num_threads=T, inter_op_num_threads=1`` (idle threads sleep, our
default), the peer with ``torch.set_num_threads(T)`` and ``torch.set_num_interop_threads(1)``
(torch's own spin/wait behaviour). Both sort by length (ours by wordpieces, sentence-transformers
by characters), batch ``--batch-size``, ``max_seq_length`` 256, normalised output.
The measurements are **interleaved**: each of ``--repeats`` rounds times ours and the peer at
every T, so load from other jobs hits both sides alike; min and median are printed and the
ratio is taken of the medians (peer seconds / our seconds: > 1 means ours is faster). The max
absolute difference between the two sets of vectors is printed per T.
Optionally one row in input order (no length sorting) shows what sorting buys.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np  # noqa: E402

from engine.encoder.encode import EncoderConfig, load_encoder  # noqa: E402
from machine import cpu_model  # noqa: E402

WORDS = """retrieval evaluation corpus query document relevance judgment ranking score baseline
dense sparse lexical semantic vector embedding encoder transformer attention layer token wordpiece
truncation padding batch thread latency throughput benchmark experiment sample bootstrap interval
confidence estimate variance bias effect size threshold significance hypothesis power replication
chapter claim evidence source citation figure table result method protocol holdout development
final pool coverage redundancy requirement facet question answer passage context budget character
lake nutrient fish season survey monitoring treatment response website design outcome decision
the a of and to in is that for on with as by at from this which be are was it an or not but
""".split()


WARM_UP = ["a short warm-up text", "another warm-up text, a little longer than the first one"] * 16


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


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return time.perf_counter() - start, result


def ours_encoder(intra, batch_size):
    encoder = load_encoder(EncoderConfig(batch_size=batch_size, intra_op_threads=intra, inter_op_threads=1))
    encoder.encode(WARM_UP)  # warm-up (allocations, kernel selection)
    return encoder


def in_input_order(encoder, texts, batch_size):
    return np.vstack([encoder.encode(texts[i:i + batch_size]) for i in range(0, len(texts), batch_size)])


def peer_model():
    if importlib.util.find_spec("sentence_transformers") is None:
        return None
    from sentence_transformers import SentenceTransformer

    from engine.encoder.model_files import locate_model_files

    model = SentenceTransformer(str(locate_model_files().directory), device="cpu")
    model.max_seq_length = 256
    return model


def peer_encode(model, texts, threads, batch_size):
    import torch

    torch.set_num_threads(threads)
    return model.encode(texts, batch_size=batch_size, normalize_embeddings=True, convert_to_numpy=True,
                        show_progress_bar=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=20240611)
    parser.add_argument("--batch-size", type=int, default=16)
    parser.add_argument("--threads", default="1,2", help="intra-op thread counts, comma separated (inter-op: 1)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-peer", action="store_true")
    parser.add_argument("--unsorted", action="store_true", help="also time ours in input order (no sorting)")
    args = parser.parse_args()

    import onnxruntime

    texts = generate_texts(args.n, args.seed)
    counts = np.array(load_encoder(EncoderConfig()).wordpiece_counts(texts))
    cores = os.cpu_count() or 1
    threads = [int(x) for x in args.threads.split(",")]
    dropped = [t for t in threads if t > cores]
    threads = [t for t in threads if t <= cores]
    print(f"CPU: {cpu_model()}, {cores} cpus; python {platform.python_version()}, "
          f"onnxruntime {onnxruntime.__version__}")
    if dropped:
        print(f"thread counts {dropped} dropped: more threads than the {cores} cores")
    print(f"texts: {len(texts)} (seed {args.seed}); wordpieces mean {counts.mean():.1f}, "
          f"median {np.median(counts):.0f}, max {counts.max()}, truncated at 256: {(counts == 256).sum()}; "
          f"batch size {args.batch_size}; {args.repeats} interleaved repeats; inter-op threads 1 on both sides")

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
            model.encode(WARM_UP, batch_size=args.batch_size)
            print(f"peer: sentence-transformers {sentence_transformers.__version__}, torch {torch.__version__} "
                  f"(intra-op threads = ours, interop 1)")

    encoders = {t: ours_encoder(t, args.batch_size) for t in threads}
    seconds: dict[str, list[float]] = {}
    vectors: dict[str, np.ndarray] = {}
    for _ in range(args.repeats):
        for t in threads:
            runs = [(f"ours onnxruntime {t}/1 (length-sorted)", lambda t=t: encoders[t].encode(texts))]
            if model is not None:
                runs.append((f"sentence-transformers torch {t}/1",
                             lambda t=t: peer_encode(model, texts, t, args.batch_size)))
            if args.unsorted:
                runs.append((f"ours onnxruntime {t}/1 (input order)",
                             lambda t=t: in_input_order(encoders[t], texts, args.batch_size)))
            for name, run in runs:
                elapsed, result = timed(run)
                seconds.setdefault(name, []).append(elapsed)
                vectors[name] = result

    print()
    print(f"{'configuration':48s} {'min s':>7s} {'median s':>9s} {'sent/s (median)':>16s}")
    for name, values in seconds.items():
        print(f"{name:48s} {min(values):7.2f} {statistics.median(values):9.2f} "
              f"{len(texts) / statistics.median(values):16.1f}")
    print()
    for t in threads:
        ours_name = f"ours onnxruntime {t}/1 (length-sorted)"
        if model is not None:
            peer_name = f"sentence-transformers torch {t}/1"
            ratio = statistics.median(seconds[peer_name]) / statistics.median(seconds[ours_name])
            ratio_min = min(seconds[peer_name]) / min(seconds[ours_name])
            diff = np.abs(vectors[ours_name] - vectors[peer_name]).max()
            print(f"threads {t}/1: ours/peer throughput ratio {ratio:.2f} (medians; {ratio_min:.2f} of the minima); "
                  f"max abs diff ours vs sentence-transformers {diff:.2e}")
        if args.unsorted:
            diff = np.abs(vectors[ours_name] - vectors[f"ours onnxruntime {t}/1 (input order)"]).max()
            print(f"threads {t}/1: input-order vs length-sorted batching, max abs diff {diff:.2e}")


if __name__ == "__main__":
    main()
