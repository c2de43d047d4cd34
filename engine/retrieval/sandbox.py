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
decimals), ``metrics.json``, ``topic_error_analysis.csv``, ``stage_boundary.json`` and
``index_summary.json`` (document lengths, avgdl, per-topic query tokens with df and IDF).
"""

from __future__ import annotations

import csv
import io
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from engine.retrieval.bm25 import BM25, DEFAULT_B, DEFAULT_K1
from engine.retrieval.corpus import (Document, Topic, read_corpus, read_metadata, read_topics,
                           supplied_run_label)
from engine.runs.errors import InputError
from engine.retrieval.fusion import fuse
from engine.runs.hashing import dump_json
from engine.retrieval.index import InvertedIndex, build_index
from engine.runs.manifest import build_manifest, input_hashes, manifest_differences
from engine.retrieval.metrics import macro_mean, ndcg_at_k, recall_at_k, relevant_set
from engine.runs.csvcells import neutralise_cell
from engine.runs.outdir import check_target, publish, staged_directory
from engine.retrieval.rerank import rerank
from engine.runs.runlog import DEFAULT_LOG, InvalidRun, recorded_run
from engine.retrieval.text import TOKEN_PATTERN, tokenizer_description
from engine.retrieval.trec import Qrels, Run, format_run, read_qrels, read_run
from engine.runs.jsonl import read_json_file

COMMAND = "sandbox run"
MANIFEST_NAME = "run_manifest.json"
METHODS = ("bm25", "frozen_dense", "hybrid", "reranked")
RUN_FILES = {method: f"runs/{method}.tsv" for method in METHODS}
NDCG_ONE_TOLERANCE = 1e-12

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

    def validate(self) -> None:
        """InputError (naming the option) for an out-of-range parameter."""
        checks = [
            (self.k >= 1, "--k", "must be >= 1"),
            (self.candidate_depth >= self.k, "--candidate-depth", f"must be >= --k ({self.k})"),
            (0.0 <= self.hybrid_alpha <= 1.0, "--hybrid-alpha", "must lie in [0, 1]"),
            (0.0 <= self.rerank_weight <= 1.0, "--rerank-weight", "must lie in [0, 1]"),
            (self.k1 >= 0.0, "--k1", "must be >= 0"),
            (0.0 <= self.b <= 1.0, "--b", "must lie in [0, 1]"),
        ]
        for ok, option, message in checks:
            if not ok:
                raise InputError(message, field=option)

    def as_dict(self) -> dict[str, Any]:
        values = asdict(self)
        values["tokenizer_pattern"] = TOKEN_PATTERN
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
    documents: list[Document]
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


def load_inputs(inputs: SandboxInputs) -> LoadedInputs:
    """Read and cross-validate every input; the first defect raises InputError (FILE:LINE)."""
    documents = read_corpus(inputs.corpus)
    topics = read_topics(inputs.topics)
    doc_ids = [d.doc_id for d in documents]
    topic_ids = [t.topic_id for t in topics]
    qrels = read_qrels(inputs.qrels, topics=topic_ids, docs=doc_ids)
    for topic in topics:
        if not relevant_set(qrels.get(topic.topic_id, {})):
            raise InputError(f"topic {topic.topic_id!r} has no positive judgment in {inputs.qrels}",
                             path=inputs.topics, line=topic.line)
    supplied = read_run(inputs.supplied_run, topics=topic_ids, docs=doc_ids)
    metadata = read_metadata(inputs.supplied_metadata)
    return LoadedInputs(documents, topics, qrels, supplied, metadata)


def method_labels(metadata: dict[str, Any]) -> dict[str, str]:
    """Display names of the four methods; the supplied run is never called a model unless declared."""
    return {"bm25": "BM25", "frozen_dense": supplied_run_label(metadata),
            "hybrid": "hybrid (min-max normalised weighted sum)",
            "reranked": "transparent fixed-set reranker"}


def compute(loaded: LoadedInputs, params: SandboxParameters, run_id: str = "") -> SandboxResult:
    """Run all four methods and evaluate them (pure: no files written)."""
    docs = loaded.documents
    tokens = {d.doc_id: d.tokens for d in docs}
    index = build_index([d.doc_id for d in docs], [tokens[d.doc_id] for d in docs])
    scorer = BM25(index, k1=params.k1, b=params.b)
    token_sets = {doc: set(toks) for doc, toks in tokens.items()}
    runs: dict[str, Run] = {method: {} for method in METHODS}
    for topic in loaded.topics:
        query = topic.tokens
        bm25_list = scorer.ranked(query)
        supplied_list = loaded.supplied.get(topic.topic_id, [])
        hybrid_list = fuse(bm25_list, supplied_list, params.hybrid_alpha)
        runs["bm25"][topic.topic_id] = bm25_list
        runs["frozen_dense"][topic.topic_id] = list(supplied_list)
        runs["hybrid"][topic.topic_id] = hybrid_list
        runs["reranked"][topic.topic_id] = rerank(hybrid_list, query, token_sets,
                                                  params.candidate_depth, params.rerank_weight)
    metrics = evaluate(runs, loaded.qrels, [t.topic_id for t in loaded.topics], params.k)
    labels = method_labels(loaded.metadata)
    rows = error_analysis(runs, loaded.qrels, loaded.topics, params.k, labels)
    result = SandboxResult(index, scorer, loaded.topics, loaded.qrels, runs, metrics, labels, rows, {})
    result.stage_boundary = stage_boundary(result, params, run_id)
    return result


def evaluate(runs: dict[str, Run], qrels: Qrels, topic_ids: list[str], k: int) -> dict[str, Any]:
    """``{"macro": {method: {recall@k, ndcg@k}}, "per_topic": {method: {topic: {...}}}}``."""
    recall_key, ndcg_key = f"recall@{k}", f"ndcg@{k}"
    per_topic: dict[str, dict[str, dict[str, float]]] = {}
    macro: dict[str, dict[str, float]] = {}
    for method in METHODS:
        per_topic[method] = {}
        for topic in topic_ids:
            ranking = [doc for doc, _ in runs[method].get(topic, [])]
            judged = qrels.get(topic, {})
            per_topic[method][topic] = {recall_key: recall_at_k(ranking, judged, k),
                                        ndcg_key: ndcg_at_k(ranking, judged, k)}
        macro[method] = {key: macro_mean(per_topic[method][t][key] for t in topic_ids)
                         for key in (recall_key, ndcg_key)}
    return {"macro": macro, "per_topic": per_topic}


def rank_of(ranked: list[tuple[str, float]], doc: str) -> int | None:
    """One-based rank of ``doc`` in a ranked list, or None when it is absent."""
    for rank, (candidate, _) in enumerate(ranked, start=1):
        if candidate == doc:
            return rank
    return None


def diagnose(ranked: list[tuple[str, float]], judged: dict[str, float], k: int) -> str:
    """The per-topic diagnosis (docs/sandbox.md, "Diagnosis rules"), first rule that applies:

    1. ``not retrieved``: a relevant document (grade > 0) is absent from the method's list;
    2. ``candidate miss at cutoff``: a relevant document is in the list but below rank k;
    3. ``ordering problem``: every relevant document is in the top k but NDCG@k < 1
       (a lower-graded or gain-zero document ranks above a higher-graded one);
    4. ``none``: all relevant documents in the top k in an ideal order (NDCG@k = 1).
    """
    listed = [doc for doc, _ in ranked]
    relevant = relevant_set(judged)
    misses = relevant - set(listed[:k])
    if misses - set(listed):
        return DIAGNOSIS_NOT_RETRIEVED
    if misses:
        return DIAGNOSIS_CUTOFF_MISS
    if ndcg_at_k(listed, judged, k) < 1.0 - NDCG_ONE_TOLERANCE:
        return DIAGNOSIS_ORDERING
    return DIAGNOSIS_NONE


def error_analysis(runs: dict[str, Run], qrels: Qrels, topics: list[Topic], k: int,
                   labels: dict[str, str]) -> list[dict[str, Any]]:
    """One row per topic and method: relevant set, top-k, misses with their ranks, metrics, diagnosis."""
    rows = []
    for topic in topics:
        judged = qrels.get(topic.topic_id, {})
        relevant = sorted(relevant_set(judged))
        for method in METHODS:
            ranked = runs[method].get(topic.topic_id, [])
            top = [doc for doc, _ in ranked[:k]]
            misses = [doc for doc in relevant if doc not in top]
            miss_ranks = [f"{doc}@{rank_of(ranked, doc) or 'absent'}" for doc in misses]
            gain_zero = [doc for doc in top if judged.get(doc, 0.0) <= 0.0]
            listed = [doc for doc, _ in ranked]
            rows.append({
                "topic_id": topic.topic_id,
                "method": method,
                "method_label": labels[method],
                "relevant": ";".join(relevant),
                f"top_{k}": ";".join(top),
                "misses": ";".join(misses) or "none",
                "miss_ranks": ";".join(miss_ranks) or "none",
                "gain_zero_in_top_k": ";".join(gain_zero) or "none",
                f"recall@{k}": recall_at_k(listed, judged, k),
                f"ndcg@{k}": ndcg_at_k(listed, judged, k),
                "diagnosis": diagnose(ranked, judged, k),
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
        doc_tokens = None
        for doc in sorted(relevant_set(judged) - top):
            bm25_rank = rank_of(bm25_list, doc)
            if doc_tokens is None:
                doc_tokens = {d: set(toks) for d, toks in _doc_tokens(result).items()}
            matched = sorted(set(topic.tokens) & doc_tokens[doc])
            evidence = {"topic_id": tid, "doc_id": doc, "grade": judged[doc], "bm25_rank": bm25_rank,
                        "bm25_score": dict(bm25_list).get(doc, 0.0), "matched_query_tokens": matched}
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
            hybrid_rank = rank_of(runs["hybrid"][tid], doc)
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
                             "supplied_run_rank": rank_of(runs["frozen_dense"].get(tid, []), doc),
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


def _doc_tokens(result: SandboxResult) -> dict[str, list[str]]:
    """Tokens per document, reconstructed from the index postings (for matched-token evidence)."""
    index = result.index
    tokens: dict[str, list[str]] = {doc: [] for doc in index.doc_ids}
    for token, term in index.vocabulary.items():
        for pos in index.doc_index[index.indptr[term]:index.indptr[term + 1]]:
            tokens[index.doc_ids[pos]].append(token)
    return tokens


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
    maps every listed document to its score (the values of ``runs/*.tsv``, unrounded).
    """
    topic_ids = [t.topic_id for t in result.topics]
    return {
        "k": k,
        "methods": result.labels,
        "top_k": {m: {t: [d for d, _ in result.runs[m].get(t, [])[:k]] for t in topic_ids} for m in METHODS},
        "scores": {m: {t: {d: s for d, s in result.runs[m].get(t, [])} for t in topic_ids} for m in METHODS},
    }


