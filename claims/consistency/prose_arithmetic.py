"""Arithmetic a sentence states with its own numbers, no table needed: check kinds
``prose-fraction``, ``prose-change``, ``prose-times``, ``prose-shares`` and ``prose-rank``
(the last fault campaign's leftover: "arithmetic stated only in prose is not checked").

Each check reads one prose sentence (a claim row's text; the kinds of the rows are not read, so
the check does not depend on which decider, rules or model, set them) and fires only on a shape
whose arithmetic is unambiguous; any doubt is a SKIP naming it, never a guess:

* ``prose-fraction`` — a count of a whole and its percentage side by side: "7 of 20 queries
  (35%)", "7/20 (35%)", "7 out of 20, or 35%", "35% (7 of 20)"; a score and its percentage,
  "0.333 (33%)". p must equal 100·k/N (k, N exact) or 100·x. A percentage followed by anything
  but the end of its clause or parenthesis ("(81% recall)", "35% more than") is not the share.
* ``prose-change`` — a relative change with its base stated: "from A to B, a p% gain / increase /
  reduction / drop …" or "drops by p% from A to B" (A and B with one unit, or k/N coverages).
  p must equal 100·|B − A|/A, and a word with a direction (increase, rise, higher, more /
  reduction, drop, cut, lower, less; gain and boost are increases) must agree with the sign of
  B − A. A change said "in X" after the values is of them only when X is named before them ("from
  10 to 20 GPUs, a 50% reduction in time" is no check). When A and B are
  percentages or scores in [0, 1], a p that agrees only as percentage points (B − A, ×100 for
  scores) is a SKIP ("a 25% gain" from 50% to 75%: points or a relative change cannot be told);
  faster / slower / speed-up are SKIPs (a speed's relative change has two bases: time and rate).
* ``prose-times`` — a stated ratio of two stated values: "twice as fast: 3.1 s against 6.0 s",
  "3× more memory (12 GB vs 4 GB)". Exactly two other numbers with one unit in the sentence;
  the larger over the smaller must equal the multiplier (``half`` / ``0.5×``: the smaller over
  the larger). The first value written is taken as the subject's ("3.1 s against 6.0 s"): when
  the multiplier's word says which must be smaller (faster on times, slower on rates, smaller,
  less, half) or larger (more, many, higher, faster on rates) and the order written says the
  other, it is a SKIP — which value is whose cannot be told —, unless the size of the ratio misses
  the multiplier (then it is wrong either way: "3.1x faster: 10.5 s against 5.0 s" is a FAIL).
* ``prose-shares`` — the parts of one whole: "the three shares are 40%, 35% and 25%", "split into
  three parts of 50%, 30% and 20%" (the count stated, "the" or "split / divided into" before it,
  exactly that many percentages after it, none a change): they must add up to 100%.
* ``prose-rank`` — a rank with the scores it is placed by: "ranks second of five with 0.41
  behind 0.45". The rank must lie within the field ("sixth of five" fails), a first place is
  behind no one, a last place ahead of no one, and the score behind must be below the one it
  trails (above, for "ahead of"). A sentence about a lower-is-better measure (latency, error,
  loss, time, cost) is a SKIP.

* ``prose-sum`` — a sum or difference written out: "7 + 3 = 10 documents", "0.25 + 0.50 = 0.75",
  "12.5% − 2.5% = 10%" (two or more terms joined by ``+`` / ``−`` / ``-``, then ``=``; every term
  and the result of one form: all percentages or none). Whole numbers (counts) must add exactly
  (campaign o: "7 + 3 = 11" went unchecked); decimals to their printed precision: half a unit in
  the last printed place of each term and of the result, summed (``SUM_TOLERANCE`` below).

**Tolerance** (the shared printed-precision rule of :mod:`claims.consistency.cells`): a printed
number with d decimals stands for [v − ½·10^−d, v + ½·10^−d]; counts k and N of a fraction are
exact. A function of printed numbers agrees with a printed result when its interval over the
operands' box (corners: every function here is monotone in each operand on positive values)
meets the result's interval (+1e−9). A multiplier word (``twice``, ``three times``) or an integer
multiplier (``3×``) stands for [n − ½, n + ½], as in ``prose-ratio``. A bound or an
approximation before the stated result (``up to``, ``more than``, ``at least``, ``about``,
``roughly``, ``nearly``, ``almost``, ``over``, ``under``, ``~``) is a SKIP: it is not an equality.
"""

from __future__ import annotations

import itertools
import re
from typing import Any, Callable, Sequence

from claims.consistency.cells import EPS, fmt
from claims.consistency.model import Check, make_check

KINDS = ("prose-fraction", "prose-change", "prose-times", "prose-shares", "prose-rank", "prose-sum")

NUMBER = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
INTEGER = r"(?:\d{1,3}(?:,\d{3})+|\d+)"
WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
                "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20}
ORDINALS = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
            "eighth": 8, "ninth": 9, "tenth": 10, "last": -1}
COUNT = rf"(?:{INTEGER}|{'|'.join(WORD_NUMBERS)})"
APPROX = r"(?:up\s+to|more\s+than|less\s+than|fewer\s+than|at\s+least|at\s+most|about|around|roughly|approximately|" \
         r"nearly|almost|over|under|some|~|≈|>|<|≥|≤)"
_APPROX_BEFORE = re.compile(rf"(?:^|[\s(]){APPROX}\s*$", re.I)


class Printed:
    """A printed number: value, half-unit (0 for an exact count), whether it is a percentage."""

    __slots__ = ("value", "half", "percent", "text")

    def __init__(self, value: float, half: float, percent: bool, text: str) -> None:
        self.value, self.half, self.percent, self.text = value, half, percent, text

    @classmethod
    def of(cls, text: str, percent: bool = False) -> "Printed":
        digits = text.replace(",", "")
        decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
        return cls(float(digits), 0.5 * 10.0 ** (-decimals), percent, text + ("%" if percent else ""))

    @classmethod
    def exact(cls, value: float, text: str) -> "Printed":
        return cls(value, 0.0, False, text)

    @property
    def low(self) -> float:
        return self.value - self.half

    @property
    def high(self) -> float:
        return self.value + self.half


