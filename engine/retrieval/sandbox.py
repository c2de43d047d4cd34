"""The L03 retrieval sandbox: BM25, a supplied run, min–max hybrid, fixed-set reranking.

Pipeline (docs/DEVELOPING.md, "A pipeline, in order"; conventions in docs/sandbox.md):

1. read and validate every input (:mod:`engine.retrieval.corpus`, :mod:`engine.retrieval.trec`) and the
   parameters; any defect is an InputError before anything runs or is logged;
2. build the manifest (input sha256 by role, parameters incl. the tokenizer pattern) → run id;
   with ``frozen_manifest`` any difference in input hashes or parameters is a stop condition:
   the run is logged ``invalid`` and nothing is written; then the output directory is checked
   (:func:`engine.runs.outdir.check_target`: another run's output is never overwritten);
3. inside :func:`engine.runs.runlog.recorded_run` compute the four runs per topic
   (``bm25``, ``frozen_dense`` = the supplied run, ``hybrid``, ``reranked``), Recall@k/NDCG@k,
   the per-topic error analysis and the stage-boundary table, write them all into a staging
   directory and publish it at once.

Outputs: ``run_manifest.json``, ``runs/{bm25,frozen_dense,hybrid,reranked}.tsv`` (TREC, 9
decimals, the first ``--run-depth`` rows of each list; fusion uses the whole lists),
``metrics.json``, ``topic_error_analysis.csv``, ``stage_boundary.json`` and ``index_summary.json`` (document lengths, avgdl, per-topic query tokens with df and IDF).
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from engine.retrieval.bm25 import BM25, DEFAULT_B, DEFAULT_K1
from engine.retrieval.corpus import Topic, read_corpus_index, read_metadata, read_topics, supplied_run_label
from engine.runs.errors import InputError
from engine.runs.hashing import LazyMapping, write_json
from engine.retrieval.index import InvertedIndex
from engine.runs.manifest import build_manifest, input_hashes, manifest_differences
from engine.retrieval.measures import (JudgedHits, Measure, definition, evaluate_hits, macro, parse_measures,
                                       topic_judgments)
from engine.retrieval.metrics import relevant_set
from engine.retrieval.ranked import RankedList
from engine.runs.csvcells import neutralise_cell
from engine.runs.outdir import check_target, publish, staged_directory
from engine.runs.progress import tracked
from engine.retrieval.fusion import DEFAULT_RRF_K, FUSION_METHODS, fuse_arrays
from engine.retrieval.ranking import order_by_written_score
from engine.retrieval.rerank import rerank
from engine.runs.runlog import DEFAULT_LOG, InvalidRun, recorded_run
from engine.runs.opener import display_name
from engine.retrieval.text import TOKEN_PATTERN, tokenizer_description
from engine.retrieval.trec import Qrels, Run, read_qrels, read_run, write_run
from engine.runs.jsonl import read_json_file

COMMAND = "sandbox run"
MANIFEST_NAME = "run_manifest.json"
METHODS = ("bm25", "frozen_dense", "hybrid", "reranked")
RUN_FILES = {method: f"runs/{method}.tsv" for method in METHODS}
NDCG_ONE_TOLERANCE = 1e-12
DEFAULT_RUN_DEPTH = 1000

# the ranking every sandbox measure reads (engine.retrieval.ranking; docs/sandbox.md)
SANDBOX_RANKING = ("the sandbox's ranking: score as written (9 decimals) descending, equal scores by "
                   "document id ascending; `evaluate --ties ours` on the written run gives the same values")

DIAGNOSIS_NOT_RETRIEVED = "not retrieved"
DIAGNOSIS_CUTOFF_MISS = "candidate miss at cutoff"
DIAGNOSIS_ORDERING = "ordering problem"
DIAGNOSIS_NONE = "none"


@dataclass(frozen=True)
class SandboxParameters:
    """Every parameter of a sandbox run (all recorded in the manifest and the log)."""

    k: int = 3
    candidate_depth: int = 5
    hybrid_alpha: float = 0.55
    rerank_weight: float = 0.25
    k1: float = DEFAULT_K1
    b: float = DEFAULT_B
    run_depth: int = DEFAULT_RUN_DEPTH
    measures: str = ""
    fusion: str = "minmax"          # engine.retrieval.fusion.FUSION_METHODS
    rrf_k: int = DEFAULT_RRF_K

    def validate(self) -> None:
        """InputError (naming the option) for an out-of-range or non-finite parameter."""
        for option, value in (("--hybrid-alpha", self.hybrid_alpha), ("--rerank-weight", self.rerank_weight),
                              ("--k1", self.k1), ("--b", self.b)):
            if not isinstance(value, (int, float)) or not math.isfinite(value):
                raise InputError(f"must be a finite number, got {value!r}", field=option)
        checks = [
            (self.k >= 1, "--k", "must be >= 1"),
            (self.candidate_depth >= self.k, "--candidate-depth", f"must be >= --k ({self.k})"),
            (0.0 <= self.hybrid_alpha <= 1.0, "--hybrid-alpha", "must lie in [0, 1]"),
            (0.0 <= self.rerank_weight <= 1.0, "--rerank-weight", "must lie in [0, 1]"),
            (self.k1 >= 0.0, "--k1", "must be >= 0"),
            (0.0 <= self.b <= 1.0, "--b", "must lie in [0, 1]"),
            (self.run_depth >= self.k, "--run-depth", f"must be >= --k ({self.k})"),
            (self.fusion in FUSION_METHODS, "--fusion", f"must be one of {', '.join(FUSION_METHODS)}"),
            (self.rrf_k >= 0, "--rrf-k", "must be >= 0"),
        ]
        for ok, option, message in checks:
            if not ok:
                raise InputError(message, field=option)
        self.measure_list()

    def measure_list(self) -> tuple[Measure, ...]:
        """The ``--measures`` beyond recall@k and ndcg@k (empty when none are asked for)."""
        return parse_measures(self.measures, "--measures") if self.measures.strip() else ()

    def as_dict(self) -> dict[str, Any]:
        values = asdict(self)
        values["tokenizer_pattern"] = TOKEN_PATTERN
        # the default (W03's min–max fusion) is recorded as before, so W03's run ids are unchanged
        if self.fusion == "minmax":
            del values["fusion"], values["rrf_k"]
        elif self.fusion != "rrf":
            del values["rrf_k"]
        return values


@dataclass(frozen=True)
class SandboxInputs:
    corpus: Path
    topics: Path
    qrels: Path
    supplied_run: Path
    supplied_metadata: Path

    def roles(self) -> dict[str, Path]:
        return {"corpus": self.corpus, "topics": self.topics, "qrels": self.qrels,
                "supplied_run": self.supplied_run, "supplied_run_metadata": self.supplied_metadata}


@dataclass
class LoadedInputs:
    index: InvertedIndex            # the corpus, indexed as it was read (texts and tokens not kept)
    topics: list[Topic]
    qrels: Qrels
    supplied: Run
    metadata: dict[str, Any]


@dataclass
class SandboxResult:
    """Everything a sandbox run computes (before rendering to files)."""

    index: InvertedIndex
    scorer: BM25
    topics: list[Topic]
    qrels: Qrels
    runs: dict[str, Run]
    metrics: dict[str, Any]
    labels: dict[str, str]
    error_rows: list[dict[str, Any]]
    stage_boundary: dict[str, Any]
    full_ranks: dict[str, dict[str, dict[str, int | None]]] = field(default_factory=dict)
    evidence: dict[str, dict[str, Any]] = field(default_factory=dict)


def load_inputs(inputs: SandboxInputs) -> LoadedInputs:
    """Read and cross-validate every input; the first defect raises InputError (FILE:LINE)."""
    index = read_corpus_index(inputs.corpus)
    doc_ids = index.doc_ids
    topics = read_topics(inputs.topics)
    topic_ids = [t.topic_id for t in topics]
    qrels = read_qrels(inputs.qrels, topics=topic_ids, docs=doc_ids)
    for topic in topics:
        if not relevant_set(qrels.get(topic.topic_id, {})):
            raise InputError(f"topic {topic.topic_id!r} has no positive judgment in {display_name(inputs.qrels)}",
                             path=inputs.topics, line=topic.line)
    supplied = read_run(inputs.supplied_run, topics=topic_ids, docs=doc_ids)
    metadata = read_metadata(inputs.supplied_metadata)
    return LoadedInputs(index, topics, qrels, supplied, metadata)


FUSION_LABELS = {"minmax": "hybrid (min-max normalised weighted sum)", "rrf": "hybrid (reciprocal rank fusion, k={k})",
                 "combsum": "hybrid (CombSUM of min-max normalised scores)",
                 "combmnz": "hybrid (CombMNZ of min-max normalised scores)"}


def method_labels(metadata: dict[str, Any], fusion: str = "minmax", rrf_k: int = DEFAULT_RRF_K) -> dict[str, str]:
    """Display names of the four methods; the supplied run is never called a model unless declared."""
    return {"bm25": "BM25", "frozen_dense": supplied_run_label(metadata),
            "hybrid": FUSION_LABELS[fusion].format(k=rrf_k),
            "reranked": "transparent fixed-set reranker"}


def compute(loaded: LoadedInputs, params: SandboxParameters, run_id: str = "",
            bm25_scores: Any = None) -> SandboxResult:
    """Run all four methods and evaluate them (pure: no files written).

    Per topic, every list is held as arrays (:class:`engine.retrieval.ranked.RankedList`): the
    BM25 list is every document with a positive score and the hybrid list the union with the
    supplied run (the W03 rule), but only the first ``run_depth`` entries are ever sorted and
    kept. The analyses need only the judged documents: their ranks in the whole lists are
    counted, not found by sorting. A document's query-token coverage (the reranker's feature,
    the stage table's matched tokens) is read from the index postings, so no per-document token
    set is built.

    ``bm25_scores(t)``, when given, is topic ``t``'s BM25 score array over the whole corpus
    computed elsewhere (on index shards, :mod:`engine.retrieval.sandbox_shards`; the same floats).
    """
    index = loaded.index
    scorer = BM25(index, k1=params.k1, b=params.b)
    tie_key = scorer.id_rank              # each document's place in doc_id order (the tie key)
    position = {doc: i for i, doc in enumerate(index.doc_ids)}
    presence = QueryTokenPresence(index)
    depth = params.run_depth
    runs: dict[str, Run] = {method: {} for method in METHODS}
    full_ranks: dict[str, dict[str, dict[str, int | None]]] = {method: {} for method in METHODS}
    evidence: dict[str, dict[str, Any]] = {}
    for number, topic in enumerate(tracked(loaded.topics, "sandbox run: scoring", unit="topics")):
        tid, query = topic.topic_id, topic.tokens
        judged = loaded.qrels.get(tid, {})
        relevant = sorted(relevant_set(judged))
        lists = topic_lists(scorer, query, loaded.supplied.get(tid, []), position, tie_key,
                            params.hybrid_alpha, params.fusion, params.rrf_k,
                            dense=None if bm25_scores is None else bm25_scores(number))
        for method in ("bm25", "frozen_dense", "hybrid"):
            head_pos, head_scores = lists[method].head(depth)
            runs[method][tid] = list(zip([index.doc_ids[i] for i in head_pos.tolist()], head_scores.tolist()))
        candidates = runs["hybrid"][tid][:params.candidate_depth] if depth >= params.candidate_depth \
            else _listed(lists["hybrid"], params.candidate_depth, index.doc_ids)
        present = presence.lookup(query, [position[doc] for doc, _ in candidates], index.doc_ids)
        # ranked on the scores as written (engine.retrieval.ranking), like every written list
        reranked = order_by_written_score(
            rerank(candidates, query, present, params.candidate_depth, params.rerank_weight))
        runs["reranked"][tid] = reranked[:depth]
        for method in METHODS:
            if method == "reranked":
                listed = {doc: r for r, (doc, _) in enumerate(reranked, start=1)}
                full_ranks[method][tid] = {doc: listed.get(doc) for doc in relevant}
            else:
                full_ranks[method][tid] = {doc: _rank(lists[method], runs[method][tid], doc, position[doc])
                                           for doc in relevant}
        top = {doc for doc, _ in runs["bm25"][tid][:params.k]}
        missed = [doc for doc in relevant if doc not in top]
        if missed:
            matched = presence.lookup(query, [position[doc] for doc in missed], index.doc_ids)
            scores = lists["bm25"]
            evidence[tid] = {doc: {"bm25_score": _score_of(scores, position[doc]),
                                   "matched_query_tokens": sorted(matched[doc])} for doc in missed}
    topic_ids = [t.topic_id for t in loaded.topics]
    metrics = evaluate(runs, loaded.qrels, topic_ids, params.k, params.measure_list())
    labels = method_labels(loaded.metadata, params.fusion, params.rrf_k)
    rows = error_analysis(runs, full_ranks, loaded.qrels, loaded.topics, params.k, labels, metrics)
    result = SandboxResult(index, scorer, loaded.topics, loaded.qrels, runs, metrics, labels, rows, {},
                           full_ranks, evidence)
    result.stage_boundary = stage_boundary(result, params, run_id)
    return result


class QueryTokenPresence:
    """Which of a query's distinct tokens each document contains, read from the index postings."""

    def __init__(self, index: InvertedIndex) -> None:
        self.index = index

    def lookup(self, query: Sequence[str], positions: list[int], doc_ids: Sequence[str]) -> dict[str, set[str]]:
        """``{doc_id: {query tokens the document contains}}`` for the given document positions."""
        index = self.index
        found: dict[str, set[str]] = {doc_ids[p]: set() for p in positions}
        if not positions:
            return found
        wanted = np.asarray(positions, dtype=np.int64)
        for token in sorted(set(query)):
            term = index.vocabulary.get(token)
            if term is None:
                continue
            postings = index.doc_index[index.indptr[term]:index.indptr[term + 1]]
            at = np.searchsorted(postings, wanted)
            hit = (at < postings.size) & (postings[np.minimum(at, postings.size - 1)] == wanted)
            for p in wanted[hit].tolist():
                found[doc_ids[p]].add(token)
        return found


