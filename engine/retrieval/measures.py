"""Rank-based retrieval measures in ir_measures notation, computed for many topics at once.

Notation (ir_measures, MacAvaney et al. 2022, "Streamlining Evaluation with ir-measures",
ECIR), parsed as ir_measures parses it (a Python expression: ``Name(param=value)@cutoff``):
``nDCG@k``, ``nDCG(dcg='exp-log2')@k``, ``P(rel=2)@k``, ``R@k``, ``RR[@k]``, ``AP[@k]``,
``Rprec``, ``Success@k``, ``Judged@k``; ``rel=`` is the relevance level of ``P``, ``R``, ``RR``,
``AP``, ``Rprec`` and ``Success`` (default 1); ir_measures' aliases ``MAP``, ``MRR``, ``NDCG``,
``Precision``, ``Recall``, ``RPrec`` name the same measures. A measure's result key is
ir_measures' own spelling of it (``str(ir_measures.parse_measure(text))``: ``P(rel=1)@10`` →
``P@10``). The sandbox's historical keys ``recall@k`` and ``ndcg@k`` are its own measures
(below), not ir_measures names.

Definitions, as ir_measures' reference provider (pytrec_eval, i.e. trec_eval 9) computes them
(README "Conventions"); a document is **relevant at level r** when its grade is >= r:

* ``nDCG[@k]`` (Järvelin & Kekäläinen 2002, TOIS 20(4); trec_eval ``ndcg_cut``/``ndcg``):
  gain = the grade (linear) for a grade > 0, else 0; discount ``log2(rank + 1)``; ideal DCG
  over all of the topic's positive grades, best first; 0 when the ideal is 0;
* ``nDCG(dcg='exp-log2')[@k]`` (Burges et al. 2005; gdeval, ranx ``ndcg_burges``): the same
  with gain ``2**g − 1`` for a grade > 0;
* ``P@k`` = relevant in the top k / k (k even when the run is shorter, as trec_eval);
* ``R@k`` = relevant in the top k / relevant judged (0 when the topic has none);
* ``RR[@k]`` = 1 / rank of the first relevant document (within the top k), else 0;
* ``AP[@k]`` = (sum over relevant documents at rank r <= k of P@r) / relevant judged
  (trec_eval ``map``/``map_cut``);
* ``Rprec`` = relevant in the top R / R, with R = relevant judged (0 when R = 0);
* ``Success@k`` = 1 when a relevant document is in the top k, else 0;
* ``Judged@k`` = judged documents (any grade) in the top k / min(k, run length) (ir_measures'
  definition; 0 for an empty run).

The sandbox's own measures (W03; docs/sandbox.md): ``ndcg@k`` is ``nDCG(dcg='exp-log2')@k``
with *relevant = grade > 0* and ``recall@k`` is ``R@k`` with relevant = grade > 0 (they equal
ir_measures' values for integer grades), both over the sandbox's own ranking.

**No number without a meaning** (issue 20): every gain sum is finite. Exponential gains of a
topic whose largest grade M exceeds :data:`EXP_SCALE_ABOVE` are computed scaled by ``2**-M``
(``2**(g − M) − 2**-M``, the same ratio, log-space exponents), linear gains of a topic whose
largest grade exceeds :data:`LINEAR_SCALE_ABOVE` scaled by ``1/M``; so grades of 1023.5, 1100
or 1e300 give a number in [0, 1], never NaN, inf or an OverflowError.

Ranks come from the caller's ordering (:mod:`engine.retrieval.ranking`; ``evaluate`` orders as
trec_eval does by default). Every measure here depends only on the ranks and grades of the
*judged* documents a run lists and on the run's length, so the input is one row per judged
hit, not one per listed document. Sums run in rank order (``numpy.bincount``).
"""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from engine.retrieval.metrics import gain
from engine.runs.errors import InputError

