"""Ranges: metrics in [0, 1] (or [0, 100] where printed ×100), percentages in [0, 100], counts
non-negative integers.

**Which cells.** A cell whose metric is known (see ``context``: nDCG, recall, precision, MRR,
MAP, success, hit, accuracy, F1, coverage, EM) must lie in [0, 1] on its table's scale for that
metric (so [0, 100] when the table prints it ×100); a cell printed with ``%`` in a column that
is not a difference, gain or change column, and is printed without a sign (``+0.1%``, ``-5.4%``
state changes), must lie in [0, 100]; a cell in a count column
(header starting ``#``, ``number of``, ``no. of``, ``num``, ending ``… count`` (a bare ``Count``
may name a method), or exactly
queries / documents / docs / passages / tasks / qrels / judgments, and not a mean, average, ratio,
rate or per-item figure, nor one counted in a unit: ``Number of Parameters (B)``, ``… in millions``)
must be a non-negative integer. Difference lines (Δ…) and signed columns (``ACC+``, ``F1 (±)``: a
change against a baseline row) are exempt.

**Tolerance.** A printed value v (half-unit h) is out of [lo, hi] only when v − h > hi or
v + h < lo (+1e−9): ``1.0000`` for nDCG is in range. A count is an integer when printed with no
decimals, or with decimals that are all zero.

Each violating cell is one failure naming the cell; the cells in range are one pass per column.
A column whose metric comes only from the table's group row, caption or section heading and of
which *no* cell fits it is one skip, not failures: the table-wide name does not describe that
column (an "Accuracy" heading over ``n-shot``, ``Iterations``, ``wikitext ppl`` or an ``MME``
score column).
"""

from __future__ import annotations

import re

from claims.consistency.cells import EPS
from claims.consistency.context import TableView
from claims.consistency.vocabulary import is_delta
from claims.consistency.model import Check, make_check

COUNT_HEADER = re.compile(r"^(?:#|number of\b|no\. of\b|num\b|num\.)|\w\s+count\b|^(?:test\s+)?(?:queries|documents|docs|"
                          r"passages|tasks|qrels|judgments|judgements)$", re.I)
NOT_COUNT = re.compile(r"\b(?:mean|avg|average|ratio|rate|per)\b|/|%|"
                       r"\((?:k|m|b|bn|t|thousands?|millions?|billions?)\)|\bin (?:thousands|millions|billions)\b", re.I)
SIGNED_HEADER = re.compile(r"\w\s*[+±]$|\(\s*[+±]\s*\)")   # "ACC+", "F1 (±)": a signed change column
KIND = "range"


TABLE_WIDE = ("group row", "caption", "section heading")


def _rule(view: TableView, r: int, c: int) -> tuple[str, float, float, bool, float] | None:
    """(what, low, high, integer, factor) for a cell, or None when no range applies."""
    header, label = view.header[c], view.row_label(r)
    if is_delta(header) or is_delta(label) or SIGNED_HEADER.search(header.strip()):
        return None
    number = view.numbers[r][c]
    metric, _ = view.metric_of(r, c)
    if metric:
        factor = view.factor(r, c, metric)
        return (f"{metric} in [0, {'100' if factor != 1 else '1'}]", 0.0, 1.0, False, factor)
    if number is not None and number.percent and number.text[:1] not in "+-":
        return ("percentage in [0, 100]", 0.0, 1.0, False, 0.01)
    if COUNT_HEADER.search(header.strip()) and not NOT_COUNT.search(header):
        return ("count: non-negative integer", 0.0, float("inf"), True, 1.0)
    return None


def check_ranges(view: TableView) -> list[Check]:
    checks: list[Check] = []
    from claims.consistency.percent_of import names_baseline

    for c in range(view.label_columns, len(view.header)):
        if names_baseline(view.header[c]):   # "% of float32" may exceed 100: percent_of checks it
            continue
        passed: dict[str, int] = {}
        failed: list[Check] = []
        for r in view.data_rows():
            number = view.numbers[r][c]
            rule = _rule(view, r, c) if number is not None else None
            if rule is None:
                continue
            what, low, high, integer, factor = rule
            value, half = number.scaled(factor)  # type: ignore[union-attr]
            ok = not (value - half > high + EPS or value + half < low - EPS)
            if integer and number.decimals and number.value != int(number.value):  # type: ignore[union-attr]
                ok = False
            if ok:
                passed[what] = passed.get(what, 0) + 1
                continue
            failed.append(make_check(KIND, f"{view.index}:{view.row_label(r)}:{view.header[c]}", False,
                                     f"{view.where(r, c)}: {number.text} is not a {what} ✗",  # type: ignore[union-attr]
                                     view.row_line(r)))
        sources = {view.metric_of(r, c)[1] for r in view.data_rows() if view.numbers[r][c] is not None}
        if failed and not passed and sources and sources <= set(TABLE_WIDE):
            # a metric named only for the whole table that no cell of this column fits does not
            # describe this column ("Accuracy" heading over "n-shot", "wikitext ppl", "MME")
            checks.append(make_check(KIND, f"{view.index}:{view.header[c]}:not-this-metric", None, (
                f"{view.name()} column {view.header[c]!r}: none of its {len(failed)} cell(s) fits the metric "
                f"the {'/'.join(sorted(sources))} names for the table; it measures something else"), view.table.line))
            failed = []
        checks.extend(failed)
        for what, count in passed.items():
            checks.append(make_check(KIND, f"{view.index}:{view.header[c]}:{what}", True,
                                     f"{view.name()} column {view.header[c]!r}: {count} cell(s), each a {what} ✓",
                                     view.table.line))
    return checks