def topic_lists(scorer: BM25, query: Sequence[str], supplied: list[tuple[str, float]],
                position: dict[str, int], tie_key: np.ndarray, alpha: float, fusion: str = "minmax",
                rrf_k: int = DEFAULT_RRF_K, dense: np.ndarray | None = None) -> dict[str, RankedList]:
    """The BM25, supplied and hybrid lists of one topic as arrays (hybrid as :func:`fusion.fuse`).

    Min–max normalisation and the weighted sum are the element-wise operations of
    :mod:`engine.retrieval.fusion` in the same order, so every score is bit-for-bit the same.
    With ``fusion`` ``rrf``, ``combsum`` or ``combmnz`` the hybrid is
    :func:`engine.retrieval.fusion.fuse_arrays` over the same two lists (RRF ranks in each list's
    own order: score as written descending, then id). ``dense``: the query's BM25 score array if
    already computed (on index shards).
    """
    if dense is None:
        dense = scorer.score_array(query)
    pos_b = np.flatnonzero(dense > 0.0)
    s_b = dense[pos_b]
    pos_s = np.asarray([position[doc] for doc, _ in supplied], dtype=np.int64)
    s_s = np.asarray([score for _, score in supplied], dtype=np.float64)
    left_b, right_s = _min_max(s_b), _min_max(s_s)
    in_b = dense[pos_s] > 0.0 if pos_s.size else np.zeros(0, dtype=bool)
    hyb_b = alpha * left_b + (1.0 - alpha) * 0.0
    if in_b.any():
        at = np.searchsorted(pos_b, pos_s[in_b])
        hyb_b[at] = alpha * left_b[at] + (1.0 - alpha) * right_s[in_b]
    hyb_s = alpha * 0.0 + (1.0 - alpha) * right_s[~in_b]
    lists = {"bm25": RankedList(pos_b, s_b, tie_key), "frozen_dense": RankedList(pos_s, s_s, tie_key)}
    if fusion == "minmax":
        lists["hybrid"] = RankedList(np.concatenate((pos_b, pos_s[~in_b])), np.concatenate((hyb_b, hyb_s)), tie_key)
        return lists
    parts = []
    for ranked in (lists["bm25"], lists["frozen_dense"]):
        ranks = np.zeros(len(ranked), dtype=np.int64)
        if fusion == "rrf" and len(ranked):
            ranks[ranked.head_indices(len(ranked))] = np.arange(1, len(ranked) + 1)
        parts.append((ranked.positions, ranked.scores, ranks))
    union, fused = fuse_arrays(fusion, parts, rrf_k)
    lists["hybrid"] = RankedList(union, fused, tie_key)
    return lists