def _count(text: str) -> int:
    word = text.lower()
    return WORD_NUMBERS[word] if word in WORD_NUMBERS else int(text.replace(",", ""))


def _meets(low: float, high: float, stated: Printed) -> bool:
    return stated.high + EPS >= low and stated.low - EPS <= high


def _interval(f: Callable[..., float], *operands: Printed) -> tuple[float, float, float] | None:
    """(f at the printed values, lowest, highest corner); None when f is undefined on the box."""
    corners: list[list[float]] = [[]]
    for o in operands:
        corners = [c + [v] for c in corners for v in ((o.low, o.high) if o.half else (o.value,))]
    try:
        values = [f(*c) for c in corners]
        return f(*(o.value for o in operands)), min(values), max(values)
    except ZeroDivisionError:
        return None


def _stands_for(stated: Printed) -> str:
    return f"[{fmt(stated.low, 4)}, {fmt(stated.high, 4)}]"


# ---------------------------------------------------------------- prose-fraction

_FRACTION = rf"(?P<k>{COUNT})\s*(?:/\s*|\s+out\s+of\s+|\s+of\s+(?:the\s+|all\s+|our\s+|its\s+|their\s+)?)(?P<n>{COUNT})"
_JOIN = r"(?P<join>\s*\(\s*|,\s*(?:or|i\.e\.,?|that\s+is,?)\s+|\s+or\s+|\s+[—–]\s+|:\s+)"
_PERCENT_END = re.compile(r"^\s*(?:[,.;:)]|$|of\s+(?:them|these|those|all|the\s+total)\b)", re.I)
"""What may follow the percentage of "7 of 20, or 35%": the end of the clause or "of them";
"35% recall" is a measure of its own, not the share."""
FRACTION_THEN_PERCENT = re.compile(
    rf"(?<![\w.,/@-]){_FRACTION}(?![\d.,]*\d)(?P<noun>(?:\s+[A-Za-z][A-Za-z'-]*){{0,3}}?){_JOIN}"
    rf"(?P<approx>{APPROX}\s*)?(?P<p>{NUMBER})\s*%(?P<after>\s*\))?", re.I)
PERCENT_THEN_FRACTION = re.compile(
    rf"(?<![\w.,/@-])(?P<approx>{APPROX}\s*)?(?P<p>{NUMBER})\s*%(?P<noun>(?:\s+of(?:\s+[A-Za-z][A-Za-z'-]*){{1,3}})?)\s*\(\s*"
    rf"{_FRACTION}(?:\s+[A-Za-z][A-Za-z'-]*){{0,3}}\s*\)", re.I)
SCORE_THEN_PERCENT = re.compile(
    rf"(?<![\w.,/@+\-−])(?P<x>0?\.\d+|1\.0+)\s*\(\s*(?P<approx>{APPROX}\s*)?(?P<p>{NUMBER})\s*%\s*\)", re.I)


def _fractions(sentence: str) -> list[tuple[int, int, Any]]:
    """(start, end, (k, N | None, x, stated p, approx, text)) of every fraction-with-percentage."""
    found = []
    for m in FRACTION_THEN_PERCENT.finditer(sentence):
        if "(" in m.group("join"):
            if m.group("after") is None:
                continue  # "(35% recall)", "(35% more than …)": not the share of the count
        elif not _PERCENT_END.match(sentence[m.end():]):
            continue  # "7 of 20, or 35% more than …": a percentage of something else
        found.append((m.start(), m.end(), (_count(m.group("k")), _count(m.group("n")), None, m.group("p"),
                                            m.group("approx"), m.group(0))))
    for m in PERCENT_THEN_FRACTION.finditer(sentence):
        if any(s <= m.start() < e for s, e, _ in found):
            continue
        found.append((m.start(), m.end(), (_count(m.group("k")), _count(m.group("n")), None, m.group("p"),
                                            m.group("approx"), m.group(0))))
    for m in SCORE_THEN_PERCENT.finditer(sentence):
        if any(s <= m.start() < e for s, e, _ in found):
            continue
        found.append((m.start(), m.end(), (None, None, m.group("x"), m.group("p"), m.group("approx"), m.group(0))))
    return found


def _check_fraction(cid: str, where: str, line: int | None, item: Any) -> Check:
    k, n, x, p, approx, text = item
    kind = KINDS[0]
    stated = Printed.of(p, percent=True)
    if approx:
        return make_check(kind, cid, None, f"{where}: “{text}”: {approx.strip()!r} before the percentage is a bound "
                                           "or an approximation, not an equality", line)
    if x is not None:
        score = Printed.of(x)
        value, low, high = 100 * score.value, 100 * score.low, 100 * score.high
        formula = f"100·{x}"
    else:
        if n == 0:
            return make_check(kind, cid, None, f"{where}: “{text}”: a whole of 0", line)
        value = low = high = 100 * k / n
        formula = f"100·{k}/{n}"
    ok = _meets(low, high, stated)
    relation = "meets" if ok else "misses"
    return make_check(kind, cid, ok, (
        f"{where} says “{text}”: {formula} = {fmt(value, 4)}% (interval [{fmt(low, 4)}, {fmt(high, 4)}]) "
        f"{relation} {stated.text} {_stands_for(stated)} {'✓' if ok else '✗'}"), line)


# ---------------------------------------------------------------- prose-change

UNIT = r"(?:%|ms|s|sec|secs|seconds?|minutes?|mins?|hours?|h|days?|[KMGT]i?B|kB|GB|MB|tokens|queries|docs|documents|" \
       r"points?|pp|qps|x|×)"


