"""Benchmark: parse, extract claims from and report on a 50,000-word chapter, offline.

    python bench/bench_report.py [--words 50000] [--seed 7] [--no-embeddings]

Generates the same kind of pack as bench_claims.py (seeded, one paragraph per line, with
candidate sources added so mention links exist), then times the whole `report` job
(`reports.build.write_report`: parse, fingerprint, claim rows, offline source records, claim
links, rendering, markdown-it validation, atomic write) twice:

* without embedding links (goal: under 5 s on the project's 2-core machine);
* with embedding links (MiniLM on onnxruntime; each distinct sentence encoded once), whose time
  is bounded by the encoder's throughput — printed beside the encoder-only time for the same
  texts so the ratio shows how much of it is the encoder.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_claims import generate  # noqa: E402

SOURCES = """
== 4. Existing evidence ==
Unverified candidates and seeds (leads only — verify before relying on any of them):
- Carbonell and Goldstein's MMR; diversity-aware selection. (https://doi.org/10.1145/290941.291025)
- Santos et al.'s xQuAD; explicit query-aspect diversification. (https://doi.org/10.1145/1645953.1646012)
- Robertson and Zaragoza's BM25 monograph. (https://doi.org/10.1561/1500000019)
- Pyserini; BM25 baselines. (https://github.com/castorini/pyserini)
"""


def timed_report(pack: Path, out: Path, similarity: bool) -> tuple[float, object]:
    from reports.build import ReportOptions, write_report

    start, cpu = time.perf_counter(), time.process_time()
    _, inputs = write_report(ReportOptions(pack=pack, output=out, log=out.parent / "log.jsonl",
                                           sources_cache=out.parent / "sources", offline=True,
                                           report_date="2026-01-01", similarity_links=similarity))
    timed_report.cpu = time.process_time() - cpu   # CPU seconds of this process (load-independent)
    return time.perf_counter() - start, inputs


def markdown_chapter(words: int, seed: int) -> str:
    """A Markdown chapter of ``words`` words in which every sentence cites its own arXiv link and a
    footnote (50 footnotes with DOIs): the chapter's own references at their worst case."""
    import random

    rng = random.Random(seed)
    parts, count, i = ["# Generated Markdown chapter\n"], 0, 0
    while count < words:
        if i % 20 == 0:
            parts.append(f"\n## Section {i}\n")
        sentence = (f"As shown by [Author{i} et al.](https://arxiv.org/abs/2{i % 10}01.{10000 + i % 5000}), method {i} "
                    f"reaches nDCG@10 of {rng.random():.3f} on the benchmark with several extra words here.[^{i % 50}]")
        parts.append(sentence + "\n")
        count += len(sentence.split())
        i += 1
    parts.append("\n## References\n")
    parts.extend(f"[^{k}]: Footnote {k}, doi:10.1000/x{k}.\n" for k in range(50))
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--no-embeddings", action="store_true", help="skip the run with embedding links")
    parser.add_argument("--markdown", action="store_true",
                        help="also time a Markdown chapter whose every sentence cites a link and a footnote")
    args = parser.parse_args()
    if args.markdown:
        with tempfile.TemporaryDirectory() as tmp:
            page = Path(tmp) / "chapter.md"
            page.write_text(markdown_chapter(args.words, args.seed), encoding="utf-8")
            seconds, inputs = timed_report(page, Path(tmp) / "md.md", similarity=False)
            print(f"Markdown chapter: claim rows {len(inputs.claims):,}  sources {len(inputs.sources):,}  "
                  f"links {len(inputs.links):,}: {seconds:.2f} s wall, {timed_report.cpu:.2f} s CPU")
    text = generate(args.words, args.seed).replace("== 3. Research history ==", SOURCES.strip() + "\n\n== 5. Research history ==")
    with tempfile.TemporaryDirectory() as tmp:
        pack = Path(tmp) / "pack.txt"
        pack.write_text(text, encoding="utf-8")
        seconds, inputs = timed_report(pack, Path(tmp) / "plain.md", similarity=False)
        print(f"words {len(text.split()):,}  claim rows {len(inputs.claims):,}  sources {len(inputs.sources)}  "
              f"mention links {len(inputs.links):,}")
        print(f"report without embedding links: {seconds:.2f} s wall, {timed_report.cpu:.2f} s CPU (goal < 5 s; "
              f"on a shared machine the wall time includes waiting for a core)")
        if args.no_embeddings:
            return
        seconds, inputs = timed_report(pack, Path(tmp) / "embed.md", similarity=True)
        from engine.encoder.encode import EncoderConfig, load_encoder

        distinct = sorted({c.text for c in inputs.claims})
        encoder = load_encoder(EncoderConfig())
        start = time.perf_counter()
        encoder.encode(distinct)
        encode_only = time.perf_counter() - start
        print(f"report with embedding links:    {seconds:.2f} s ({len(inputs.links):,} links)")
        print(f"encoder alone on the {len(distinct):,} distinct claim texts: {encode_only:.2f} s "
              f"-> report/encoder ratio {seconds / encode_only:.2f}")


if __name__ == "__main__":
    main()