def _min_max(scores: np.ndarray) -> np.ndarray:
    """:func:`engine.retrieval.fusion.min_max_normalise` on an array (all 0 when max == min)."""
    if scores.size == 0:
        return scores.copy()
    low, high = scores.min(), scores.max()
    if high == low:
        return np.zeros(scores.size, dtype=np.float64)
    return (scores - low) / (high - low)


def _listed(ranked: RankedList, n: int, doc_ids: Sequence[str]) -> list[tuple[str, float]]:
    positions, scores = ranked.head(n)
    return list(zip([doc_ids[i] for i in positions.tolist()], scores.tolist()))


def _rank(ranked: RankedList, head: list[tuple[str, float]], doc: str, doc_position: int) -> int | None:
    """Rank of ``doc`` in the whole list: its place in the written head, else counted."""
    for rank, (candidate, _) in enumerate(head, start=1):
        if candidate == doc:
            return rank
    return ranked.rank(doc_position)


def _score_of(ranked: RankedList, doc_position: int) -> float:
    where = np.flatnonzero(ranked.positions == doc_position)
    return float(ranked.scores[where[0]]) if where.size else 0.0


def evaluate(runs: dict[str, Run], qrels: Qrels, topic_ids: list[str], k: int,
             extra: Sequence[Measure] = ()) -> dict[str, Any]:
    """``{"macro": {method: {recall@k, ndcg@k, ...}}, "per_topic": {method: {topic: {...}}}}``.

    ``recall@k`` and ``ndcg@k`` always; then every measure of ``extra`` (ir_measures notation,
    :mod:`engine.retrieval.measures`) under its own key. Measures read the written runs.
    """
    measures = [Measure("recall", k), Measure("ndcg", k)]
    measures += [m for m in extra if m not in measures]
    stats = topic_judgments([qrels.get(t, {}) for t in topic_ids])
    per_topic: dict[str, dict[str, dict[str, float]]] = {}
    macro_values: dict[str, dict[str, float]] = {}
    for method in METHODS:
        topic, rank, grade, length = [], [], [], []
        for t, tid in enumerate(topic_ids):
            judged = qrels.get(tid, {})
            ranked = runs[method].get(tid, [])
            length.append(len(ranked))
            for r, (doc, _) in enumerate(ranked, start=1):
                g = judged.get(doc)
                if g is not None:
                    topic.append(t)
                    rank.append(r)
                    grade.append(g)
        hits = JudgedHits(np.asarray(topic, dtype=np.int64), np.asarray(rank, dtype=np.int64),
                          np.asarray(grade, dtype=np.float64), np.asarray(length, dtype=np.int64))
        values = evaluate_hits(measures, hits, stats)
        lists = {m.key: values[m.key].tolist() for m in measures}
        per_topic[method] = {tid: {key: lists[key][t] for key in lists} for t, tid in enumerate(topic_ids)}
        macro_values[method] = {m.key: macro(values[m.key]) for m in measures}
    return {"macro": macro_values, "per_topic": per_topic,
            "measure_definitions": {m.key: definition(m, SANDBOX_RANKING) for m in measures}}