def _operand_pattern(d: str) -> str:
    return (rf"(?P<{d}dollar>\$)?(?:(?P<{d}k>{INTEGER})/(?P<{d}n>{INTEGER})|(?P<{d}v>{NUMBER}))"
            rf"\s*(?P<{d}u>{UNIT}(?![\w]))?")


FROM_TO = re.compile(rf"\bfrom\s+{_operand_pattern('a')}\s+to\s+{_operand_pattern('b')}", re.I)
UP_WORDS = ("increase", "increases", "rise", "rises", "jump", "growth", "higher", "more", "larger", "bigger", "longer",
            "uplift", "climb", "gain", "gains", "boost")
DOWN_WORDS = ("reduction", "reductions", "drop", "drops", "decrease", "decreases", "decline", "cut", "cuts", "fall",
              "falls", "saving", "savings", "lower", "less", "fewer", "smaller", "shorter", "shrink", "loss")
FREE_WORDS = ("improvement", "improvements", "change", "better", "worse", "difference")
SPEED_WORDS = ("faster", "slower", "speed-up", "speedup", "quicker", "speed")
POINTS_MARK = r"(?:-?\s*percentage[- ]points?|-?\s*points?|\s*pp)\b"
CHANGE_AFTER = re.compile(
    rf"(?P<approx>{APPROX}\s*)?(?<![\w.,+\-−])(?P<p>{NUMBER})(?P<mark>\s*%|{POINTS_MARK})\s+"
    r"(?:(?P<cue>relative|absolute)\s+)?(?P<word>[a-z-]+)", re.I)
CHANGE_BY = re.compile(rf"\bby\s+(?P<approx>{APPROX}\s*)?(?P<p>{NUMBER})(?P<mark>\s*%|{POINTS_MARK})"
                       r"(?:\s+(?P<cue>relative|absolute)\b)?", re.I)
CHANGE_OF = re.compile(
    rf"\b(?:(?P<cue>relative|absolute)\s+)?(?P<word>gain|gains|improvement|increase|rise|drop|decrease|reduction|"
    rf"difference|change)\s+of\s+(?P<approx>{APPROX}\s*)?(?P<p>{NUMBER})(?P<mark>\s*%|{POINTS_MARK})", re.I)
RELATIVE_WORDS = ("gain", "gains", "improvement", "improvements")
"""Change words read as a relative change when the number carries ``%`` and no other cue ("a 25%
gain" from 0.50 to 0.75 is 50%, not the 25 points; campaign o). Other words ("increase", "drop",
"higher") on values that are percentages or scores allow both readings."""
_VERB_BEFORE = re.compile(r"([a-z]+)\s+(?:[a-z]+\s+)?$", re.I)
UP_VERBS = ("rises", "rose", "risen", "rise", "increases", "increased", "increase", "grows", "grew", "grown", "climbs",
            "climbed", "jumps", "jumped", "goes", "went", "up", "raises", "raised", "boosts", "boosted")
DOWN_VERBS = ("drops", "dropped", "drop", "falls", "fell", "fallen", "decreases", "decreased", "declines", "declined",
              "shrinks", "shrank", "cuts", "cut", "reduces", "reduced", "lowers", "lowered", "down", "shortens",
              "shortened", "saves", "saved")
SCORE_SCALE = re.compile(r"^(?:0?\.\d+|1(?:\.0+)?|0)$")


def _operand(m: re.Match, d: str) -> tuple[Printed, str] | None:
    """(the printed operand, its unit) of FROM_TO's side ``d``; k/N is the exact fraction."""
    if m.group(f"{d}k"):
        k, n = int(m.group(f"{d}k").replace(",", "")), int(m.group(f"{d}n").replace(",", ""))
        if n == 0:
            return None
        return Printed.exact(k / n, f"({k}/{n})"), "fraction"
    unit = (m.group(f"{d}u") or "").lower()
    if m.group(f"{d}dollar"):
        unit = "$" + unit
    return Printed.of(m.group(f"{d}v"), percent=unit == "%"), unit


def _direction(word: str) -> str | None:
    word = word.lower()
    if word in SPEED_WORDS:
        return "speed"
    if word in UP_WORDS:
        return "up"
    if word in DOWN_WORDS:
        return "down"
    if word in FREE_WORDS:
        return "free"
    return None


def _reading(m: re.Match, word: str) -> str:
    """Which reading the wording claims: ``points`` (the number is marked points / pp /
    percentage points, or said ``absolute``), ``relative`` (said ``relative``, or a ``%`` with a
    gain / improvement word: :data:`RELATIVE_WORDS`), else ``either`` (a ``%`` with another change
    word; the points reading only exists for values that are percentages or scores)."""
    mark = (m.group("mark") or "").strip().lower()
    cue = (m.group("cue") or "").lower()
    if mark != "%" or cue == "absolute":
        return "points"
    if cue == "relative" or word.lower() in RELATIVE_WORDS:
        return "relative"
    return "either"


def _changes(sentence: str) -> list[tuple[int, int, str, str | None, str, str]]:
    """(start, end, stated p, approx, direction, reading) of every stated change."""
    out = []
    for pattern in (CHANGE_AFTER, CHANGE_OF):
        for m in pattern.finditer(sentence):
            direction = _direction(m.group("word"))
            if direction is None and m.group("word").lower() in ("in", "of"):
                continue
            if direction is not None and not any(s <= m.start("p") < e for s, e, *_ in out):
                out.append((m.start(), m.end(), m.group("p"), m.group("approx"), direction,
                            _reading(m, m.group("word"))))
    for m in CHANGE_BY.finditer(sentence):
        before = _VERB_BEFORE.search(sentence, max(0, m.start() - 40), m.start())
        words = before.group(0).lower().split() if before else []
        verb = next((w for w in words if w in UP_VERBS or w in DOWN_VERBS or w in ("speeds", "sped", "improves",
                                                                                  "improved", "changes", "changed")), "")
        direction = "up" if verb in UP_VERBS else "down" if verb in DOWN_VERBS else \
            "speed" if verb in ("speeds", "sped") else "free" if verb in ("improves", "improved", "changes", "changed") \
            else None
        if direction is not None and not any(s <= m.start("p") < e for s, e, *_ in out):
            out.append((before.start() if before else m.start(), m.end(), m.group("p"), m.group("approx"), direction,
                        _reading(m, verb)))
    return out


