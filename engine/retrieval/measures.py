"""Rank-based retrieval measures in ir_measures notation, computed for many topics at once.

Notation (ir_measures, MacAvaney et al. 2022, "Streamlining Evaluation with ir-measures",
ECIR; names as trec_eval prints them): ``nDCG@k``, ``R@k``, ``P@k``, ``RR@k``, ``AP@k``,
``Success@k``, ``Judged@k`` and, without a cutoff, ``nDCG``, ``RR``, ``AP`` and ``Rprec``. The
sandbox's own keys ``recall@k`` and ``ndcg@k`` are accepted and stay as they were (same values as
``R@k`` and ``nDCG@k``). Relevance-level parameters (``P(rel=2)@5``) are not supported.

Conventions (README "Conventions"; trec_eval 9.0.x semantics):

* a document is **relevant** when its grade is > 0; grades <= 0 (including the negative grades
  some collections use for spam) are non-relevant, and an unjudged document is non-relevant;
* **nDCG** (Järvelin & Kekäläinen 2002, "Cumulated gain-based evaluation of IR techniques",
  TOIS 20(4)): gain ``2**g − 1`` for ``g > 0`` (Burges et al. 2005) and 0 for ``g <= 0``,
  discount ``log2(rank + 1)``, ideal DCG over all of the topic's judged grades, 0 when the
  ideal is 0. (trec_eval's ``ndcg_cut`` uses the grade itself as the gain; with grades
  ``{0, 1}`` the two agree, and ``tests/comparison/`` compares graded qrels by handing trec_eval
  the gains ``2**g − 1`` as grades.);
* **P@k** = relevant in the top k / k (k even when the run is shorter, as trec_eval);
* **R@k** = relevant in the top k / relevant judged (0 when the topic has none);
* **RR@k** = 1 / rank of the first relevant document within the top k, else 0;
* **AP@k** = (sum over relevant documents at rank r <= k of P@r) / relevant judged (trec_eval
  ``map_cut``; ``AP`` = the whole run);
* **Rprec** = relevant in the top R / R, with R = relevant judged (0 when R = 0);
* **Success@k** = 1 when a relevant document is in the top k, else 0;
* **Judged@k** = judged documents (any grade) in the top k / min(k, run length) (ir_measures'
  definition; 0 for an empty run).

Ranks come from the caller's ordering (:mod:`engine.retrieval.ranking`: score descending,
ties by document id ascending; ``evaluate --ties trec_eval`` orders ties by document id
descending as trec_eval does). Every measure here depends only on the ranks and grades of the
*judged* documents a run lists and on the run's length, so the input is one row per judged
hit, not one per listed document. Sums run in rank order (``numpy.bincount``), so nDCG and
Recall equal :mod:`engine.retrieval.metrics` bit for bit.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from engine.retrieval.metrics import gain
from engine.runs.errors import InputError

FAMILIES = ("nDCG", "R", "P", "RR", "AP", "Rprec", "Success", "Judged", "recall", "ndcg")
NEEDS_CUTOFF = {"R", "P", "Success", "Judged", "recall", "ndcg"}
NO_CUTOFF = {"Rprec"}
_NOTATION = re.compile(r"^([A-Za-z]+)(?:@([0-9]+))?$")


@dataclass(frozen=True)
class Measure:
    """One measure: its family (``"AP"``), cutoff (None = the whole run) and result key."""

    family: str
    cutoff: int | None

    @property
    def key(self) -> str:
        return self.family if self.cutoff is None else f"{self.family}@{self.cutoff}"


def parse_measure(text: str, option: str = "--measures") -> Measure:
    """``"nDCG@10"`` → Measure("nDCG", 10); InputError naming the option for anything else."""
    match = _NOTATION.match(text.strip())
    if not match or match.group(1) not in FAMILIES:
        raise InputError(f"unknown measure {text!r} (known: nDCG@k, R@k, P@k, RR[@k], AP[@k], Rprec, "
                         "Success@k, Judged@k, recall@k, ndcg@k)", field=option)
    family, cutoff = match.group(1), match.group(2)
    if cutoff is None and family in NEEDS_CUTOFF:
        raise InputError(f"measure {family!r} needs a cutoff ({family}@k)", field=option)
    if cutoff is not None and family in NO_CUTOFF:
        raise InputError(f"measure {family!r} takes no cutoff", field=option)
    if cutoff is not None and int(cutoff) < 1:
        raise InputError(f"measure {text!r} needs a cutoff >= 1", field=option)
    return Measure(family, None if cutoff is None else int(cutoff))


def parse_measures(text: str | Sequence[str], option: str = "--measures") -> tuple[Measure, ...]:
    """A comma- or space-separated list (or a sequence of such strings) → measures, first
    occurrence order, duplicates dropped; an empty list is an InputError."""
    parts = [text] if isinstance(text, str) else list(text)
    names = [name for part in parts for name in re.split(r"[,\s]+", part) if name]
    if not names:
        raise InputError("no measure given", field=option)
    out: list[Measure] = []
    for name in names:
        measure = parse_measure(name, option)
        if measure not in out:
            out.append(measure)
    return tuple(out)


@dataclass
class JudgedHits:
    """The judged documents a set of runs lists, one row each, sorted by topic then rank.

    ``topic`` indexes the evaluated topics (0..T-1), ``rank`` is one-based, ``grade`` the qrels
    grade; ``run_length[t]`` is the number of documents the run lists for topic t (0 when the
    run misses the topic).
    """

    topic: np.ndarray       # int64
    rank: np.ndarray        # int64
    grade: np.ndarray       # float64
    run_length: np.ndarray  # int64, one per topic


@dataclass
class TopicJudgments:
    """Per-topic judgment statistics: relevant counts and the ideal gains, best first."""

    n_relevant: np.ndarray     # int64, one per topic
    ideal_topic: np.ndarray    # int64, topic of each positive gain (grouped by topic)
    ideal_rank: np.ndarray     # int64, one-based position of the gain within its topic
    ideal_gain: np.ndarray     # float64, positive gains sorted descending within a topic


def topic_judgments(judgments: Sequence[Mapping[str, float]]) -> TopicJudgments:
    """Statistics of each evaluated topic's judgments (``judgments[t]``: doc → grade)."""
    n_rel, topics, ranks, gains = [], [], [], []
    for t, judged in enumerate(judgments):
        positive = sorted((g for g in judged.values() if g > 0), reverse=True)
        n_rel.append(len(positive))
        topics.extend([t] * len(positive))
        ranks.extend(range(1, len(positive) + 1))
        gains.extend(gain(g) for g in positive)
    return TopicJudgments(np.asarray(n_rel, dtype=np.int64), np.asarray(topics, dtype=np.int64),
                          np.asarray(ranks, dtype=np.int64), np.asarray(gains, dtype=np.float64))


