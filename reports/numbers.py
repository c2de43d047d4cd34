"""Number-level evidence: does a source's abstract state the claim's number (issue 22, item 5)?

A claim is ``reported by a source`` only when one sentence of a verified record's abstract
states one of the claim's result numbers **with the same unit** (a percent for a percent, the
same trailing unit word, no unit for none; equal within half a unit of the claim's last printed
digit; a metric's ``@k`` cut-off is not a number of the claim) **and names the claim's metric** (the same metric word: NDCG@10, Recall@3, MRR, MAP, F1,
accuracy, BLEU, …, case-insensitive, an ``@k`` cut-off matching exactly when both give one).
A claim that names no metric is never matched (ambiguity gives no finding). Years, identifiers,
parameters and p-values are not result numbers.
"""

from __future__ import annotations

import re
from typing import Any

METRIC = re.compile(
    r"\b(n?DCG|NDCG|Recall|R|Precision|P|MRR|RR|MAP|AP|Hits?|Success|F1|F-?score|accuracy|BLEU|ROUGE(?:-[12L])?|"
    r"exact match|EM|AUC|perplexity|coverage|top-\d+ accuracy|win rate)(@\d+)?\b", re.I)
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")
_SKIP_ROLES = ("year", "identifier", "parameter", "p-value", "math")


def metrics_named(text: str) -> set[tuple[str, str]]:
    """``{("ndcg", "@3"), ("recall", "")}``: the metric words of a text, folded (single letters only
    with a cut-off: ``R@100``, ``P@10``)."""
    out = set()
    for m in METRIC.finditer(text):
        name, cut = m.group(1).lower(), (m.group(2) or "")
        if len(name) == 1 and not cut:
            continue
        name = {"dcg": "ndcg", "r": "recall", "p": "precision", "hit": "hits", "fscore": "f1", "f-score": "f1",
                "em": "exact match"}.get(name, name)
        out.add((name, cut))
    return out


def _is_cutoff(text: str, q: Any) -> bool:
    """``@10`` in ``NDCG@10`` is the metric's cut-off, not a result."""
    start = q.span[0]
    return start > 0 and text[start - 1] == "@"


def _same_metric(claim: set[tuple[str, str]], source: set[tuple[str, str]]) -> bool:
    for name, cut in claim:
        for other, other_cut in source:
            if name == other and (cut == other_cut or not cut or not other_cut):
                return True
    return False


def stated_in(claim: Any, abstract: str) -> str | None:
    """The abstract sentence (cut to 240 characters around the number) stating the claim's number
    with its unit and metric, else None."""
    from claims.quantities import find_quantities

    wanted = metrics_named(claim.text)
    if not wanted:
        return None
    numbers = [q for q in getattr(claim, "quantities", []) or [] if q.role not in _SKIP_ROLES
               and not _is_cutoff(claim.text, q)]
    if not numbers:
        return None
    for sentence in _SENTENCE.split(" ".join(abstract.split())):
        if not _same_metric(wanted, metrics_named(sentence)):
            continue
        for found in find_quantities(sentence):
            if _is_cutoff(sentence, found):
                continue
            for q in numbers:
                if found.is_percent == q.is_percent and (found.unit or None) == (q.unit or None) \
                        and abs(found.value - q.value) <= q.half_unit + 1e-12:
                    start = max(0, found.span[0] - 110)
                    phrase = sentence[start:found.span[1] + 110]
                    return ("…" if start else "") + phrase + ("…" if found.span[1] + 110 < len(sentence) else "")
    return None
