"""The attribution classifier that was tried and not shipped, measured out of sample (issue 19,
item 4; features in bench/attribution_features.py; docs/audit.md "Attributions: a trained
classifier, tried and not shipped").

Run (deterministic; reads the development part only, never the held-out part):

    .venv/bin/python bench/bench_attribution_classifier.py                  # every development batch left out in turn
    .venv/bin/python bench/bench_attribution_classifier.py --batch 8        # one batch left out
    .venv/bin/python bench/bench_attribution_classifier.py --batch 5 --rules-at 6fbfffb
    .venv/bin/python bench/bench_attribution_classifier.py --marginal       # what the model adds, 5-fold CV

Cases: every labelled sentence of the ``development`` documents of tests/data/corpus/manifest.json
(never the held-out part), as labelled (the gold text, so the splitter does not enter), with its
label ``attribution``; and every sentence of tests/data/attribution_generalise.toml (our own
sentences in the shapes of public writing). The rules' decision on a sentence is the one
:func:`claims.extract._sentence_rows` makes (a person-name citation or a credit of
:func:`claims.attribution.credits`, or a work the page named as the subject: ``works_named``).

Decision tried: attributed when the rules credit the sentence or the model's p ≥ threshold.

Solver: L2 logistic regression over the binary pattern features plus a bias, balanced class
weights c_i (n / 2n_pos, n / 2n_neg), loss Σ c_i [log(1 + e^{f_i}) − y_i f_i] + (λ/2)‖w‖² (bias
not penalised), Newton's method from w = 0, at most 50 steps, stop when the step is below 1e-12
(numpy, no random numbers). λ and the threshold are chosen by 5-fold cross-validation by
document over the training documents (sorted by id, dealt round-robin): the best F1 of the model
alone (the regime of an unseen page, where the rules find about half) with precision weighing
twice recall (F0.5), ties to the larger threshold, then the larger λ.

``--batch 5 --rules-at 6fbfffb``: the rules as they were before anyone tuned them on
batch 5 (the last commit of branch attribution-gen before it merged batch 5), so that batch 5 is out
of sample for both the rules and the model (docs/audit.md records the figures).

Default: for each development batch, train (with the selection inside) on the other
batches and the generalisation set, and print on the batch left out: the rules, the model alone,
rules OR model (precision, recall). The rules were tuned on every development batch except one
not yet tuned on, so their own figures are in sample there; the model's are not.

``--minilm``: the sentence's all-MiniLM-L6-v2 vector (the pinned encoder, as claims/kinds_model.py
reads it) joins the 39 pattern features (batch 8 with ``--rules-at d331a1c``, λ 0.3 and threshold 0.8
chosen inside: rules OR model 0.790 (49/62) / 0.598 (49/82), the model adding 16 credits of which 8
right; the vector alone, without the patterns, reached 0.24 precision).

``--marginal``: 5-fold cross-validation by document over all development documents, and batch 8
left out: how many sentences the model adds on top of the rules at each λ and threshold, and how
many of those are labelled attributions (the precision of what the model would add).
"""

from __future__ import annotations

import argparse
import re
import sys
import tomllib
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(REPO / "bench"))

import bench_claims_quality as quality  # noqa: E402
import attribution_features as am  # noqa: E402
from claims.attribution import credits, work_reports, works_named  # noqa: E402
from claims.extract import cited_names  # noqa: E402
from sources.names import fold  # noqa: E402

GENERALISE = REPO / "tests" / "data" / "attribution_generalise.toml"
LAMBDAS = (0.3, 1.0, 3.0)
THRESHOLDS = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95)
FOLDS = 5


def rules_decision(text: str, works: set[str]) -> tuple[bool, list[str]]:
    """The rules' attribution decision on one sentence and the row's cited names (module docstring)."""
    names, person = cited_names(text)
    credit = credits(text)
    if credit is not None:
        names = names + [n for n in credit.names if n not in names]
    if person or credit is not None:
        return True, names
    work = work_reports(text, works) if works else None
    return work is not None, names + ([work] if work and work not in names else [])


