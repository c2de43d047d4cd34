"""Measured results on the development part: the rules, the shipped kinds model, the candidate
classifiers by nested leave-one-document-out (``--candidates``) and the first MiniLM attempt
(``--minilm``) (issue 19, item 4).

Run: ``.venv/bin/python bench/bench_kinds_classifier.py [--candidates [NAMES|all]] [--minilm]``
(about 30 s without options; ``--candidates`` alone compares ``plain`` and the shipped design,
4–10 min on 130 documents (each design without MiniLM is fitted in the primal,
``kinds_candidates.fit_primal``); ``--candidates all`` every design of ``bench/kinds_candidates.py``, 15–30 min on a
shared 2-core machine). The MiniLM vectors of the development sentences and windows are
encoded once per run and kept in memory (never written to disk).

It reads only the ``development`` documents of ``tests/data/corpus/manifest.json``; the held-out
part is scored by the coordinator through ``bench/bench_claims_quality.py --held-out [--kinds
model]``, never here. Scored per labelled sentence (its gold text, so sentence splitting does not
enter) and per number; figures are sentence precision/recall/F1, number precision/recall and the
share of labelled non-result numbers called a result.

Printed:

* the rules (:func:`claims.extract.classify`) on every development sentence — **in sample**:
  the rules were tuned on all of development, so this figure is optimistic;
* the shipped model (``claims/kinds_model.json``, sha256-pinned) on every development sentence —
  also in sample (it was trained on them) — and whether retraining now reproduces its weights
  (it does not once the rules, the quantity parser or the development part changed: retrain
  with ``bench/train_kinds_model.py``);
* with ``--candidates``: one line per design, its **nested** leave-one-document-out figures
  (λ, case weighting and threshold chosen inside each outer fold by a 5-fold document CV of
  the other documents; ``bench/kinds_candidates.py``), the most chosen setting, and
  "optimistic" for the designs that read the rules' output;
* with ``--fresh BATCH``: instead, that development batch scored by each design chosen and fitted
  on the other documents (``--sweep``: also at every threshold of the grid);
* with ``--by-batch``: instead, leave one development batch out at a time, λ and threshold chosen
  by the 5-fold document CV of the other batches or by leave-one-batch-out over them;
* ``--without-batch BATCH`` leaves a batch out of everything (the 73 documents before batch 8);
  a design with ``own`` trains on our own labelled sentences too, never scored;
* with ``--minilm``: leave-one-document-out of the first attempt (L2 logistic regression, Newton,
  over the 384-dimensional MiniLM sentence vector plus the rules' structural features, without
  the rules' decision, one label per sentence), λ ∈ {1, 10}, threshold ∈ {0.3, 0.5} — printed for
  every setting, so the best of them is chosen on the pooled figure (optimistic).

History: that first attempt, trained on 27 development documents, scored on the old held-out part
(since retired into development) precision 0.680 (17/25), recall 0.654 (17/26), against the rules'
0.633 (19/30) / 0.731 (19/26), and was not shipped.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import bench_claims_quality as quality  # noqa: E402
import kinds_candidates as kc  # noqa: E402
import train_kinds_model as trainer  # noqa: E402
from claims import kinds_model as km  # noqa: E402
from claims.extract import _CHANGE, _METRIC, quantity_roles  # noqa: E402
from claims.kinds import measured_cue, not_measured, refine_roles  # noqa: E402
from claims.quantities import find_quantities  # noqa: E402


def structural(text: str) -> list[float]:
    quantities = refine_roles(text, quantity_roles(text, find_quantities(text)))
    values = [q for q in quantities if q.role in ("value", "p-value")]
    return [1.0, float(bool(values)), min(len(values), 4) / 4,
            float(any(q.is_percent for q in values)), float(any(q.is_multiplier for q in values)),
            float(bool(_METRIC.search(text))), float(bool(_CHANGE.search(text))),
            float(bool(not_measured(text))), float(bool(values) and bool(measured_cue(text, values))),
            float(any(q.role == "count" for q in quantities)),
            float(any(q.role == "parameter" for q in quantities))]


def fit(x: np.ndarray, y: np.ndarray, lam: float, steps: int = 15) -> np.ndarray:
    """L2-regularised logistic regression by Newton/IRLS from zero (the bias is not penalised)."""
    w = np.zeros(x.shape[1])
    penalty = lam * np.diag(np.r_[0.0, np.ones(x.shape[1] - 1)])
    for _ in range(steps):
        p = 1.0 / (1.0 + np.exp(-x @ w))
        w -= np.linalg.solve((x.T * (p * (1.0 - p))) @ x + penalty, x.T @ (p - y) + penalty @ w)
    return w


def minilm(documents: list[dict]) -> None:
    from engine.encoder.encode import load_encoder

    labelled = [(d["id"], quality.normalise(g["text"]), float(g["measured"]))
                for d in documents for g in quality.corpus_labels(d)]
    x = np.hstack([np.array([structural(t) for _, t, _ in labelled]),
                   load_encoder().encode([t for _, t, _ in labelled])])
    y = np.array([label for _, _, label in labelled])
    ids = np.array([d for d, _, _ in labelled])
    for lam in (1.0, 10.0):
        scores = np.zeros(len(y))
        for document in sorted(set(ids)):
            test = ids == document
            scores[test] = 1.0 / (1.0 + np.exp(-x[test] @ fit(x[~test], y[~test], lam)))
        for threshold in (0.3, 0.5):
            predicted = scores >= threshold
            tp, p, g = int((predicted & (y == 1)).sum()), int(predicted.sum()), int((y == 1).sum())
            print(f"  MiniLM + structural, leave-one-document-out, lambda {lam}, threshold {threshold}: "
                  f"precision {tp / max(p, 1):.3f} ({tp}/{p}), recall {tp / g:.3f} ({tp}/{g}), "
                  f"F1 {2 * tp / (p + g):.3f}")


def in_sample(model: km.KindsModel, sentences: list[dict], numbers: list[dict]) -> np.ndarray:
    """The shipped model's call on every development number (MiniLM texts encoded in one batch)."""
    quantities = [[numbers[i]["quantity"] for i in s["numbers"]] for s in sentences]
    texts = [model.texts(s["text"], q) for s, q in zip(sentences, quantities)]
    vectors: list[dict] = [{} for _ in sentences]
    for block in model.minilm:
        flat = km.minilm_vectors([t for entry in texts for t in entry[block]])
        start = 0
        for entry, out in zip(texts, vectors):
            out[block] = flat[start:start + len(entry[block])]
            start += len(entry[block])
    called = np.zeros(len(numbers), dtype=bool)
    for s, q, v in zip(sentences, quantities, vectors):
        if q:
            scores = model.scores(s["text"], q, s["rules"], v if model.minilm else None)
            called[s["numbers"]] = np.array(scores) >= model.threshold
    return called