_GAP_AFTER = re.compile(r"^\s*(?:[,;:(—–]\s*)?(?:(?:or|i\.e\.,?|that\s+is,?|which\s+is|for|giving|making)\s+)?"
                        r"(?:(?:a|an)\s+)?$", re.I)
_GAP_BEFORE = re.compile(r"^\s*(?:(?:in|of)\s+[a-z][\w-]*(?:\s+[a-z][\w-]*)?)?\s*,?\s*$", re.I)


_SAID_OF = re.compile(r"^\s+(?:in|of)\s+(?:the\s+|its\s+|their\s+)?([a-z][\w-]*)", re.I)


def _adjacent(sentence: str, span: re.Match, change: tuple) -> bool:
    """The change is said of these two values: right after them ("from 120 ms to 80 ms, a 33%
    reduction") or right before them ("drops by 33% from 120 ms to 80 ms", "a 33% cut in latency,
    from …"); a change elsewhere in the sentence may be of something else, and so is one said
    after the values of a thing not named before them ("from 10 to 20 GPUs, a 50% reduction in
    time")."""
    start, end = change[0], change[1]
    if start >= span.end():
        said_of = _SAID_OF.match(sentence, end)
        if said_of and not re.search(rf"\b{re.escape(said_of.group(1))}", sentence[:span.start()], re.I):
            return False
        return bool(_GAP_AFTER.match(sentence[span.end():start]))
    if end <= span.start():
        return bool(_GAP_BEFORE.match(sentence[end:span.start()]))
    return False


def _years(span: re.Match) -> bool:
    """"from 2019 to 2021": a period, not two values."""
    values = [span.group(f"{d}v") for d in "ab"]
    return all(v and re.fullmatch(r"(?:19|20)\d\d", v) for v in values)


def _check_change(cid: str, where: str, line: int | None, span: re.Match, change: tuple) -> Check:
    kind = KINDS[1]
    _, _, p, approx, direction, reading = change
    said = f"“{span.group(0)}” … {p}{'%' if reading != 'points' else ' points'}"
    if approx:
        return make_check(kind, cid, None, f"{where}: {said}: {approx.strip()!r} is a bound or an approximation, "
                                           "not an equality", line)
    if direction == "speed":
        return make_check(kind, cid, None, f"{where}: {said}: a change of speed has two bases (the time and the "
                                           "rate); which one is meant cannot be told", line)
    a, b = _operand(span, "a"), _operand(span, "b")
    if a is None or b is None:
        return make_check(kind, cid, None, f"{where}: {said}: a fraction of a whole of 0", line)
    (pa, ua), (pb, ub) = a, b
    if ua and ub and ua != ub and "fraction" not in (ua, ub):
        return make_check(kind, cid, None, f"{where}: {said}: the two values have different units ({ua}, {ub})", line)
    if "fraction" in (ua, ub) and {ua, ub} != {"fraction"}:
        return make_check(kind, cid, None, f"{where}: {said}: a fraction beside a number of another form", line)
    if pa.value <= 0 or pa.low <= 0:
        return make_check(kind, cid, None, f"{where}: {said}: the base {pa.text} is not positive", line)
    stated = Printed.of(p, percent=True)
    if reading == "points" and _points(pa, pb, ua) is None:
        return make_check(kind, cid, None, f"{where}: {said}: points of values that are neither percentages nor "
                                           "scores in [0, 1]", line)
    relative = _interval(lambda x, y: 100 * (y - x) / x, pa, pb)
    assert relative is not None
    value, low, high = relative
    if direction == "up" and high < -EPS or direction == "down" and low > EPS:
        return make_check(kind, cid, False, (
            f"{where} says {said}: the word says {'an increase' if direction == 'up' else 'a decrease'}, the "
            f"values go {'down' if direction == 'up' else 'up'} (100·({pb.text} − {pa.text})/{pa.text} = "
            f"{fmt(value, 4)}%) ✗ (direction differs)"), line)
    if direction == "down" or direction == "free" and value < 0:
        value, low, high = -value, -high, -low
        formula = f"100·({pa.text} − {pb.text})/{pa.text}"
    else:
        formula = f"100·({pb.text} − {pa.text})/{pa.text}"
    if direction == "free" and low < 0 < high:
        low, high = 0.0, max(abs(low), abs(high))
    ok = _meets(low, high, stated)
    points = _points(pa, pb, ua)
    points_ok = points is not None and _meets(*points, stated)
    if points is not None:
        scale = "" if ua == "%" else "100·"
        points_text = (f"the difference in percentage points {scale}|{pb.text} − {pa.text}| = "
                       f"{fmt(100 * abs(pb.value - pa.value) if scale else abs(pb.value - pa.value), 4)} "
                       f"(interval [{fmt(points[0], 4)}, {fmt(points[1], 4)}])")
    relative_text = f"relative change {formula} = {fmt(value, 4)}% (interval [{fmt(low, 4)}, {fmt(high, 4)}])"
    if reading == "points":
        return make_check(kind, cid, points_ok, (
            f"{where} says {said} (read as points by its wording): {points_text} "
            f"{'meets' if points_ok else 'misses'} {p} ± {fmt(stated.half, 4)} {'✓' if points_ok else '✗'}"
            + ("" if points_ok or not ok else f"; {p}% would be the {relative_text}")), line)
    if not ok and points_ok and reading == "relative":
        return make_check(kind, cid, False, (
            f"{where} says {said} (a gain or improvement in %: read as a relative change): {relative_text} "
            f"misses {stated.text} ✗; {stated.text} is {points_text}: write 'points' or 'pp' if that is meant"),
            line)
    if not ok and points_ok:   # reading "either": the wording allows both, and the points reading matched
        return make_check(kind, cid, True, (
            f"{where} says {said} (the wording allows points or a relative change): matches as {points_text} ✓, "
            f"not as a relative change ({fmt(value, 4)}%)"), line)
    if ok and reading == "either" and points is not None:
        return make_check(kind, cid, True, (
            f"{where} says {said} (the wording allows points or a relative change): matches as a {relative_text} "
            f"✓{'' if points_ok else ', not as ' + points_text}"), line)
    if not ok and points is not None:   # neither reading matches
        return make_check(kind, cid, False, (
            f"{where} says {said}: matches neither reading: {relative_text} and {points_text} both miss "
            f"{stated.text} ✗"), line)
    return make_check(kind, cid, ok, (
        f"{where} says {said}: relative change {formula} = {fmt(value, 4)}% (interval [{fmt(low, 4)}, "
        f"{fmt(high, 4)}]) {'meets' if ok else 'misses'} {stated.text} {_stands_for(stated)} {'✓' if ok else '✗'}"),
        line)