def diagnose(rank_of_relevant: dict[str, int | None], ndcg: float, k: int) -> str:
    """The per-topic diagnosis (docs/sandbox.md, "Diagnosis rules"), first rule that applies:

    1. ``not retrieved``: a relevant document (grade > 0) is absent from the method's list;
    2. ``candidate miss at cutoff``: a relevant document is in the list but below rank k;
    3. ``ordering problem``: every relevant document is in the top k but NDCG@k < 1
       (a lower-graded or gain-zero document ranks above a higher-graded one);
    4. ``none``: all relevant documents in the top k in an ideal order (NDCG@k = 1).

    ``rank_of_relevant`` maps each relevant document to its rank in the whole list (None: absent).
    """
    ranks = list(rank_of_relevant.values())
    if any(r is None for r in ranks):
        return DIAGNOSIS_NOT_RETRIEVED
    if any(r > k for r in ranks):
        return DIAGNOSIS_CUTOFF_MISS
    if ndcg < 1.0 - NDCG_ONE_TOLERANCE:
        return DIAGNOSIS_ORDERING
    return DIAGNOSIS_NONE


def error_analysis(runs: dict[str, Run], full_ranks: dict[str, dict[str, dict[str, int | None]]],
                   qrels: Qrels, topics: list[Topic], k: int, labels: dict[str, str],
                   metrics: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per topic and method: relevant set, top-k, misses with their ranks, metrics, diagnosis."""
    rows = []
    for topic in topics:
        judged = qrels.get(topic.topic_id, {})
        relevant = sorted(relevant_set(judged))
        for method in METHODS:
            ranked = runs[method].get(topic.topic_id, [])
            ranks = full_ranks[method][topic.topic_id]
            top = [doc for doc, _ in ranked[:k]]
            misses = [doc for doc in relevant if doc not in top]
            miss_ranks = [f"{doc}@{ranks[doc] or 'absent'}" for doc in misses]
            gain_zero = [doc for doc in top if judged.get(doc, 0.0) <= 0.0]
            values = metrics["per_topic"][method][topic.topic_id]
            rows.append({
                "topic_id": topic.topic_id,
                "method": method,
                "method_label": labels[method],
                "relevant": ";".join(relevant),
                f"top_{k}": ";".join(top),
                "misses": ";".join(misses) or "none",
                "miss_ranks": ";".join(miss_ranks) or "none",
                "gain_zero_in_top_k": ";".join(gain_zero) or "none",
                f"recall@{k}": values[f"recall@{k}"],
                f"ndcg@{k}": values[f"ndcg@{k}"],
                "diagnosis": diagnose(ranks, values[f"ndcg@{k}"], k),
            })
    return rows


def render_csv(rows: list[dict[str, Any]]) -> str:
    """CSV text (``\\n`` line ends, floats with 9 decimals) of the error-analysis rows."""
    buffer = io.StringIO()
    if not rows:
        return ""
    writer = csv.DictWriter(buffer, fieldnames=list(rows[0]), lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow({key: (f"{value:.9f}" if isinstance(value, float) else neutralise_cell(value))
                         for key, value in row.items()})
    return buffer.getvalue()


def _fmt(value: float) -> str:
    return f"{value:.6f}"


def stage_boundary(result: SandboxResult, params: SandboxParameters, run_id: str) -> dict[str, Any]:
    """The stage-diagnosis table of this run, generated from its actual lists and metrics.

    Observations (each with ``observation``, ``stage_diagnosis``, ``held_fixed``,
    ``cannot_claim`` and ``evidence``), in this order:

    * every relevant document BM25 leaves out of its top k: its BM25 rank (or absence), then its
      hybrid rank;
    * every gain-zero document at rank 1 of a topic, naming the methods that put it there;
    * whether the reranked top-k lists and metrics equal the hybrid ones;
    * the macro Recall@k change from BM25 to hybrid.
    """
    k, depth = params.k, params.candidate_depth
    labels, runs, metrics = result.labels, result.runs, result.metrics
    recall_key, ndcg_key = f"recall@{k}", f"ndcg@{k}"
    observations: list[dict[str, Any]] = []
    lexical_fixed = ["corpus", "query", "tokenizer", "index", "qrels", "parameters"]
    for topic in result.topics:
        tid = topic.topic_id
        judged = result.qrels.get(tid, {})
        bm25_list = runs["bm25"][tid]
        top = {doc for doc, _ in bm25_list[:k]}
        for doc in sorted(relevant_set(judged) - top):
            bm25_rank = result.full_ranks["bm25"][tid][doc]
            found = result.evidence[tid][doc]
            evidence = {"topic_id": tid, "doc_id": doc, "grade": judged[doc], "bm25_rank": bm25_rank,
                        "bm25_score": found["bm25_score"], "matched_query_tokens": found["matched_query_tokens"]}
            if bm25_rank is not None:
                observations.append({
                    "observation": f"{doc} is BM25 rank {bm25_rank} for {tid}",
                    "stage_diagnosis": f"lexical candidate miss at cutoff {k}",
                    "held_fixed": lexical_fixed,
                    "cannot_claim": f"{doc} is absent from all indexes",
                    "evidence": evidence})
            else:
                observations.append({
                    "observation": f"{doc} shares no query token with {tid} and is not in the BM25 list",
                    "stage_diagnosis": "lexical non-match: not retrieved by BM25",
                    "held_fixed": lexical_fixed,
                    "cannot_claim": f"{doc} is absent from all indexes",
                    "evidence": evidence})
            hybrid_rank = result.full_ranks["hybrid"][tid][doc]
            recovered = hybrid_rank is not None and hybrid_rank <= k
            observations.append({
                "observation": (f"{doc} is hybrid rank {hybrid_rank} for {tid}" if hybrid_rank is not None
                                else f"{doc} is not in the hybrid list for {tid}"),
                "stage_diagnosis": ("candidate membership changes under declared fusion" if recovered
                                    else f"still a candidate miss at cutoff {k} under declared fusion"),
                "held_fixed": ["same frozen task", "component score files", "fusion parameters"],
                "cannot_claim": ("hybrid retrieval is generally superior" if recovered
                                 else "fusion can never recover this document"),
                "evidence": {"topic_id": tid, "doc_id": doc, "hybrid_rank": hybrid_rank,
                             "bm25_rank": bm25_rank,
                             "supplied_run_rank": result.full_ranks["frozen_dense"][tid][doc],
                             "hybrid_alpha": params.hybrid_alpha}})
    for topic in result.topics:
        tid = topic.topic_id
        judged = result.qrels.get(tid, {})
        firsts: dict[str, list[str]] = {}
        for method in METHODS:
            ranked = runs[method].get(tid, [])
            if ranked and judged.get(ranked[0][0], 0.0) <= 0.0:
                firsts.setdefault(ranked[0][0], []).append(method)
        for doc, methods in sorted(firsts.items()):
            names = ", ".join(labels[m] for m in methods)
            observations.append({
                "observation": f"{doc} ranks first for {tid} under {names}",
                "stage_diagnosis": "ordering problem under supplied qrels",
                "held_fixed": ["relevant set", "cutoff", "judgment policy (unlisted pairs gain zero)"],
                "cannot_claim": "the source is false in every possible claim",
                "evidence": {"topic_id": tid, "doc_id": doc, "grade": judged.get(doc, 0.0),
                             "methods": methods,
                             "recall": {m: metrics["per_topic"][m][tid][recall_key] for m in methods},
                             "ndcg": {m: metrics["per_topic"][m][tid][ndcg_key] for m in methods}}})
    hybrid_macro, rerank_macro = metrics["macro"]["hybrid"], metrics["macro"]["reranked"]
    changed = [t.topic_id for t in result.topics
               if [d for d, _ in runs["hybrid"][t.topic_id][:k]] != [d for d, _ in runs["reranked"][t.topic_id][:k]]]
    same_metrics = hybrid_macro == rerank_macro and all(
        metrics["per_topic"]["hybrid"][t.topic_id] == metrics["per_topic"]["reranked"][t.topic_id]
        for t in result.topics)
    rerank_evidence = {"hybrid_macro": hybrid_macro, "reranked_macro": rerank_macro,
                       "topics_with_changed_top_k": changed, "candidate_depth": depth,
                       "rerank_weight": params.rerank_weight}
    if same_metrics:
        observations.append({
            "observation": "Reranked metrics equal hybrid",
            "stage_diagnosis": f"no top-{k} metric change under this reranker/weight"
                               + ("" if not changed else f" (top-{k} order changed for {', '.join(changed)})"),
            "held_fixed": [f"fixed hybrid top-{depth} set"],
            "cannot_claim": "reranking never helps",
            "evidence": rerank_evidence})
    else:
        direction = "rises" if rerank_macro[ndcg_key] > hybrid_macro[ndcg_key] else "falls"
        observations.append({
            "observation": (f"Reranked macro NDCG@{k} {direction} from {_fmt(hybrid_macro[ndcg_key])} "
                            f"to {_fmt(rerank_macro[ndcg_key])} relative to hybrid"),
            "stage_diagnosis": f"reordering within the fixed hybrid top-{depth} set changes top-{k} metrics",
            "held_fixed": [f"fixed hybrid top-{depth} set"],
            "cannot_claim": "this reranker " + ("generally improves" if direction == "rises" else "generally harms")
                            + " ranking",
            "evidence": rerank_evidence})
    before, after = metrics["macro"]["bm25"][recall_key], metrics["macro"]["hybrid"][recall_key]
    delta = after - before
    n_topics = len(result.topics)
    if abs(delta) < 5e-7:
        text, claim = f"Macro Recall@{k} is unchanged from BM25 to hybrid", "fusion never changes recall"
    else:
        verb = "rises" if delta > 0 else "falls"
        text = f"Macro Recall@{k} {verb} by {_fmt(abs(delta))} from BM25 to hybrid"
        claim = (f"expected production {'lift' if delta > 0 else 'loss'} of "
                 f"{abs(delta) * 100:.1f} percentage points")
    observations.append({
        "observation": text,
        "stage_diagnosis": f"average change over {n_topics} topic{'s' if n_topics != 1 else ''} of this fixture",
        "held_fixed": ["topic set", "aggregation (macro mean, each topic once)"],
        "cannot_claim": claim,
        "evidence": {"bm25": before, "hybrid": after, "delta": delta, "topics": n_topics}})
    supplied_label = labels["frozen_dense"]
    return {
        "run_id": run_id,
        "k": k,
        "candidate_depth": depth,
        "methods": labels,
        "held_fixed": {
            "inputs": "corpus, topics, qrels, supplied run and its metadata (sha256 in run_manifest.json)",
            "tokenizer": TOKEN_PATTERN,
            "parameters": params.as_dict(),
            "judgment_policy": "unlisted topic-document pairs have gain zero inside this closed fixture",
        },
        "observations": observations,
        "macro_change_bm25_to_hybrid": {
            name: metrics["macro"]["hybrid"][name] - metrics["macro"]["bm25"][name] for name in (recall_key, ndcg_key)},
        "supplied_run": {
            "label": supplied_label,
            "note": (f"the {supplied_label} is analysed as a list of authored scores; no claim is made "
                     "about an encoder or any model that might have produced it")
            if supplied_label == method_labels({})["frozen_dense"]
            else f"scores declared by the metadata as produced by {supplied_label}; not re-executed here",
        },
        "cannot_claim": [
            "public crawling or discovery behaviour",
            "a production index or search engine",
            "a named model unless the supplied run's metadata declares one",
            "context packing, answer generation or citation correctness",
            "source absorption, referral, user action or platform visibility",
        ],
    }


def index_summary(result: SandboxResult) -> dict[str, Any]:
    """Document lengths, avgdl and each topic's query tokens with df and IDF."""
    index, scorer = result.index, result.scorer
    topics = {}
    for topic in result.topics:
        toks = topic.tokens
        topics[topic.topic_id] = {
            "query": topic.query,
            "query_tokens": toks,
            "document_frequency": {t: index.document_frequency(t) for t in toks},
            "idf": {t: (scorer.token_idf(t) if index.document_frequency(t) else None) for t in toks},
        }
    return {"num_docs": index.num_docs, "avgdl": index.avgdl,
            "doc_lengths": {doc: int(n) for doc, n in zip(index.doc_ids, index.doc_lengths)},
            "k1": scorer.k1, "b": scorer.b, "topics": topics}


def rankings(result: SandboxResult, k: int) -> dict[str, Any]:
    """Each method's top-k list and every listed document's score, per topic (a result file).

    ``top_k[method][topic]`` is the ordered list of the first k documents; ``scores[method][topic]``
    maps every listed document to its score (the values of ``runs/*.tsv``, unrounded). The
    per-topic values are built when written (:class:`engine.runs.hashing.LazyMapping`).
    """
    topic_ids = [t.topic_id for t in result.topics]

    def per_topic(value_of):
        return LazyMapping(METHODS, lambda m: LazyMapping(topic_ids, lambda t: value_of(result.runs[m].get(t, []))))

    return {
        "k": k,
        "methods": result.labels,
        "top_k": per_topic(lambda ranked: [d for d, _ in ranked[:k]]),
        "scores": per_topic(lambda ranked: {d: s for d, s in ranked}),
    }


def write_outputs(result: SandboxResult, manifest: dict[str, Any], directory: Path) -> None:
    """Write every output of the run into ``directory``, one file at a time and streamed, so the
    largest texts (the runs, ``rankings.json``) are never held whole in memory."""
    topic_order = [t.topic_id for t in result.topics]

    def write(name: str, writer) -> None:
        target = directory / name
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="\n") as handle:
            writer(handle)

    write(MANIFEST_NAME, lambda h: write_json(h, manifest))
    for method in METHODS:
        write(RUN_FILES[method], lambda h, m=method: write_run(h, result.runs[m], m, topic_order))
    write("metrics.json", lambda h: write_json(h, result.metrics))
    write("topic_error_analysis.csv", lambda h: h.write(render_csv(result.error_rows)))
    write("stage_boundary.json", lambda h: write_json(h, result.stage_boundary))
    write("index_summary.json", lambda h: write_json(h, index_summary(result)))
    write("rankings.json", lambda h: write_json(h, rankings(result, result.stage_boundary["k"])))


