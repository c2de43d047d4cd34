"""What a printed number means, and whether a result key can mean the same (``bind``, issue 20).

A printed number binds only to a key whose meaning its sentence supports; an equal value is a
coincidence otherwise. Three checks, each deterministic (:func:`meaning_conflict`):

**Metric and cutoff.** The metric the number's clause names (the nearest mention before the
number in its sentence, else the first after it in its clause): ``nDCG@10``, ``NDCG at 10``,
``precision at ten`` (= ``P@10``), ``R@100``, ``Recall@3``, ``MRR`` / ``reciprocal rank`` (=
``RR``), ``MAP`` / ``average precision`` (= ``AP``), ``R-precision``, ``coverage`` / ``covers``.
A key that holds a metric part (``ndcg@3``, ``P@10``, ``coverage@5``, ``recall``) binds only when
the family is the same and, when the sentence states a cutoff, the cutoff too. A key without a
metric part is not ruled out by this check. ir_measures' parameters are read in keys and prose
(``P(rel=2)@5``: level 2, never ``P@5``; ``nDCG(dcg='exp-log2')@10``: nDCG at 10 with the
exponential gain, which ``claims.suggest.reading_conflict`` keeps from any linear key).

**Scope.** A result file keyed by identifiers (a dict whose keys are all ``T-01``, ``D-005``,
``A21``, ``103``-like) gives each value below it an identifier per level: none = aggregate
(macro), one = per topic / task / document, two or more = per document within a topic. A value
with two or more identifiers binds only when the sentence names every one of them; with one,
when the sentence names it, or names no identifier beside it and speaks of a single
``topic``/``task``/``query``/``document`` (``On the website-experiment task, …``). A sentence
naming another identifier of the same level rules a value out.

A metric named right after a number (``0.132 in nDCG@10``) is that number's, and one named
right after the previous number is not this one's.

**Test statistics.** A key that is a p-value (``randomisation_p``, ``t_test_p`` and their
corrected forms), a t statistic (``t``), its degrees of freedom (``t_test_df``) or a confidence
bound (``ci_low``, ``ci_high``) binds only when the sentence names it (``p``, significance,
t-test, degrees of freedom, interval: :data:`STATISTICS`). The ``P`` of ``P@1`` is no ``p``.

**Percentages.** A printed percentage binds to a fraction only when the key is a rate
(recall, precision, coverage, success, judged, or a key word ``rate``, ``ratio``, ``fraction``,
``share``, ``proportion``, ``accuracy``, ``percent``), never to a score.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# metric family -> spellings in prose (lower case; multi-word allowed)
FAMILIES: dict[str, tuple[str, ...]] = {
    "ndcg": ("ndcg", "normalized discounted cumulative gain", "normalised discounted cumulative gain"),
    "recall": ("recall",),
    "precision": ("precision",),
    "rr": ("mrr", "mean reciprocal rank", "reciprocal rank", "rr"),
    "ap": ("map", "mean average precision", "average precision", "ap"),
    "rprec": ("r-precision", "rprec", "r precision"),
    "success": ("success",),
    "judged": ("judged",),
    "coverage": ("coverage", "covers", "covered", "cover"),
}
# how a key part spells a family (ir_measures and sandbox keys)
KEY_NAMES = {"ndcg": "ndcg", "recall": "recall", "r": "recall", "precision": "precision", "p": "precision",
             "rr": "rr", "mrr": "rr", "ap": "ap", "map": "ap", "rprec": "rprec", "success": "success",
             "judged": "judged", "coverage": "coverage"}
RATE_FAMILIES = frozenset({"recall", "precision", "coverage", "success", "judged"})
RATE_WORDS = ("rate", "ratio", "fraction", "share", "proportion", "accuracy", "percent", "coverage",
              "recall", "precision")
NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "twenty": 20, "fifty": 50, "hundred": 100, "thousand": 1000}
# Test statistics bind only to a sentence that names them (a p-value is not a count): the one table
# of their spellings, read by :func:`meaning_conflict` and by ``claims.suggest.reading_conflict``.
# Each row: the key part that holds the statistic (``pairs.b-minus-a.P@1.randomisation_p_holm``,
# ``….t_test_df``, ``….t``, ``….ci_low``) and the words that name it. The letter ``p`` names a p-value
# only when no ``@`` (or ir_measures' ``(rel=``) follows it: ``P@1``, ``P @ 10`` and ``P(rel=2)@5`` are
# precision, never a p-value.
_P_VALUE = r"(?<![\w-])p(?:[- ]?values?)?(?![\w-]|\s*@|\(\s*rel\b)"
STATISTICS: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = (
    (re.compile(r"^t_test_p", re.IGNORECASE),
     re.compile(r"(?=.*(?:\bt[- ]?test|student))(?=.*(?:" + _P_VALUE + r"|signific))", re.IGNORECASE | re.DOTALL)),
    (re.compile(r"^t_test_df$", re.IGNORECASE),
     re.compile(r"(?<![\w-])df(?![\w-])|degrees?\s+of\s+freedom", re.IGNORECASE)),
    (re.compile(r"^t$", re.IGNORECASE),
     re.compile(r"\bt[- ]?(?:statistic|value|test|stat)\b|(?<![\w-])t\s*=", re.IGNORECASE)),
    (re.compile(r"^(?:randomi[sz]ation_p|p_value|pvalue|p$)", re.IGNORECASE),
     re.compile(_P_VALUE + r"|signific|randomi[sz]ation|permutation", re.IGNORECASE)),
    (re.compile(r"^ci_(?:low|high)$", re.IGNORECASE),
     re.compile(r"interval|\bci\b|confidence|bootstrap|lower|upper|bound|between", re.IGNORECASE)),
)


def statistic_named(part: str, text: str) -> bool | None:
    """Whether ``text`` names the test statistic the key part ``part`` holds (:data:`STATISTICS`);
    None when ``part`` is no test statistic."""
    for leaf, named in STATISTICS:
        if leaf.search(part):
            return bool(named.search(text))
    return None


SINGLE_SCOPE = re.compile(r"\b(?:topic|task|query|document|doc)\b", re.IGNORECASE)

_CUTOFF = (r"(?:\s*@\s*(?P<cut>\d+)|\s+(?:at|@)\s+(?:(?:rank|cutoff|depth)\s+)?(?P<word_cut>\d+|"
           + "|".join(NUMBER_WORDS) + r")\b)")
# ir_measures' parameters written right after a name: ``P(rel=2)@5``, ``nDCG(dcg='exp-log2')@10``
_PARAMS = r"\(\s*[A-Za-z_]+\s*=[^()]*\)"
_SPELLINGS = sorted({s for spellings in FAMILIES.values() for s in spellings}, key=len, reverse=True)
_MENTION = re.compile(
    r"(?<![\w-])(?:(?P<name>" + "|".join(re.escape(s) for s in _SPELLINGS) + r")(?P<params>" + _PARAMS + r")?"
    + _CUTOFF + r"?|(?P<short>p|r)(?P<short_params>" + _PARAMS + r")?\s*@\s*(?P<short_cut>\d+))(?![\w-])",
    re.IGNORECASE)
_REL = re.compile(r"\brel\s*=\s*(\d+)")
_EXPONENTIAL = re.compile(r"\bdcg\s*=\s*['\"]exp-log2['\"]")
# bare spellings too ambiguous in prose without a cutoff ("cover", "ap", "rr", "success")
_NEEDS_CUTOFF = frozenset({"rr", "ap", "success", "judged"})
# ir_measures' names without a cutoff (`evaluate`'s `AP`, `RR`): a metric part, not a stray letter pair
BARE_KEY_METRICS = frozenset({"AP", "RR"})
_KEY_METRIC = re.compile(r"^([A-Za-z][A-Za-z_-]*?)(" + _PARAMS + r")?(?:@(\d+))?$")
IDENTIFIER = re.compile(r"^(?:[A-Za-z]{1,3}-\d+|[A-Za-z]{1,3}\d+|\d+)$")  # T-03, B18, q1 (a user's topic ids), 103
_ID_IN_TEXT = re.compile(r"(?<![\w.-])([A-Za-z]{1,3}-?\d+|\d+)(?![\w-]|\.\d)")
NOT_IDENTIFIERS = frozenset({"bm25", "k1"})


@dataclass(frozen=True)
class Metric:
    """A metric a sentence or a key names: family, cutoff (None: none stated) and ir_measures'
    relevance level ``rel`` (``P(rel=2)@5``; 1, the default, when not written); for an nDCG named in
    prose, the gain its spelling names (:func:`_gain`; None when it names none)."""

    family: str
    cutoff: int | None
    rel: int = 1
    gain: str | None = None   # nDCG as spelled: "linear" (nDCG@k), "exponential" (ndcg@k, dcg='exp-log2')


def _gain(spelling: str, params: str | None, cut: str | None) -> str | None:
    """The gain an nDCG mention names: ``nDCG(dcg='exp-log2')@k`` exponential, ``nDCG(dcg='log2')``
    linear; else by case at a cutoff ``@k``: ``nDCG@k`` ir_measures' linear, ``ndcg@k`` the
    sandbox's exponential; any other spelling none (``claims.suggest.read_number``)."""
    if params and _EXPONENTIAL.search(params):
        return "exponential"
    if params and re.search(r"\bdcg\s*=\s*['\"]log2['\"]", params):
        return "linear"
    if cut is None:
        return None
    return {"nDCG": "linear", "ndcg": "exponential"}.get(spelling)