def _points(a: Printed, b: Printed, unit: str) -> tuple[float, float] | None:
    """The interval of |B − A| in percentage points, when A and B are percentages, fractions or
    scores in [0, 1] (×100); None otherwise."""
    if unit == "%":
        scale = 1.0
    elif unit == "fraction" or (not unit and SCORE_SCALE.match(a.text) and SCORE_SCALE.match(b.text)):
        scale = 100.0
    else:
        return None
    box = _interval(lambda x, y: scale * abs(y - x), a, b)
    return None if box is None else (box[1], box[2])


# ---------------------------------------------------------------- prose-times

MULTIPLIER = re.compile(
    rf"(?P<approx>\b{APPROX}\s+)?(?P<m>\btwice\b|\bthrice\b|\bhalf\b|\b(?:{'|'.join(WORD_NUMBERS)})\s+times\b|"
    rf"(?<![\w.,])(?P<n>{NUMBER})\s*(?:×|x\b|times\b|-?fold\b))"
    r"(?=\s+(?:as\s+[a-z]+|the\s+[a-z]+|faster|slower|higher|lower|larger|smaller|more|less|fewer|better|worse|"
    r"quicker|cheaper|bigger|longer|shorter|speed-?up|reduction|increase)\b)", re.I)
VALUE_WITH_UNIT = re.compile(
    rf"(?<![\w.,/@$+\-−])(?P<v>{NUMBER})\s*(?P<u>%|ms|s|sec|secs|seconds?|minutes?|mins?|hours?|h|days?|[KMGT]i?B|kB|"
    r"qps|tokens/s|docs/s|queries/s|it/s)?(?![\w.]*\d)(?![A-Za-z]|-[A-Za-z])", re.I)
"""A number with its unit; not part of a compound ("a 2-layer model": a setting's name)."""
OPERAND_IS_A_CHANGE = re.compile(r"\s*(?:[a-z]+\s+)?(?:more|less|fewer|higher|lower|larger|smaller|faster|slower|better|"
                                 r"worse|increase|decrease|reduction|gain|drop|improvement|speed-?up)\b", re.I)
"""A number followed by a change word ("30% more FLOPS", "a 30% increase") is itself a change, not
one of the two values a ratio relates."""


MULTIPLIER_AFTER = re.compile(r"\s*(?:×|x\b|times\b|-?fold\b)", re.I)
MULTIPLIERS = re.compile(rf"\b(?:twice|thrice|half)\b|(?<![\w.,]){NUMBER}\s*(?:×|x\b|times\b|-?fold\b)", re.I)


COMPARED = re.compile(r"^[^.;:]{0,40}?\b(?:against|vs\.?|versus|compared\s+(?:to|with)|over)\b[^.;:]{0,40}$", re.I)
"""What sets two bare numbers against each other ("0.82 against 0.41"); numbers with one unit
("3.1 s and 6.0 s") need no such word."""


def _unit(unit: str) -> str:
    return "" if unit in ("", "%") else f" {unit}"


_SMALLER_FIRST = ("smaller", "less", "fewer", "lower", "shorter", "cheaper", "reduction", "half")
_LARGER_FIRST = ("larger", "bigger", "more", "higher", "longer", "increase", "many", "much", "large", "big", "high",
                 "long", "better")
_TIME_UNITS = ("ms", "s", "sec", "secs", "second", "seconds", "minute", "minutes", "min", "mins", "hour", "hours",
               "h", "day", "days")


def _first_smaller(m: re.Match, unit: str) -> bool | None:
    """Whether the first value written (the subject's, by the usual order "3.1 s against 6.0 s")
    must be the smaller one for the multiplier's word: "twice as fast" on times, "3x smaller",
    "half"; the larger for "twice as many", "3x more", a speed on a rate. None when the word says
    no direction (or a speed with no unit)."""
    follow = re.match(r"\s+(?:as\s+)?([a-z-]+)", m.string[m.end("m"):], re.I)
    word = (follow.group(1).lower() if follow else "")
    if m.group("m").lower() == "half":
        return True
    if word in ("faster", "fast", "quicker", "quick", "speed-up", "speedup"):
        return True if unit in _TIME_UNITS else (False if unit else None)
    if word in ("slower", "slow"):
        return False if unit in _TIME_UNITS else (True if unit else None)
    if word in _SMALLER_FIRST:
        return True
    if word in _LARGER_FIRST:
        return False
    return None