def _read_frozen(path: Path) -> dict[str, Any]:
    value = read_json_file(path)
    if not isinstance(value, dict) or not isinstance(value.get("inputs"), dict) \
            or not isinstance(value.get("parameters"), dict):
        raise InputError("frozen manifest must be a JSON object with 'inputs' and 'parameters'", path=path)
    return value


def run_sandbox(inputs: SandboxInputs, output: str | Path, params: SandboxParameters, *,
                frozen_manifest: str | Path | None = None,
                log: str | Path | None = DEFAULT_LOG, workers: int | None = None,
                scheduler: str | None = None, executor: Any = None,
                shards: int | None = None) -> dict[str, Any]:
    """Validate, run, write and log one sandbox run; returns ``{run_id, output, metrics, labels}``.

    ``workers`` / ``scheduler`` (or a library caller's ``executor``, with ``shards`` index shards,
    default one per worker) score BM25 on index shards of the corpus
    (:mod:`engine.retrieval.sandbox_shards`, :func:`engine.runs.executor.make_executor`, extra
    ``[distributed]``). They are not parameters of the run: its id and every output but the
    manifest (which adds ``executor`` and ``tasks``) are the serial run's bytes.
    """
    from engine.runs.executor import check_workers, import_distributed

    check_workers(workers, scheduler)
    if workers is not None or scheduler is not None:
        import_distributed()
    output = Path(output)
    params.validate()
    loaded = load_inputs(inputs)
    frozen = _read_frozen(Path(frozen_manifest)) if frozen_manifest is not None else None
    parameters = params.as_dict()
    hashes = input_hashes(inputs.roles())
    for entry in hashes.values():
        entry["path"] = display_name(entry["path"])     # the stdin copy is '-'
    manifest = build_manifest(
        COMMAND, hashes, parameters,
        tokenizer=tokenizer_description(),
        methods=method_labels(loaded.metadata, params.fusion, params.rrf_k),
        supplied_run_metadata=loaded.metadata,
        outputs=sorted([MANIFEST_NAME, "metrics.json", "topic_error_analysis.csv",
                        "stage_boundary.json", "index_summary.json", "rankings.json", *RUN_FILES.values()]),
        frozen_manifest=display_name(frozen_manifest) if frozen_manifest is not None else None,
    )
    run_id = manifest["run_id"]
    input_paths = [*inputs.roles().values()] + ([Path(frozen_manifest)] if frozen_manifest else [])
    if frozen is not None:
        differences = manifest_differences(frozen, manifest)
        if differences:
            with recorded_run(log, COMMAND, parameters) as record:
                record.run_id = run_id
                _add_inputs(record, input_paths)
                raise InvalidRun(f"differs from frozen manifest {display_name(frozen_manifest)}: "
                                 + "; ".join(differences))
    check_target(output, MANIFEST_NAME, run_id)
    with recorded_run(log, COMMAND, parameters) as record:
        record.run_id = run_id
        _add_inputs(record, input_paths)
        result = _compute_on(loaded, params, run_id, inputs.corpus, manifest, workers, scheduler, executor, shards)
        with staged_directory(output) as staging:
            write_outputs(result, manifest, staging)
            publish(staging, output)
        record.add_outputs(output)
        root = output.resolve()
        record.results = {"metrics": str(root / "metrics.json"), "manifest": str(root / MANIFEST_NAME),
                          "index_summary": str(root / "index_summary.json"),
                          "rankings": str(root / "rankings.json"),
                          "stage_boundary": str(root / "stage_boundary.json")}
    return {"run_id": run_id, "output": str(output), "metrics": result.metrics, "labels": result.labels,
            "legend": f"ndcg@{params.k} = nDCG(dcg='exp-log2')@{params.k} (gain 2**g - 1), recall@{params.k} = "
                      f"R@{params.k} (relevant = grade > 0); ties: score as written desc, doc id asc "
                      "(the sandbox's rule; metrics.json measure_definitions)"}


