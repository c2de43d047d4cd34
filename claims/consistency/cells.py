"""Printed numbers in table cells, and the printed-precision interval each one stands for.

**Tolerance rule (shared by every check).** A value printed with d decimals stands for every
true value in [v − ½·10^−d, v + ½·10^−d] (its *half-unit* h = ½·10^−d); ``1,081`` has d = 0, so
h = 0.5. A percentage ``43.7%`` is read as printed (43.7, h = 0.05); where a check compares it with
a fraction both are put on one scale (value and h divided by 100). A combination f(x₁…xₙ) of
printed values is consistent with a printed result r when the interval f takes over the box
∏[xᵢ − hᵢ, xᵢ + hᵢ] meets [r − h_r, r + h_r]; for the monotone functions used here (sums, means,
differences, ratios of positive values) that interval is spanned by the box's corners, so for a
weighted sum Σ cᵢxᵢ the test is |r − Σ cᵢxᵢ| ≤ h_r + Σ |cᵢ|·hᵢ (+1e−9 for binary floating point).

**Cells.** Bold, emphasis and code marks are already stripped by the document model. A cell is
*missing* when empty or one of ``—``, ``–``, ``-``, ``n/a``, ``na``, ``N/A``, ``?``, ``…``; it is a
*number* when it is one signed number (thousands groups of three, ``−`` accepted as minus),
optionally followed by ``%``, footnote marks (``*``, ``†``, ``‡``, ``§``, ``^a``, a ``<sup>`` mark
written after a space in superscript characters, ``0.97 ⁸``: :mod:`audit.cellmarks`) and a bracketed
interval (``0.60 [0.55, 0.65]`` reads 0.60) or a spread (``0.50 ± 0.02``, ``0.50 +/- 0.02`` read 0.50,
at the mean's own printed precision: the spread is of the runs, not of the print; before, such a
cell was text, and a mean row over ``±`` cells was never checked); ``k/N`` written without spaces
is a *fraction*.
Anything else is text and takes part in no arithmetic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

EPS = 1e-9
MISSING = frozenset({"", "—", "–", "-", "n/a", "na", "?", "…", "...", "--"})
NUMBER_CELL = re.compile(
    r"^(?P<sign>[+\-\u2212])?(?P<digits>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)"
    r"\s*(?P<percent>%)?\s*(?:[*†‡§]+|\^?[a-z]\b|×)?\s*(?:[\[(][^\])]*[\])])?"
    r"\s*(?:(?:±|\+/-|\+-)\s*(?:\d+(?:\.\d+)?|\.\d+)\s*%?)?\s*(?:[*†‡§]+)?"
    r"(?:\s+[,*†‡§\u00b9\u00b2\u00b3\u2070-\u209f\u1d2c-\u1dbf\u2c7c\u2c7d]+)?$")  # a <sup> mark: audit.cellmarks
FRACTION_CELL = re.compile(r"^(?P<k>\d+)/(?P<n>\d+)$")


@dataclass(frozen=True)
class Printed:
    """A number as printed: value, decimals, percent sign, the printed text."""

    value: float
    decimals: int
    percent: bool
    text: str

    @property
    def half_unit(self) -> float:
        return 0.5 * 10.0 ** (-self.decimals)

    def scaled(self, factor: float) -> tuple[float, float]:
        """(value, half-unit) multiplied by ``factor`` (e.g. 1/100 for a percentage)."""
        return self.value * factor, self.half_unit * factor


@dataclass(frozen=True)
class Fraction:
    numerator: int
    denominator: int
    text: str


def is_missing(cell: str) -> bool:
    return cell.strip().lower() in MISSING


def parse_number(cell: str) -> Printed | None:
    """The number a cell prints, or None when it is not exactly one number (see module doc)."""
    text = cell.strip()
    match = NUMBER_CELL.match(text)
    if not match:
        return None
    digits = match.group("digits")
    decimals = len(digits.split(".", 1)[1]) if "." in digits else 0
    value = float(digits.replace(",", ""))
    if match.group("sign") in ("-", "\u2212"):
        value = -value
    shown = (match.group("sign") or "") + digits + ("%" if match.group("percent") else "")
    return Printed(value, decimals, bool(match.group("percent")), shown)


def parse_fraction(cell: str) -> Fraction | None:
    match = FRACTION_CELL.match(cell.strip())
    if not match or int(match.group("n")) == 0:
        return None
    return Fraction(int(match.group("k")), int(match.group("n")), match.group(0))


def normalise_label(label: str) -> str:
    """Lower-case, whitespace collapsed, trailing footnote marks and a final colon removed."""
    text = " ".join(label.replace("\u2212", "-").split()).lower()
    return re.sub(r"[\s*†‡§:]+$", "", text)


def fmt(value: float, digits: int = 6) -> str:
    """Fixed-point text without a negative zero."""
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def bound(gap: float, tolerance: float, ok: bool) -> str:
    """``|Δ| g ≤ t`` when the check passes and ``|Δ| g > t`` when it fails (the relation printed is true)."""
    return f"|Δ| {fmt(gap)} {'≤' if ok else '>'} {fmt(tolerance)}"


def within(gap: float, tolerance: float) -> bool:
    return gap <= tolerance + EPS
