"""The peer pipeline of bench/bench_pipeline.py (bm25s + ranx), and our BM25 retrieval alone.

    python bench/pipeline_peer.py peer COLLECTION OUT_DIR [--depth 1000] [--k 10] [--alpha 0.55]
    python bench/pipeline_peer.py bm25-alone COLLECTION [--depth 1000]

``peer`` does the work of ``sandbox run`` that has a peer equivalent, with the same conventions:
read the corpus and queries, tokenise with our pattern (bm25s lowercases, then matches), index
(bm25s ``method="lucene"``, k1 1.2, b 0.75), score every query against every document
(``get_scores``) so that min–max normalisation runs over every positive-score document as the
W03 rule says, keep the top ``--depth`` (ties by document id), normalise the dense run over its
rows, fuse with ranx (``wsum``, weights α and 1 − α, already-normalised runs), evaluate
``ndcg_burges@k`` and ``recall@k`` with ranx for BM25, the dense run and the hybrid under our
tie rule (each list re-ordered by score descending, then document id ascending, and scored by
rank, since ranx orders tied scores its own way), and write the three TREC runs with ranx. It prints one JSON line of macro metrics.

``bm25-alone`` is our own BM25 retrieval without the pipeline around it (read, tokenise,
index, score and take the top ``--depth`` of every query), the yardstick of the "sandbox within
3× its BM25 retrieval" goal.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DISABLE_TQDM", "1")

from engine.retrieval.text import TOKEN_PATTERN  # noqa: E402

K1, B = 1.2, 0.75


def read_collection(collection: Path):
    ids, texts = [], []
    with open(collection / "corpus.jsonl", encoding="utf-8") as handle:
        for line in handle:
            record = json.loads(line)
            ids.append(record["_id"])
            texts.append(record["title"] + " " + record["text"])
    queries = [json.loads(line) for line in open(collection / "queries.jsonl", encoding="utf-8")]
    return ids, texts, [(q["_id"], q["text"]) for q in queries]


def peer(collection: Path, out: Path, depth: int, k: int, alpha: float) -> None:
    import bm25s
    import ranx

    clock = [time.perf_counter()]

    def lap(name: str) -> None:
        now = time.perf_counter()
        print(f"  peer {name}: {now - clock[0]:.1f}s", file=sys.stderr)
        clock[0] = now

    ids, texts, queries = read_collection(collection)
    corpus_tokens = bm25s.tokenize(texts, lower=True, token_pattern=TOKEN_PATTERN, stopwords=None,
                                   show_progress=False)
    del texts
    retriever = bm25s.BM25(method="lucene", k1=K1, b=B)
    retriever.index(corpus_tokens, show_progress=False)
    vocab = corpus_tokens.vocab
    del corpus_tokens
    id_order = np.argsort(np.asarray(ids, dtype=object), kind="stable")
    tie_key = np.empty(len(ids), dtype=np.int64)
    tie_key[id_order] = np.arange(len(ids))
    query_tokens = bm25s.tokenize([q for _, q in queries], lower=True, token_pattern=TOKEN_PATTERN,
                                  stopwords=None, show_progress=False, return_ids=False)
    bm25_run, bm25_norm = {}, {}
    dense = ranx.Run.from_file(str(collection / "dense_run.tsv"), kind="trec")
    dense_dict = dense.to_dict()
    position = {d: i for i, d in enumerate(ids)}
    lap("index")
    for (qid, _), tokens in zip(queries, query_tokens):
        known = [t for t in tokens if t in vocab]
        scores = retriever.get_scores(known) if known else np.zeros(len(ids))
        positive = np.flatnonzero(scores > 0)
        if positive.size == 0:
            continue
        s = scores[positive]
        low, high = s.min(), s.max()
        n = min(depth, positive.size)
        top = positive[np.argpartition(-s, n - 1)[:n]] if n < positive.size else positive
        cut = scores[top].min()
        top = positive[s >= cut]
        top = top[np.lexsort((tie_key[top], -scores[top]))][:n]
        bm25_run[qid] = {ids[i]: float(scores[i]) for i in top.tolist()}
        # the hybrid's BM25 component also covers the dense run's documents below the depth
        extra = [position[d] for d in dense_dict.get(qid, {})]
        keep = np.union1d(top, np.asarray([i for i in extra if scores[i] > 0], dtype=np.int64))
        span = high - low
        bm25_norm[qid] = {ids[i]: (float(scores[i]) - low) / span if span > 0 else 0.0 for i in keep.tolist()}
    lap("retrieve")
    dense_norm = {}
    for qid, docs in dense_dict.items():
        values = list(docs.values())
        low, high = min(values), max(values)
        dense_norm[qid] = {d: (v - low) / (high - low) if high > low else 0.0 for d, v in docs.items()}
    qrels = ranx.Qrels.from_file(str(collection / "qrels.txt"), kind="trec")
    runs = {"bm25": ranx.Run(bm25_run, name="bm25"), "frozen_dense": dense}
    runs["hybrid"] = ranx.fuse([ranx.Run(bm25_norm), ranx.Run(dense_norm)], norm=None, method="wsum",
                               params={"weights": [alpha, 1.0 - alpha]})
    lap("fuse")
    metrics = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name, run in runs.items():
            # ranx orders score ties its own way; evaluate the order of our tie rule (score
            # descending, then document id ascending) by scoring each list with its rank
            ordered = {}
            for qid, docs in run.to_dict().items():
                names = list(docs)
                order = np.lexsort((tie_key[[position[d] for d in names]], -np.fromiter(docs.values(), float)))
                ordered[qid] = {names[i]: float(len(names) - r) for r, i in enumerate(order.tolist())}
            values = ranx.evaluate(qrels, ranx.Run(ordered), [f"ndcg_burges@{k}", f"recall@{k}"],
                                   make_comparable=True)
            metrics[name] = {f"ndcg@{k}": float(values[f"ndcg_burges@{k}"]), f"recall@{k}": float(values[f"recall@{k}"])}
    lap("evaluate")
    out.mkdir(parents=True, exist_ok=True)
    for name, run in runs.items():
        run.name = name
        run.save(str(out / f"{name}.tsv"), kind="trec")
    lap("write")
    print(json.dumps(metrics, sort_keys=True))


def bm25_alone(collection: Path, depth: int) -> None:
    from engine.retrieval.bm25 import BM25
    from engine.retrieval.corpus import read_corpus_index, read_topics

    index = read_corpus_index(collection / "corpus.jsonl")
    scorer = BM25(index, k1=K1, b=B)
    listed = 0
    for topic in read_topics(collection / "queries.jsonl"):
        listed += len(scorer.top_k(topic.tokens, depth))
    print(json.dumps({"rows": listed}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mode", choices=("peer", "bm25-alone"))
    parser.add_argument("collection", type=Path)
    parser.add_argument("out", type=Path, nargs="?")
    parser.add_argument("--depth", type=int, default=1000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--alpha", type=float, default=0.55)
    args = parser.parse_args()
    if args.mode == "peer":
        peer(args.collection, args.out, args.depth, args.k, args.alpha)
    else:
        bm25_alone(args.collection, args.depth)


if __name__ == "__main__":
    main()
