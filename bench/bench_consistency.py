"""Time the consistency checks on a generated chapter: 40 tables (12 collections × 8 systems + an
Avg. column, nDCG@10 named in the caption) and 60 sentences after each naming a cell.

Every sentence names one system and one collection, which all 40 tables share, so the prose check
meets its worst case (40 candidate cells per sentence) and the repeated-value check 40 printings
per key. Prints the sizes and the best time of ``check_text`` (claim rows are extracted once,
outside the timing).

    .venv/bin/python bench/bench_consistency.py [--tables 40] [--repeat 3]
"""

from __future__ import annotations

import argparse
import random
import time

from claims.consistency import check_text
from claims.extract import extract_claims


def chapter(tables: int, seed: int = 3) -> str:
    rng = random.Random(seed)
    systems = [f"Sys{i}" for i in range(8)]
    datasets = [f"Data{i}" for i in range(12)]
    parts = ["# Generated chapter\n"]
    for t in range(tables):
        parts.append(f"Table {t} reports nDCG@10 for each collection:\n")
        parts.append("| Dataset | " + " | ".join(systems) + " | Avg. |")
        parts.append("|---" * (len(systems) + 2) + "|")
        for d in datasets:
            values = [round(rng.random(), 3) for _ in systems]
            parts.append(f"| {d} | " + " | ".join(f"{v:.3f}" for v in values)
                         + f" | {sum(values) / len(values):.3f} |")
        parts.append("")
        for k in range(60):
            s, d = rng.choice(systems), rng.choice(datasets)
            parts.append(f"On {d}, {s} reaches an nDCG@10 of {rng.random():.3f} in run {k}. "
                         "Nothing else here matters much today.\n")
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    text = chapter(args.tables)
    claims = extract_claims(text, "block")
    best = float("inf")
    for _ in range(args.repeat):
        start = time.perf_counter()
        report = check_text(text, "generated.md", claims=claims)
        best = min(best, time.perf_counter() - start)
    print(f"{len(text.split()):,} words, {report.n_tables} tables, {len(claims):,} claim rows, "
          f"{len(report.checks):,} checks: best of {args.repeat} {best:.2f} s")


if __name__ == "__main__":
    main()