def _material(design: kc.Design, problem: kc.Problem, numbers: list[dict], documents: list[dict],
              cache: dict) -> tuple[kc.Problem, list[dict]]:
    """The problem and numbers a design trains on: the development part, plus our own labelled
    sentences (training only, never scored) for a design with ``own``."""
    if not design.own:
        return problem, numbers
    if design.minilm:
        raise SystemExit("a design with own sentences and MiniLM blocks is not supported")
    if "own" not in cache:
        own_sentences, own_numbers = trainer.cases(documents + trainer.own_documents())
        cache["own"] = (kc.Problem(own_sentences, own_numbers), own_numbers)
    return cache["own"]


def candidates(documents: list[dict], sentences: list[dict], numbers: list[dict], names: list[str]) -> None:
    """The nested leave-one-document-out table of bench/kinds_candidates.py's designs."""
    problem = kc.Problem(sentences, numbers)
    wanted = sorted({b for name in names for b in kc.DESIGNS[name].minilm})
    started = time.perf_counter()
    dense = kc.minilm_blocks(sentences, numbers, tuple(wanted)) if wanted else {}
    if wanted:
        print(f"  MiniLM blocks {', '.join(wanted)} encoded in {time.perf_counter() - started:.1f} s (in memory)")
    print(f"  rules, in sample (tuned on all of development: optimistic): "
          f"{kc.describe(problem.figures(problem.rules_number))}")
    cache: dict = {}
    for name in names:
        design = kc.DESIGNS[name]
        started = time.perf_counter()
        material, design_numbers = _material(design, problem, numbers, documents, cache)
        k = kc.design_primal(design, design_numbers) if not design.minilm else \
            kc.design_kernel(design, design_numbers, dense)[0]
        called, choices = kc.nested_loo(material, k, design.gate, design.weightings, design.recall_within)
        common = Counter((lam, w, t) for _, lam, w, t in choices).most_common(1)[0]
        note = " [uses the rules: optimistic]" if design.uses_rules else ""
        print(f"  {name:<40} nested LOO: {kc.describe(material.figures(called, design.gate))}{note}; "
              f"most chosen lambda {common[0][0]}, {common[0][1]}, threshold {common[0][2]} "
              f"({common[1]}/{len(choices)} folds) [{time.perf_counter() - started:.0f} s]", flush=True)


