"""Generate a BEIR-style collection for bench/bench_pipeline.py (fixed seed, our own synthetic text).

    python bench/pipeline_collection.py OUT_DIR [--docs 100000] [--topics 100] [--depth 100] [--seed 14]

Writes ``corpus.jsonl`` (BEIR fields ``_id``, ``title``, ``text`` plus the sandbox's ``doc_id``,
``source_type``, ``license``: one file both pipelines read), ``queries.jsonl`` (``_id``/``text``
and ``topic_id``/``query``), ``qrels.txt`` (TREC qrels, grades 1–2, every topic with 1–5
relevant documents and 0–5 documents judged 0), ``dense_run.tsv`` (a dense-style TREC run of
depth ``--depth``: most relevant documents somewhere in it, the rest random documents, scores in
(0, 1) strictly decreasing) and ``dense_metadata.json``.

Words are pseudo-words (``ka``, ``mibo``, …) drawn from a Zipf(1.0) vocabulary of 50,000; a
document has a 4–10-word title and 20–120 words of text. A query takes 2–6 words of its first
relevant document, preferring rarer ones, plus an occasional frequent word (as real queries
carry function words).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

SYLLABLES = [c + v for c in "bdfgklmnprstvz" for v in "aeiou"]


def vocabulary(size: int, rng: np.random.Generator) -> list[str]:
    words: set[str] = set()
    out = []
    while len(out) < size:
        n = int(rng.integers(1, 5))
        word = "".join(SYLLABLES[i] for i in rng.integers(0, len(SYLLABLES), size=n))
        if word not in words:
            words.add(word)
            out.append(word)
    return out


def generate(out: Path, n_docs: int, n_topics: int, depth: int, seed: int, vocab_size: int = 50_000) -> None:
    rng = np.random.default_rng(seed)
    vocab = vocabulary(vocab_size, rng)
    p = 1.0 / np.arange(1, vocab_size + 1)
    p /= p.sum()
    out.mkdir(parents=True, exist_ok=True)
    title_len = rng.integers(4, 11, size=n_docs)
    text_len = rng.integers(20, 121, size=n_docs)
    total = int(title_len.sum() + text_len.sum())
    ids = rng.choice(vocab_size, size=total, p=p)
    doc_ids = [f"doc{i:07d}" for i in range(n_docs)]
    doc_words: list[np.ndarray] = []
    with open(out / "corpus.jsonl", "w", encoding="utf-8") as handle:
        start = 0
        for i in range(n_docs):
            t, x = int(title_len[i]), int(text_len[i])
            words = ids[start:start + t + x]
            start += t + x
            if i < 4 * n_topics * 5:
                doc_words.append(words)
            title = " ".join(vocab[w] for w in words[:t].tolist())
            text = " ".join(vocab[w] for w in words[t:].tolist()) + "."
            handle.write(json.dumps({"_id": doc_ids[i], "doc_id": doc_ids[i], "title": title, "text": text,
                                     "source_type": "generated", "license": "CC0-1.0"}) + "\n")
    # relevant documents: disjoint blocks of the first documents, shuffled
    pool = rng.permutation(min(n_docs, 4 * n_topics * 5))
    qrels, queries, run_lines = [], [], []
    cursor = 0
    for q in range(n_topics):
        tid = f"q{q:05d}"
        n_rel = int(rng.integers(1, 6))
        relevant = pool[cursor:cursor + n_rel].tolist()
        cursor += n_rel
        non_rel = rng.integers(0, n_docs, size=int(rng.integers(0, 6))).tolist()
        for d in relevant:
            qrels.append(f"{tid} 0 {doc_ids[d]} {int(rng.integers(1, 3))}")
        for d in sorted(set(non_rel) - set(relevant)):
            qrels.append(f"{tid} 0 {doc_ids[d]} 0")
        words = np.unique(doc_words[relevant[0]])
        rare = words[np.argsort(-words, kind="stable")][:max(2, len(words) // 3)]
        n_q = int(rng.integers(2, 7))
        chosen = rng.choice(rare, size=min(n_q, len(rare)), replace=False).tolist()
        if rng.random() < 0.5:
            chosen.append(int(rng.integers(0, 20)))
        query = " ".join(vocab[w] for w in chosen)
        queries.append({"_id": tid, "topic_id": tid, "text": query, "query": query})
        listed = [d for d in relevant if rng.random() < 0.8]
        others = rng.choice(n_docs, size=depth * 2, replace=False).tolist()
        listed += [d for d in others if d not in listed][:depth - len(listed)]
        order = rng.permutation(len(listed))
        scores = np.sort(rng.random(len(listed)))[::-1] * 0.5 + 0.25
        for rank, (pos, score) in enumerate(zip(order.tolist(), scores.tolist()), start=1):
            run_lines.append(f"{tid} Q0 {doc_ids[listed[pos]]} {rank} {score:.6f} dense")
    (out / "queries.jsonl").write_text("".join(json.dumps(q) + "\n" for q in queries), encoding="utf-8")
    (out / "qrels.txt").write_text("\n".join(qrels) + "\n", encoding="utf-8")
    (out / "dense_run.tsv").write_text("\n".join(run_lines) + "\n", encoding="utf-8")
    (out / "dense_metadata.json").write_text(json.dumps({"model_identity": "none"}) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--topics", type=int, default=100)
    parser.add_argument("--depth", type=int, default=100)
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    generate(args.out, args.docs, args.topics, args.depth, args.seed)


if __name__ == "__main__":
    main()
