"""The words the checks recognise: metric names, aggregate labels and difference labels.

**Metric names** (case-insensitive; ``@k`` kept): nDCG/DCG, recall (``R@k``), precision
(``P@k``), MRR, MAP (upper case in prose), success (``S@k``), hit(s)/hit rate, accuracy, F1,
coverage, exact match (EM). **Aggregate labels**: Avg/Average/Mean/Macro/Total/Sum/Overall, see
``aggregate_label``. **Difference labels**: Δ/delta/diff/difference/gain/change/improvement/
increase/decrease/drop/reduction.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

METRIC = re.compile(
    r"(?<![\w])(?P<name>n?dcg|recall|r|precision|prec|p|mrr|mean reciprocal rank|map|"
    r"mean average precision|success|s|hits?|hit rate|accuracy|acc|f1|coverage|em|exact match)"
    r"(?:\s*@\s*(?P<k>\d+))?(?![\w])", re.I)
CANONICAL = {"dcg": "dcg", "ndcg": "ndcg", "recall": "recall", "r": "recall", "precision": "precision",
             "prec": "precision", "p": "precision", "mrr": "mrr", "mean reciprocal rank": "mrr",
             "map": "map", "mean average precision": "map", "success": "success", "s": "success",
             "hit": "hit", "hits": "hit", "hit rate": "hit", "accuracy": "accuracy", "acc": "accuracy",
             "f1": "f1", "coverage": "coverage", "em": "em", "exact match": "em"}
NEEDS_CUTOFF = {"r", "p", "s"}           # single letters are metrics only as R@k, P@k, S@k
UPPER_ONLY = {"map", "em", "mrr"}        # ordinary words in lower case
MEASURE_HEADER = re.compile(
    r"^(?:#|number of\b|no\. of\b|num\b)|\w\s+count\b|\b(?:mean|median|avg|average|ratio|rate|per|share|"
    r"proportion|fraction|latency|time|size|length|cost)\b|%", re.I)
INTRODUCES = re.compile(r"\b(?:table|below|following|reports?|lists?|shows?|gives?)\b", re.I)
PROPORTIONS = {"accuracy", "success", "hit", "em"}  # per item 0 or 1: the mean is k/N


def metrics_named(text: str, prose: bool = False) -> list[str]:
    """Canonical metric names in ``text`` (``nDCG@10`` → ``ndcg@10``), in order, without repeats."""
    found: list[str] = []
    for match in METRIC.finditer(text):
        name = match.group("name")
        key = name.lower()
        if key in NEEDS_CUTOFF and match.group("k") is None:
            continue
        if key in UPPER_ONLY and (prose or key != "mrr") and name != name.upper() and name != "mAP":
            continue
        metric = CANONICAL[key] + (f"@{match.group('k')}" if match.group("k") else "")
        if metric not in found:
            found.append(metric)
    return found


def label_metrics(label: str, extra_words: int) -> list[str]:
    """Metrics a *label* names: those of ``metrics_named`` when, once the metric mentions and any
    bracketed part are removed, at most ``extra_words`` words are left (``Agreed coverage@5`` names
    coverage@5 with one word left; the system ``Fixed coverage`` is not a metric as a row label)."""
    names = metrics_named(label)
    if not names:
        return []
    rest = METRIC.sub(" ", re.sub(r"[(\[][^)\]]*[)\]]", " ", label))
    words = [w for w in re.split(r"[^\w%]+", rest) if w and w.lower() not in ("at", "the", "of", "score")]
    return names if len(words) <= extra_words else []


AGGREGATE_LABEL = re.compile(
    r"^(?:macro[- ]?)?(?P<word>avg|average|mean|macro|total|sum|overall)\.?(?:[- ](?:avg|average)\.?)?"
    r"(?P<rest>.*)$", re.I)
EXCLUSION = re.compile(r"(?:w/o|without|excluding|excl\.|except)\s+(?P<names>[^)\]]+)", re.I)

@dataclass(frozen=True)
class AggregateLabel:
    operation: str                 # mean | sum
    excluded: tuple[str, ...]


def aggregate_label(label: str) -> AggregateLabel | None:
    """The aggregate a label announces, or None (see the module docstring)."""
    match = AGGREGATE_LABEL.match(label.strip())
    if not match:
        return None
    rest = match.group("rest").strip()
    excluded: tuple[str, ...] = ()
    exclusion = EXCLUSION.search(rest)
    if exclusion:
        excluded = tuple(n.strip() for n in re.split(r",|\band\b", exclusion.group("names")) if n.strip())
        rest = (rest[:exclusion.start()] + rest[exclusion.end():]).strip()
    rest = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", rest)  # a parenthesis: "(all)", "(6 datasets)"
    rest = re.sub(r"[:,.]", " ", rest).strip()
    if rest and rest.lower() not in ("all", "of all", "over all"):
        return None  # "Macro Recall@3", "Mean grade", "Avg. D/Q" name a measure, not an aggregate
    operation = "sum" if match.group("word").lower() in ("total", "sum") else "mean"
    return AggregateLabel(operation, excluded)


DELTA_LABEL = re.compile(r"(?:^|[^\w])(?:Δ|∆|delta|diff\.?|difference|gain|change|improvement|impr\.|increase|"
                         r"decrease|drop|reduction)"
                         r"(?:[^\w]|$)", re.I)

def is_delta(label: str) -> bool:
    return bool(DELTA_LABEL.search(label))
