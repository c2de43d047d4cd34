"""Suggested bindings: match a chapter's printed numbers against the values of logged runs.

``chapter-audit bind PACK --log LOG --output claims.toml`` drafts a claims file
(:mod:`claims.bindings`) instead of an author writing one by hand. Rules, all deterministic:

**Which numbers.** Every quantity (:mod:`claims.quantities`) of every claim row whose kind is
``measured result`` or a table value (a row whose kind names a table, or that carries a table
location), plus every printed list of two or more identifiers (``D-005, D-010, and D-006``).
A number directly after ``@`` is a metric cutoff (``NDCG@3``), not a result, and is skipped.

**Which values.** The result files (JSON) of the latest ``ok`` log record of each experiment:
command, parameter set and input sha256 by role (the record ``verify`` will read; two runs of
one command and parameters on other qrels are two experiments), except ``manifest`` (parameters, not results)
and any file whose sha256 differs from the one the run logged. Every numeric leaf and every list
of strings is a value with its dot path (``macro.hybrid.ndcg@3``); every number printed in a
notebook cell's text is a value bound by a pattern (:func:`printed_in_cells`).

**Match** is exactly what ``verify`` accepts (:func:`claims.bindings.parse_claimed`,
:func:`claims.verify.compare`): within half a unit of the last printed decimal; a fraction
``k/N`` exactly; a percentage against a fraction ×100; a list item by item. A printed whole
number is a count and binds whole values only. A number with no matching value is never bound.

**Rank** by agreement between the sentence's words and the value's words: the key path's words,
each counted once (``macro``, ``hybrid``, ``ndcg@3``; ``_`` splits ``frozen_dense``) weigh 1, and the string
values of the objects along the path (a stage's ``label``, a task's ``title``) weigh 1/2. Two
words agree when equal, when one is a prefix of the other and the shorter has at least 4
letters, when they share a prefix of 5 letters (``covers`` ~ ``coverage``), or through
:data:`SYNONYMS`; the string values of the file's root object describe the whole file and are
not used. A value word named in the number's clause *before* it (since the previous number)
counts 3, *after* it (up to the next comma, bracket or conjunction) 2, elsewhere in the sentence
1; each key-path word the sentence does not name costs 0.1, so the most specific path wins.
A value that shares no word with the sentence is no candidate. **Meaning**
(:mod:`claims.meaning`): a value whose metric and cutoff, scope (aggregate, per item, per
document), rate-ness (for a percentage) or test statistic the sentence does not support is no
candidate, and where the number's clause names a metric at a cutoff (``coverage@5 of 1.000``) a key
with no metric part (a count such as ``tasks``) is none either (a notebook's printed line is judged
by its label's words); a metric and cutoff the sentence names count +3 (+1.5 without a cutoff); a ratio's
``numerator`` / ``denominator`` counts 5 less unless the sentence names it (it restates a count). **Contradiction**: a value is
no candidate when the clause before the number names another key beside one of its key parts
and not that part (``lifts macro NDCG@3 to 0.889`` rules out ``macro.bm25.recall@3``;
:func:`contradicts`), and so it is when a word inside a compound key part names a thing of the run
(a key that holds results in any of the run's files) and the clause names another such thing
beside it and not that word (``the reranker changes macro NDCG@3 by`` rules out
``macro_change_bm25_to_hybrid.ndcg@3``: :func:`run_rivals`); a dict of per-item results (``tasks`` → ``{"T1": …}``) or a key naming the items
(``per_topic``) is no such other key. **Reading** (:func:`reading_conflict`): a change between
runs ("improves P@1 by 0.333 over run a") binds only a logged difference of those runs; a
statistic below a measure (``….P@1.randomisation_p``) only when the sentence names it; a cutoff's
digit (the ``1`` of ``P@1``) names no item; a printed ``nDCG@k`` is the linear-gain measure and
``ndcg@k`` the exponential one, never matched by case-folded spelling. **Coherence**: 0.2 per key part shared with the unambiguous best value of
each other number of the sentence. Ties: command, result name, then key, ascending; the
suggestion is *ambiguous* when the first two rank equal, and then it is listed, never bound.

**Nearest** (for an unmatched number): among values within twenty times the printed tolerance
(ten units of the last printed decimal) that are not contradicted, the best-ranked, then the
closest.
"""

from __future__ import annotations

import bisect
import functools
import json
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from claims.bindings import parse_claimed
from claims.kinds import MEASURED as MEASURED_KIND
from claims.meaning import (Metric, exponential_mention, key_metric, meaning_conflict, named_ids, number_metric,
                            parameter_spans, statistic_named, without_measures)
from engine.runs.hashing import sha256_file

# A ratio's numerator and denominator restate counts the result holds on their own (a ledger
# stage's count): they rank below them unless the sentence names the part.
RATIO_PARTS = frozenset({"numerator", "denominator"})
RATIO_PART_PENALTY = 5.0

# Words a chapter uses for what a result file names otherwise (both directions apply).
SYNONYMS: dict[str, frozenset[str]] = {
    "frozen": frozenset({"supplied", "opaque", "dense"}),
    "hybrid": frozenset({"fusion", "fused", "fuse", "min-max"}),
    "reranked": frozenset({"reranker", "rerank", "reranking", "fixed-set"}),
    "bm25": frozenset({"lexical"}),
    "doc": frozenset({"document", "documents"}),
    "avgdl": frozenset({"mean", "average"}),
    "idf": frozenset({"inverse"}),
    "top_k": frozenset({"top"}),
    "count": frozenset({"number"}),
    "positives": frozenset({"relevant", "positive"}),   # budget's positives_* are the relevant documents
}

