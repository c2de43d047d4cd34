"""`chapter-audit encode` at corpus scale: sentences/s and peak RSS of the whole command.

    python bench/bench_encode_scale.py [--n 100000] [--shard-size 8192] [--threads 2] [--keep DIR]

Generates ``--n`` passages (seeded; the mixed-length texts of bench/bench_encoder.py: 40 %
3-15 words, 40 % 20-80, 20 % 150-350, the long ones truncated at 256 wordpieces) as a JSONL
file, runs ``chapter-audit encode`` on it in a child process (``--intra-op-threads
--threads --inter-op-threads 1``, ``--progress``) and prints wall time, texts per second and
the child's peak RSS (``ru_maxrss`` of the child), next to the size of the vectors it wrote,
to show that memory is bounded by the shard, not by the input. The ONNX graph is built (or
read from the cache) before timing. A script, not a test.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_encoder import generate_texts  # noqa: E402
from machine import cpu_model  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=20240611)
    parser.add_argument("--shard-size", type=int, default=8192)
    parser.add_argument("--threads", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--keep", type=Path, default=None, help="work directory to keep (default: a temporary one)")
    args = parser.parse_args()

    from engine.encoder.encode import EncoderConfig, load_encoder

    load_encoder(EncoderConfig())          # build/cache the ONNX graph outside the timed run
    work = args.keep or Path(tempfile.mkdtemp(prefix="encode-scale-"))
    work.mkdir(parents=True, exist_ok=True)
    source = work / "passages.jsonl"
    with source.open("w", encoding="utf-8") as out:
        for i, text in enumerate(generate_texts(args.n, args.seed)):
            out.write(json.dumps({"_id": f"p{i:07d}", "text": text}) + "\n")
    output = work / "vectors.npy"
    command = [sys.executable, "-c", "import sys; from cli import main; sys.argv[0] = 'chapter-audit'; main()",
               "encode", "--input", str(source), "--field", "text", "--output", str(output),
               "--shard-size", str(args.shard_size), "--intra-op-threads", str(args.threads),
               "--inter-op-threads", "1", "--progress", "--log", str(work / "log.jsonl")]
    print(f"CPU: {cpu_model()}, {os.cpu_count()} cpus; {args.n:,} passages ({source.stat().st_size / 2**20:.1f} MiB "
          f"JSONL), shard size {args.shard_size}, threads {args.threads}/1")
    start = time.perf_counter()
    subprocess.run(command, check=True)
    seconds = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024
    print(f"wall {seconds:,.1f} s; {args.n / seconds:,.1f} texts/s; peak RSS of the encode process "
          f"{peak / 2**20:,.0f} MiB; vectors written {output.stat().st_size / 2**20:,.1f} MiB")


if __name__ == "__main__":
    main()