def render_outputs(result: SandboxResult, manifest: dict[str, Any]) -> dict[str, str]:
    """Relative path → file text for every output of the run."""
    topic_order = [t.topic_id for t in result.topics]
    files = {MANIFEST_NAME: dump_json(manifest)}
    for method in METHODS:
        files[RUN_FILES[method]] = format_run(result.runs[method], method, topic_order)
    files["metrics.json"] = dump_json(result.metrics)
    files["topic_error_analysis.csv"] = render_csv(result.error_rows)
    files["stage_boundary.json"] = dump_json(result.stage_boundary)
    files["index_summary.json"] = dump_json(index_summary(result))
    files["rankings.json"] = dump_json(rankings(result, result.stage_boundary["k"]))
    return files


def _read_frozen(path: Path) -> dict[str, Any]:
    value = read_json_file(path)
    if not isinstance(value, dict) or not isinstance(value.get("inputs"), dict) \
            or not isinstance(value.get("parameters"), dict):
        raise InputError("frozen manifest must be a JSON object with 'inputs' and 'parameters'", path=path)
    return value


def run_sandbox(inputs: SandboxInputs, output: str | Path, params: SandboxParameters, *,
                frozen_manifest: str | Path | None = None,
                log: str | Path | None = DEFAULT_LOG) -> dict[str, Any]:
    """Validate, run, write and log one sandbox run; returns ``{run_id, output, metrics, labels}``."""
    output = Path(output)
    params.validate()
    loaded = load_inputs(inputs)
    frozen = _read_frozen(Path(frozen_manifest)) if frozen_manifest is not None else None
    parameters = params.as_dict()
    manifest = build_manifest(
        COMMAND, input_hashes(inputs.roles()), parameters,
        tokenizer=tokenizer_description(),
        methods=method_labels(loaded.metadata),
        supplied_run_metadata=loaded.metadata,
        outputs=sorted([MANIFEST_NAME, "metrics.json", "topic_error_analysis.csv",
                        "stage_boundary.json", "index_summary.json", "rankings.json", *RUN_FILES.values()]),
        frozen_manifest=str(frozen_manifest) if frozen_manifest is not None else None,
    )
    run_id = manifest["run_id"]
    input_paths = [*inputs.roles().values()] + ([Path(frozen_manifest)] if frozen_manifest else [])
    if frozen is not None:
        differences = manifest_differences(frozen, manifest)
        if differences:
            with recorded_run(log, COMMAND, parameters) as record:
                record.run_id = run_id
                record.add_inputs(*input_paths)
                raise InvalidRun(f"differs from frozen manifest {frozen_manifest}: " + "; ".join(differences))
    check_target(output, MANIFEST_NAME, run_id)
    with recorded_run(log, COMMAND, parameters) as record:
        record.run_id = run_id
        record.add_inputs(*input_paths)
        result = compute(loaded, params, run_id)
        files = render_outputs(result, manifest)
        with staged_directory(output) as staging:
            for name, text in files.items():
                target = staging / name
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(text, encoding="utf-8", newline="\n")
            publish(staging, output)
        record.add_outputs(output)
        root = output.resolve()
        record.results = {"metrics": str(root / "metrics.json"), "manifest": str(root / MANIFEST_NAME),
                          "index_summary": str(root / "index_summary.json"),
                          "rankings": str(root / "rankings.json"),
                          "stage_boundary": str(root / "stage_boundary.json")}
    return {"run_id": run_id, "output": str(output), "metrics": result.metrics, "labels": result.labels}


def run_sandbox_experiment(*, corpus: Path, topics: Path, qrels: Path, dense_run: Path,
                           dense_metadata: Path, output: Path, k: int, candidate_depth: int,
                           hybrid_alpha: float, rerank_weight: float, k1: float, b: float,
                           frozen_manifest: Path | None, log: str | Path) -> dict[str, Any]:
    """Entry point of the registered ``sandbox run`` experiment (engine.experiments)."""
    params = SandboxParameters(k=k, candidate_depth=candidate_depth, hybrid_alpha=hybrid_alpha,
                               rerank_weight=rerank_weight, k1=k1, b=b)
    return run_sandbox(SandboxInputs(corpus, topics, qrels, dense_run, dense_metadata), output, params,
                       frozen_manifest=frozen_manifest, log=log)
