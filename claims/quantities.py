"""Numbers in chapter sentences: a small deterministic grammar (docs/audit.md "Quantities").

A *quantity* is one of, tried in this order at each position (leftmost-longest, no overlaps):

* a **p-value** ``p = 0.022``, ``p < .05``, ``p ≤ 0.001`` (``p`` or ``P``, a comparator among
  ``= < > ≤ ≥ <= >=``, a number): ``is_p_value``, ``comparator`` set, role ``p-value``;
* a number in **scientific notation**: a mantissa then ``e``/``E`` and a signed exponent with
  no space (``2.5e-3``, ``1.2E+06``), or ``×``/``x``/``*``/``·`` then ``10^`` and the exponent
  (``3×10^-4``, ``3 x 10^-4``, superscript ``3 × 10⁴``, ``3 × 10⁻⁴``), also before a full stop
  (``2e-5.`` is one number), with an optional sign (``-3e-2``), and a bare power of ten
  (``10⁴``, ``10^-3``: mantissa 1): ``value`` = mantissa × 10^exponent, ``exponent`` set,
  ``decimals`` = the mantissa's printed decimals (so ``2.5e-3`` is precise to half of 0.1e-3);
* a **ratio** ``A/B`` of two unsigned integers (``2/4``, ``147/192``, or with spaces around the
  slash, ``32 / 2007``): value ``A/B``, ``numerator``/``denominator`` set; a zero denominator
  is not a ratio;
* a **range** ``A–B`` (en dash, em dash or a hyphen with no spaces: ``2–4``, ``2-4``,
  ``0.5–0.7``), optionally followed by ``%``, a multiplier ``x``/``X``/``×`` or a glued unit
  (``20-30%``, ``2-3X``), or written ``between A and B`` (``between 10 and 20 runs``):
  ``value`` = A, ``upper`` = B;
* a **number**: optional sign (``-``, ``+``, U+2212 ``−`` or ``±``, only directly before the
  digits and not after a letter or digit; ``±`` sets ``plus_minus``), an optional currency
  symbol (``$ € £ ¥``: ``currency``; not in ``$12$``, a number set as inline math), digits with optional thousands groups (``1,298``,
  ``10,000``: commas only in groups of exactly three), an optional decimal part
  (``0.888889``), or a bare decimal part (``.7``); optionally followed by ``%`` or the word
  ``percent`` (``is_percent``; the value stays as printed: ``83.3%`` → 83.3) or by ``×``/``x``
  (a multiplier, ``2.4×``, ``3x``, ``2X``: ``is_multiplier``, unit ``×``), or by a glued unit
  or magnitude suffix from :data:`GLUED_UNITS` (``5.2GB``, ``41M``, ``10k``, ``250ms``: unit
  the suffix, value as printed), or by a per-period ``/ mo`` (``$543 / mo``: unit ``/ mo``);
* an **ordinal** ``1st``, ``2nd``, ``23rd`` (unit ``ordinal``).

Nothing inside a role or a pandoc citation is a quantity (``{numref}`fig-1```, ``{eq}`2```,
``:ref:`Figure 2 <fig-2>```, ``[@doe2019, p. 12]``: :func:`claims.roles.masked`).

Dates and clock times (``2020-09-14``, ``08/02/2023``, ``22:40:00,334``) are not quantities
(``3:50 hours`` is a duration: its numbers stay).

Spelled-out numbers are quantities only in four result shapes: a multiplier before a comparison
(``twice as much``, ``half as long``, ``three times faster``: ``is_multiplier``), a point
difference after by/than/to/of/about/nearly/almost/only (``less than one point``: unit
``point``), a doubling, tripling or halving (``doubled``, ``double the``, ``in half``:
``is_multiplier``, 2 / 3 / 0.5) and a duration after an approximator (``around twenty minutes``, ``about half an
hour``, ``around an hour``: unit ``minute``/``hour``, value 20 / 0.5 / 1). Other number words (``three units``) are not quantities.

A number glued to a letter before it (``R02``, ``final36``, ``L2``, ``BM25``, ``e5``, ``v2``),
after ``@`` (``nDCG@10``) or after a word of two or more letters and a hyphen (``GPT-4``,
``text-embedding-3-small``, ``LLaMA-7B``) is part of a name, not a quantity (``D-010`` after a
single letter stays a quantity: identifiers of that shape are bound by ``bind``); a version
``2.3.1`` is not a quantity either. ``decimals`` counts the printed digits
after the decimal point (``.7`` → 1, ``0.888889`` → 6, ``1,298`` → 0) and is what rounding
tolerances are derived from (:attr:`Quantity.half_unit`).

The **unit** is the word directly after the number, joined by one space or one hyphen
(``1,298 characters``, ``1,200-character``), when that word (lower-cased, with a plural
``s`` removed) is in :data:`UNIT_WORDS`; the unit word, as printed, is part of the quantity's
``text`` and ``span`` (``"1,298 characters"``, ``"1,200-character"``). ``%`` / ``percent``
give unit ``"%"``. Otherwise ``unit`` is None and ``text`` is the number alone.

``role`` says what the number is in its sentence; the grammar sets ``value`` or ``p-value``, and
:func:`claims.extract.quantity_roles` refines it (``year``, ``identifier``, ``parameter``,
``math``) from the words around it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from claims.roles import masked as mask_roles

UNIT_WORDS = frozenset("""
character char codepoint token word wordpiece byte kb mb gb tb unit document doc passage chunk
block section window sentence paragraph page line row column cell task query question topic
requirement obligation judgment judgement label pair record result candidate item step slot
draw sample seed run trial epoch batch thread core dimension dim feature parameter vector
second sec ms millisecond minute min hour day week month year point pp percentage-point
time fold hit miss error user participant person annotator judge study paper source citation
reference chapter claim test file character-budget
""".split())

_SIGN = "+\\-\u2212\u00b1"
_DIGITS = r"(?:\d{1,3}(?:,\d{3})+|\d+)"
GLUED_UNITS = ("KiB", "MiB", "GiB", "TiB", "kB", "KB", "MB", "GB", "TB", "PB", "Gb", "Mb", "GHz", "MHz",
               "ms", "µs", "us", "ns", "px", "M", "K", "k", "B", "G",
               "KBs", "MBs", "GBs", "TBs", "mins", "min", "secs", "sec", "hrs", "hr", "s", "h",
               "RPS", "QPS", "rps", "qps", "fps", "FPS")
"""Unit symbols and magnitude suffixes glued to a number (``5.2GB``, ``41M``, ``10k``, ``250ms``),
plural memory symbols (``78MBs``), glued rates (``10RPS``, ``60fps``) and glued durations (``27.5s``, ``3h``, ``5min``, ``2hrs``): the
unit is the suffix as printed and the value stays as printed (``41M`` → 41, unit ``M``). A decade
(``1990s``, ``'80s``) is no duration and no quantity (:data:`_NOT_A_QUANTITY`)."""
_GLUED = "|".join(sorted(GLUED_UNITS, key=len, reverse=True))
ORDINAL = re.compile(r"(?<![\w.,/@])(?<![A-Za-z0-9]{2}-)(?P<n>\d+)(?P<suffix>st|nd|rd|th)(?!\w)")
_SUPERSCRIPTS = "\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
"""Superscript digits 0-9 (``10⁴``, ``10⁻⁴``: ⁺ U+207A, ⁻ U+207B)."""
_NOT_A_QUANTITY = re.compile(
    r"(?<!\d)(?:\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{4}|(?<![\d/])(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01])/\d{2}(?![\d/])"
    r"|\d{1,2}:\d{2}(?::\d{2})?(?:[.,]\d+)?(?!\s*(?:hours?|h)\b)"
    r"|(?<![\w.,])\d{4}s(?!\w)|(?<=['’])\d0s(?!\w)|(?<=\bthe\s)[2-9]0s(?!\w)|(?<![\w.,])\d0s(?=\s+of\b))(?!\d)")
"""Dates, clock times and decades (``2020-09-14``, ``08/02/2023``, ``10/18/24``, ``22:40:00,334``,
``the 1990s``, ``the '80s``, ``in the 60s``) are not quantities, nor is a plural of four digits
(``4090s``, a GPU model) or ``10s of`` ("tens of"): a glued ``s`` is a duration otherwise
(``27.5s``); ``3:50 hours`` is a duration: its numbers stay."""
_PAPER_ID = re.compile(r"(?i:\barxiv)(?::\s*|\s+|\.org/(?:abs|pdf)/)\d{4}\.\d{4,5}(?:v\d+)?|\b10\.\d{4,9}/[^\s,;]+")
"""An arXiv identifier (``arXiv:1508.07909``, ``arXiv 2104.08663v2``, ``arxiv.org/abs/…``) and a DOI
(``10.1145/290941.291025``) are names of papers, not quantities."""
QUANTITY = re.compile(
    r"(?<![\w.,/@])(?<![A-Za-z0-9]{2}-)"
    r"(?:(?P<pname>[pP])\s*(?P<cmp><=|>=|[=<>≤≥])\s*(?P<pval>\d*\.\d+|\d+)(?![\w.])"
    r"|(?P<msign>[-+\u2212])?(?P<mant>\d+(?:\.\d+)?)(?:(?P<e>[eE])(?P<eexp>[-+\u2212]?\d+)"
    r"|\s?[×x*·]\s?10(?:(?:\^|\*\*)(?P<texp>[-+\u2212]?\d+)|(?P<sexp>[\u207a\u207b]?[" + _SUPERSCRIPTS + r"]+)))"
    r"(?!\w|\.\d)"
    r"|(?P<pow>10)(?:\^(?P<pexp>[-+\u2212]?\d+)|(?P<psexp>[\u207a\u207b]?[" + _SUPERSCRIPTS + r"]+))(?!\w|\.\d)"
    r"|(?P<num>\d+)(?P<slash>/|\s/\s)(?P<den>\d+)(?![\w/]|\.\d)"
    r"|(?P<low>\d+(?:\.\d+)?)(?:[\u2013\u2014]|-(?=\d))(?P<high>\d+(?:\.\d+)?)"
    r"(?:(?P<rpercent>\s?%)|(?P<rtimes>[×xX])(?!\w)|(?P<rglued>" + _GLUED + r")(?!\w))?(?![\w.\u2013-])"
    r"|(?P<between>between\s+)(?P<blow>\d+(?:\.\d+)?)(?P<bpercent>\s?%)?\s+and\s+(?P<bhigh>\d+(?:\.\d+)?)"
    r"(?P<bpercent2>\s?%)?(?![\w.])"
    r"|(?P<sign>[" + _SIGN + r"])?(?P<cur>[$€£¥])?(?P<number>" + _DIGITS + r"(?:\.\d+)?|\.\d+)"
    r"(?:(?P<times>[×xX])(?!\w)|(?P<glued>" + _GLUED + r")(?!\w)|(?![\w])(?!,\d{3}(?!\d))(?!\.\d)"
    r"(?P<percent>\s?%|\s+percent\b)?(?P<per>\s?/\s?(?:mo|month|yr|year|day|hour|hr|h|iter|s|sec|query))?(?!\w)))")
# a sign is accepted only at the start or after whitespace or an opening bracket
_SIGN_OK = re.compile(r"(?:^|[\s(\[{])$")
UNIT_AFTER = re.compile(r"(?P<sep>[ -])(?P<word>[A-Za-z][A-Za-z]*(?:-[a-z]+)?)")
CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP", "¥": "JPY"}


@dataclass(frozen=True)
class Quantity:
    """One number as printed in a sentence; ``span`` = (start, end) offsets in the sentence."""

    text: str
    value: float
    unit: str | None
    decimals: int
    is_percent: bool
    span: tuple[int, int]
    numerator: int | None = None
    denominator: int | None = None
    exponent: int | None = None      # scientific notation: value = mantissa × 10^exponent
    upper: float | None = None       # a range A–B: value = A, upper = B
    is_p_value: bool = False
    comparator: str | None = None    # p-values: "=", "<", ">", "≤", "≥"
    is_multiplier: bool = False      # "2.4×"
    plus_minus: bool = False         # "±0.4"
    currency: str | None = None      # "$12" → "USD"
    role: str = "value"              # value | p-value | year | identifier | parameter | math

    @property
    def is_ratio(self) -> bool:
        return self.denominator is not None

    @property
    def half_unit(self) -> float:
        """Half a unit in the last printed digit (of the mantissa, in scientific notation)."""
        return 0.5 * 10.0 ** (-self.decimals) * 10.0 ** (self.exponent or 0)

    def as_dict(self) -> dict:
        return {"text": self.text, "value": self.value, "unit": self.unit,
                "decimals": self.decimals, "is_percent": self.is_percent,
                "span": list(self.span), "numerator": self.numerator,
                "denominator": self.denominator, "exponent": self.exponent, "upper": self.upper,
                "is_p_value": self.is_p_value, "comparator": self.comparator,
                "is_multiplier": self.is_multiplier, "plus_minus": self.plus_minus,
                "currency": self.currency, "role": self.role}


def _unit(word: str) -> bool:
    w = word.lower()
    return w in UNIT_WORDS or (w.endswith("s") and w[:-1] in UNIT_WORDS) or (
        w.endswith("es") and w[:-2] in UNIT_WORDS)


def _exponent(printed: str) -> int:
    """An exponent as printed: ``-5``, ``+4``, ``−2`` (U+2212) or superscript ``⁻⁴``."""
    table = {ord(c): str(i) for i, c in enumerate(_SUPERSCRIPTS)}
    table.update({0x207A: "+", 0x207B: "-", 0x2212: "-"})
    return int(printed.translate(table))


def _decimals(digits: str) -> int:
    return len(digits.split(".", 1)[1]) if "." in digits else 0


def find_quantities(sentence: str) -> list[Quantity]:
    """Every quantity in ``sentence``, left to right (see module docstring for the grammar)."""
    found: list[Quantity] = []
    masked = _NOT_A_QUANTITY.sub(lambda m: "_" * len(m.group(0)), mask_roles(sentence))
    masked = _PAPER_ID.sub(lambda m: "_" * len(m.group(0)), masked)
    for match in QUANTITY.finditer(masked):
        start, end = match.span()
        group = match.group
        if group("pval") is not None:
            digits = group("pval")
            found.append(Quantity(sentence[start:end], float(digits), None, _decimals(digits), False,
                                  (start, end), is_p_value=True, comparator=group("cmp"), role="p-value"))
            continue
        if group("mant") is not None or group("pow") is not None:
            exponent = _exponent(group("eexp") or group("texp") or group("sexp") or group("pexp")
                                 or group("psexp"))
            mantissa = group("mant") or "1"
            value = float(f"{mantissa}e{exponent}")
            if group("msign"):
                if not _SIGN_OK.search(sentence[:start]):
                    start += 1  # a hyphen between words ("depth-2e-5") is not a minus sign
                elif group("msign") != "+":
                    value = -value
            unit, end = _trailing_unit(sentence, end)
            found.append(Quantity(sentence[start:end], value, unit, _decimals(mantissa), False,
                                  (start, end), exponent=exponent))
            continue
        if group("den") is not None:
            num, den = int(group("num")), int(group("den"))
            if den == 0:
                continue
            unit, end = _trailing_unit(sentence, end)
            found.append(Quantity(sentence[start:end], num / den, unit, 0, False, (start, end),
                                  numerator=num, denominator=den))
            continue
        if group("low") is not None or group("blow") is not None:
            low = group("low") or group("blow")
            high = group("high") or group("bhigh")
            percent = bool(group("rpercent") or group("bpercent") or group("bpercent2"))
            times = group("rtimes") is not None
            unit = "%" if percent else ("×" if times else group("rglued"))
            if unit is None:
                unit, end = _trailing_unit(sentence, end)
            found.append(Quantity(sentence[start:end], float(low), unit,
                                  max(_decimals(low), _decimals(high)), percent, (start, end),
                                  upper=float(high), is_multiplier=times))
            continue
        sign = group("sign")
        if sign and not _SIGN_OK.search(sentence[:start]):
            start += 1  # a hyphen between words ("depth-10") is not a minus sign
            sign = None
        digits = group("number")
        value = float(digits.replace(",", ""))
        if sign in ("-", "\u2212"):
            value = -value
        percent = group("percent") is not None
        times = group("times") is not None
        unit = "%" if percent else ("×" if times else group("glued"))
        if group("per"):
            unit = f"{unit} / " if unit else "/ "
            unit += group("per").strip(" /")
        elif unit is None:
            unit, end = _trailing_unit(sentence, end)
        currency = CURRENCIES.get(group("cur") or "")
        if group("cur") == "$" and not sign and sentence[match.end("number"):match.end("number") + 1] == "$":
            start, currency = match.start("number"), None  # "$12$": a number set as inline math, not dollars
        found.append(Quantity(sentence[start:end], value, unit, _decimals(digits), percent, (start, end),
                              is_multiplier=times, plus_minus=sign == "\u00b1", currency=currency))
    found.extend(_ordinals(masked, found))
    found.extend(_spelled_out(sentence, found))
    found.sort(key=lambda q: q.span)
    return found


def _ordinals(sentence: str, found: list[Quantity]) -> list[Quantity]:
    """Ordinals (``1st``, ``2nd``, ``23rd``): value the number, unit ``ordinal`` (a rank such as
    "ranking 1st in MTEB" is a result; :mod:`claims.kinds` decides)."""
    taken = [q.span for q in found]
    out = []
    for match in ORDINAL.finditer(sentence):
        if any(s < match.end() and match.start() < e for s, e in taken):
            continue
        out.append(Quantity(match.group(0), float(match.group("n")), "ordinal", 0, False, match.span()))
    return out


NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                "nine": 9, "ten": 10, "a hundred": 100, "a thousand": 1000}
_WORDS = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_SPELLED_MULTIPLIER = re.compile(
    rf"\b(?:(?P<twice>twice|half)|(?P<n>{_WORDS})\s+times)(?=\s+(?:as\s+)?(?:much|many|long|large|fast|slow|"
    r"high|low|more|less|fewer|faster|slower|larger|smaller|higher|lower|longer|shorter)\b)", re.I)