# family → (cutoff: "required" | "optional" | "none", parameters it takes besides the cutoff)
FAMILIES: dict[str, tuple[str, tuple[str, ...]]] = {
    "nDCG": ("optional", ("dcg",)), "P": ("required", ("rel",)), "R": ("required", ("rel",)),
    "RR": ("optional", ("rel",)), "AP": ("optional", ("rel",)), "Rprec": ("none", ("rel",)),
    "Success": ("required", ("rel",)), "Judged": ("required", ()),
    "recall": ("required", ()), "ndcg": ("required", ()),        # the sandbox's own measures
}
ALIASES = {"MAP": "AP", "MRR": "RR", "NDCG": "nDCG", "Precision": "P", "Recall": "R", "RPrec": "Rprec"}
SANDBOX_FAMILIES = ("recall", "ndcg")
DCG_KINDS = ("log2", "exp-log2")
KNOWN = ("nDCG@k, nDCG(dcg='exp-log2')@k, P[(rel=r)]@k, R[(rel=r)]@k, RR[@k], AP[@k], Rprec, "
         "Success@k, Judged@k, recall@k, ndcg@k")
# trec_eval's measure names (usnistgov/trec_eval 9/10, ``m_*.c``) whose definition is one of ours
# exactly, in its ``-m NAME.K`` and its printed ``NAME_K`` spelling: the cutoff ones, then the plain.
TREC_EVAL_CUT = {"ndcg_cut": "nDCG", "P": "P", "recall": "R", "map_cut": "AP", "success": "Success"}
TREC_EVAL_PLAIN = {"ndcg": "nDCG", "map": "AP", "recip_rank": "RR"}
TREC_EVAL_CONVENTIONS = {
    "nDCG": "gain = the relevance value, discount log2(rank + 1), ideal over all judged documents",
    "P": "relevant in the top k / k; unretrieved ranks count as non-relevant",
    "R": "relevant in the top k / relevant judged",
    "AP": "precision at each relevant document retrieved, / relevant judged",
    "Success": "1 when a relevant document is in the top k",
    "RR": "1 / rank of the first relevant document",
}
# trec_eval measures we do not compute, each with the nearest measure we have
TREC_EVAL_NOT_IMPLEMENTED = {
    "bpref": "AP", "gm_bpref": "AP", "infAP": "AP", "gm_map": "AP (per topic; macro is the arithmetic mean)",
    "map_avgjg": "AP", "set_map": "AP", "11pt_avg": "AP", "iprec_at_recall": "AP", "yaap": "AP",
    "set_P": "P@k", "P_avgjg": "P@k", "relative_P": "P@k", "set_relative_P": "P@k", "set_F": "P@k and R@k",
    "set_recall": "R@k", "num_rel_ret": "R@k", "num_rel": "R@k", "num_ret": "Judged@k",
    "num_nonrel_judged_ret": "Judged@k", "unj": "Judged@k (judged, not unjudged, documents)",
    "ndcg_rel": "nDCG", "Rndcg": "nDCG", "ndcg_p": "nDCG", "dcg": "nDCG", "ideal_dcg": "nDCG", "G": "nDCG",
    "binG": "nDCG", "rbp": "nDCG", "rbp_resid": "nDCG", "Rprec_mult": "Rprec", "Rprec_mult_avgjg": "Rprec",
    "num_q": None, "relstring": None, "runid": None, "utility": None,
}
_TREC_EVAL_FORM = re.compile(r"^([A-Za-z0-9]+(?:_[A-Za-z]+)*?)(?:[._](\d+(?:\.\d+)?))?$")
# above these largest grades of a topic its gains are computed scaled (module docstring)
EXP_SCALE_ABOVE = 900.0
LINEAR_SCALE_ABOVE = 1e290