def _times(m: re.Match) -> tuple[Printed, bool]:
    """(the multiplier as it stands for an interval, whether it is a fraction below 1)."""
    word = m.group("m").lower()
    if m.group("n"):
        stated = Printed.of(m.group("n"))
        if "." not in m.group("n"):
            stated = Printed(stated.value, 0.5, False, m.group("n") + "×")
        return stated, stated.value < 1
    if word == "twice":
        return Printed(2.0, 0.5, False, "twice"), False
    if word == "thrice":
        return Printed(3.0, 0.5, False, "thrice"), False
    if word == "half":
        return Printed(2.0, 0.5, False, "half (a ratio of 2)"), False
    return Printed(float(WORD_NUMBERS[word.split()[0]]), 0.5, False, word), False


def _check_times(cid: str, where: str, line: int | None, sentence: str, m: re.Match) -> Check | None:
    kind = KINDS[2]
    operands = [v for v in VALUE_WITH_UNIT.finditer(sentence)
                if not (m.start("m") <= v.start() < m.end("m")) and not sentence[v.end():v.end() + 1] == "@"
                and not MULTIPLIER_AFTER.match(sentence, v.end()) and not OPERAND_IS_A_CHANGE.match(sentence, v.end())]
    if len(operands) < 2:
        return None
    said = f"“{m.group(0).strip()}”"
    if len(MULTIPLIERS.findall(sentence)) > 1:
        return make_check(kind, cid, None, f"{where}: {said} beside other multipliers; which two values each one "
                                           "relates cannot be told", line)
    if m.group("approx") and m.group("approx").strip().lower() not in ("about", "around", "roughly", "approximately",
                                                                       "~", "≈"):
        return make_check(kind, cid, None, f"{where}: {said} is a bound, not an equality", line)
    if len(operands) != 2:
        return make_check(kind, cid, None, f"{where}: {said} beside {len(operands)} numbers; which two it relates "
                                           "cannot be told", line)
    units = [(o.group("u") or "").lower() for o in operands]
    if not units[0] and not units[1] and not COMPARED.search(sentence[operands[0].end():operands[1].start()]):
        return None  # two bare numbers not set against each other: a year, a count, a setting
    if units[0] != units[1]:
        return make_check(kind, cid, None, f"{where}: {said}: the two values have different units", line)
    a, b = (Printed.of(o.group("v"), percent=u == "%") for o, u in zip(operands, units))
    small, large = sorted((a, b), key=lambda p: p.value)
    if small.low <= 0:
        return make_check(kind, cid, None, f"{where}: {said}: a value is not positive", line)
    stated, below_one = _times(m)
    first_smaller = _first_smaller(m, units[0])
    order_unknown = first_smaller is not None and (a.value < b.value) != first_smaller and a.value != b.value
    if below_one:
        box = _interval(lambda s, l: s / l, small, large)
        formula = f"{small.text}/{large.text}"
    else:
        box = _interval(lambda s, l: l / s, small, large)
        formula = f"{large.text}/{small.text}"
    assert box is not None
    value, low, high = box
    ok = _meets(low, high, stated)
    if order_unknown and ok:
        return make_check(kind, cid, None, (
            f"{where}: {said} of {a.text}{_unit(units[0])} and {b.text}{_unit(units[1])}: read in the order written "
            "(the subject's value first), the ratio runs the other way; which value is whose cannot be told"), line)
    if order_unknown:   # either order gives the same size of ratio, and it misses: wrong whichever value is whose
        return make_check(kind, cid, False, (
            f"{where} says {said} of {a.text}{_unit(units[0])} and {b.text}{_unit(units[1])}: {formula} = "
            f"{fmt(value, 4)} (interval [{fmt(low, 4)}, {fmt(high, 4)}]) misses {stated.text} {_stands_for(stated)} ✗ "
            "(whichever value is whose: the order written runs the other way, the size misses either way)"), line)
    return make_check(kind, cid, ok, (
        f"{where} says {said} of {a.text}{_unit(units[0])} and {b.text}{_unit(units[1])}: {formula} = {fmt(value, 4)} (interval "
        f"[{fmt(low, 4)}, {fmt(high, 4)}]) {'meets' if ok else 'misses'} {stated.text} {_stands_for(stated)} "
        f"{'✓' if ok else '✗'} (the size of the ratio; which value is whose is not checked)"), line)


# ---------------------------------------------------------------- prose-shares

SHARES = re.compile(
    rf"\b(?:(?P<the>the)\s+|(?P<split>split|divided|broken\s+down|breaks\s+down|splits)\s+(?:in|into)\s+)"
    rf"(?P<n>{COUNT})\s+(?P<noun>shares|parts|portions|groups|categories|classes|buckets|segments|slices|splits|"
    r"components|pieces)\b", re.I)
PERCENT = re.compile(rf"(?<![\w.,+\-−])(?P<approx>{APPROX}\s*)?(?P<p>{NUMBER})\s*%")
_SHARE_NOT_A_PART = re.compile(r"^\s*(?:[a-z-]+\s+)?(?:more|less|fewer|higher|lower|better|worse|faster|slower|"
                               r"gain|increase|decrease|drop|improvement|reduction|over|above|below|of\s+(?:the\s+)?"
                               r"(?:baseline|previous|original))\b", re.I)


_SHARES_LEAD = re.compile(r"^\s*(?:of\s+(?:the\s+|our\s+|its\s+|their\s+)?[a-z][\w-]*(?:\s+[a-z][\w-]*)?\s+)?"
                          r"(?:\(|,)?\s*(?:are|were|is|was|of|at|:|—|–)\s*(?::\s*)?(?:[A-Z][\w.-]*\s+)?$")
_SHARES_BETWEEN = re.compile(r"^\s*(?:(?:for|to|in|on|of)\s+[^,;\d]{1,30}?)?\s*(?:,\s*and|,|;|and)\s*"
                             r"(?:[A-Za-z][\w.-]*\s+){0,3}$")