class _Discounts:
    """``log2(rank + 1)`` from :func:`math.log2` (the same floats as engine.retrieval.metrics)."""

    def __init__(self) -> None:
        self.table = np.asarray([1.0], dtype=np.float64)  # index 0 unused

    def __call__(self, ranks: np.ndarray) -> np.ndarray:
        top = int(ranks.max()) if ranks.size else 0
        if top >= self.table.size:
            self.table = np.asarray([1.0] + [math.log2(r + 1) for r in range(1, top + 1)], dtype=np.float64)
        return self.table[ranks]


def _gains(grades: np.ndarray) -> np.ndarray:
    values, inverse = np.unique(grades, return_inverse=True)
    return np.asarray([gain(float(g)) for g in values], dtype=np.float64)[inverse.reshape(-1)]


def evaluate_hits(measures: Iterable[Measure], hits: JudgedHits, stats: TopicJudgments) -> dict[str, np.ndarray]:
    """Per-topic values of every measure: ``{measure.key: float64 array of length T}``."""
    n_topics = stats.n_relevant.size
    discounts = _Discounts()
    relevant = hits.grade > 0
    n_rel = stats.n_relevant.astype(np.float64)
    has_rel = stats.n_relevant > 0
    hit_gain = _gains(hits.grade) if hits.grade.size else hits.grade
    # cumulative relevant count at each hit within its topic (hits are sorted by topic, rank)
    cum_rel = np.cumsum(relevant, dtype=np.int64)
    starts = np.searchsorted(hits.topic, np.arange(n_topics), side="left")
    before = np.concatenate(([0], cum_rel))[starts]
    rel_so_far = cum_rel - before[hits.topic] if hits.topic.size else cum_rel

    def count(mask: np.ndarray) -> np.ndarray:
        return np.bincount(hits.topic[mask], minlength=n_topics).astype(np.float64)

    def per_relevant(values: np.ndarray) -> np.ndarray:
        out = np.zeros(n_topics, dtype=np.float64)
        np.divide(values, n_rel, out=out, where=has_rel)
        return out

    out: dict[str, np.ndarray] = {}
    for m in measures:
        k = m.cutoff
        within = hits.rank <= k if k is not None else np.ones(hits.rank.size, dtype=bool)
        if m.family in ("R", "recall"):
            value = per_relevant(count(relevant & within))
        elif m.family == "P":
            value = count(relevant & within) / float(k)
        elif m.family == "Success":
            value = (count(relevant & within) > 0).astype(np.float64)
        elif m.family == "Judged":
            shown = np.minimum(hits.run_length, k).astype(np.float64)
            value = np.zeros(n_topics, dtype=np.float64)
            np.divide(count(within), shown, out=value, where=shown > 0)
        elif m.family == "Rprec":
            value = per_relevant(count(relevant & (hits.rank <= stats.n_relevant[hits.topic])))
        elif m.family == "RR":
            mask = relevant & within
            best = np.full(n_topics, np.iinfo(np.int64).max, dtype=np.int64)
            np.minimum.at(best, hits.topic[mask], hits.rank[mask])
            value = np.where(best < np.iinfo(np.int64).max, 1.0 / np.maximum(best, 1), 0.0)
        elif m.family == "AP":
            mask = relevant & within
            precision = rel_so_far[mask] / hits.rank[mask]
            value = per_relevant(np.bincount(hits.topic[mask], weights=precision, minlength=n_topics))
        else:  # nDCG / ndcg
            mask = within & (hit_gain > 0)
            actual = np.bincount(hits.topic[mask], weights=hit_gain[mask] / discounts(hits.rank[mask]),
                                 minlength=n_topics)
            ideal_mask = stats.ideal_rank <= k if k is not None else np.ones(stats.ideal_rank.size, dtype=bool)
            ideal = np.bincount(stats.ideal_topic[ideal_mask],
                                weights=stats.ideal_gain[ideal_mask] / discounts(stats.ideal_rank[ideal_mask]),
                                minlength=n_topics)
            value = np.zeros(n_topics, dtype=np.float64)
            np.divide(actual, ideal, out=value, where=ideal > 0)
        out[m.key] = value
    return out


def macro(values: np.ndarray) -> float:
    """Unweighted mean over topics, summed in topic order (as :func:`engine.retrieval.metrics.macro_mean`)."""
    listed = values.tolist()
    return sum(listed) / len(listed) if listed else 0.0
