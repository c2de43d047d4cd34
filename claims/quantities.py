"""Numbers in chapter sentences: a small deterministic grammar (docs/audit.md "Quantities").

A *quantity* is one of, tried in this order at each position (leftmost-longest, no overlaps):

* a **ratio** ``A/B`` of two unsigned integers with no spaces (``2/4``, ``147/192``): value
  ``A/B``, ``numerator``/``denominator`` set; a zero denominator is not a ratio;
* a **number**: optional sign (``-``, ``+`` or U+2212 ``−``, only directly before the digits
  and not after a letter or digit), then digits with optional thousands groups
  (``1,298``, ``10,000``: commas only in groups of exactly three), an optional decimal part
  (``0.888889``), or a bare decimal part (``.7``); optionally followed by ``%`` or the word
  ``percent`` (``is_percent``; the value stays as printed: ``83.3%`` → 83.3).

A number glued to a letter (``R02``, ``final36``, ``L2``, ``BM25``) is an identifier, not a
quantity. ``decimals`` counts the printed digits after the decimal point (``.7`` → 1,
``0.888889`` → 6, ``1,298`` → 0) and is what rounding tolerances are derived from.

The **unit** is the word directly after the number, joined by one space or one hyphen
(``1,298 characters``, ``1,200-character``), when that word (lower-cased, with a plural
``s`` removed) is in :data:`UNIT_WORDS`; the unit word, as printed, is part of the quantity's
``text`` and ``span`` (``"1,298 characters"``, ``"1,200-character"``). ``%`` / ``percent``
give unit ``"%"``. Otherwise ``unit`` is None and ``text`` is the number alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

UNIT_WORDS = frozenset("""
character char codepoint token word wordpiece byte kb mb gb tb unit document doc passage chunk
block section window sentence paragraph page line row column cell task query question topic
requirement obligation judgment judgement label pair record result candidate item step slot
draw sample seed run trial epoch batch thread core dimension dim feature parameter vector
second sec ms millisecond minute min hour day week month year point pp percentage-point
time fold hit miss error user participant person annotator judge study paper source citation
reference chapter claim test file character-budget
""".split())

_SIGN = "+\\-\u2212"
QUANTITY = re.compile(
    r"(?<![\w.,/])"
    r"(?:(?P<num>\d+)/(?P<den>\d+)(?![\w/])"
    r"|(?P<sign>[" + _SIGN + r"])?(?P<number>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)"
    r"(?![\w])(?!,\d{3}(?!\d))(?!\.\d)"
    r"(?P<percent>\s?%|\s+percent\b)?)")
# a sign is accepted only at the start or after whitespace or an opening bracket
_SIGN_OK = re.compile(r"(?:^|[\s(\[{])$")
UNIT_AFTER = re.compile(r"(?P<sep>[ -])(?P<word>[A-Za-z][A-Za-z]*(?:-[a-z]+)?)")


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

    @property
    def is_ratio(self) -> bool:
        return self.denominator is not None

    def as_dict(self) -> dict:
        return {"text": self.text, "value": self.value, "unit": self.unit,
                "decimals": self.decimals, "is_percent": self.is_percent,
                "span": list(self.span), "numerator": self.numerator,
                "denominator": self.denominator}


def _unit(word: str) -> bool:
    w = word.lower()
    return w in UNIT_WORDS or (w.endswith("s") and w[:-1] in UNIT_WORDS) or (
        w.endswith("es") and w[:-2] in UNIT_WORDS)


def find_quantities(sentence: str) -> list[Quantity]:
    """Every quantity in ``sentence``, left to right (see module docstring for the grammar)."""
    found: list[Quantity] = []
    for match in QUANTITY.finditer(sentence):
        start, end = match.span()
        if match.group("den") is not None:
            num, den = int(match.group("num")), int(match.group("den"))
            if den == 0:
                continue
            unit, end = _trailing_unit(sentence, end)
            found.append(Quantity(sentence[start:end], num / den, unit, 0, False, (start, end),
                                  numerator=num, denominator=den))
            continue
        sign = match.group("sign")
        if sign and not _SIGN_OK.search(sentence[:start]):
            start += 1  # a hyphen between words ("depth-10") is not a minus sign
            sign = None
        digits = match.group("number")
        decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
        value = float(digits.replace(",", ""))
        if sign in ("-", "\u2212"):
            value = -value
        percent = match.group("percent") is not None
        unit = "%" if percent else None
        if not percent:
            unit, end = _trailing_unit(sentence, end)
        found.append(Quantity(sentence[start:end], value, unit, decimals, percent, (start, end)))
    return found


def _trailing_unit(sentence: str, end: int) -> tuple[str | None, int]:
    match = UNIT_AFTER.match(sentence, end)
    if not match:
        return None, end
    head = match.group("word").split("-", 1)[0]
    if not _unit(head):
        return None, end
    return head, end + 1 + len(head)  # the unit word is part of the quantity's text