STOPWORDS = frozenset("""
a an the of and or to in on at by for with from as is are was were be been it its this that these
those than then while after before into over under per one two three four five six seven eight nine
ten against which who whom whose our we they their there here not no so such also each every all
""".split())

_WORD = re.compile(r"[a-z0-9]+(?:[-@][a-z0-9]+)*")
_IDENTIFIER = re.compile(r"(?<![\w-])([A-Z][A-Za-z]*-\d+)(?![\w-])")
_CLAUSE_END = re.compile(r"[,;:()]|\s(?:and|but|while|whereas)\s")
# A printed number: thousands commas, decimals, an exponent (``2.5e-3`` is one number, never the
# ``2.5`` of another value), a fraction.
SINGLE_SCOPE_WORD = re.compile(r"(?:topic|task|query|queries|document|doc|item)s?")
_PRINTED = re.compile(r"[-+\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)?(?:\.\d+)?(?:[eE][-+\u2212]?\d+)?(?:/\d+)?")


@dataclass(frozen=True)
class RunValue:
    """One value of a logged run's result file."""

    command: str
    run_id: str
    ended_at: str
    match: tuple[tuple[str, Any], ...]
    result: str
    key: str
    value: Any
    key_words: frozenset[str]
    context_words: frozenset[str]
    key_units: tuple[frozenset[str], ...] = ()               # one word (and its spellings) per key word
    siblings: tuple[tuple[str, frozenset[str]], ...] = ()   # (key part, the other keys beside it)
    pattern: str | None = None                               # a number printed inside text (a cell)
    inputs: tuple[tuple[str, str], ...] = ()                 # the run's input sha256 by role (its identity)
    scope: tuple[tuple[str, frozenset[str]], ...] = ()      # (identifier, its sibling identifiers) per level
    rivals: tuple[tuple[str, frozenset[str]], ...] = ()     # (a word of the key, the run's keys beside it)


@dataclass(frozen=True)
class Candidate:
    value: RunValue
    score: float
    difference: float | None = None


@dataclass
class Suggestion:
    """One printed number and what it could be bound to."""

    claim_id: str
    sentence: str
    quote: str
    claimed: str
    candidates: list[Candidate] = field(default_factory=list)
    nearest: Candidate | None = None

    @property
    def status(self) -> str:
        if not self.candidates:
            return "unmatched"
        if len(self.candidates) > 1 and self.candidates[0].score == self.candidates[1].score:
            return "ambiguous"
        return "bound"

    @property
    def best(self) -> Candidate | None:
        return self.candidates[0] if self.candidates else None


# ---------------------------------------------------------------------------------------------
# Words


@functools.lru_cache(maxsize=1 << 16)
def words(text: str) -> tuple[str, ...]:
    """Lower-cased words; a compound (``ndcg@3``, ``d-001``) also yields its alphabetic parts."""
    out: list[str] = []
    for token in _WORD.findall(text.lower().replace("_", " ")):
        if token in STOPWORDS or token.isdigit():
            continue
        out.append(token)
        parts = re.split(r"[-@]", token)
        if len(parts) > 1 and parts[0].isdigit() and "@" not in token:
            continue  # "60-character cap", "5-document packet": a unit after a number, naming no key
        if len(parts) > 1:
            out.extend(p for p in parts if len(p) >= 3 and not p.isdigit() and p not in STOPWORDS)
    return tuple(out)


def key_units(key: str) -> tuple[frozenset[str], ...]:
    """The key path's words, each once: ``macro.hybrid_macro.recall@3`` → {macro}, {hybrid}, {recall@3, recall}."""
    units: list[frozenset[str]] = []
    for part in key.split("."):
        for piece in part.split("_"):
            if not piece or piece.isdigit():
                continue
            unit = frozenset({piece.lower(), *words(piece)})
            if unit not in units:
                units.append(unit)
    return tuple(units)


@functools.lru_cache(maxsize=1 << 16)
def agree(a: str, b: str, strict: bool = False) -> bool:
    """Whether two words name the same thing (module docstring); ``strict``: no prefix rule but plurals."""
    if a == b:
        return True
    short, long_ = sorted((a, b), key=len)
    if strict:
        if long_ in (short + "s", short + "es"):
            return True
    elif len(short) >= 4 and long_.startswith(short) and short.isalpha():
        return True
    if not strict and len(short) >= 5 and a[:5] == b[:5] and a[:5].isalpha():
        return True
    for name, aliases in SYNONYMS.items():
        family = aliases | {name}
        if a in family and b in family:
            return True
    return False


@functools.lru_cache(maxsize=1 << 18)
def _names(word_pool: frozenset[str] | tuple[str, ...], text_words: tuple[str, ...], strict: bool = False) -> bool:
    return any(agree(word, w, strict) for word in word_pool for w in text_words)


def score(value: RunValue, before: tuple[str, ...], after: tuple[str, ...], sentence: tuple[str, ...]) -> float:
    """Word agreement of a value with the number's clause and sentence (module docstring)."""
    total = 0.0
    units = [(1.0, unit) for unit in value.key_units]
    units += [(0.5, frozenset({word})) for word in sorted(value.context_words)]
    for weight, unit in units:
        if _names(unit, before):
            total += 3 * weight
        elif _names(unit, after):
            total += 2 * weight
        elif _names(unit, sentence):
            total += weight
        elif weight == 1.0:
            total -= 0.1
    return round(total, 6)


