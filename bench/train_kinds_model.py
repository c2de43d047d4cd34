"""Train the measured-result classifier of claims/kinds_model.py from the development part.

Run (one command, deterministic: the same weights byte for byte on every rerun on one machine):

    .venv/bin/python bench/train_kinds_model.py

It reads only the ``development`` documents of ``tests/data/corpus/manifest.json`` (never the
held-out part) and trains the design ``--design`` of ``bench/kinds_candidates.py`` (default
:data:`kinds_candidates.SHIPPED`, the one the nested leave-one-document-out comparison of
``bench/bench_kinds_classifier.py --candidates`` chose; docs/audit.md): it chooses λ, the case
weighting and the threshold by the 5-fold document cross-validation of
:func:`kinds_candidates.choose` over all development documents (the very procedure whose
outer-fold figures the comparison reports), fits the model on all of them, writes
``claims/kinds_model.json`` (sorted keys, weights rounded to 10 decimals; for a MiniLM block its
384 weights w_b = s_b² M_bᵀα) and rewrites the ``WEIGHTS_SHA256 = "…"`` line of
``claims/kinds_model.py`` with the new file's hash. ``--output FILE --no-pin`` writes elsewhere
and leaves the code alone; ``--without-batch N`` leaves a development batch out (to score it
once out of sample through the reader before the final retrain on everything: stop 28's batch 10);
``--documents N`` uses the first N development documents and
``--no-cv`` skips the selection (with ``--lam/--weighting/--threshold``): the determinism test.

Training cases: every quantity the reader finds in a labelled sentence (its gold text, so the
splitter does not enter; roles as :func:`claims.extract._sentence_rows` sets them), labelled a
result when it overlaps a labelled number with ``result = true``. A sentence is predicted
measured when any quantity has p ≥ threshold; the gold sentence flag is the label ``measured``.
A design with ``own`` (``kinds_candidates.Design.own``) also trains on our own labelled sentences,
:data:`OWN_LABELS` (our labelled set, seeds and fixtures, provenance per sentence): they are in
the training part of every fold and of the final fit, never in a test part, so the selection's F1
is over corpus documents only.

Solver: L2 logistic regression, loss Σ c_i [log(1 + e^{f_i}) − y_i f_i] + (λ/2)‖w‖² (c_i = 1, or
balanced class weights), in its dual form w = Xᵀα (representer theorem; the bias is a feature of
value 1 and penalised like the rest), by Newton's method from α = 0:
α ← α − (C S K + λ I)⁻¹ (c ⊙ (p − y) + λα), K = X Xᵀ (+ Σ_b s_b² M_b M_bᵀ for MiniLM blocks),
S = diag(p(1 − p)), at most 40 steps, stopping when the step is below 1e-10 — deterministic
(numpy, no random numbers). X holds only the buckets that occur. The MiniLM vectors come from
the pinned all-MiniLM-L6-v2 with 1 intra-op thread (claims/kinds_model.py), so reruns on one
machine give the same bytes; another CPU or onnxruntime build may differ at float32 noise.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import bench_claims_quality as quality  # noqa: E402
from claims import kinds_model as km  # noqa: E402
from claims.attribution import credits  # noqa: E402
from claims.extract import MEASURED, RESULT_ROLES, cited_names, classify, quantity_roles  # noqa: E402
from claims.kinds import refine_roles  # noqa: E402
from claims.quantities import find_quantities  # noqa: E402
from claims.roles import masked  # noqa: E402
from engine.runs.hashing import dump_json, sha256_file  # noqa: E402

MODULE = REPO / "claims" / "kinds_model.py"
OWN_LABELS = REPO / "tests" / "data" / "kinds_training" / "own.labels.toml"
"""Labelled sentences of our own (our labelled set, seeds and fixtures; provenance per sentence),
added to the training part of designs with ``own`` (never scored: docs/audit.md)."""


def own_documents(path: Path = OWN_LABELS) -> list[dict]:
    """The sentences of ``path`` as training-only pseudo-documents, one per ``source`` (id
    ``own:<source>``, sorted), each carrying its labels (``sentences``) and ``own: True``."""
    import tomllib

    by_source: dict[str, list[dict]] = {}
    for sentence in tomllib.loads(path.read_text(encoding="utf-8"))["sentence"]:
        by_source.setdefault(sentence["source"], []).append(sentence)
    return [{"id": f"own:{source}", "own": True, "sentences": by_source[source]} for source in sorted(by_source)]


def cases(documents: list[dict]) -> tuple[list[dict], list[dict]]:
    """(sentences, numbers): every labelled sentence of ``documents`` and every quantity in it
    (a pseudo-document of :func:`own_documents` gives its own labels, marked ``own``)."""
    sentences, numbers = [], []
    for document in documents:
        own = bool(document.get("own"))
        labels = document["sentences"] if own else quality.corpus_labels(document)
        for label in labels:
            text = quality.normalise(label["text"])
            words = masked(text)
            quantities = refine_roles(words, quantity_roles(words, find_quantities(text)))
            _, person = cited_names(text)
            rules = classify(words, quantities, person or credits(text) is not None)[0] == MEASURED
            spans = [(n, s) for n, s in quality._number_spans(text, label["numbers"]) if s]
            index = len(sentences)
            shared = km.sentence_features(words, quantities)
            for q in quantities:
                overlap = [n for n, s in spans if q.span[0] < s[1] and s[0] < q.span[1]]
                numbers.append({"document": document["id"], "own": own, "sentence": index, "quantity": q,
                                "result": any(n["result"] for n in overlap),
                                "nonresult_label": bool(overlap) and not any(n["result"] for n in overlap),
                                "features": {f: km.number_features(words, q, shared, f, rules)
                                             for f in km.FEATURE_SETS}})
            sentences.append({"document": document["id"], "own": own, "text": words,
                              "measured": bool(label["measured"]),
                              "rules": rules,
                              "rules_value": [q.role in RESULT_ROLES for q in quantities],
                              "numbers": [len(numbers) - len(quantities) + i for i in range(len(quantities))],
                              "nonresult_labels": sum(not n["result"] for n in label["numbers"])})
    return sentences, numbers


def matrix(numbers: list[dict], features: str, ngrams: bool | tuple[str, ...] = True) -> tuple[np.ndarray, np.ndarray]:
    """(X, buckets): the dense rows of the hashed vectors over the buckets that occur (sorted)."""
    vectors = [km.vector(number["features"][features], ngrams) for number in numbers]
    buckets = np.array(sorted({i for v in vectors for i in v}), dtype=np.int64)
    column = {int(b): j for j, b in enumerate(buckets)}
    x = np.zeros((len(numbers), len(buckets)))
    for r, v in enumerate(vectors):
        for i, value in v.items():
            x[r, column[i]] = value
    return x, buckets


def fit_dual(k: np.ndarray, y: np.ndarray, lam: float, c: np.ndarray | None = None) -> np.ndarray:
    """α of the L2 logistic regression (module docstring); ``c``: optional case weights c_i of
    the loss Σ c_i [log(1 + e^{f_i}) − y_i f_i] (the Newton step becomes
    (C S K + λ I)⁻¹ (c ⊙ (p − y) + λα))."""
    alpha = np.zeros(len(y))
    c = np.ones(len(y)) if c is None else c
    for _ in range(40):
        f = k @ alpha
        p = 1.0 / (1.0 + np.exp(-f))
        step = np.linalg.solve((c * p * (1.0 - p))[:, None] * k + lam * np.eye(len(y)), c * (p - y) + lam * alpha)
        alpha -= step
        if np.max(np.abs(step)) < 1e-10:
            break
    return alpha


def rules_called(sentences: list[dict], numbers: list[dict]) -> np.ndarray:
    """The rules' per-number call: role value/p-value in a sentence the rules call measured."""
    called = np.zeros(len(numbers), dtype=bool)
    for s in sentences:
        for i, is_value in zip(s["numbers"], s["rules_value"]):
            called[i] = s["rules"] and is_value
    return called