def _check_shares(cid: str, where: str, line: int | None, sentence: str, m: re.Match) -> Check | None:
    kind = KINDS[3]
    n = _count(m.group("n"))
    parts = list(PERCENT.finditer(sentence, m.end()))
    if not parts:
        return None
    said = f"“{m.group(0)}”"
    if len(parts) != n:
        return make_check(kind, cid, None, f"{where}: {said} with {len(parts)} percentages after it; which are the "
                                           "parts cannot be told", line)
    if any(p.group("approx") for p in parts):
        return make_check(kind, cid, None, f"{where}: {said}: a part is a bound or an approximation", line)
    if any(_SHARE_NOT_A_PART.match(sentence[p.end():]) for p in parts):
        return make_check(kind, cid, None, f"{where}: {said}: a percentage is a change or a share of a baseline, "
                                           "not a part", line)
    gaps = [sentence[m.end():parts[0].start()]] + [sentence[a.end():b.start()] for a, b in zip(parts, parts[1:])]
    if not _SHARES_LEAD.match(gaps[0]) or not all(_SHARES_BETWEEN.match(g) for g in gaps[1:]):
        return None  # "the two parts improve by 10% and 20%": not a list of the parts
    printed = [Printed.of(p.group("p"), percent=True) for p in parts]
    total = sum(p.value for p in printed)
    tolerance = sum(p.half for p in printed)
    ok = abs(total - 100) <= tolerance + EPS
    return make_check(kind, cid, ok, (
        f"{where} says {said}: {' + '.join(p.text for p in printed)} = {fmt(total, 4)}% (|Δ| from 100% "
        f"{fmt(abs(total - 100), 4)} {'≤' if ok else '>'} {fmt(tolerance, 4)}) {'✓' if ok else '✗'}"), line)


# ---------------------------------------------------------------- prose-rank

RANK = re.compile(
    rf"\b(?:ranks?|ranked|ranking|places?|placed|comes?|came|finish(?:es|ed)?)\s+(?:in\s+)?(?:the\s+)?"
    rf"(?P<r>{'|'.join(ORDINALS)}|\d{{1,3}}(?:st|nd|rd|th))(?:\s+place)?"
    rf"(?:\s+(?:of|out\s+of|among)\s+(?:the\s+|all\s+)?(?P<m>{COUNT}))?\b", re.I)
TRAILS = re.compile(rf"(?<![\w.,+\-−])(?P<x>{NUMBER})(?P<xp>%)?\s+(?P<rel>behind|trailing|ahead\s+of|above|below)\s+"
                    rf"(?:(?:the\s+)?[A-Za-z][\w.-]*(?:'s)?\s+)?(?:\(\s*)?(?P<y>{NUMBER})(?P<yp>%)?", re.I)
LOWER_IS_BETTER = re.compile(r"\b(?:latency|latencies|error|errors|loss|losses|perplexity|time|times|runtime|duration|"
                             r"cost|costs|wer|cer|rmse|mae|mse|fpr|distance)\b|"
                             r"\d\s*(?:ms|s|sec|secs|seconds|minutes|mins?|h|hours|\$)(?![\w])|\$\s*\d", re.I)


def _check_rank(cid: str, where: str, line: int | None, sentence: str, m: re.Match) -> list[Check]:
    kind = KINDS[4]
    said = f"“{m.group(0)}”"
    word = m.group("r").lower()
    field = _count(m.group("m")) if m.group("m") else None
    rank = ORDINALS.get(word) if word in ORDINALS else int(re.match(r"\d+", word).group(0))
    if rank == -1:
        rank = field
    checks = []
    trails = [t for t in TRAILS.finditer(sentence, m.end())]
    if field is not None and rank is not None and m.group("r").lower() != "last":
        ok = 1 <= rank <= field
        checks.append(make_check(kind, cid + ":field", ok, (
            f"{where} says {said}: place {rank} of {field} {'lies within' if ok else 'lies outside'} the field "
            f"{'✓' if ok else '✗'}"), line))
    if not trails:
        if field is None and not checks:
            return []
        return checks
    if len(trails) > 1:
        checks.append(make_check(kind, cid, None, f"{where}: {said} with {len(trails)} comparisons; which score "
                                                  "belongs to which place cannot be told", line))
        return checks
    t = trails[0]
    if LOWER_IS_BETTER.search(sentence):
        checks.append(make_check(kind, cid, None, f"{where}: {said}: a lower-is-better measure; which way "
                                                  "“behind” points cannot be told", line))
        return checks
    if bool(t.group("xp")) != bool(t.group("yp")):
        checks.append(make_check(kind, cid, None, f"{where}: {said}: a percentage beside a plain number", line))
        return checks
    x, y = Printed.of(t.group("x")), Printed.of(t.group("y"))
    behind = t.group("rel").lower() in ("behind", "trailing", "below")
    relation = f"{t.group(0)}"
    if rank is not None and (behind and rank == 1 or not behind and field is not None and rank == field):
        checks.append(make_check(kind, cid, False, (
            f"{where} says {said} and “{relation}”: {'a first place is behind no one' if behind else 'a last place is ahead of no one'} "
            f"✗"), line))
        return checks
    lower, upper = (x, y) if behind else (y, x)   # behind: x below y; ahead: y below x
    if lower.high < upper.low - EPS:
        checks.append(make_check(kind, cid, True, (
            f"{where} says {said} and “{relation}”: {lower.text} < {upper.text} ✓"), line))
    elif lower.low > upper.high + EPS:
        checks.append(make_check(kind, cid, False, (
            f"{where} says {said} and “{relation}”: {lower.text} is not below {upper.text} ✗ (the score "
            f"{'behind' if behind else 'ahead'} is the {'higher' if behind else 'lower'} one)"), line))
    else:
        checks.append(make_check(kind, cid, None, f"{where}: {said} and “{relation}”: the two scores are equal "
                                                  "at their printed precision", line))
    return checks


