#!/usr/bin/env python3
"""Standalone check that the L03 fixture reproduces every W03 worked-case figure.

This script deliberately imports nothing from the project: it re-implements, from the
conventions stated in the fixture brief, the tokeniser, positive-IDF BM25 (k1=1.2, b=0.75),
per-topic min-max fusion (alpha=0.55), the fixed-set reranker (weight 0.25 over the hybrid
top 5) and Recall/NDCG@3 (gain 2^g - 1, discount log2(rank+1), ideal over all judged grades).
It then prints PASS/FAIL for each figure of the W03 case, plus robustness checks (no fragile
near-ties, rerank margin) and data-hygiene checks (fields, licence, no copied seed sentences).

Usage::

    python bench/design/l03_fixture_check.py [--fixture engine/fixtures/l03] [--seed PATH]

Exit status 0 when every check passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_FIXTURE = ROOT / "engine" / "fixtures" / "l03"
DEFAULT_SEED = Path("/work/shared/seeds/001_ebef38b6bd9f9237.txt")

TOKEN_RE = re.compile(r"[a-z0-9]+(?:[-'][a-z0-9]+)?", re.IGNORECASE)
K1, B = 1.2, 0.75
ALPHA, RERANK_WEIGHT, DEPTH, K = 0.55, 0.25, 5, 3
MIN_GAP = 0.02  # smallest score gap we accept between adjacent ranks that matter


# --------------------------------------------------------------------------- loading
def tokenize(text: str) -> list[str]:
    return [t.lower() for t in TOKEN_RE.findall(text)]


def load(fixture: Path) -> dict:
    corpus = [json.loads(l) for l in (fixture / "corpus.jsonl").read_text("utf-8").splitlines() if l.strip()]
    topics = [json.loads(l) for l in (fixture / "topics.jsonl").read_text("utf-8").splitlines() if l.strip()]
    qrels: dict[str, dict[str, float]] = {}
    qrel_rows = 0
    for line in (fixture / "qrels.txt").read_text("utf-8").splitlines():
        if line.strip():
            topic, _, doc, grade = line.split()
            qrels.setdefault(topic, {})[doc] = float(grade)
            qrel_rows += 1
    run: dict[str, dict[str, float]] = {}
    for line in (fixture / "supplied_run.tsv").read_text("utf-8").splitlines():
        if line.strip():
            topic, q0, doc, rank, score, tag = line.split()
            assert q0 == "Q0" and rank.isdigit(), line
            run.setdefault(topic, {})[doc] = float(score)
    metadata = json.loads((fixture / "supplied_run_metadata.json").read_text("utf-8"))
    return {"corpus": corpus, "topics": topics, "qrels": qrels, "qrel_rows": qrel_rows,
            "run": run, "metadata": metadata}


# --------------------------------------------------------------------------- models
def order(scores: dict[str, float]) -> list[tuple[str, float]]:
    return sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))


def doc_tokens(corpus: list[dict]) -> dict[str, list[str]]:
    return {d["doc_id"]: tokenize(d["title"] + " " + d["text"]) for d in corpus}


def idf(n_docs: int, df: int) -> float:
    return math.log(1 + (n_docs - df + 0.5) / (df + 0.5))


def bm25(query: str, toks: dict[str, list[str]]) -> list[tuple[str, float]]:
    n_docs = len(toks)
    avgdl = sum(len(t) for t in toks.values()) / n_docs
    counts = {d: Counter(t) for d, t in toks.items()}
    df = Counter(term for c in counts.values() for term in c)
    scores: dict[str, float] = {}
    for d, c in counts.items():
        norm = K1 * (1 - B + B * len(toks[d]) / avgdl)
        s = 0.0
        for term in tokenize(query):
            f = c.get(term, 0)
            if f:
                s += idf(n_docs, df[term]) * f * (K1 + 1) / (f + norm)
        if s > 0:
            scores[d] = s
    return order(scores)


def minmax(ranked: list[tuple[str, float]]) -> dict[str, float]:
    if not ranked:
        return {}
    hi, lo = max(s for _, s in ranked), min(s for _, s in ranked)
    return {d: ((s - lo) / (hi - lo) if hi > lo else 0.0) for d, s in ranked}


def hybrid(bm: list[tuple[str, float]], sup: list[tuple[str, float]]) -> list[tuple[str, float]]:
    nb, ns = minmax(bm), minmax(sup)
    return order({d: ALPHA * nb.get(d, 0.0) + (1 - ALPHA) * ns.get(d, 0.0) for d in set(nb) | set(ns)})


def rerank(query: str, hyb: list[tuple[str, float]], toks: dict[str, list[str]]) -> list[tuple[str, float]]:
    q = set(tokenize(query))
    out = {}
    for d, h in hyb[:DEPTH]:
        feature = len(q & set(toks[d])) / len(q)
        out[d] = (1 - RERANK_WEIGHT) * h + RERANK_WEIGHT * feature
    return order(out)


# --------------------------------------------------------------------------- metrics
def recall(ranking: list[str], judged: dict[str, float], k: int = K) -> float:
    rel = {d for d, g in judged.items() if g > 0}
    return len(rel & set(ranking[:k])) / len(rel)


def ndcg(ranking: list[str], judged: dict[str, float], k: int = K) -> float:
    def dcg(grades):
        return sum((2 ** g - 1) / math.log2(i + 2) for i, g in enumerate(grades))
    ideal = dcg(sorted(judged.values(), reverse=True)[:k])
    return dcg([judged.get(d, 0.0) for d in ranking[:k]]) / ideal


# --------------------------------------------------------------------------- everything
def compute(fixture: Path = DEFAULT_FIXTURE) -> dict:
    data = load(fixture)
    toks = doc_tokens(data["corpus"])
    queries = {t["topic_id"]: t["query"] for t in data["topics"]}
    runs: dict[str, dict[str, list[tuple[str, float]]]] = {"bm25": {}, "supplied": {}, "hybrid": {}, "reranked": {}}
    for topic, query in queries.items():
        runs["bm25"][topic] = bm25(query, toks)
        runs["supplied"][topic] = order(data["run"].get(topic, {}))
        runs["hybrid"][topic] = hybrid(runs["bm25"][topic], runs["supplied"][topic])
        runs["reranked"][topic] = rerank(query, runs["hybrid"][topic], toks)
    metrics = {}
    for method, per_topic in runs.items():
        rec = {t: recall([d for d, _ in per_topic[t]], data["qrels"][t]) for t in queries}
        nd = {t: ndcg([d for d, _ in per_topic[t]], data["qrels"][t]) for t in queries}
        metrics[method] = {"recall": rec, "ndcg": nd,
                           "macro_recall": sum(rec.values()) / len(rec),
                           "macro_ndcg": sum(nd.values()) / len(nd)}
    counts = {d: Counter(t) for d, t in toks.items()}
    df = Counter(term for c in counts.values() for term in c)
    return {"data": data, "toks": toks, "queries": queries, "runs": runs, "metrics": metrics,
            "counts": counts, "df": df}


def top(ranked, k=K):
    return [d for d, _ in ranked[:k]]


def checks(res: dict, seed: Path | None = DEFAULT_SEED) -> list[tuple[str, bool, str]]:
    out: list[tuple[str, bool, str]] = []

    def check(name, ok, detail=""):
        out.append((name, bool(ok), detail))

    def eq(name, actual, expected):
        check(name, actual == expected, f"got {actual!r}, want {expected!r}")

    data, toks, runs, m = res["data"], res["toks"], res["runs"], res["metrics"]
    qrels = data["qrels"]

    # -- corpus shape
    ids = [d["doc_id"] for d in data["corpus"]]
    eq("corpus doc ids", ids, [f"D-{i:03d}" for i in range(1, 11)])
    fields = {"doc_id", "title", "text", "source_type", "license"}
    eq("corpus fields", sorted({tuple(sorted(d)) for d in data["corpus"]}), [tuple(sorted(fields))])
    eq("corpus license", {d["license"] for d in data["corpus"]}, {"CC0-1.0"})
    lengths = {"D-001": 21, "D-002": 20, "D-003": 20, "D-004": 19, "D-005": 21,
               "D-006": 18, "D-007": 21, "D-008": 20, "D-009": 24, "D-010": 21}
    for d, n in lengths.items():
        eq(f"length {d}", len(toks[d]), n)
    avgdl = sum(len(t) for t in toks.values()) / len(toks)
    eq("mean length", f"{avgdl:.1f}", "20.5")

    # -- topics, qrels, metadata
    eq("topic ids", [t["topic_id"] for t in data["topics"]], ["T-01", "T-02", "T-03"])
    eq("T-03 query tokens", tokenize(res["queries"]["T-03"]),
       ["query", "sampling", "strata", "negative", "controls", "held", "out"])
    eq("qrels rows", data["qrel_rows"], 7)
    eq("qrels", qrels, {"T-01": {"D-001": 3.0, "D-002": 2.0}, "T-02": {"D-003": 3.0, "D-004": 2.0},
                        "T-03": {"D-005": 3.0, "D-006": 2.0, "D-010": 1.0}})
    eq("run metadata", data["metadata"], {"values": "authored", "model_identity": "none"})

    # -- T-03 document frequencies and IDF
    want_df = {"query": 6, "sampling": 1, "strata": 2, "negative": 1, "controls": 1, "held": 1, "out": 1}
    want_idf = {"query": "0.526093", "sampling": "1.992430", "strata": "1.481605", "negative": "1.992430",
                "controls": "1.992430", "held": "1.992430", "out": "1.992430"}
    for t, n in want_df.items():
        eq(f"df {t}", res["df"][t], n)
        eq(f"idf {t}", f"{idf(len(toks), res['df'][t]):.6f}", want_idf[t])

    # -- T-03 BM25 trace
    bm03 = runs["bm25"]["T-03"]
    eq("T-03 BM25 top 5 (9 dp)", [(d, f"{s:.9f}") for d, s in bm03[:5]],
       [("D-005", "8.654282550"), ("D-006", "7.047062981"), ("D-008", "0.531395266"),
        ("D-001", "0.520895689"), ("D-010", "0.520895689")])
    eq("T-03 BM25 rank of D-010", [d for d, _ in bm03].index("D-010") + 1, 5)
    eq("T-03 BM25 list length (6 docs contain 'query')", len(bm03), 6)
    c = res["counts"]
    eq("D-005 T-03 tfs", {t: c["D-005"][t] for t in want_df if c["D-005"][t]},
       {"query": 1, "sampling": 2, "strata": 1, "held": 1, "out": 1})
    eq("D-006 T-03 tfs", {t: c["D-006"][t] for t in want_df if c["D-006"][t]},
       {"query": 1, "strata": 1, "negative": 1, "controls": 2})
    for d in ("D-008", "D-001", "D-010"):
        eq(f"{d} T-03 tfs", {t: c[d][t] for t in want_df if c[d][t]}, {"query": 1})

    # -- top-3 lists
    want_top = {
        "bm25": {"T-01": ["D-001", "D-004", "D-002"], "T-02": ["D-009", "D-003", "D-004"],
                 "T-03": ["D-005", "D-006", "D-008"]},
        "hybrid": {"T-02": ["D-009", "D-003", "D-004"], "T-03": ["D-005", "D-006", "D-010"]},
        "supplied": {"T-03": ["D-005", "D-010", "D-006"]},
    }
    for method, per in want_top.items():
        for t, lst in per.items():
            eq(f"{method} {t} top 3", top(runs[method][t]), lst)
    for t, first_two in (("T-01", ["D-002", "D-001"]), ("T-02", ["D-004", "D-003"])):
        got = top(runs["supplied"][t])
        check(f"supplied {t} top 3 = {first_two} + non-relevant",
              got[:2] == first_two and qrels[t].get(got[2], 0) == 0, f"got {got}")
    got = top(runs["hybrid"]["T-01"])
    check("hybrid T-01 top 3 = D-001, D-002 + non-relevant",
          got[:2] == ["D-001", "D-002"] and qrels["T-01"].get(got[2], 0) == 0, f"got {got}")
    eq("hybrid T-03 rank of D-010", top(runs["hybrid"]["T-03"], 10).index("D-010") + 1, 3)
    for t in res["queries"]:
        eq(f"reranked {t} top 3 = hybrid top 3", top(runs["reranked"][t]), top(runs["hybrid"][t]))

    # -- per-topic BM25 metrics and macro figures
    for t, r, n in (("T-01", "1.000000", "0.955831"), ("T-02", "1.000000", "0.665315"),
                    ("T-03", "0.666667", "0.946768")):
        eq(f"bm25 {t} recall@3", f"{m['bm25']['recall'][t]:.6f}", r)
        eq(f"bm25 {t} ndcg@3", f"{m['bm25']['ndcg'][t]:.6f}", n)
    for method, r, n in (("bm25", "0.888889", "0.855971"), ("supplied", "1.000000", "0.880035"),
                         ("hybrid", "1.000000", "0.888438"), ("reranked", "1.000000", "0.888438")):
        eq(f"{method} macro recall@3", f"{m[method]['macro_recall']:.6f}", r)
        eq(f"{method} macro ndcg@3", f"{m[method]['macro_ndcg']:.6f}", n)
    eq("macro recall delta hybrid - bm25",
       f"{m['hybrid']['macro_recall'] - m['bm25']['macro_recall']:.6f}", "0.111111")

    # -- robustness: no fragile near-ties where the figures depend on order
    def gaps(ranked, upto):
        s = [v for _, v in ranked[:upto + 1]]
        return [s[i] - s[i + 1] for i in range(min(upto, len(s) - 1))]

    for t in ("T-01", "T-02"):
        g = gaps(runs["bm25"][t], 3)  # ranks 1-2, 2-3, 3-4
        check(f"bm25 {t} gaps ranks 1..4 >= {MIN_GAP}", min(g) >= MIN_GAP, f"gaps {[round(x, 4) for x in g]}")
    g = gaps(runs["bm25"]["T-03"], 2)
    check(f"bm25 T-03 gaps ranks 1..3 >= {MIN_GAP / 2}", min(g) >= MIN_GAP / 2, f"gaps {[round(x, 4) for x in g]}")
    for method in ("supplied", "hybrid", "reranked"):
        for t in res["queries"]:
            g = gaps(runs[method][t], 3)
            check(f"{method} {t} gaps ranks 1..4 >= {MIN_GAP}", min(g) >= MIN_GAP,
                  f"gaps {[round(x, 4) for x in g]}")

    # -- robustness: an engine that truncated each component list to the candidate depth before
    #    normalising would still give the same hybrid and reranked top 3
    for t, query in res["queries"].items():
        hyb = hybrid(runs["bm25"][t][:DEPTH], runs["supplied"][t][:DEPTH])
        eq(f"hybrid {t} top 3 unchanged under depth-{DEPTH} truncation", top(hyb), top(runs["hybrid"][t]))
        eq(f"reranked {t} top 3 unchanged under depth-{DEPTH} truncation",
           top(rerank(query, hyb, toks)), top(runs["reranked"][t]))

    # -- hygiene
    types = {d["source_type"] for d in data["corpus"]}
    check("source_type values", types <= {"note", "guide", "faq"}, f"got {sorted(types)}")
    if seed is not None and seed.exists():
        seed_toks = tokenize(seed.read_text("utf-8"))
        grams = {tuple(seed_toks[i:i + 6]) for i in range(len(seed_toks) - 5)}
        # the T-03 query is mandated verbatim by the spec, so only T-01/T-02 queries are checked
        texts = [d["title"] + " " + d["text"] for d in data["corpus"]] + [
            t["query"] for t in data["topics"] if t["topic_id"] != "T-03"]
        shared = sorted({" ".join(g) for x in texts for g in
                         (tuple(tokenize(x)[i:i + 6]) for i in range(len(tokenize(x)) - 5)) if g in grams})
        check("no 6-token run shared with the seed text", not shared, f"shared {shared}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fixture", type=Path, default=DEFAULT_FIXTURE)
    ap.add_argument("--seed", type=Path, default=DEFAULT_SEED)
    ap.add_argument("--verbose", action="store_true", help="also print every run with scores")
    args = ap.parse_args(argv)
    res = compute(args.fixture)
    if args.verbose:
        for d, t in res["toks"].items():
            print(d, len(t), " ".join(t))
        for method, per in res["runs"].items():
            for t, ranked in per.items():
                print(method, t, " ".join(f"{d}:{s:.6f}" for d, s in ranked))
    results = checks(res, args.seed)
    for name, ok, detail in results:
        print(f"{'PASS' if ok else 'FAIL'}  {name}" + ("" if ok else f"  ({detail})"))
    failed = sum(not ok for _, ok, _ in results)
    print(f"{len(results) - failed}/{len(results)} checks passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