def train(documents: list[dict], cv: bool, design_name: str, lam: float, weighting: str,
          threshold: float) -> dict:
    """The weights file's content for the design ``design_name`` of bench/kinds_candidates.py,
    fitted on ``documents``; with ``cv`` its λ, case weighting and threshold chosen by the 5-fold
    document cross-validation of :func:`kinds_candidates.choose` (the procedure the nested
    figures of ``bench/bench_kinds_classifier.py --candidates`` evaluate)."""
    import kinds_candidates as kc

    design = kc.DESIGNS[design_name]
    if design.gate:
        raise SystemExit(f"design {design_name!r} gates by the rules; claims/kinds_model.py ships no gate")
    own = own_documents() if design.own else []
    sentences, numbers = cases(documents + own)
    problem = kc.Problem(sentences, numbers)
    y = problem.y
    print(f"development: {len(documents)} documents, {len(sentences)} sentences "
          f"({sum(s['measured'] for s in sentences)} measured), {len(numbers)} numbers found by the reader "
          f"({int(y.sum())} results)"
          + (f", of them our own labelled sentences (training only): {int(problem.sentence_extra.sum())} sentences, "
             f"{int(problem.extra.sum())} numbers" if own else ""))
    dense = kc.minilm_blocks(sentences, numbers, tuple(design.minilm))
    k, (x, buckets) = kc.design_kernel(design, numbers, dense)
    selection = None
    if cv:
        lam, weighting, threshold, f1 = kc.choose(problem, k, sorted({d["id"] for d in documents}),
                                                  weightings=design.weightings, recall_within=design.recall_within)
        selection = {"method": f"{kc.INNER_FOLDS}-fold cross-validation by document over the development "
                               f"part (documents sorted by id, dealt round-robin); chosen from lambda "
                               f"{list(kc.LAMBDAS)}, weighting {list(design.weightings)}, threshold "
                               f"{list(kc.THRESHOLDS)}; best sentence-level F1, ties to the earlier grid entry",
                     "cross_validated_f1": round(f1, 6)}
        print(f"chosen by {kc.INNER_FOLDS}-fold document cross-validation: lambda {lam}, weighting {weighting}, "
              f"threshold {threshold} (F1 {f1:.3f})")
    alpha = fit_dual(k, y, lam, kc.case_weights(y, weighting))
    w = x.T @ alpha
    weights = {str(int(buckets[j])): round(float(w[j]), 10) for j in range(len(buckets))
               if round(float(w[j]), 10) != 0.0}
    minilm = None
    if design.minilm:
        from engine.encoder.model_files import MODEL_NAME
        from engine.encoder.onnx_graph import ONNX_SHA256

        minilm = {"model": MODEL_NAME, "onnx_sha256": ONNX_SHA256, "window_words": km.WINDOW_WORDS,
                  "kernel_weights": dict(design.minilm),
                  "weights": {b: [round(float(v), 10) for v in s2 * (dense[b].T @ alpha)]
                              for b, s2 in sorted(design.minilm.items())}}
    ngrams = list(design.ngrams) if isinstance(design.ngrams, tuple) else design.ngrams
    return {"dimension": km.DIMENSION, "features": design.features, "ngrams": ngrams,
            "design": design_name, "minilm": minilm, "lam": lam, "weighting": weighting, "threshold": threshold,
            "trained_on": {"part": "development", "documents": sorted(d["id"] for d in documents),
                           "sentences": len(sentences), "numbers": len(numbers),
                           **({"own": {"file": str(OWN_LABELS.relative_to(REPO)),
                                       "sources": [d["id"][len("own:"):] for d in own],
                                       "sentences": int(problem.sentence_extra.sum())}} if own else {})},
            "selection": selection, "weights": weights}