def contradicts(value: RunValue, clause: tuple[str, ...]) -> bool:
    """The clause names another key beside one of the value's key parts, and not that part.

    Only keys holding numbers or containers count as alternatives (a ``label`` or ``stage``
    string describes its object), and words the value's own path also holds are no conflict.

    ``lifts macro NDCG@3 to 0.889`` contradicts ``macro.bm25.recall@3`` twice: ``ndcg@3``
    stands beside ``recall@3`` and ``fusion`` (``hybrid``) beside ``bm25``. A word inside a
    compound part stands beside the run's keys that its own key stands beside elsewhere
    (``value.rivals``, :func:`run_rivals`).
    """
    for part, others in value.siblings:
        if part.isdigit():
            continue
        if not _names((part.lower(), *words(part)), clause) and _names_a_rival(others, value, clause):
            return True
    return any(not _names((word,), clause) and _names_a_rival(others, value, clause)
               for word, others in value.rivals)


def _names_a_rival(others: frozenset[str], value: RunValue, clause: tuple[str, ...]) -> bool:
    """The clause names one of ``others`` by a word the value's own path does not hold; a word
    naming the items a figure is over (``topics`` of ``topics_without_results``) names no rival:
    "across the three topics" is said of the macro figure, not of a count beside it."""
    for other in others:
        distinct = frozenset(w for w in (other.lower(), *words(other))
                             if not _names(value.key_words, (w,)) and not SINGLE_SCOPE_WORD.fullmatch(w))
        if not other.isdigit() and distinct and _names(distinct, clause, strict=True):
            return True
    return False


def run_rivals(files: Iterable[Any]) -> dict[str, frozenset[str]]:
    """For every key of a run's result files, the keys that stand beside it in any of them.

    A word inside a compound key (``hybrid`` in ``macro_change_bm25_to_hybrid``) has the rivals
    its own key has elsewhere in the run (``bm25``, ``frozen_dense``, ``reranked`` beside
    ``macro.hybrid`` in the metrics file), so "the reranker changes macro NDCG@3 by −0.018"
    contradicts the fusion's change although no reranked change sits beside it. Only keys that
    hold results (a dict: ``macro.hybrid`` → its measures) name a thing of the run; a setting
    (``k``: 3, so not the ``k`` of ``top_k``), a container named by its items and a scope key name
    none (:func:`_is_alternative`, the predicate :func:`_leaves` uses for siblings, so a system's
    per-topic dict ``per_topic.bm25`` is a rival of ``per_topic.hybrid`` here too).
    """
    rivals: dict[str, set[str]] = {}

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            names = {str(name) for name, item in node.items()
                     if isinstance(item, dict) and _is_alternative(str(name), item)}
            for name in names:
                rivals.setdefault(name.lower(), set()).update(names - {name})
            for item in node.values():
                visit(item)
        elif isinstance(node, list):
            for item in node:
                visit(item)

    for data in files:
        visit(data)
    return {name: frozenset(others) for name, others in rivals.items() if others}


def key_rivals(key: str, rivals: dict[str, frozenset[str]]) -> tuple[tuple[str, frozenset[str]], ...]:
    """The words of a key path (whole parts and their ``_`` words) that are keys of the run with
    rivals (:func:`run_rivals`), each with those rivals; a part's own siblings are
    :func:`contradicts`' first check, so only words inside compound parts are added."""
    out = []
    for part in key.split("."):
        inner = words(part)
        if len(inner) < 2:
            continue
        for word in inner:
            if word in rivals and word != part.lower():
                out.append((word, rivals[word]))
    return tuple(out)


# ---------------------------------------------------------------------------------------------
# What the sentence says a number is: a measure's value, a statistic of it, a change, a convention


# A change verb: the number it governs is a difference between two runs, not either run's value.
_CHANGE = re.compile(r"\b(?:improv\w*|gain\w*|chang\w*|lift\w*|rais\w*|rise\w*|rose|increas\w*|decreas\w*"
                     r"|drop\w*|fall\w*|fell|los[es]\w*|lost|lower\w*|outperform\w*|beat\w*|trail\w*"
                     r"|boost\w*|reduc\w*|differ\w*|delta)\b", re.IGNORECASE)
# A comparison with a baseline: "over run a", "than BM25", "against the dense run", "relative to"
_BASELINE = re.compile(r"\b(?:over|than|against|versus|vs\.?|relative\s+to|compared\s+(?:to|with))\s+"
                       r"(?:the\s+|our\s+)?(?:(?:run|system|baseline)\s+)?([A-Za-z0-9][\w.\-]*)", re.IGNORECASE)
# The words right before a number that make it an absolute value: "lifts NDCG@3 to 0.889", "of 0.59"
_ABSOLUTE_BEFORE = re.compile(r"(?:\b(?:to|of|at|from|is|was|are|were|with|reach\w*|achiev\w*|scor\w*|hit\w*|stays|remains)|[=:])\s*$",
                              re.IGNORECASE)
# A key part that holds a difference of two runs (``pairs.b-minus-a``, ``macro_change_bm25_to_hybrid``)
_DIFFERENCE_PART = re.compile(r"(?:^|[_\-])(?:difference|diff|change|delta|minus|gain|improvement)(?:$|[_\-])",
                              re.IGNORECASE)