def _add_inputs(record: Any, paths: list[Path]) -> None:
    """Each input's sha256 in the log record, the stdin copy named ``-`` (engine.runs.opener)."""
    from engine.runs.hashing import sha256_file

    for path in paths:
        if path is not None and Path(path).is_file():
            record.inputs[display_name(path)] = sha256_file(path)


def _compute_on(loaded: LoadedInputs, params: SandboxParameters, run_id: str, corpus: Path,
                manifest: dict[str, Any], workers: int | None, scheduler: str | None, executor: Any,
                shards: int | None) -> SandboxResult:
    """:func:`compute`, with BM25 scored on index shards when an executor is asked for (the
    manifest then records ``executor`` and each shard task's input and output sha256)."""
    if executor is None and workers is None and scheduler is None:
        return compute(loaded, params, run_id)
    from contextlib import nullcontext

    from engine.retrieval.sandbox_shards import ShardedScores
    from engine.runs.executor import make_executor

    queries = [topic.tokens for topic in loaded.topics]
    with (make_executor(workers, scheduler) if executor is None else nullcontext(executor)) as running:
        scores = ShardedScores(loaded.index, corpus, manifest["inputs"]["corpus"]["sha256"], queries,
                               params.k1, params.b, running, shards)
        result = compute(loaded, params, run_id, bm25_scores=scores)
        manifest["executor"] = running.describe()
    manifest["tasks"] = scores.records
    return result