def pin(digest: str) -> None:
    """Rewrite the WEIGHTS_SHA256 line of claims/kinds_model.py."""
    source = MODULE.read_text(encoding="utf-8")
    new, count = re.subn(r'^WEIGHTS_SHA256 = "[0-9a-f]{64}"$', f'WEIGHTS_SHA256 = "{digest}"', source, flags=re.M)
    if count != 1:
        raise SystemExit(f"{MODULE}: no single WEIGHTS_SHA256 line to rewrite")
    if new != source:
        MODULE.write_text(new, encoding="utf-8")
        print(f"{MODULE.relative_to(REPO)}: WEIGHTS_SHA256 = {digest}")
    else:
        print(f"{MODULE.relative_to(REPO)}: WEIGHTS_SHA256 unchanged ({digest})")


def main(argv: list[str] | None = None) -> int:
    import kinds_candidates as kc

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--output", type=Path, default=km.WEIGHTS)
    parser.add_argument("--no-pin", action="store_true", help="do not rewrite WEIGHTS_SHA256 in the code")
    parser.add_argument("--documents", type=int, default=None, help="first N development documents only")
    parser.add_argument("--design", default=kc.SHIPPED, choices=sorted(kc.DESIGNS),
                        help="the candidate of bench/kinds_candidates.py to train (default: the shipped one)")
    parser.add_argument("--without-batch", type=int, action="append", default=[], metavar="BATCH",
                        help="leave this development batch out of the training (to score it once out of "
                             "sample before the final retrain on everything); repeatable")
    parser.add_argument("--no-cv", action="store_true", help="skip the selection; use --lam/--weighting/--threshold")
    parser.add_argument("--lam", type=float, default=1.0)
    parser.add_argument("--weighting", default="none", choices=kc.WEIGHTINGS)
    parser.add_argument("--threshold", type=float, default=0.5)
    args = parser.parse_args(argv)
    documents = quality.corpus_documents("development")  # never the held-out part
    documents = [d for d in documents if d.get("batch") not in args.without_batch]
    if args.documents is not None:
        documents = documents[: args.documents]
    model = train(documents, not args.no_cv, args.design, args.lam, args.weighting, args.threshold)
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(dump_json(model), encoding="utf-8")
    digest = sha256_file(args.output)
    print(f"wrote {args.output} ({len(model['weights'])} hashed weights"
          f"{', MiniLM blocks ' + ', '.join(model['minilm']['weights']) if model['minilm'] else ''}, sha256 {digest})")
    if not args.no_pin:
        pin(digest)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
