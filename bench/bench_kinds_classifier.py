"""Measured results on the development part: the rules, the shipped kinds model, and (with
``--minilm``) the earlier MiniLM classifier — cross-validated by document (issue 19, item 4).

Run: ``.venv/bin/python bench/bench_kinds_classifier.py [--minilm]`` (about 30 s; with
``--minilm`` a further 15–60 s while the local MiniLM encodes every development sentence).

It reads only the ``development`` documents of ``tests/data/corpus/manifest.json``; the held-out
part is scored by the coordinator through ``bench/bench_claims_quality.py --held-out [--kinds
model]``, never here. Scored per labelled sentence (its gold text, so sentence splitting does not
enter); figures are precision, recall and the share of labelled non-result numbers called a
result.

Printed:

* the rules (:func:`claims.extract.classify`) on every development sentence — **in sample**:
  the rules were tuned on all of development, so this figure is optimistic;
* the shipped model (``claims/kinds_model.json``, sha256-pinned) on every development sentence —
  also in sample (it was trained on them) — and whether retraining now reproduces its weights
  (it does not once the rules or the development part changed: retrain with
  ``bench/train_kinds_model.py``);
* the leave-one-document-out figures of the hashed model for each feature set, at the shipped
  λ and threshold (``bench/train_kinds_model.py`` prints the whole grid);
* with ``--minilm``: leave-one-document-out of the first attempt (L2 logistic regression, Newton,
  over the 384-dimensional MiniLM sentence vector plus the rules' structural features, without
  the rules' decision), λ ∈ {1, 10}, threshold ∈ {0.3, 0.5}.

History: that first attempt, trained on 27 development documents, scored on the old held-out part
(since retired into development) precision 0.680 (17/25), recall 0.654 (17/26), against the rules'
0.633 (19/30) / 0.731 (19/26), and was not shipped; it also encodes every sentence (about 60 a
second here), far beyond the 5 s budget of ``bench/bench_claims.py`` for 50,000 words.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import bench_claims_quality as quality  # noqa: E402
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


def main() -> int:
    documents = quality.corpus_documents("development")  # never the held-out part
    sentences, numbers = trainer.cases(documents)
    print(f"development: {len(documents)} documents, {len(sentences)} sentences, {len(numbers)} numbers")
    print(f"  rules, in sample (tuned on all of development): "
          f"{trainer.describe(trainer.rules_sentence_figures(sentences, numbers))}")
    model = km.shipped_model()
    called = np.zeros(len(numbers), dtype=bool)
    for s in sentences:
        if not s["numbers"]:
            continue
        q_numbers = [numbers[i] for i in s["numbers"]]
        for i, number in zip(s["numbers"], q_numbers):
            x = km.vector(number["features"][model.features])
            z = sum(v * model.weights.get(j, 0.0) for j, v in x.items())
            called[i] = 1.0 / (1.0 + np.exp(-z)) >= model.threshold
    print(f"  shipped model ({model.features}, lambda {model.lam}, threshold {model.threshold}), in sample: "
          f"{trainer.describe(trainer.sentence_figures(sentences, numbers, called))}")
    retrained = trainer.train(documents, False, model.features, model.lam, model.threshold)
    shipped = json.loads(km.WEIGHTS.read_text(encoding="utf-8"))
    print(f"  retraining now reproduces the shipped weights: "
          f"{'yes' if retrained['weights'] == shipped['weights'] else 'NO: retrain (bench/train_kinds_model.py)'}")
    y = np.array([float(n["result"]) for n in numbers])
    ids = np.array([n["document"] for n in numbers])
    for features in km.FEATURE_SETS:
        x, _ = trainer.matrix(numbers, features)
        k = x @ x.T
        scores = np.zeros(len(numbers))
        for document in sorted(set(ids)):
            test = ids == document
            alpha = trainer.fit_dual(k[np.ix_(~test, ~test)], y[~test], model.lam)
            scores[test] = 1.0 / (1.0 + np.exp(-(k[np.ix_(test, ~test)] @ alpha)))
        print(f"  hashed model, features {features}, leave-one-document-out at lambda {model.lam}, "
              f"threshold {model.threshold}: "
              f"{trainer.describe(trainer.sentence_figures(sentences, numbers, scores >= model.threshold))}")
    if "--minilm" in sys.argv:
        minilm(documents)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