def cases(documents: list[dict], generalise: bool = True) -> list[dict]:
    """One case per labelled sentence: document, batch, text, gold flag, rules flag, features."""
    out = []
    for document in documents:
        labels = quality.corpus_labels(document)
        texts = [" ".join(label["text"].split()) for label in labels]
        works = works_named(texts)
        for label, text in zip(labels, texts):
            flag, names = rules_decision(text, works)
            out.append({"document": document["id"], "batch": document.get("batch"), "text": text,
                        "gold": bool(label["attribution"]), "cited": list(label["cited"]), "rules": flag,
                        "names": names, "features": am.sentence_features(text)})
    if generalise:
        for s in tomllib.loads(GENERALISE.read_text(encoding="utf-8"))["sentence"]:
            flag, names = rules_decision(s["text"], set())
            out.append({"document": "generalise", "batch": "generalise", "text": s["text"],
                        "gold": bool(s["attribution"]), "cited": list(s["cited"]), "rules": flag, "names": names,
                        "features": am.sentence_features(s["text"])})
    return out


def matrix(rows: list[dict]) -> np.ndarray:
    """Bias column, then one 0/1 column per feature of :data:`attribution_features.FEATURES`, then
    the sentence's MiniLM vector when the rows carry one (``--minilm``)."""
    index = {name: j + 1 for j, name in enumerate(am.FEATURES)}
    x = np.zeros((len(rows), len(am.FEATURES) + 1))
    x[:, 0] = 1.0
    for r, row in enumerate(rows):
        for name in row["features"]:
            x[r, index[name]] = 1.0
    if rows and "vector" in rows[0]:
        x = np.hstack([x, np.array([row["vector"] for row in rows])])
    return x


def fit(x: np.ndarray, y: np.ndarray, lam: float) -> np.ndarray:
    """w of the class-balanced L2 logistic regression (module docstring)."""
    n, positives = len(y), float(y.sum())
    c = np.where(y == 1, n / (2 * positives), n / (2 * (n - positives)))
    penalty = np.full(x.shape[1], lam)
    penalty[0] = 0.0
    w = np.zeros(x.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        gradient = x.T @ (c * (p - y)) + penalty * w
        hessian = (x * (c * p * (1 - p))[:, None]).T @ x + np.diag(penalty) + 1e-9 * np.eye(x.shape[1])
        step = np.linalg.solve(hessian, gradient)
        w -= step
        if np.max(np.abs(step)) < 1e-12:
            break
    return w


def probabilities(w: np.ndarray, rows: list[dict]) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-(matrix(rows) @ w)))


def f_half(gold: list[bool], flags: list[bool]) -> float:
    """F0.5 = 1.25 tp / (1.25 tp + 0.25 fn + fp): precision weighs twice recall (a wrong credit is a
    wrong verdict in the report)."""
    tp = sum(g and f for g, f in zip(gold, flags))
    fp = sum(f and not g for g, f in zip(gold, flags))
    fn = sum(g and not f for g, f in zip(gold, flags))
    return 1.25 * tp / (1.25 * tp + 0.25 * fn + fp) if tp else 0.0


def choose(rows: list[dict]) -> tuple[float, float, float]:
    """(λ, threshold, F0.5): the 5-fold cross-validation by document (module docstring)."""
    documents = sorted({r["document"] for r in rows})
    fold = {d: i % FOLDS for i, d in enumerate(documents)}
    gold = [r["gold"] for r in rows]
    best = (-1.0, 0.0, 0.0)
    for lam in LAMBDAS:
        p = np.zeros(len(rows))
        for k in range(FOLDS):
            train = [r for r in rows if fold[r["document"]] != k]
            test = [i for i, r in enumerate(rows) if fold[r["document"]] == k]
            w = fit(matrix(train), np.array([r["gold"] for r in train], dtype=float), lam)
            p[test] = probabilities(w, [rows[i] for i in test])
        for threshold in THRESHOLDS:
            score = f_half(gold, list(p >= threshold))
            if (round(score, 9), threshold, lam) > (round(best[0], 9), best[1], best[2]):
                best = (score, threshold, lam)
    return best[2], best[1], best[0]


