"""Measured results: the shipped rules against a small trained classifier (issue 19, item 4).

Run: ``.venv/bin/python bench/bench_kinds_classifier.py`` (about a minute: the local MiniLM
encodes the 547 labelled sentences of ``tests/data/corpus``).

The classifier is an L2-regularised logistic regression (numpy, Newton/IRLS from zero weights,
15 steps: deterministic) over the MiniLM sentence vector (``engine.encoder.encode``, 384
dimensions, L2-normalised) plus structural features of the rules — whether the sentence has a
quantity of role value after :func:`claims.kinds.refine_roles`, how many (capped at 4), a
percentage, a multiplier, a metric word, a change word, a veto of
:func:`claims.kinds.not_measured`, a cue of :func:`claims.kinds.measured_cue`, a ``count`` and a
``parameter`` role — but *not* the rules' own decision. It is trained on the development part
only; λ ∈ {1, 10} and the threshold ∈ {0.3, 0.5} are chosen by leave-one-document-out F1 on the
development part; the chosen model is then scored once on the held-out part and the figures are
appended to ``bench/data/claims_quality_heldout.log``. Both are scored per labelled sentence
(its gold text, so sentence splitting does not enter), the rules by
:func:`claims.extract.classify`.

Measured 2026-12-01 (see the README "Benchmarks"), development = 27 documents / 466 sentences:
leave-one-document-out on development precision 0.863 (63/73), recall 0.940 (63/67) (λ = 1,
threshold 0.3); held-out precision 0.680 (17/25), recall 0.654 (17/26); the rules on the same
held-out sentences 0.633 (19/30) and 0.731 (19/26). (With the first 20 development documents it
was 0.708 / 0.654.) The classifier is no better (F1 0.67 against 0.68) and would encode every sentence with MiniLM,
about 60 sentences a second here, far beyond the 5 s budget of ``bench/bench_claims.py`` for
50,000 words, so the rules are what ships; no weights are in the package.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import bench_claims_quality as quality  # noqa: E402
from claims.extract import _CHANGE, _METRIC, MEASURED, cited_names, classify, quantity_roles  # noqa: E402
from claims.kinds import measured_cue, not_measured, refine_roles  # noqa: E402
from claims.quantities import find_quantities  # noqa: E402


def labelled(part: str) -> list[tuple[str, str, float]]:
    return [(d["id"], quality.normalise(g["text"]), float(g["measured"]))
            for d in quality.corpus_documents(part) for g in quality.corpus_labels(d)]


def rules_say_measured(text: str) -> bool:
    quantities = refine_roles(text, quantity_roles(text, find_quantities(text)))
    _, person = cited_names(text)
    return classify(text, quantities, person)[0] == MEASURED


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
        gradient = x.T @ (p - y) + penalty @ w
        hessian = (x.T * (p * (1.0 - p))) @ x + penalty
        w -= np.linalg.solve(hessian, gradient)
    return w


def precision_recall(predicted: np.ndarray, gold: np.ndarray) -> tuple[int, int, int]:
    return int((predicted & (gold == 1)).sum()), int(predicted.sum()), int((gold == 1).sum())


def main() -> int:
    from engine.encoder.encode import load_encoder

    encoder = load_encoder()
    dev, held = labelled("development"), labelled("held-out")
    x_dev = np.hstack([np.array([structural(t) for _, t, _ in dev]), encoder.encode([t for _, t, _ in dev])])
    x_held = np.hstack([np.array([structural(t) for _, t, _ in held]), encoder.encode([t for _, t, _ in held])])
    y_dev = np.array([label for _, _, label in dev])
    y_held = np.array([label for _, _, label in held])
    documents = sorted({d for d, _, _ in dev})
    best = None
    for lam in (1.0, 10.0):
        scores = np.zeros(len(y_dev))
        for document in documents:
            test = np.array([d == document for d, _, _ in dev])
            scores[test] = 1.0 / (1.0 + np.exp(-x_dev[test] @ fit(x_dev[~test], y_dev[~test], lam)))
        for threshold in (0.3, 0.5):
            tp, p, g = precision_recall(scores >= threshold, y_dev)
            f1 = 2 * tp / (p + g)
            print(f"leave-one-document-out on development, lambda {lam}, threshold {threshold}: "
                  f"precision {tp / max(p, 1):.3f} ({tp}/{p}), recall {tp / g:.3f} ({tp}/{g}), F1 {f1:.3f}")
            if best is None or f1 > best[0]:
                best = (f1, lam, threshold)
    _, lam, threshold = best
    held_scores = 1.0 / (1.0 + np.exp(-x_held @ fit(x_dev, y_dev, lam)))
    figures = {}
    for name, predicted in (("classifier", held_scores >= threshold),
                            ("rules", np.array([rules_say_measured(t) for _, t, _ in held]))):
        tp, p, g = precision_recall(predicted, y_held)
        figures[name] = {"precision": f"{tp / max(p, 1):.3f} ({tp}/{p})", "recall": f"{tp / g:.3f} ({tp}/{g})"}
        print(f"held-out, {name}: precision {figures[name]['precision']}, recall {figures[name]['recall']}")
    with quality.HELD_OUT_LOG.open("a", encoding="utf-8") as log:
        log.write(json.dumps({"time": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                              "commit": quality._commit(), "note": "bench_kinds_classifier.py, per gold sentence",
                              "chosen": {"lambda": lam, "threshold": threshold}, "held_out": figures},
                             sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