@dataclass(frozen=True)
class Measure:
    """One measure: family (``"AP"``), cutoff (None = the whole run), relevance level and gain.

    ``rel`` is the relevance level (grade >= rel is relevant; ir_measures' ``rel``, default 1);
    the sandbox families ``recall``/``ndcg`` count grade > 0 and ignore it. ``dcg`` is
    ``"log2"`` (linear gain, trec_eval's) or ``"exp-log2"`` (gain ``2**g − 1``).
    """

    family: str
    cutoff: int | None
    rel: int = 1
    dcg: str = "log2"

    @property
    def key(self) -> str:
        """ir_measures' spelling (default parameters left out); the sandbox keys as they were."""
        if self.family in SANDBOX_FAMILIES:
            return f"{self.family}@{self.cutoff}"
        params = []
        if self.family == "nDCG" and self.dcg != "log2":
            params.append(f"dcg={self.dcg!r}")
        if self.family not in ("nDCG", "Judged") and self.rel != 1:
            params.append(f"rel={self.rel}")
        name = self.family + (f"({', '.join(params)})" if params else "")
        return name if self.cutoff is None else f"{name}@{self.cutoff}"

    @property
    def exponential(self) -> bool:
        return self.family == "ndcg" or (self.family == "nDCG" and self.dcg == "exp-log2")

    def relevant(self, grades: np.ndarray) -> np.ndarray:
        """Which grades count as relevant for this measure."""
        return grades > 0 if self.family in SANDBOX_FAMILIES else grades >= self.rel


def definition(measure: Measure, ranking: str) -> str:
    """One line saying what a result key means: its ir_measures name and conventions, and the
    ranking it was computed on (``ranking`` describes the tie rule)."""
    if measure.family == "ndcg":
        name = f"nDCG(dcg='exp-log2')@{measure.cutoff}"
        return f"{name} (gain 2**g - 1, relevant = grade > 0; the sandbox's W03 measure) over {ranking}"
    if measure.family == "recall":
        return f"R@{measure.cutoff} with relevant = grade > 0 (the sandbox's W03 measure) over {ranking}"
    gain = {"nDCG": "; linear gain (the grade)" if measure.dcg == "log2" else "; gain 2**g - 1"}.get(measure.family, "")
    level = "" if measure.family in ("nDCG", "Judged") else f"; relevant = grade >= {measure.rel}"
    return f"ir_measures' {measure.key}{gain}{level}, over {ranking}"


def _literal(node: ast.AST, text: str, option: str):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise InputError(f"measure {text!r}: parameter values must be literals", field=option) from None


def trec_eval_name(text: str, option: str = "--measures") -> str | None:
    """A trec_eval measure name → our spelling of the same measure, or None when ``text`` is no
    trec_eval name (ir_measures notation is read as before).

    Translated, as trec_eval defines them (``m_ndcg_cut.c``, ``m_P.c``, ``m_recall.c``,
    ``m_map_cut.c``, ``m_success.c``, ``m_ndcg.c``, ``m_map.c``, ``m_recip_rank.c``), in its
    ``-m`` spelling ``NAME.K`` and its printed ``NAME_K``: ``ndcg_cut_k`` → ``nDCG@k`` (gain = the
    relevance value, ``log2(rank + 1)``, ideal over all judged), ``P_k`` → ``P@k`` (unretrieved
    ranks non-relevant), ``recall_k`` → ``R@k``, ``map_cut_k`` → ``AP@k``, ``success_k`` →
    ``Success@k``, ``ndcg`` → ``nDCG``, ``map`` → ``AP``, ``recip_rank`` → ``RR``; relevant = grade >=
    1, trec_eval's default ``-l 1``. ``Rprec`` is spelled alike. A trec_eval measure we do not
    compute (``bpref``, ``infAP``, ``set_P``, …) is an InputError naming the nearest we have; a
    cutoff measure without its cutoff (``ndcg_cut``) is one too: its default list is not expanded.
    """
    form = _TREC_EVAL_FORM.match(text.strip())
    if not form:
        return None
    name, cutoff = form.group(1), form.group(2)
    if name in TREC_EVAL_CUT and cutoff is not None:
        return f"{TREC_EVAL_CUT[name]}@{int(cutoff) if cutoff.isdigit() else cutoff}"
    if name in TREC_EVAL_CUT and name in ("ndcg_cut", "map_cut", "success"):
        raise InputError(f"trec_eval's {name} needs one cutoff here ({name}_10 or {name}.10; its default "
                         f"list of cutoffs is not expanded)", field=option)
    if name in TREC_EVAL_PLAIN and cutoff is None:
        return TREC_EVAL_PLAIN[name]
    if name in TREC_EVAL_NOT_IMPLEMENTED:
        nearest = TREC_EVAL_NOT_IMPLEMENTED[name]
        hint = f"; the nearest we have is {nearest}" if nearest else "; we have no measure like it"
        raise InputError(f"trec_eval's {text.strip()} is not implemented{hint} (known: {KNOWN})", field=option)
    return None