def _rel(params: str | None) -> int:
    found = _REL.search(params or "")
    return int(found.group(1)) if found else 1


def _family_of_spelling(spelling: str) -> str:
    spelling = spelling.lower()
    for family, spellings in FAMILIES.items():
        if spelling in spellings:
            return family
    return KEY_NAMES.get(spelling, spelling)


def mentions(text: str) -> list[tuple[int, Metric]]:
    """Every metric named in ``text``: (position, metric), left to right."""
    found = []
    for match in _MENTION.finditer(text):
        if match.group("name"):
            spelling = match.group("name").lower()
            cut = match.group("cut") or match.group("word_cut")
            if cut is None and spelling in _NEEDS_CUTOFF:
                continue
            family = _family_of_spelling(spelling)
            params = match.group("params")
            gain = _gain(match.group("name"), params, match.group("cut")) if family == "ndcg" else None
        else:
            family = KEY_NAMES[match.group("short").lower()]
            cut = match.group("short_cut")
            params = match.group("short_params")
            gain = None
        cutoff = None if cut is None else int(NUMBER_WORDS.get(cut.lower(), cut) if not cut.isdigit() else cut)
        found.append((match.start(), Metric(family, cutoff, _rel(params), gain)))
    return found


def parameter_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` writes ir_measures parameters after a measure's name (the ``(rel=2)`` of
    ``P(rel=2)@5``): their digits are no printed value."""
    spans = []
    for match in _MENTION.finditer(text):
        for group in ("params", "short_params"):
            if match.group(group):
                spans.append(match.span(group))
    return spans


def exponential_mention(text: str) -> bool:
    """Whether ``text`` names ir_measures' exponential nDCG (``nDCG(dcg='exp-log2')@10``)."""
    return any(match.group("name") and match.group("name").lower() == "ndcg" and match.group("params")
               and _EXPONENTIAL.search(match.group("params")) for match in _MENTION.finditer(text))


_ATTACHED = re.compile(r"\s*(?:(?:in|of|for|on|at)\s+)?(?:the\s+)?$")


def _attached(text: str) -> Metric | None:
    """A metric that follows a number directly (``0.132 in nDCG@10``, ``0.48 P@5``)."""
    found = mentions(text)
    if found and _ATTACHED.match(text[:found[0][0]]):
        return found[0][1]
    return None


def number_metric(sentence: str, start: int, end: int, clause_end: int, previous_end: int = 0) -> Metric | None:
    """The metric the number at ``sentence[start:end]`` is a value of (module docstring): one
    named right after it (``0.132 in nDCG@10``), else the nearest named before it (a mention that
    follows the previous number directly, at ``previous_end``, is that number's), else the first
    named after it in its clause, else one named in the parenthesis that follows it."""
    attached = _attached(sentence[end:clause_end])
    if attached is not None:
        return attached
    before = mentions(sentence[:start])
    if previous_end:
        owned = mentions(sentence[previous_end:start])
        if owned and _ATTACHED.match(sentence[previous_end:previous_end + owned[0][0]]):
            skip = previous_end + owned[0][0]
            before = [(pos, m) for pos, m in before if pos != skip]
    if before:
        return before[-1][1]
    after = mentions(sentence[end:clause_end])
    if after:
        return after[0][1]
    return _parenthesised(sentence[end:])


_PARENTHESIS = re.compile(r"\(([^()]*)\)")


def _parenthesised(rest: str) -> Metric | None:
    """A metric named in the first parenthesis after the number, with no other number between
    (``80% of the topics (Success@1)``): the clause ends at the parenthesis, the naming does not."""
    paren = _PARENTHESIS.search(rest)
    if paren is None or re.search(r"\d", rest[:paren.start()]):
        return None
    inside = mentions(paren.group(1))
    return inside[0][1] if inside else None


def key_metric(key: str) -> Metric | None:
    """The metric a key path names (its last metric part): ``runs.bm25.macro.P@10`` → P@10;
    ir_measures' parameters are read (``P(rel=2)@5`` is precision at 5, level 2;
    ``nDCG(dcg='exp-log2')@10`` is nDCG at 10, whose exponential gain ``claims.suggest`` reads)."""
    for part in reversed(key.split(".")):
        match = _KEY_METRIC.match(part)
        if not match:
            continue
        name, params, cut = match.group(1).lower(), match.group(2), match.group(3)
        if name in KEY_NAMES and (cut or params or len(name) > 2 or match.group(1) in BARE_KEY_METRICS):
            return Metric(KEY_NAMES[name], int(cut) if cut else None, _rel(params))
    return None


def normal_id(text: str) -> str:
    """``T-03``, ``t03`` and ``T3`` alike: lower case, no hyphen, no leading zeros in the digits."""
    text = text.lower().replace("-", "").replace("_", "")
    return re.sub(r"0+(\d)", r"\1", text)


def is_identifier(name: str) -> bool:
    return bool(IDENTIFIER.match(name)) and name.lower() not in NOT_IDENTIFIERS


def named_ids(sentence: str) -> frozenset[str]:
    """The identifiers a sentence names (normalised); printed decimals are not identifiers."""
    return frozenset(normal_id(m.group(1)) for m in _ID_IN_TEXT.finditer(sentence))


def is_rate(key: str, metric: Metric | None) -> bool:
    if metric is not None and metric.family in RATE_FAMILIES:
        return True
    lowered = key.lower()
    return any(word in lowered for word in RATE_WORDS)


def meaning_conflict(key: str, scope: tuple[tuple[str, frozenset[str]], ...], claimed_text: str,
                     said: Metric | None, sentence: str, ids_in_sentence: frozenset[str]) -> str | None:
    """Why ``key`` cannot mean the printed number, or None (module docstring)."""
    own = key_metric(key)
    if said is not None and own is not None:
        if said.family != own.family:
            return f"the sentence names {said.family}, the key {own.family}"
        if said.cutoff is not None and said.cutoff != own.cutoff:
            return f"the sentence names cutoff {said.cutoff}, the key {own.cutoff}"
        if said.rel != own.rel:
            return f"the sentence names relevance level {said.rel}, the key {own.rel}"
    if claimed_text.endswith("%") and not is_rate(key, own):
        return "a percentage binds only to a rate, not to a score"
    statistic = key.rsplit(".", 1)[-1]
    if statistic_named(statistic, sentence) is False:
        return f"{statistic} is a test statistic the sentence does not name"
    for identifier, siblings in scope:
        if normal_id(identifier) in ids_in_sentence:
            continue
        if len(scope) >= 2:
            return f"per-item value of {identifier}, which the sentence does not name"
        if any(normal_id(s) in ids_in_sentence for s in siblings):
            return f"the sentence names another item than {identifier}"
        if not SINGLE_SCOPE.search(sentence):
            return f"value of one item ({identifier}); the sentence names neither it nor a single item"
    return None


def without_measures(text: str) -> str:
    """The sentence with every measure at a cutoff blanked (``P@1``, ``nDCG@10``, ``precision at
    ten``): its letters name no statistic (the ``P`` of ``P@1`` is no p-value) and its digits no
    item (the ``1`` of ``P@1`` is a cutoff, never topic ``1``)."""
    return _MENTION.sub(lambda m: " " * len(m.group(0)) if (m.group("cut") or m.group("word_cut") or m.group("short_cut")
                                                          or m.group("params")) else m.group(0), text)