# The statistics of a measure a result file holds below it (``pairs.b-minus-a.P@1.randomisation_p``) and
# the words that name each are claims.meaning's one table (:data:`claims.meaning.STATISTICS`). Any other
# part below a measure binds only when the sentence names its words.


@dataclass(frozen=True)
class Reading:
    """What a sentence says one printed number is, beyond its metric (:func:`reading_conflict`)."""

    relative: bool                 # a change between two runs ("improves P@1 by 0.333 over run a")
    baseline: str | None           # the run named as the baseline ("a"), lower case
    statistic_text: str            # the sentence without its measures (:func:`without_measures`)
    ndcg_convention: str | None    # "linear" (printed nDCG@k), "exponential" (printed ndcg@k), or None


def read_number(sentence: str, start: int, before_start: int, said: Metric | None = None) -> Reading:
    """The reading of the number at ``sentence[start:]`` (:func:`reading_conflict` states the rules).

    **Relative**: a change word (improves, gains, changes, rises, drops, …) stands before the number
    in its sentence, the words right before it do not make it a value (``to``, ``of``, ``at``, ``is``,
    ``reaches``, ``=``: "lifts NDCG@3 to 0.889" is the new value), and either ``by`` stands right
    before it, the change word is in the number's own clause ("the dense run gains 0.223 in
    nDCG@5"), or the sentence names a baseline ("over BM25", "than run a").
    """
    before_all = sentence[:start]
    clause = sentence[before_start:start]
    baseline = _BASELINE.search(sentence)
    relative = bool(_CHANGE.search(before_all)) and not _ABSOLUTE_BEFORE.search(clause) and bool(
        re.search(r"\bby\s*$", clause, re.IGNORECASE) or _CHANGE.search(clause) or baseline)
    spellings = {m.group(1) for m in re.finditer(r"(?<![\w-])(ndcg|nDCG|NDCG|Ndcg)\s*@\s*\d+", sentence)}
    if exponential_mention(sentence):   # ir_measures' nDCG(dcg='exp-log2')@k, whatever its case
        spellings.add("ndcg")
    convention = None
    if spellings == {"nDCG"}:
        convention = "linear"
    elif spellings == {"ndcg"}:
        convention = "exponential"
    elif said is not None and said.gain is not None:
        convention = said.gain      # both gains in the sentence: the one the number's own metric names
    return Reading(relative, baseline.group(1).lower().rstrip(".") if baseline else None,
                   without_measures(sentence), convention)


def _metric_index(parts: list[str]) -> int | None:
    from claims.meaning import key_metric

    for index in range(len(parts) - 1, -1, -1):
        if key_metric(parts[index]) is not None:
            return index
    return None


def _ndcg_convention(part: str) -> str | None:
    """The gain an nDCG key part names: ``nDCG@k`` is ir_measures' (linear: the grade), ``ndcg@k``
    the sandbox's W03 measure and ``nDCG(dcg='exp-log2')@k`` exponential (``2**g − 1``; README
    "Metrics", "Measures")."""
    if re.fullmatch(r"nDCG(?:@\d+)?", part):
        return "linear"
    if re.fullmatch(r"ndcg(?:@\d+)?", part) or "exp-log2" in part:
        return "exponential"
    return None


def reading_conflict(value: RunValue, reading: Reading) -> str | None:
    """Why ``value`` cannot be what the sentence says the number is (:func:`read_number`), or None.

    * **A measure's statistic is not the measure.** A key part below a measure part
      (``pairs.b-minus-a.P@1.randomisation_p``, ``….t_test_df``, ``….ci_low``, ``….difference``)
      binds only when the sentence names that statistic (:data:`claims.meaning.STATISTICS`; ``difference``: a
      relative number or the word), never by an equal value: "Run b reaches a P@1 of 1.00" is a
      precision, not the pair's p-value of 1.0.
    * **A change is a difference.** A relative number binds only a key that holds a difference
      (a part such as ``difference``, ``change``, ``minus``: :data:`_DIFFERENCE_PART`), never a
      run's own value ("Run b improves P@1 by 0.333 over run a" is not ``runs.b.macro.P@1``); and
      a pair ``X-minus-Y`` is ruled out when the named baseline is ``X``, not ``Y``. An absolute
      number binds no ``difference`` below a measure.
    * **nDCG by its convention, not its case** (:func:`_ndcg_convention`). A printed ``ndcg@k`` is
      the sandbox's exponential measure and never binds ir_measures' linear ``nDCG@k``. A printed
      ``nDCG@k`` is ir_measures' linear measure: it never binds an exponential key where the names
      are ir_measures' (an ``evaluate`` result, whose ``ndcg@k`` is the exponential alias) or where
      a linear key of that cutoff stands beside it; in a file whose only nDCG is its own documented
      exponential one (the sandbox's ``ndcg@3``, R03's ``ndcg@5``) it is that file's nDCG. Another
      spelling (``NDCG@3``) names no convention: it binds an nDCG key only when no key of the other
      gain stands beside it, so a run holding both is never bound by a case-folded name (the
      number is listed instead).
    """
    parts = value.key.split(".")
    at = _metric_index(parts)
    if at is not None and at < len(parts) - 1:
        statistic = parts[-1]
        if statistic == "difference":
            if not reading.relative and not re.search(r"differen|delta|\u0394|minus", reading.statistic_text,
                                                      re.IGNORECASE):
                return "a difference the sentence does not state"
        else:
            named = statistic_named(statistic, reading.statistic_text)
            if named is False:
                return f"{statistic} is a statistic of {parts[at]} the sentence does not name"
            if named is None:
                if not _names(frozenset(words(statistic)), words(reading.statistic_text), True):
                    return f"{statistic} of {parts[at]} is not named"
    if reading.relative:
        if not any(_DIFFERENCE_PART.search(part) for part in parts):
            return "a change between runs binds only a logged difference"
        for part in parts:
            pair = re.fullmatch(r"(.+)-minus-(.+)", part)
            if pair and reading.baseline is not None:
                minuend, baseline = pair.group(1).lower(), pair.group(2).lower()
                said = reading.baseline.replace(".", "_")
                if agree(said, minuend) and not agree(said, baseline):
                    return f"the sentence's baseline is {reading.baseline}, the pair's {pair.group(2)}"
    if at is not None:
        own = _ndcg_convention(parts[at])
        if own is not None:
            cut = re.search(r"@(\d+)$", parts[at])
            beside = any(_ndcg_convention(other) not in (None, own)
                         and (m.group(1) if (m := re.search(r"@(\d+)$", other)) else None) == (cut.group(1) if cut else None)
                         for key_part, others in value.siblings if key_part == parts[at] for other in others)
            said = reading.ndcg_convention
            if said is None and beside:
                return f"nDCG of both gains stands beside {parts[at]}; the sentence names neither"
            if said is not None and said != own and (own == "linear" or beside or value.command == "evaluate"):
                return f"the sentence names {said}-gain nDCG, the key {own}"
    return None


