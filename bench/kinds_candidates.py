"""Candidate measured-result classifiers, compared by nested leave-one-document-out (issue 19, item 4).

Used by ``bench/bench_kinds_classifier.py --candidates`` (and by ``bench/train_kinds_model.py``
for the kernel of the shipped candidate). Development documents only.

Every candidate is the L2 logistic regression of ``bench/train_kinds_model.py`` (dual Newton,
deterministic) on a kernel K = Σ_b s_b² X_b X_bᵀ over feature blocks b: the hashed features of
claims/kinds_model.py (``plain`` or ``rules``: bias 1 plus two unit-norm groups, so ‖x‖² = 3),
the MiniLM vector (unit norm, all-MiniLM-L6-v2 on onnxruntime, 1 intra-op thread) of the
number's sentence and/or of a window of ±8 words around the number. The MiniLM blocks get the
weight s² = 2 in total (the squared norm of the hashed part without the bias), fixed in advance,
so that neither part dominates.

**Nested evaluation.** For each development document d (the outer fold), λ ∈ :data:`LAMBDAS`,
the case weighting (none or balanced) and the threshold ∈ :data:`THRESHOLDS` are chosen by the
sentence-level F1 of a 5-fold cross-validation over the *other* documents only (documents sorted
by id, dealt round-robin into 5 folds; ties to the earlier grid entry), the model is fitted on
all other documents with that choice and its calls on d are kept. The pooled calls over all d
are the figure; nothing is chosen on it. The rules (:func:`claims.extract.classify`) are
evaluated in sample (they were tuned on all of development, so they are optimistic), and so is
every candidate that uses them (``∧ rules``, the ``rules`` feature set).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

import train_kinds_model as trainer
from claims import kinds_model as km

LAMBDAS = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0)
THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.6)
WEIGHTINGS = ("none", "balanced")
INNER_FOLDS = 5


POSITIONS = ("L1:", "L2:", "L3:", "R1:", "R2:")
"""The n-gram features a ``positions`` design keeps: the 1st–3rd word before and 1st–2nd after."""


@dataclass(frozen=True)
class Design:
    """One candidate: the hashed feature set (``plain``/``rules``), whether the n-gram group is in,
    the MiniLM blocks with their kernel weight s_b², whether the rules gate the model (rules ∧
    model), and the case weightings the inner selection may choose."""

    features: str = "plain"
    ngrams: bool | tuple[str, ...] = True
    minilm: dict[str, float] = field(default_factory=dict)
    gate: bool = False
    weightings: tuple[str, ...] = ("none",)
    uses_rules: bool = False
    own: bool = False
    recall_within: float = 0.0
    """0: λ and threshold of the best cross-validated F1. Above 0: of the grid entries whose F1 is
    within this much of the best, the one with the highest cross-validated recall (the goal asks
    recall first, and the weights' held-out precision has run above their recall)."""
    """Also train on our own labelled sentences (tests/data/kinds_training/own.labels.toml): in
    every training part, never in a test part or a figure."""


DESIGNS: dict[str, Design] = {
    "plain": Design(),
    "shapes": Design(features="shapes"),
    "shapes+own": Design(features="shapes", own=True),
    "plain+own": Design(own=True),
    "context+own": Design(features="context", own=True),
    "cues+own": Design(features="cues", own=True),
    "context+roles+own": Design(features="context+roles", own=True),
    "context structure+own": Design(features="context", ngrams=False, own=True),
    "context positions+own": Design(features="context", ngrams=POSITIONS, own=True),
    "shapes+roles+own": Design(features="shapes+roles", own=True),
    "shapes+own recall-leaning": Design(features="shapes", own=True, recall_within=0.01),
    "plain+sentence": Design(minilm={"sentence": 2.0}),
    "plain+window": Design(minilm={"window": 2.0}),
    "plain+both": Design(minilm={"sentence": 1.0, "window": 1.0}),
    "structure": Design(ngrams=False),
    "structure+window": Design(ngrams=False, minilm={"window": 2.0}),
    "structure+both": Design(ngrams=False, minilm={"sentence": 1.0, "window": 1.0}),
    "structure+positions": Design(ngrams=POSITIONS),
    "structure+positions+window": Design(ngrams=POSITIONS, minilm={"window": 2.0}),
    "structure+window balanced?": Design(ngrams=False, minilm={"window": 2.0}, weightings=WEIGHTINGS),
    "structure+window with the rules' call": Design(features="rules", ngrams=False, minilm={"window": 2.0},
                                                  uses_rules=True),
    "structure+window ∧ rules": Design(ngrams=False, minilm={"window": 2.0}, gate=True, uses_rules=True),
}
"""The candidates of ``bench/bench_kinds_classifier.py --candidates`` (kernel weight of the hashed
block 1; the MiniLM blocks 2 in total, fixed in advance)."""

SHIPPED = "context+own"
"""The design ``bench/train_kinds_model.py`` trains (stop 28, branch model; docs/audit.md): the
``context`` feature set (``shapes`` plus the modality, data-size, target, settings and version
features of :func:`claims.kinds_model.context_features`), trained on the development part and
our own labelled sentences. Chosen before batches 10 and 11 were scored, by nested
leave-one-document-out on the 106 development documents then (F1 0.819–0.821 against
``shapes+own``'s 0.804 with the same quantities; 0.788 before them); ``shapes+own`` before it
(stop 27), ``plain`` before that."""


def minilm_blocks(sentences: list[dict], numbers: list[dict], blocks: tuple[str, ...] = km.MINILM_BLOCKS
                  ) -> dict[str, np.ndarray]:
    """Per number: ``sentence`` (the MiniLM vector of its sentence) and ``window`` (of its window)."""
    out = {}
    if "sentence" in blocks:
        out["sentence"] = km.minilm_vectors([s["text"] for s in sentences])[[n["sentence"] for n in numbers]]
    if "window" in blocks:
        out["window"] = km.minilm_vectors([km.window_text(sentences[n["sentence"]]["text"], n["quantity"].span)
                                           for n in numbers])
    return out


class Primal:
    """The hashed design matrix X (sparse) of a design without MiniLM blocks, standing in for its
    kernel K = X Xᵀ: :func:`_scores` then fits the same L2 logistic regression in the primal
    (:func:`fit_primal`), whose optimum is the dual's (representer theorem: w = Xᵀα), 5–10× faster
    than the dual Newton steps on an n × n kernel (calls on the left-out cases agree with the
    dual's to 1e-9 in p: checked on the 106 development documents, stop 28)."""

    def __init__(self, x) -> None:
        self.x = x


def fit_primal(x, y: np.ndarray, lam: float, c: np.ndarray | None = None) -> np.ndarray:
    """w of Σ c_i [log(1 + e^{z_i}) − y_i z_i] + (λ/2)‖w‖², z = X w, by scipy's trust-region
    Newton-CG from w = 0 (gradient norm below 1e-9; deterministic)."""
    from scipy.optimize import minimize

    c = np.ones(len(y)) if c is None else c

    def objective(w):
        z = x @ w
        p = 1.0 / (1.0 + np.exp(-z))
        return float(np.sum(c * (np.logaddexp(0.0, z) - y * z)) + lam / 2 * w @ w), x.T @ (c * (p - y)) + lam * w

    def hessp(w, v):
        p = 1.0 / (1.0 + np.exp(-(x @ w)))
        return x.T @ (c * p * (1.0 - p) * (x @ v)) + lam * v

    return minimize(objective, np.zeros(x.shape[1]), jac=True, hessp=hessp, method="trust-ncg",
                    options={"gtol": 1e-9, "maxiter": 500}).x


def design_primal(design: Design, numbers: list[dict]) -> Primal:
    """The sparse hashed matrix of ``design`` (no MiniLM blocks) for :func:`_scores`."""
    import scipy.sparse as sparse

    if design.minilm:
        raise ValueError("a design with MiniLM blocks has no primal form here")
    vectors = [km.vector(number["features"][design.features], design.ngrams) for number in numbers]
    column = {b: j for j, b in enumerate(sorted({i for v in vectors for i in v}))}
    rows = [r for r, v in enumerate(vectors) for _ in v]
    columns = [column[i] for v in vectors for i in v]
    values = [value for v in vectors for value in v.values()]
    return Primal(sparse.csr_matrix((values, (rows, columns)), shape=(len(numbers), len(column))))


def design_kernel(design: Design, numbers: list[dict], dense: dict[str, np.ndarray]) -> tuple[np.ndarray, tuple]:
    """(K, (X_hashed, buckets)) of ``design``: X Xᵀ + Σ_b s_b² M_b M_bᵀ."""
    x, buckets = trainer.matrix(numbers, design.features, design.ngrams)
    k = x @ x.T
    for block, weight in design.minilm.items():
        k = k + weight * (dense[block] @ dense[block].T)
    return k, (x, buckets)


class Problem:
    """The development cases with their sentence index, labels and the rules' calls."""

    def __init__(self, sentences: list[dict], numbers: list[dict]) -> None:
        self.sentences, self.numbers = sentences, numbers
        self.y = np.array([float(n["result"]) for n in numbers])
        self.documents = np.array([n["document"] for n in numbers])
        self.sid = np.array([n["sentence"] for n in numbers], dtype=np.int64)
        self.gold = np.array([s["measured"] for s in sentences])
        self.sentence_documents = np.array([s["document"] for s in sentences])
        self.rules_sentence = np.array([s["rules"] for s in sentences])
        self.rules_number = trainer.rules_called(sentences, numbers)
        self.nonresult = np.array([n["nonresult_label"] for n in numbers])
        self.extra = np.array([bool(n.get("own")) for n in numbers], dtype=bool)
        self.sentence_extra = np.array([bool(s.get("own")) for s in sentences], dtype=bool)
        """Our own training-only sentences (``Design.own``): in every training part, never scored."""

    def evaluation_documents(self) -> list[str]:
        """The corpus documents (sorted), without our own training-only ones."""
        return sorted(set(self.sentence_documents[~self.sentence_extra]))

    def sentence_calls(self, called: np.ndarray, gate: bool = False) -> np.ndarray:
        """A sentence is measured when any of its numbers is called (and, with ``gate``, the rules
        call the sentence measured)."""
        out = np.zeros(len(self.sentences), dtype=bool)
        np.logical_or.at(out, self.sid, called)
        return out & self.rules_sentence if gate else out

    def f1(self, called: np.ndarray, sentence_mask: np.ndarray, gate: bool = False) -> float:
        predicted = self.sentence_calls(called, gate)[sentence_mask]
        gold = self.gold[sentence_mask]
        tp = int((predicted & gold).sum())
        return 2 * tp / max(int(predicted.sum()) + int(gold.sum()), 1)

    def recall(self, called: np.ndarray, sentence_mask: np.ndarray, gate: bool = False) -> float:
        predicted = self.sentence_calls(called, gate)[sentence_mask]
        gold = self.gold[sentence_mask]
        return int((predicted & gold).sum()) / max(int(gold.sum()), 1)

    def figures(self, called: np.ndarray, gate: bool = False, documents: list[str] | None = None) -> dict:
        """Sentence and number counts of ``called``; over ``documents`` only when given."""
        predicted = self.sentence_calls(called, gate)
        number_called = called & self.rules_sentence[self.sid] if gate else called
        gold, result, nonresult = self.gold, self.y == 1, self.nonresult
        if documents is None and self.extra.any():
            documents = self.evaluation_documents()
        if documents is not None:
            keep_s, keep_n = np.isin(self.sentence_documents, documents), np.isin(self.documents, documents)
            predicted, gold = predicted & keep_s, gold & keep_s
            number_called, result, nonresult = number_called & keep_n, result & keep_n, nonresult & keep_n
        return {"tp": int((predicted & gold).sum()), "fp": int((predicted & ~gold).sum()),
                "fn": int((~predicted & gold).sum()),
                "number_tp": int((number_called & result).sum()), "number_called": int(number_called.sum()),
                "numbers_result": int(result.sum()),
                "nonresult_called": int((number_called & nonresult).sum()),
                "nonresult": int(nonresult.sum())}


def describe(figures: dict) -> str:
    tp, fp, fn = figures["tp"], figures["fp"], figures["fn"]
    ntp, ncalled, nres = figures["number_tp"], figures["number_called"], figures["numbers_result"]
    return (f"sentences P {tp / max(tp + fp, 1):.3f} ({tp}/{tp + fp}) R {tp / max(tp + fn, 1):.3f} ({tp}/{tp + fn}) "
            f"F1 {2 * tp / max(2 * tp + fp + fn, 1):.3f}; numbers P {ntp / max(ncalled, 1):.3f} ({ntp}/{ncalled}) "
            f"R {ntp / max(nres, 1):.3f} ({ntp}/{nres}); non-result called "
            f"{figures['nonresult_called'] / max(figures['nonresult'], 1):.3f} "
            f"({figures['nonresult_called']}/{figures['nonresult']})")


def case_weights(y: np.ndarray, weighting: str) -> np.ndarray | None:
    """None, or balanced weights n / (2 n_class) (King and Zeng 2001; scikit-learn's "balanced")."""
    if weighting == "none":
        return None
    positives = max(float(y.sum()), 1.0)
    negatives = max(float(len(y) - y.sum()), 1.0)
    return np.where(y == 1, len(y) / (2 * positives), len(y) / (2 * negatives))


def _scores(k: np.ndarray | Primal, y: np.ndarray, train: np.ndarray, test: np.ndarray, lam: float,
            weighting: str) -> np.ndarray:
    if isinstance(k, Primal):
        w = fit_primal(k.x[train], y[train], lam, case_weights(y[train], weighting))
        return 1.0 / (1.0 + np.exp(-(k.x[test] @ w)))
    alpha = trainer.fit_dual(k[np.ix_(train, train)], y[train], lam, case_weights(y[train], weighting))
    return 1.0 / (1.0 + np.exp(-(k[np.ix_(test, train)] @ alpha)))


def choose(problem: Problem, k: np.ndarray, train_documents: list[str], gate: bool = False,
           weightings: tuple[str, ...] = ("none",), groups: dict[str, int] | None = None,
           recall_within: float = 0.0) -> tuple[float, str, float, float]:
    """(λ, weighting, threshold, F1) by the sentence F1 of a 5-fold CV over ``train_documents``
    (ties to the earlier grid entry). ``groups`` (document → batch): the folds are the batches
    of ``train_documents`` instead (a leave-one-batch-out CV: each fold a labelling campaign the
    model has not seen, as tomorrow's pages are). ``recall_within`` > 0: of the entries whose F1
    is within it of the best, the one with the highest recall (:attr:`Design.recall_within`)."""
    if groups is None:
        fold_of = {d: i % INNER_FOLDS for i, d in enumerate(sorted(train_documents))}
    else:
        order = sorted({groups[d] for d in train_documents})
        fold_of = {d: order.index(groups[d]) for d in train_documents}
    fold_count = max(fold_of.values()) + 1
    inside = np.isin(problem.documents, train_documents)
    folds = np.array([fold_of.get(d, -1) for d in problem.documents])
    sentence_mask = np.isin(problem.sentence_documents, train_documents)
    best = None
    entries = []
    for lam in LAMBDAS:
        for weighting in weightings:
            scores = np.zeros(len(problem.y))
            for fold in range(fold_count):
                test = inside & (folds == fold)
                if test.any():
                    scores[test] = _scores(k, problem.y, (inside & ~test) | problem.extra, test, lam, weighting)
            for t in THRESHOLDS:
                f1 = problem.f1(inside & (scores >= t), sentence_mask, gate)
                entries.append((f1, problem.recall(inside & (scores >= t), sentence_mask, gate), lam, weighting, t))
                if best is None or f1 > best[0]:
                    best = (f1, lam, weighting, t)
    if recall_within > 0:
        near = [e for e in entries if e[0] >= best[0] - recall_within]
        top = max(e[1] for e in near)
        f1, _, lam, weighting, t = next(e for e in near if e[1] == top)
        return lam, weighting, t, f1
    return best[1], best[2], best[3], best[0]


def nested_loo(problem: Problem, k: np.ndarray, gate: bool = False,
               weightings: tuple[str, ...] = ("none",), recall_within: float = 0.0) -> tuple[np.ndarray, list[tuple]]:
    """The pooled outer-fold calls per number and the (document, λ, weighting, threshold) chosen."""
    called = np.zeros(len(problem.y), dtype=bool)
    choices = []
    documents = problem.evaluation_documents()
    for document in documents:
        others = [d for d in documents if d != document]
        lam, weighting, t, _ = choose(problem, k, others, gate, weightings, recall_within=recall_within)
        test = problem.documents == document
        if test.any():
            called[test] = _scores(k, problem.y, ~test, test, lam, weighting) >= t
        choices.append((document, lam, weighting, t))
    return called, choices


def fresh_test(problem: Problem, k: np.ndarray, train_documents: list[str], gate: bool = False,
               weightings: tuple[str, ...] = ("none",)) -> tuple[np.ndarray, tuple[float, str, float]]:
    """Calls on every number outside ``train_documents`` by the model chosen (:func:`choose`) and
    fitted on ``train_documents`` only: a test on documents nothing was tuned on."""
    scores, (lam, weighting, t) = fresh_scores(problem, k, train_documents, gate, weightings)
    return scores >= t, (lam, weighting, t)


def fresh_scores(problem: Problem, k: np.ndarray, train_documents: list[str], gate: bool = False,
                 weightings: tuple[str, ...] = ("none",), recall_within: float = 0.0
                 ) -> tuple[np.ndarray, tuple[float, str, float]]:
    """p of every number outside ``train_documents`` (0 inside) by the model chosen
    (:func:`choose`) and fitted on ``train_documents`` only, with that choice."""
    lam, weighting, t, _ = choose(problem, k, train_documents, gate, weightings, recall_within=recall_within)
    train = np.isin(problem.documents, train_documents) | problem.extra
    scores = np.zeros(len(problem.y))
    if (~train).any():
        scores[~train] = _scores(k, problem.y, train, ~train, lam, weighting)
    return scores, (lam, weighting, t)


def leave_one_batch_out(problem: Problem, k: np.ndarray, batch_of: dict[str, int], inner: str = "document",
                        gate: bool = False, weightings: tuple[str, ...] = ("none",), recall_within: float = 0.0
                        ) -> tuple[np.ndarray, list[tuple]]:
    """The pooled calls per number when each development batch (a labelling campaign) is left
    out in turn: λ, weighting and threshold chosen on the other batches by the 5-fold document
    CV (``inner="document"``, the shipped procedure) or by leave-one-batch-out over them
    (``inner="batch"``), the model fitted on the other batches and called on the left-out one —
    the closest a development figure comes to tomorrow's pages, written by people and sites the
    model never saw. Returns the calls and the (batch, λ, weighting, threshold) chosen."""
    called = np.zeros(len(problem.y), dtype=bool)
    choices = []
    documents = problem.evaluation_documents()
    for batch in sorted(set(batch_of[d] for d in documents)):
        others = [d for d in documents if batch_of[d] != batch]
        groups = batch_of if inner == "batch" else None
        lam, weighting, t, _ = choose(problem, k, others, gate, weightings, groups, recall_within)
        test = np.isin(problem.documents, [d for d in documents if batch_of[d] == batch])
        if test.any():
            called[test] = _scores(k, problem.y, ~test, test, lam, weighting) >= t
        choices.append((batch, lam, weighting, t))
    return called, choices