def trec_eval_notes(text: str | Sequence[str], option: str = "--measures") -> list[str]:
    """One ``note:`` line per trec_eval name in a measures list, saying which of our measures it
    became and under which convention (evaluate prints them on stderr)."""
    notes = []
    for name in _expanded_names(text):
        ours = trec_eval_name(name, option)
        if ours is not None:
            family = parse_measure(ours, option).family
            notes.append(f"note: {option}: trec_eval's {name} is {ours} ({TREC_EVAL_CONVENTIONS[family]})")
    return notes


def parse_measure(text: str, option: str = "--measures") -> Measure:
    """ir_measures notation → Measure, parsed as ``ir_measures.parse_measure`` parses it (a
    Python expression ``Name(param=value)@cutoff``), or a trec_eval name of the same measure
    (:func:`trec_eval_name`); InputError naming the option otherwise."""
    source = trec_eval_name(text, option) or text.strip()
    unknown = InputError(f"unknown measure {text!r} (known: {KNOWN})", field=option)
    if not source or len(source) > 200:
        raise unknown
    try:
        node = ast.parse(source, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        raise unknown from None
    params: dict[str, object] = {}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        params["cutoff"] = _literal(node.right, text, option)
        node = node.left
    if isinstance(node, ast.Call):
        if node.args:
            raise InputError(f"measure {text!r}: parameters must be named (rel=2)", field=option)
        for keyword in node.keywords:
            if keyword.arg is None or keyword.arg in params:
                raise InputError(f"measure {text!r}: parameter given twice or unnamed", field=option)
            params[keyword.arg] = _literal(keyword.value, text, option)
        node = node.func
    if not isinstance(node, ast.Name):
        raise unknown
    family = ALIASES.get(node.id, node.id)
    if family not in FAMILIES:
        raise unknown
    cutoff_rule, allowed = FAMILIES[family]
    for name in params:
        if name != "cutoff" and name not in allowed:
            raise InputError(f"measure {text!r}: parameter {name!r} is not supported here "
                             f"({family} takes {', '.join(('cutoff',) + allowed) if cutoff_rule != 'none' else ', '.join(allowed) or 'none'})",
                             field=option)
    cutoff = params.get("cutoff")
    if cutoff is None and cutoff_rule == "required":
        raise InputError(f"measure {family!r} needs a cutoff ({family}@k)", field=option)
    if cutoff is not None and cutoff_rule == "none":
        raise InputError(f"measure {family!r} takes no cutoff", field=option)
    if cutoff is not None and (type(cutoff) is not int or cutoff < 1):
        raise InputError(f"measure {text!r} needs a whole-number cutoff >= 1", field=option)
    rel = params.get("rel", 1)
    if type(rel) is not int or rel < 1:
        raise InputError(f"measure {text!r}: rel must be a whole number >= 1 (trec_eval's relevance "
                         "level)", field=option)
    dcg = params.get("dcg", "log2")
    if dcg not in DCG_KINDS:
        raise InputError(f"measure {text!r}: dcg must be 'log2' (linear gain) or 'exp-log2' "
                         "(gain 2**g - 1)", field=option)
    return Measure(family, cutoff, rel, str(dcg))


def _split_names(text: str) -> list[str]:
    """Split a list of measures at commas and spaces outside parentheses."""
    names, depth, current = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if depth <= 0 and (ch == "," or ch.isspace()):
            if current:
                names.append("".join(current))
            current = []
            continue
        current.append(ch)
    if current:
        names.append("".join(current))
    # "P @ 10" is one measure to ir_measures: glue a lone "@" and its neighbours back together
    glued: list[str] = []
    for name in names:
        if glued and (name.startswith("@") or glued[-1].endswith("@")):
            glued[-1] += name
        else:
            glued.append(name)
    return glued


def _expanded_names(text: str | Sequence[str]) -> list[str]:
    """The names of a measures list; trec_eval's ``P.5,10`` is ``P.5`` and ``P.10``."""
    parts = [text] if isinstance(text, str) else list(text)
    names: list[str] = []
    for name in (name for part in parts for name in _split_names(part)):
        dotted = re.match(r"^([A-Za-z_]+)\.\d+$", names[-1]) if names else None
        if name.isdigit() and dotted and dotted.group(1) in TREC_EVAL_CUT:
            name = f"{dotted.group(1)}.{name}"
        names.append(name)
    return names


def parse_measures(text: str | Sequence[str], option: str = "--measures") -> tuple[Measure, ...]:
    """A comma- or space-separated list (or a sequence of such strings) → measures, first
    occurrence order, duplicates (same key) dropped; an empty list is an InputError."""
    names = _expanded_names(text)
    if not names:
        raise InputError("no measure given", field=option)
    out: list[Measure] = []
    for name in names:
        measure = parse_measure(name, option)
        if measure.key not in [m.key for m in out]:
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
    """Per-topic judgments: every positive grade, best first within its topic."""

    n_topics: int
    ideal_topic: np.ndarray    # int64, topic of each positive grade (grouped by topic)
    ideal_rank: np.ndarray     # int64, one-based position of the grade within its topic
    ideal_grade: np.ndarray    # float64, positive grades sorted descending within a topic
    max_grade: np.ndarray      # float64, one per topic (0 when none is positive)

    def n_relevant(self, measure: Measure) -> np.ndarray:
        """Relevant judged documents of each topic for this measure's relevance level."""
        mask = measure.relevant(self.ideal_grade)
        return np.bincount(self.ideal_topic[mask], minlength=self.n_topics).astype(np.int64)


def topic_judgments(judgments: Sequence[Mapping[str, float]]) -> TopicJudgments:
    """Statistics of each evaluated topic's judgments (``judgments[t]``: doc → grade)."""
    topics, ranks, grades, top = [], [], [], []
    for t, judged in enumerate(judgments):
        positive = sorted((g for g in judged.values() if g > 0), reverse=True)
        topics.extend([t] * len(positive))
        ranks.extend(range(1, len(positive) + 1))
        grades.extend(positive)
        top.append(positive[0] if positive else 0.0)
    return TopicJudgments(len(judgments), np.asarray(topics, dtype=np.int64), np.asarray(ranks, dtype=np.int64),
                          np.asarray(grades, dtype=np.float64), np.asarray(top, dtype=np.float64))


class _Discounts:
    """``log2(rank + 1)`` from :func:`math.log2` (the same floats as engine.retrieval.metrics)."""

    def __init__(self) -> None:
        self.table = np.asarray([1.0], dtype=np.float64)  # index 0 unused

    def __call__(self, ranks: np.ndarray) -> np.ndarray:
        top = int(ranks.max()) if ranks.size else 0
        if top >= self.table.size:
            self.table = np.asarray([1.0] + [math.log2(r + 1) for r in range(1, top + 1)], dtype=np.float64)
        return self.table[ranks]


def exponential_gain(grade: float, scale_exponent: float = 0.0) -> float:
    """``(2**g − 1) · 2**-s`` for g > 0 (0 otherwise), as ``2**(g − s) − 2**-s`` when s > 0, so
    that no power overflows (``s`` is the topic's largest grade when that exceeds
    :data:`EXP_SCALE_ABOVE`, else 0): :func:`engine.retrieval.metrics.gain`."""
    return gain(grade, scale_exponent)


def gains(measure: Measure, grades: np.ndarray, topics: np.ndarray, max_grade: np.ndarray) -> np.ndarray:
    """Each grade's gain for ``measure`` within its topic (scaled per topic where needed)."""
    out = np.zeros(grades.size, dtype=np.float64)
    positive = grades > 0
    if not positive.any():
        return out
    top = max_grade[topics]
    if measure.exponential:
        scale = np.where(top > EXP_SCALE_ABOVE, top, 0.0)
        pairs = np.stack([grades[positive], scale[positive]])
        values, inverse = np.unique(pairs, axis=1, return_inverse=True)
        table = np.asarray([exponential_gain(float(g), float(s)) for g, s in values.T], dtype=np.float64)
        out[positive] = table[inverse.reshape(-1)]
    else:
        scale = np.where(top > LINEAR_SCALE_ABOVE, top, 1.0)
        out[positive] = grades[positive] / scale[positive]
    return out


def evaluate_hits(measures: Iterable[Measure], hits: JudgedHits, stats: TopicJudgments) -> dict[str, np.ndarray]:
    """Per-topic values of every measure: ``{measure.key: float64 array of length T}``."""
    n_topics = stats.n_topics
    discounts = _Discounts()
    starts = np.searchsorted(hits.topic, np.arange(n_topics), side="left")

    def count(mask: np.ndarray) -> np.ndarray:
        return np.bincount(hits.topic[mask], minlength=n_topics).astype(np.float64)

    out: dict[str, np.ndarray] = {}
    for m in measures:
        k = m.cutoff
        within = hits.rank <= k if k is not None else np.ones(hits.rank.size, dtype=bool)
        relevant = m.relevant(hits.grade)
        n_rel_int = stats.n_relevant(m)
        n_rel = n_rel_int.astype(np.float64)
        has_rel = n_rel_int > 0

        def per_relevant(values: np.ndarray) -> np.ndarray:
            result = np.zeros(n_topics, dtype=np.float64)
            np.divide(values, n_rel, out=result, where=has_rel)
            return result

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
            value = per_relevant(count(relevant & (hits.rank <= n_rel_int[hits.topic])))
        elif m.family == "RR":
            mask = relevant & within
            best = np.full(n_topics, np.iinfo(np.int64).max, dtype=np.int64)
            np.minimum.at(best, hits.topic[mask], hits.rank[mask])
            value = np.where(best < np.iinfo(np.int64).max, 1.0 / np.maximum(best, 1), 0.0)
        elif m.family == "AP":
            # relevant documents seen so far within each topic (hits are sorted by topic, rank)
            cum_rel = np.cumsum(relevant, dtype=np.int64)
            before = np.concatenate(([0], cum_rel))[starts]
            rel_so_far = cum_rel - before[hits.topic] if hits.topic.size else cum_rel
            mask = relevant & within
            precision = rel_so_far[mask] / hits.rank[mask]
            value = per_relevant(np.bincount(hits.topic[mask], weights=precision, minlength=n_topics))
        else:  # nDCG / ndcg
            hit_gain = gains(m, hits.grade, hits.topic, stats.max_grade)
            mask = within & (hit_gain > 0)
            actual = np.bincount(hits.topic[mask], weights=hit_gain[mask] / discounts(hits.rank[mask]),
                                 minlength=n_topics)
            ideal_mask = stats.ideal_rank <= k if k is not None else np.ones(stats.ideal_rank.size, dtype=bool)
            ideal_gain = gains(m, stats.ideal_grade, stats.ideal_topic, stats.max_grade)
            ideal = np.bincount(stats.ideal_topic[ideal_mask],
                                weights=ideal_gain[ideal_mask] / discounts(stats.ideal_rank[ideal_mask]),
                                minlength=n_topics)
            value = np.zeros(n_topics, dtype=np.float64)
            np.divide(actual, ideal, out=value, where=ideal > 0)
        if not np.isfinite(value).all():  # pragma: no cover - the scaled gains keep every sum finite
            raise ArithmeticError(f"{m.key}: a non-finite value was computed; nothing is written")
        out[m.key] = value
    return out


def macro(values: np.ndarray) -> float:
    """Unweighted mean over topics, summed in topic order (as :func:`engine.retrieval.metrics.macro_mean`)."""
    listed = values.tolist()
    return sum(listed) / len(listed) if listed else 0.0