def fresh(documents: list[dict], sentences: list[dict], numbers: list[dict], names: list[str], batch: int,
          sweep: bool = False) -> None:
    """Batch ``batch`` as a test set: every design chosen and fitted on the other development
    documents, scored on that batch; the rules too (honest while no rule was tuned on the batch).
    ``sweep``: also the figures at every threshold of the grid (the chosen one is the figure)."""
    problem = kc.Problem(sentences, numbers)
    test = sorted(d["id"] for d in documents if d.get("batch") == batch)
    train = sorted(d["id"] for d in documents if d.get("batch") != batch)
    if not test:
        raise SystemExit(f"--fresh {batch}: no development document of batch {batch}")
    print(f"  batch {batch} as a test set: {len(test)} documents, trained on the other {len(train)}")
    print(f"  {'rules (not tuned on this batch)':<40} {kc.describe(problem.figures(problem.rules_number, documents=test))}")
    wanted = sorted({b for name in names for b in kc.DESIGNS[name].minilm})
    dense = kc.minilm_blocks(sentences, numbers, tuple(wanted)) if wanted else {}
    cache: dict = {}
    for name in names:
        design = kc.DESIGNS[name]
        material, design_numbers = _material(design, problem, numbers, documents, cache)
        k = kc.design_primal(design, design_numbers) if not design.minilm else \
            kc.design_kernel(design, design_numbers, dense)[0]
        scores, (lam, weighting, t) = kc.fresh_scores(material, k, train, design.gate, design.weightings,
                                                     design.recall_within)
        print(f"  {name:<40} {kc.describe(material.figures(scores >= t, design.gate, documents=test))}; "
              f"lambda {lam}, {weighting}, threshold {t}", flush=True)
        if sweep:
            for other in kc.THRESHOLDS:
                print(f"  {'':<40}   at threshold {other}: "
                      f"{kc.describe(material.figures(scores >= other, design.gate, documents=test))}")