def train(rows: list[dict]) -> dict:
    """The fitted model (features, λ, threshold, selection, weights), trained on ``rows`` with λ and
    the threshold chosen inside them (:func:`choose`)."""
    lam, threshold, cv_f1 = choose(rows)
    w = fit(matrix(rows), np.array([r["gold"] for r in rows], dtype=float), lam)
    names = ("bias",) + am.FEATURES
    return {"features": list(am.FEATURES), "lam": lam, "threshold": threshold,
            "selection": {"method": f"{FOLDS}-fold cross-validation by document; lambda {list(LAMBDAS)}, threshold "
                                    f"{list(THRESHOLDS)}; best F0.5 of the model alone, ties to the larger threshold "
                                    f"and lambda", "cross_validated_f_half": round(cv_f1, 6)},
            "trained_on": {"part": "development", "documents": sorted({r["document"] for r in rows} - {"generalise"}),
                           "generalisation_set": sum(r["document"] == "generalise" for r in rows),
                           "sentences": len(rows), "attributions": sum(r["gold"] for r in rows)},
            "weights": {name: round(float(v), 10) for name, v in zip(names, w)}, "w": [float(v) for v in w]}


def figures(rows: list[dict], flags: list[bool]) -> str:
    tp = sum(r["gold"] and f for r, f in zip(rows, flags))
    predicted, gold = sum(flags), sum(r["gold"] for r in rows)
    return (f"P {tp / predicted if predicted else float('nan'):.3f} ({tp}/{predicted}) "
            f"R {tp / gold if gold else float('nan'):.3f} ({tp}/{gold})")


def names_found(rows: list[dict], credited_by_model: list[bool]) -> str:
    """Gold cited names of attributed sentences found among the row's names (bench/bench_claims_quality.py's
    match: folded, `` et al.`` ignored, substring either way); a sentence the model credits adds
    :func:`attribution_features.model_names`."""
    found = total = 0
    for row, by_model in zip(rows, credited_by_model):
        if not row["gold"]:
            continue
        names = [fold(n) for n in row["names"] + (am.model_names(row["text"]) if by_model else []) if n]
        for name in row["cited"]:
            total += 1
            found += any(fold(name).replace(" et al.", "") in n or n in fold(name) for n in names)
    return f"{found / total if total else float('nan'):.3f} ({found}/{total})"


def evaluate(rows: list[dict], batches: list) -> None:
    """Leave one batch out (module docstring)."""
    for batch in batches:
        test = [r for r in rows if r["batch"] == batch]
        train_rows = [r for r in rows if r["batch"] != batch]
        model = train(train_rows)
        w = np.array(model["w"])
        p = probabilities(w, test)
        t = model["threshold"]
        print(f"batch {batch} ({len({r['document'] for r in test})} documents, {len(test)} sentences; "
              f"trained on {len(train_rows)}, lambda {model['lam']}, threshold {t}):")
        added = [not r["rules"] and q >= t for r, q in zip(test, p)]
        print(f"  rules          {figures(test, [r['rules'] for r in test])}, cited names found "
              f"{names_found(test, [False] * len(test))}")
        print(f"  model alone    {figures(test, list(p >= t))}")
        print(f"  rules OR model {figures(test, [r['rules'] or a for r, a in zip(test, added)])}, cited names found "
              f"{names_found(test, added)}")


_OLD_RULES = """
import json, sys
from claims.extract import cited_names
from claims.attribution import credits
try:
    from claims.attribution import work_reports, works_named
except ImportError:  # older rules: no named works
    works_named = None
out = []
for texts in json.load(sys.stdin):
    works = works_named(texts) if works_named else set()
    for text in texts:
        names, person = cited_names(text)
        credit = credits(text)
        names += [n for n in (credit.names if credit else ()) if n not in names]
        work = work_reports(text, works) if works else None
        out.append([bool(person or credit is not None or work), names + ([work] if work else [])])
json.dump(out, sys.stdout)
"""