# ---------------------------------------------------------------- all

# ---------------------------------------------------------------- prose-sum

_TERM = r"(?<![\w.,/@^])(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?%?"
WRITTEN_SUM = re.compile(rf"(?P<terms>{_TERM}(?:\s*[+\-]\s*{_TERM})+)\s*=\s*(?P<result>{_TERM})(?![\w.]*\d)(?![/^])")
_TERM_WITH_SIGN = re.compile(rf"(?P<sign>[+\-]?)\s*(?P<t>{_TERM})")

SUM_TOLERANCE = "half a unit in the last printed place of each term and of the result, summed; 0 for whole numbers"
"""The tolerance of ``prose-sum``, as recorded in each check's text."""


def _check_sum(cid: str, where: str, line: int | None, sentence: str, m: re.Match) -> Check | None:
    """One written sum "a + b − c = r". None when it is no arithmetic of values (a date 2024-12-02
    is not a difference: a term of four digits next to a '-' and no spaces)."""
    terms_text = m.group("terms")
    if re.search(r"\d-\d", terms_text) and not re.search(r"\s[+\-]\s", terms_text):
        return None   # 2024-12-02, 10-15: a date or a range, not a difference
    terms = [(t.group("sign") or "+", t.group("t")) for t in _TERM_WITH_SIGN.finditer(terms_text)]
    texts = [t for _, t in terms] + [m.group("result")]
    if len({t.endswith("%") for t in texts}) > 1:
        return make_check(KINDS[5], cid, None, f"{where}: “{m.group(0)}”: mixes % and plain numbers", line)
    printed = [Printed.of(t.rstrip("%"), percent=t.endswith("%")) for t in texts]
    whole = all("." not in t for t in texts)
    total = sum(p.value if sign == "+" else -p.value for (sign, _), p in zip(terms, printed))
    result = printed[-1]
    tolerance = 0.0 if whole and not result.percent else sum(p.half for p in printed)
    gap = abs(result.value - total)
    ok = gap <= tolerance + EPS
    rule = "whole counts add exactly" if tolerance == 0.0 else "printed precision: Σ half-units"
    return make_check(KINDS[5], cid, ok, (
        f"{where} says “{m.group(0)}”: the terms give {fmt(total, 4)}{'%' if result.percent else ''} "
        f"(|Δ| {fmt(gap, 4)} {'≤' if ok else '>'} {fmt(tolerance, 4)}; {rule}) {'✓' if ok else '✗'}"), line)


GATE = re.compile(rf"\d|\b(?:twice|half|thrice|{'|'.join(ORDINALS)})\b", re.I)


def check_prose_arithmetic(claims: Sequence[Any]) -> list[Check]:
    """Every check of the module docstring over the prose claim rows (one sentence each)."""
    checks: list[Check] = []
    for claim in claims:
        sentence = " ".join(str(getattr(claim, "text", "")).replace("\u2212", "-").split())
        if "|" in sentence or not GATE.search(sentence):
            continue
        claim_id = getattr(claim, "claim_id", "?")
        line = getattr(claim, "line", None) or None
        location = getattr(claim, "location", "")
        where = f"[{claim_id}] {location}" + (f" (line {line})" if line else "")
        taken: list[tuple[int, int]] = []
        from_to = list(FROM_TO.finditer(sentence))
        changes = _changes(sentence)
        if len(from_to) > MAX_SHAPES or len(changes) > MAX_SHAPES:
            checks.append(_too_many(KINDS[1], claim_id, where, line))
            from_to = changes = []
        pairs = [(f, c) for f in from_to for c in changes if _adjacent(sentence, f, c) and not _years(f)]
        if pairs:
            cid = f"{claim_id}:change"
            if len(pairs) > 1:
                checks.append(make_check(KINDS[1], cid, None, (
                    f"{where}: {len(pairs)} stated changes beside “from … to …”; which change is of which values "
                    "cannot be told"), line))
            else:
                checks.append(_check_change(cid, where, line, *pairs[0]))
            taken += [f.span() for f, _ in pairs] + [(c[0], c[1]) for _, c in pairs]
        fractions = _fractions(sentence)
        if len(fractions) > MAX_SHAPES:
            checks.append(_too_many(KINDS[0], claim_id, where, line))
            fractions = []
        for start, end, item in fractions:
            if any(s <= start < e or start <= s < end for s, e in taken):
                continue
            checks.append(_check_fraction(f"{claim_id}:fraction:{start}", where, line, item))
            taken.append((start, end))
        for kind, pattern, check_one in ((KINDS[2], MULTIPLIER, _check_times), (KINDS[3], SHARES, _check_shares),
                                         (KINDS[4], RANK, _check_rank), (KINDS[5], WRITTEN_SUM, _check_sum)):
            found = list(itertools.islice(pattern.finditer(sentence), MAX_SHAPES + 1))
            if len(found) > MAX_SHAPES:
                checks.append(_too_many(kind, claim_id, where, line))
                continue
            for m in found:
                if kind == KINDS[2] and any(s <= m.start("m") < e for s, e in taken):
                    continue
                result = check_one(f"{claim_id}:{kind.split('-')[1]}:{m.start()}", where, line, sentence, m)
                if isinstance(result, list):
                    checks += result
                elif result is not None:
                    checks.append(result)
                    if kind == KINDS[2]:
                        taken.append(m.span())
    return checks


MAX_SHAPES = 8
"""More statements of one shape in one sentence than this are not paired (one SKIP): a list of
many ratios or changes is ambiguous, and pairing them would cost time quadratic in the sentence."""


def _too_many(kind: str, claim_id: str, where: str, line: int | None) -> Check:
    return make_check(kind, f"{claim_id}:{kind.split('-')[1]}:many", None, (
        f"{where}: more than {MAX_SHAPES} statements of this shape in one sentence; which numbers each one "
        "relates cannot be told"), line)