def run_sandbox_experiment(*, corpus: Path, topics: Path, qrels: Path, dense_run: Path,
                           dense_metadata: Path, output: Path, k: int, candidate_depth: int,
                           hybrid_alpha: float, rerank_weight: float, k1: float, b: float,
                           frozen_manifest: Path | None, log: str | Path,
                           run_depth: int = DEFAULT_RUN_DEPTH, measures: str | None = None,
                           fusion: str = "minmax", rrf_k: int = DEFAULT_RRF_K,
                           workers: int | None = None, scheduler: str | None = None) -> dict[str, Any]:
    """Entry point of the registered ``sandbox run`` experiment (engine.experiments)."""
    params = SandboxParameters(k=k, candidate_depth=candidate_depth, hybrid_alpha=hybrid_alpha,
                               rerank_weight=rerank_weight, k1=k1, b=b, run_depth=run_depth,
                               measures=measures or "", fusion=fusion, rrf_k=rrf_k)
    from engine.runs.opener import is_stdin, resolve_input

    given = {"--corpus": corpus, "--topics": topics, "--qrels": qrels, "--dense-run": dense_run,
             "--dense-metadata": dense_metadata, "--frozen-manifest": frozen_manifest}
    dashes = [option for option, path in given.items() if is_stdin(path)]   # '-': standard input, once
    if len(dashes) > 1:
        raise InputError(f"only one input can be read from stdin ('-'); {' and '.join(dashes)} both ask for it",
                         field=dashes[1])
    if dashes and (workers is not None or scheduler is not None):
        raise InputError("stdin ('-') cannot be read by workers; give a file", field="--workers")
    return run_sandbox(SandboxInputs(*(resolve_input(p) for p in (corpus, topics, qrels, dense_run, dense_metadata))),
                       output, params, frozen_manifest=resolve_input(frozen_manifest) if frozen_manifest else None,
                       log=log, workers=workers, scheduler=scheduler)