def by_batch(documents: list[dict], sentences: list[dict], numbers: list[dict], names: list[str]) -> None:
    """Leave-one-batch-out (kinds_candidates.leave_one_batch_out) of each design, with the
    shipped inner selection (5-fold by document) and with the selection by batch; per batch and
    pooled."""
    problem = kc.Problem(sentences, numbers)
    batch_of = {d["id"]: int(d.get("batch", 0)) for d in documents}
    wanted = sorted({b for name in names for b in kc.DESIGNS[name].minilm})
    dense = kc.minilm_blocks(sentences, numbers, tuple(wanted)) if wanted else {}
    cache: dict = {}
    for name in names:
        design = kc.DESIGNS[name]
        material, design_numbers = _material(design, problem, numbers, documents, cache)
        k = kc.design_primal(design, design_numbers) if not design.minilm else \
            kc.design_kernel(design, design_numbers, dense)[0]
        for inner in ("document", "batch"):
            started = time.perf_counter()
            called, choices = kc.leave_one_batch_out(material, k, batch_of, inner, design.gate, design.weightings,
                                                      design.recall_within)
            print(f"  {name:<24} leave-one-batch-out, selection by {inner:<8}: "
                  f"{kc.describe(material.figures(called, design.gate))} [{time.perf_counter() - started:.0f} s]")
            for (batch, lam, weighting, t) in choices:
                test = sorted(d for d in batch_of if batch_of[d] == batch)
                print(f"      batch {batch} ({len(test)} documents; lambda {lam}, {weighting}, threshold {t}): "
                      f"{kc.describe(material.figures(called, design.gate, documents=test))}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minilm", action="store_true", help="also the first MiniLM attempt (sentence level)")
    parser.add_argument("--candidates", nargs="?", const="plain," + kc.SHIPPED, default=None,
                        help="comma-separated designs of bench/kinds_candidates.py, or all "
                             f"(default with the flag: plain,{kc.SHIPPED})")
    parser.add_argument("--fresh", type=int, default=None, metavar="BATCH",
                        help="instead of the nested figures: train on the other development documents "
                             "and score the designs of --candidates on this batch")
    parser.add_argument("--by-batch", action="store_true",
                        help="instead of the nested figures: leave one development batch out at a time "
                             "(selection by document or by batch) for the designs of --candidates")
    parser.add_argument("--without-batch", type=int, default=None, metavar="BATCH",
                        help="leave this development batch out of everything (the nested figures of the "
                             "documents before it landed)")
    parser.add_argument("--sweep", action="store_true",
                        help="with --fresh: also print the batch's figures at every threshold of the grid")
    args = parser.parse_args()
    names = None
    if args.candidates is not None:
        names = list(kc.DESIGNS) if args.candidates == "all" else [n for n in args.candidates.split(",") if n]
        unknown = [n for n in names if n not in kc.DESIGNS]
        if unknown:
            parser.error(f"--candidates: unknown {unknown}; choose from {list(kc.DESIGNS)}")
    documents = quality.corpus_documents("development")  # never the held-out part
    if args.without_batch is not None:
        documents = [d for d in documents if d.get("batch") != args.without_batch]
    sentences, numbers = trainer.cases(documents)
    print(f"development: {len(documents)} documents, {len(sentences)} sentences "
          f"({sum(s['measured'] for s in sentences)} measured), {len(numbers)} numbers "
          f"({sum(n['result'] for n in numbers)} results)")
    problem = kc.Problem(sentences, numbers)
    print(f"  rules, in sample (tuned on all of development): {kc.describe(problem.figures(problem.rules_number))}")
    model = km.shipped_model()
    shipped = json.loads(km.WEIGHTS.read_text(encoding="utf-8"))
    print(f"  shipped model ({shipped.get('design', model.features)}, lambda {model.lam}, "
          f"{shipped.get('weighting', 'none')}, threshold {model.threshold}), in sample: "
          f"{kc.describe(problem.figures(in_sample(model, sentences, numbers)))}")
    if "design" in shipped:
        retrained = trainer.train(documents, False, shipped["design"], model.lam, shipped["weighting"], model.threshold)
        same = retrained["weights"] == shipped["weights"] and retrained["minilm"] == shipped["minilm"]
        print(f"  retraining now reproduces the shipped weights: "
              f"{'yes' if same else 'NO: retrain (bench/train_kinds_model.py)'}")
    if names and args.by_batch:
        by_batch(documents, sentences, numbers, names)
    elif names and args.fresh is not None:
        fresh(documents, sentences, numbers, names, args.fresh, args.sweep)
    elif names:
        candidates(documents, sentences, numbers, names)
    if args.minilm:
        minilm(documents)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