def rules_at(commit: str, rows: list[dict]) -> None:
    """Replace each development row's rules flag and names by those of the rules as they were at
    ``commit`` (``git archive`` of claims/, audit/, engine/ and sources/ into a temporary directory,
    run in a subprocess): the rules before they were tuned on a batch score that batch out of sample."""
    import json
    import os
    import subprocess
    import tempfile

    documents: dict[str, list[int]] = {}
    for i, row in enumerate(rows):
        if row["document"] != "generalise":
            documents.setdefault(row["document"], []).append(i)
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(REPO), "archive", commit, "claims", "audit", "engine", "sources"],
                                 check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        texts = [[rows[i]["text"] for i in indices] for indices in documents.values()]
        result = subprocess.run([sys.executable, "-c", _OLD_RULES], input=json.dumps(texts), text=True, check=True,
                                capture_output=True, cwd=tmp, env={**os.environ, "PYTHONPATH": tmp})
    decisions = iter(json.loads(result.stdout))
    for indices in documents.values():
        for i in indices:
            rows[i]["rules"], rows[i]["names"] = next(decisions)


def marginal(rows: list[dict]) -> None:
    """``--marginal`` (module docstring)."""
    documents = sorted({r["document"] for r in rows})
    fold = {d: i % FOLDS for i, d in enumerate(documents)}
    held = [r for r in rows if r["batch"] == 8]
    rest = [r for r in rows if r["batch"] != 8]
    for lam in LAMBDAS:
        p = np.zeros(len(rows))
        for k in range(FOLDS):
            train_rows = [r for r in rows if fold[r["document"]] != k]
            test = [i for i, r in enumerate(rows) if fold[r["document"]] == k]
            w = fit(matrix(train_rows), np.array([r["gold"] for r in train_rows], dtype=float), lam)
            p[test] = probabilities(w, [rows[i] for i in test])
        w8 = fit(matrix(rest), np.array([r["gold"] for r in rest], dtype=float), lam)
        p8 = probabilities(w8, held) if held else np.zeros(0)
        for threshold in THRESHOLDS:
            added = [r["gold"] for r, q in zip(rows, p) if not r["rules"] and q >= threshold
                     and r["document"] != "generalise"]
            added8 = [r["gold"] for r, q in zip(held, p8) if not r["rules"] and q >= threshold]
            print(f"lambda {lam} threshold {threshold}: 5-fold CV adds {len(added)}, {sum(added)} of them "
                  f"attributions; batch 8 left out adds {len(added8)}, {sum(added8)} of them attributions")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--batch", type=int, default=None, help="only this development batch left out")
    parser.add_argument("--rules-at", default=None, metavar="COMMIT",
                        help="the rules as they were at COMMIT (6fbfffb: before tuning on batch 5)")
    parser.add_argument("--marginal", action="store_true", help="what the model adds to the rules (module docstring)")
    parser.add_argument("--minilm", action="store_true",
                        help="add each sentence's all-MiniLM-L6-v2 vector to the features (needs the model package)")
    parser.add_argument("--documents", type=int, default=None,
                        help="the first N development documents only, no generalisation set (the determinism test)")
    args = parser.parse_args(argv)
    # never the held-out part; every development batch (bench_claims_quality reads --batch itself)
    documents = [d for d in quality.corpus_manifest()["documents"] if d["part"] == "development"]
    if args.documents is not None:
        documents = documents[: args.documents]
    rows = cases(documents, generalise=args.documents is None)
    if args.rules_at:
        rules_at(args.rules_at, rows)
    if args.minilm:
        from claims.kinds_model import minilm_vectors

        for row, v in zip(rows, minilm_vectors([row["text"] for row in rows])):
            row["vector"] = v
    if args.marginal:
        marginal(rows)
        return 0
    batches = [args.batch] if args.batch is not None else sorted({d.get("batch") for d in documents})
    evaluate(rows, batches)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
