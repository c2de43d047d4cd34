"""Benchmark: parse a generated 50,000-word chapter pack and extract its claim rows.

    /work/venv/bin/python bench/bench_claims.py [--words 50000] [--seed 7] [--repeat 3] [--kinds model|rules]

Generates a pack (seeded, realistic sentences with numbers, ratios, percentages, names and
abbreviations; one paragraph per line), writes it to a temporary file, then times
``load_pack`` + ``extract_claims`` (best of --repeat) with the kinds ``chapter-audit claims``
decides by default (the trained classifier; ``--kinds rules`` for the rules). Prints seconds.
Goal: well under 5 s.
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

TEMPLATES = (
    "The selector returned {n} documents with {c:,} characters in total, more than the {b:,}-character allowance.",
    "{name} et al. reported an nDCG of {f:.4f} on {k}/{m} tasks, i.e. about {p:.1f}% of the pool.",
    "{name} and {name2}’s MMR variant motivates trading relevance against redundancy at weight .{d}.",
    "This experiment does not measure token budgets, and it cannot compare chunking schemes.",
    "Results should be reported with their intervals, e.g. {f:.3f} to {g:.3f}, not as bare means.",
    "Coverage rose from {k}/{m} to {k2}/{m} after reranking with the cross-encoder.",
    "Every candidate is scored by its original rank r and the cosine to the selected set.",
    "The budget of {b:,} characters was fixed before the final sample of {n} queries was opened.",
    "Only whole units are admitted; a unit of {c:,} characters is skipped vs. truncated.",
    "The regex-based counts are diagnostics, and the xQuAD comparison remains UNRUN.",
)
NAMES = ("Carbonell", "Goldstein", "Santos", "Macdonald", "Ounis", "Gao", "Clarke", "Robertson",
         "Zaragoza", "Nogueira", "Voorhees", "Sakai")


def generate(words: int, seed: int) -> str:
    rng = random.Random(seed)
    paragraphs: list[str] = []
    count = 0
    while count < words:
        sentences = []
        for _ in range(rng.randint(3, 7)):
            template = rng.choice(TEMPLATES)
            m = rng.randint(4, 60)
            sentence = template.format(
                n=rng.randint(1, 12), c=rng.randint(200, 4000), b=rng.choice((800, 1200, 2000)),
                name=rng.choice(NAMES), name2=rng.choice(NAMES), f=rng.random(), g=rng.random(),
                k=rng.randint(0, m), k2=rng.randint(0, m), m=m, p=rng.random() * 100,
                d=rng.randint(1, 9))
            sentences.append(sentence)
            count += len(sentence.split())
        paragraphs.append(" ".join(sentences))
    return ("Generated benchmark pack.\n\n== 1. Identity ==\nBook: Benchmark Book\nChapter: Generated\n\n"
            "== 2. Chapter text ==\n" + "\n".join(paragraphs) + "\n\n== 3. Research history ==\nNone.\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=3)
    from claims.kinds import DEFAULT_KINDS, KIND_OPTIONS

    parser.add_argument("--kinds", default=DEFAULT_KINDS, choices=KIND_OPTIONS)
    args = parser.parse_args()

    from audit.pack import load_pack
    from claims.extract import extract_claims

    text = generate(args.words, args.seed)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench_pack.txt"
        path.write_text(text, encoding="utf-8")
        best = float("inf")
        rows = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            pack = load_pack(path)
            rows = extract_claims(pack, kinds=args.kinds)
            best = min(best, time.perf_counter() - start)
    words = len(pack.chapter_text.split())
    quantities = sum(len(r.quantities) for r in rows)
    print(f"words {words}, paragraphs {rows[-1].paragraph}, claim rows {len(rows)}, quantities {quantities}")
    print(f"parse + claims: {best:.3f} s (best of {args.repeat}); goal < 5 s (kinds {args.kinds})")


if __name__ == "__main__":
    main()