# ---------------------------------------------------------------------------------------------
# Values of logged runs


def _scalar_match(command: str, parameters: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """The parameters a claims file's ``match`` table can state: numbers and option words, no paths."""
    kinds: dict[str, str] = {}
    try:
        from engine.experiments import EXPERIMENTS

        registered = EXPERIMENTS.get(command)
        if registered is not None:
            kinds = {p.name: p.kind for p in registered.parameters}
    except ImportError:  # pragma: no cover - the registry is part of the package
        pass
    out = []
    for name, value in sorted(parameters.items()):
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, (int, float)) and math.isfinite(float(value)):
            out.append((name, value))
        elif isinstance(value, str) and kinds.get(name) == "str":
            out.append((name, value))
    return tuple(out)


def produced_paths(records: Iterable[dict[str, Any]]) -> list[str]:
    """Every output location (absolute) of the ok runs that logged their invocation."""
    out = []
    for record in records:
        invocation = record.get("invocation")
        if record.get("status") == "ok" and isinstance(invocation, dict):
            out += [os.path.abspath(entry["path"]) for entry in (invocation.get("outputs") or {}).values()]
    return out


def identity_inputs(record: dict[str, Any], produced: list[str] | set[str]) -> tuple[tuple[str, str], ...]:
    """The record's input sha256 by role, except inputs another logged run wrote (an R03 freeze:
    it is identified by the run that wrote it, and a re-run writes it anew)."""
    invocation = record.get("invocation")
    if not isinstance(invocation, dict):
        return ()
    written = produced if isinstance(produced, set) else set(produced)
    out = []
    for role, entry in sorted((invocation.get("inputs") or {}).items()):
        path = Path(os.path.abspath(entry["path"]))
        if not entry.get("sha256") or str(path) in written or any(str(p) in written for p in path.parents):
            continue
        out.append((role, entry["sha256"]))
    return tuple(out)