_SPELLED_CHANGE = re.compile(r"\b(?P<q>doubled|doubling|tripled|halved|(?:to|can|could|will)\s+double|double\s+the|"
                             r"triple\s+the|halve\s+the|in\s+half)\b", re.I)
_SPELLED_POINTS = re.compile(
    rf"\b(?:by|than|to|of|about|nearly|almost|only)\s(?P<q>(?P<n>{_WORDS})\s+(?:percentage\s+)?points?)\b", re.I)


DURATION_WORDS = dict(NUMBER_WORDS, eleven=11, twelve=12, fifteen=15, twenty=20, thirty=30, forty=40,
                      fifty=50, sixty=60, ninety=90)
_DURATION_NUMBERS = "|".join(sorted((w for w in DURATION_WORDS if not w.startswith("a ")), key=len, reverse=True))
_SPELLED_DURATION = re.compile(
    rf"(?:\b(?:about|around|roughly|approximately|only|just|under|over|in|takes?|took|for|within|after)\s|\()"
    rf"(?P<q>(?P<n>{_DURATION_NUMBERS}|half\s+an?|an?)\s+(?P<unit>seconds?|minutes?|hours?|days?|weeks?))\b", re.I)


def _spelled_out(sentence: str, found: list[Quantity]) -> list[Quantity]:
    """Spelled-out result numbers: multipliers (``twice as much``, ``three times faster``) and
    point differences after by/than/to/of/about (``less than one point``). Other number words
    (``three units``) are not quantities: they are rarely measurements and often counts of the
    method."""
    taken = [q.span for q in found]
    out = []
    for match in _SPELLED_MULTIPLIER.finditer(sentence):
        word = (match.group("twice") or match.group("n")).lower()
        value = {"twice": 2.0, "half": 0.5}.get(word, float(NUMBER_WORDS.get(word, 0)))
        out.append(Quantity(match.group(0), value, "×", 0, False, match.span(), is_multiplier=True))
    for match in _SPELLED_CHANGE.finditer(sentence):
        word = match.group("q").lower()
        value = 0.5 if "hal" in word else 3.0 if "tripl" in word else 2.0
        out.append(Quantity(match.group("q"), value, "×", 0, False, match.span("q"), is_multiplier=True))
    for match in _SPELLED_DURATION.finditer(sentence):
        words = match.group("n").lower()
        value = 0.5 if words.startswith("half") else 1.0 if words in ("a", "an") else float(DURATION_WORDS[words])
        out.append(Quantity(match.group("q"), value, match.group("unit").lower().rstrip("s"), 0, False,
                            match.span("q")))
    for match in _SPELLED_POINTS.finditer(sentence):
        out.append(Quantity(match.group("q"), float(NUMBER_WORDS[match.group("n").lower()]), "point", 0,
                            False, match.span("q")))
    return [q for q in out if not any(s < q.span[1] and q.span[0] < e for s, e in taken)]


def _trailing_unit(sentence: str, end: int) -> tuple[str | None, int]:
    match = UNIT_AFTER.match(sentence, end)
    if not match:
        return None, end
    head = match.group("word").split("-", 1)[0]
    if not _unit(head):
        return None, end
    return head, end + 1 + len(head)  # the unit word is part of the quantity's text