def latest_runs(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The latest ok record of each experiment (command, match parameters and input hashes by
    role), in first-seen order."""
    records = list(records)
    produced = set(produced_paths(records))
    latest: dict[tuple[Any, ...], dict[str, Any]] = {}
    for record in records:
        if record.get("status") != "ok" or not record.get("command"):
            continue
        group = (record["command"], _scalar_match(record["command"], record.get("parameters") or {}),
                 identity_inputs(record, produced))
        latest.pop(group, None)
        latest[group] = record
    return list(latest.values())


def _read_result(record: dict[str, Any], path: str, log_path: str | Path | None) -> Any:
    from engine.runs.runlog import resolve_logged_path

    file = resolve_logged_path(path, log_path) if log_path is not None else Path(path)
    if not file.is_file() or file.suffix.lower() != ".json":
        return None
    outputs = record.get("outputs") or {}
    logged = outputs.get(path) or outputs.get(str(file.resolve()))
    if logged is not None and sha256_file(file) != logged:
        return None
    try:
        return json.loads(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None


def _is_text(item: Any) -> bool:
    """A string or a list of strings: it describes its object and is no alternative to a number."""
    return isinstance(item, str) or (isinstance(item, list) and bool(item) and all(isinstance(i, str) for i in item))


Leaf = tuple[str, Any, frozenset[str], tuple[tuple[str, frozenset[str]], ...]]


def _keyed_by_identifiers(item: Any) -> bool:
    """A dict of per-item results (``tasks`` → ``{"T1": …}``): the word that names it (``tasks``)
    is the prose's plural of its items, no choice of that container over its siblings; which
    item a sentence means is the scope check's (:mod:`claims.meaning`)."""
    from claims.meaning import is_identifier

    return isinstance(item, dict) and bool(item) and all(is_identifier(str(name)) for name in item)


def _per_item_container(name: str, item: Any) -> bool:
    """A dict of per-item results named by its items (``tasks`` → ``{"T1": …}``, ``per_topic_scores``):
    no choice of that container over its siblings. A system's per-topic results
    (``per_topic.frozen_dense`` → ``{"q1": …}``) are keyed by identifiers too, but its name is a
    system's, which "the reranker reaches … on topic q1" rules out beside ``reranked``."""
    return _keyed_by_identifiers(item) and any(SINGLE_SCOPE_WORD.fullmatch(part) for part in words(name))


def _is_alternative(name: str, item: Any) -> bool:
    """Whether a key beside others is an alternative to them (a sentence naming it means that
    value, not its siblings'): not text that describes its object (:func:`_is_text`), not a
    container of per-item results named by its items (:func:`_per_item_container`) and not a key
    naming a scope (:func:`_names_a_scope`). A system's per-topic results (``per_topic.bm25`` →
    ``{"q1": …}``) are an alternative to the other systems'. The one definition of
    :func:`_leaves`' siblings and :func:`run_rivals`' rivals."""
    return not _is_text(item) and not _per_item_container(name, item) and not _names_a_scope(name)


def _names_a_scope(name: str) -> bool:
    """A key such as ``per_topic`` / ``per_task`` names the items a figure is over, as prose does
    ("across the two topics"): no rival of ``macro`` or ``aggregate`` (the scope check decides)."""
    parts = words(name)
    return bool(parts) and all(SINGLE_SCOPE_WORD.fullmatch(part) for part in parts)


def _leaves(node: Any, path: list[str], context: frozenset[str],
            siblings: tuple[tuple[str, frozenset[str]], ...] = ()) -> Iterable[Leaf]:
    if isinstance(node, dict):
        here = set(context)
        if path:  # the root's strings describe the whole file, not one value
            for name, item in node.items():
                if isinstance(item, str) and len(item) <= 200:
                    here.update(words(item))
        frozen = frozenset(here)
        names = frozenset(str(name) for name, item in node.items() if _is_alternative(str(name), item))
        for name, item in node.items():
            yield from _leaves(item, path + [str(name)], frozen, siblings + ((str(name), names - {str(name)}),))
    elif isinstance(node, list):
        if len(node) >= 2 and all(isinstance(item, str) for item in node):
            yield ".".join(path), node, context, siblings
            return
        for index, item in enumerate(node):
            yield from _leaves(item, path + [str(index)], context, siblings)
    elif isinstance(node, (int, float)) and not isinstance(node, bool) and math.isfinite(float(node)):
        yield ".".join(path), node, context, siblings


def key_scope(data: Any, key: str, cache: dict[int, bool]) -> tuple[tuple[str, frozenset[str]], ...]:
    """The identifiers along a key path: each part of a dict keyed only by identifiers
    (:func:`claims.meaning.is_identifier`), with the other keys of that dict."""
    from claims.meaning import is_identifier

    scope = []
    node = data
    for part in key.split("."):
        if isinstance(node, dict):
            if id(node) not in cache:
                cache[id(node)] = bool(node) and all(is_identifier(str(name)) for name in node)
            if cache[id(node)]:
                scope.append((part, frozenset(str(name) for name in node) - {part}))
            node = node.get(part)
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            break
    return tuple(scope)


def unread_results(records: Iterable[dict[str, Any]], log_path: str | Path | None = None) -> list[str]:
    """The result files (JSON, as logged) of the latest ok runs that :func:`run_values` cannot read:
    missing, or changed since their run (sha256), in log order. ``bind`` names them, so that a
    moved or edited output is not mistaken for a chapter whose numbers match nothing."""
    from engine.runs.runlog import resolve_logged_path

    unread = []
    for record in latest_runs(list(records)):
        for result, path in sorted((record.get("results") or {}).items()):
            if "manifest" in result or not isinstance(path, str) or not path.lower().endswith(".json"):
                continue
            file = resolve_logged_path(path, log_path) if log_path is not None else Path(path)
            if not file.is_file() or _read_result(record, path, log_path) is None:
                unread.append(path)
    return unread


def run_values(records: Iterable[dict[str, Any]], log_path: str | Path | None = None) -> list[RunValue]:
    """Every bindable value of the latest ok runs (module docstring, "Which values"); relative
    result paths are relative to ``log_path``'s folder (:func:`engine.runs.runlog.log_base`)."""
    values = []
    records = list(records)
    produced = set(produced_paths(records))
    for record in latest_runs(records):
        match = _scalar_match(record["command"], record.get("parameters") or {})
        inputs = identity_inputs(record, produced)
        files = []
        for result, path in sorted((record.get("results") or {}).items()):
            if "manifest" in result or not isinstance(path, str):
                continue
            data = _read_result(record, path, log_path)
            if data is not None:
                files.append((result, data))
        rivals = run_rivals(data for _, data in files)
        for result, data in files:
            common = (record["command"], record.get("run_id", ""), record.get("ended_at", ""), match, result)
            cache: dict[int, bool] = {}
            for key, value, context, siblings in _leaves(data, [], frozenset()):
                if not key:
                    continue
                units = key_units(key)
                key_words = frozenset().union(*units)
                own = frozenset(w for w in context if not _names(key_words, (w,)))  # no second count
                values.append(RunValue(*common, key, value, key_words, own, units, siblings, inputs=inputs,
                                       scope=key_scope(data, key, cache), rivals=key_rivals(key, rivals)))
            values.extend(RunValue(*common, key, value, frozenset().union(*units), frozenset(), units, (), pattern,
                                   inputs=inputs)
                          for key, value, units, pattern in printed_in_cells(data))
    return values


# "60-character cap": the unit hyphenated to a number names no key (not the Characters selector)
_UNIT_AFTER_NUMBER = re.compile(r"^-[A-Za-z]+")
# a whole number right after an item word names the item ("topic 2", "query #7"), it is no result
_ITEM_BEFORE = re.compile(r"\b(?:topic|task|query|document|doc|item|question|id)s?\s*[#:]?\s*$", re.IGNORECASE)
_IN_TEXT = re.compile(r"(?<![\w.@/-])[-+\u2212]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+\u2212]?\d+)?%?"
                      r"(?![\w/]|\.\d)")


def printed_in_cells(data: Any) -> Iterable[tuple[str, float, tuple[frozenset[str], ...], str]]:
    """Numbers a notebook printed (``outputs.json``: ``cells.N.text``), each with a one-group pattern.

    For ``Recall@3: 0.666667`` in cell 2 the value is 0.666667 at key ``cells.2.text`` with the
    pattern ``(?m)^Recall@3:\\ ([-+−]?[0-9][0-9,]*(?:\\.[0-9]+)?(?:[eE][-+−]?[0-9]+)?%?)`` (the line's
    text before the number, escaped; an exponent is part of the number, as Python prints 0.00002 as
    ``2e-05``); its words are the words of that label (``recall@3``).
    """
    if not isinstance(data, dict) or not isinstance(data.get("cells"), list):
        return
    for index, cell in enumerate(data["cells"]):
        text = cell.get("text") if isinstance(cell, dict) else None
        if not isinstance(text, str):
            continue
        for line in text.splitlines():
            for match in _IN_TEXT.finditer(line):
                label = line[:match.start()]
                if _ITEM_BEFORE.search(label) and match.group(0).isdigit():
                    continue  # "MRR: 0.75 on topic 2": the topic's name, not a printed result
                try:
                    parsed = parse_claimed(match.group(0))
                except ValueError:
                    continue
                units: list[frozenset[str]] = []
                for token in _WORD.findall(label.lower()):
                    unit = frozenset(words(token))
                    if unit and unit not in units:
                        units.append(unit)
                if parsed.kind != "number" or not units:
                    continue
                pattern = "(?m)^" + re.escape(label) + r"([-+\u2212]?[0-9][0-9,]*(?:\.[0-9]+)?(?:[eE][-+\u2212]?[0-9]+)?%?)"
                yield f"cells.{index}.text", parsed.value, tuple(units), pattern


# ---------------------------------------------------------------------------------------------
# Printed numbers


@dataclass(frozen=True)
class Printed:
    claimed: str
    start: int
    end: int
    names_item: bool = False   # a whole number right after "topic", "task", …: no candidate


def printed_values(row: Any) -> list[Printed]:
    """The bindable printed values of one claim row, left to right."""
    sentence = row.text
    found: list[Printed] = []
    parameters = parameter_spans(sentence)
    for quantity in getattr(row, "quantities", []) or []:
        text = getattr(quantity, "text", "")
        start, end = getattr(quantity, "span", (None, None))
        if start is None:
            start = sentence.find(text)
            end = start + len(text) if start >= 0 else 0
        if start > 0 and sentence[start - 1] == "@":
            continue
        if any(low <= start < high for low, high in parameters):
            continue  # the 2 of P(rel=2)@5: a measure's parameter, not a value
        if start > 1 and sentence[start - 1] == "-" and sentence[start - 2].isalpha():
            continue  # the digits of an identifier (D-005, T-03), not a quantity
        number = _PRINTED.match(text)
        if not number or not any(ch.isdigit() for ch in number.group(0)):
            continue
        claimed = number.group(0) + ("%" if getattr(quantity, "is_percent", False) else "")
        # "on topic 2", "task 101": the item's name, not a result (listed, never bound)
        names_item = bool(_ITEM_BEFORE.search(sentence[max(0, start - 30):start]) and re.fullmatch(r"\d+", text))
        found.append(Printed(claimed, start, start + len(number.group(0)), names_item))
    identifiers = list(_IDENTIFIER.finditer(sentence))
    run: list[re.Match[str]] = []
    for match in identifiers + [None]:
        if match is not None and (not run or re.fullmatch(r"[\s,;]*(?:and\s+|or\s+|then\s+)?",
                                                            sentence[run[-1].end():match.start()])):
            run.append(match)
            continue
        if len(run) >= 2:
            found.append(Printed("[" + ", ".join(m.group(1) for m in run) + "]", run[0].start(), run[-1].end()))
        run = [match] if match is not None else []
    return sorted(found, key=lambda p: p.start)


def _is_measured(row: Any) -> bool:
    kind = str(getattr(row, "kind", ""))
    location = str(getattr(row, "location", ""))
    return kind == MEASURED_KIND or "table" in kind or location.startswith("table")


def suggest(rows: Iterable[Any], values: list[RunValue]) -> list[Suggestion]:
    """One suggestion per printed value of every measured row (module docstring)."""
    suggestions = []
    value_index = ValueIndex(values)
    for row in rows:
        if not _is_measured(row):
            continue
        printed = printed_values(row)
        sentence_words = words(row.text)
        sentence_ids = named_ids(without_measures(row.text))  # the 1 of P@1 names no topic 1
        found = []
        for index, item in enumerate(printed):
            before_start = printed[index - 1].end if index > 0 else 0
            after_end = printed[index + 1].start if index + 1 < len(printed) else len(row.text)
            before = words(_UNIT_AFTER_NUMBER.sub("", row.text[before_start:item.start], count=1)
                           if index > 0 else row.text[before_start:item.start])
            after_text = _CLAUSE_END.split(row.text[item.end:after_end], maxsplit=1)[0]
            after = words(_UNIT_AFTER_NUMBER.sub("", after_text, count=1))
            said = number_metric(row.text, item.start, item.end, item.end + len(after_text),
                                 printed[index - 1].end if index > 0 else 0)
            quote = row.text[before_start:item.end].strip(" ,;:")
            reading = read_number(row.text, item.start, before_start, said)
            if len(quote.split()) < 3:
                quote = row.text[:item.end].strip()
            claimed = parse_claimed(item.claimed)
            candidates, near = [], []

            def judged(value: RunValue, difference: float | None) -> Candidate | None:
                """A candidate whose meaning the sentence supports (claims/meaning.py), or None."""
                if contradicts(value, before) or meaning_conflict(
                        value.key, value.scope, item.claimed, said, row.text, sentence_ids) or reading_conflict(
                        value, reading):
                    return None
                own = key_metric(value.key)
                if said is not None and said.cutoff is not None and own is None and value.pattern is None:
                    return None  # "coverage@5 of 1.000" is a metric at a cutoff, never a count such as `tasks`
                points = score(value, before, after, sentence_words)
                if said is not None and own is not None:  # the metric and cutoff named: the key's own words
                    points += 3.0 if said.cutoff is not None else 1.5
                part = value.key.rsplit(".", 1)[-1]
                if part in RATIO_PARTS and part not in sentence_words:
                    points -= RATIO_PART_PENALTY  # a ratio's part restates a count bound elsewhere
                if points <= 0:  # a value the sentence names no word of is no candidate
                    return None
                return Candidate(value, round(points, 6), difference)

            for value in ([] if item.names_item else value_index.near(claimed, claimed.tolerance)):
                agrees, difference = _compare(claimed, value.value)
                if agrees:
                    candidate = judged(value, difference)
                    if candidate is not None:
                        candidates.append(candidate)
            if not candidates and not item.names_item:
                for value in value_index.near(claimed, _near_window(claimed)):
                    agrees, difference = _compare(claimed, value.value)
                    if difference is not None and not agrees:
                        candidate = judged(value, difference)
                        if candidate is not None:
                            near.append(candidate)
            found.append((item, quote, candidates, near))
        for index, (item, quote, candidates, near) in enumerate(found):
            others = [c[2] for i, c in enumerate(found) if i != index]
            candidates = _with_coherence(candidates, others)
            candidates.sort(key=_rank)
            near.sort(key=lambda c: (-c.score, abs(c.difference or 0.0), c.value.result, c.value.key))
            suggestions.append(Suggestion(row.claim_id, row.text, quote, item.claimed, candidates,
                                          near[0] if near and not candidates else None))
    return suggestions


class ValueIndex:
    """Run values sorted by number, so each printed number looks only at values near it."""

    def __init__(self, values: list[RunValue]) -> None:
        numeric = [v for v in values if not isinstance(v.value, list)]
        numeric.sort(key=lambda v: float(v.value))
        self.numbers = [float(v.value) for v in numeric]
        self.numeric = numeric
        self.lists = [v for v in values if isinstance(v.value, list)]

    def near(self, claimed: Any, reach: float) -> list[RunValue]:
        """Values within ``reach`` of the claimed number (every list for a printed list)."""
        if claimed.kind == "list":
            return self.lists
        if claimed.kind not in ("number", "fraction"):
            return []
        reach += 1e-12
        low = bisect.bisect_left(self.numbers, float(claimed.value) - reach)
        high = bisect.bisect_right(self.numbers, float(claimed.value) + reach)
        return self.numeric[low:high]


def _with_coherence(candidates: list[Candidate], others: list[list[Candidate]]) -> list[Candidate]:
    """Add 0.2 per key part shared with the unique best candidate of each other number in the sentence.

    Numbers of one sentence usually speak of one entity: ``the typed baseline covers 2/4 against
    3/4 for dense retrieval`` — 3/4 is only ``tasks.B18.dense``, so 2/4 leans to ``tasks.B18.typed``.
    """
    anchors = []
    for other in others:
        ranked = sorted(other, key=_rank)
        if ranked and (len(ranked) == 1 or ranked[0].score > ranked[1].score):
            anchors.append(set(ranked[0].value.key.split(".")))
    if not anchors:
        return candidates
    out = []
    for candidate in candidates:
        parts = set(candidate.value.key.split("."))
        bonus = sum(0.2 * len(parts & anchor) for anchor in anchors)
        out.append(Candidate(candidate.value, round(candidate.score + bonus, 6), candidate.difference))
    return out


def _rank(candidate: Candidate) -> tuple[Any, ...]:
    return (-candidate.score, candidate.value.command, candidate.value.result, candidate.value.key)


def _near_window(claimed: Any) -> float:
    if claimed.kind != "number":
        return 0.0
    return 20 * claimed.tolerance


def _compare(claimed: Any, value: Any) -> tuple[bool, float | None]:
    """verify's comparison, except that a printed whole number is a count: it binds whole values only."""
    if claimed.kind == "number" and "." not in claimed.text and not claimed.text.endswith("%"):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not float(value).is_integer():
            return False, None
    if claimed.kind == "list":
        if not isinstance(value, list):
            return False, None
    elif claimed.kind in ("number", "fraction"):
        if isinstance(value, list):
            return False, None
    else:
        return False, None
    from claims.verify import compare

    return compare(claimed, value)
