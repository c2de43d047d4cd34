"""Difference columns (and rows): a line labelled Δ/delta/diff/difference/gain/change/improvement/
increase/decrease/drop/reduction equals the difference of the two lines it relates, with the same sign.

**Which two lines.** Named in the label when it can be read: ``Δ (A − B)``, ``A minus B``,
``A vs. B`` give A − B; ``gain over B``, ``Δ vs B``, ``relative to B`` name only the baseline B,
and A is then the nearest numeric line before the Δ line other than B. Names are matched to the
other headers (rows for a Δ row) exactly, or else as the one label containing the name. When the
label names nothing, the two numeric lines just before the Δ line are related, in whichever order
(later − earlier or earlier − later) most cells agree with. Other Δ lines are never operands.

**Which difference.** Absolute A − B on the printed scale. When the Δ cells carry ``%`` and the
operands do not, the relative change 100·(A − B)/B and the point difference 100·(A − B) are
tried as well; the reading most cells agree with is used.

**Tolerance** (interval arithmetic): the difference of the operand intervals is
[A − B − (h_A + h_B), A − B + (h_A + h_B)] (×100 for points); for the relative change the
interval is spanned by the four corners (A ± h_A, B ± h_B), B − h_B > 0 required. A printed Δ
(half-unit h_Δ) passes when [Δ − h_Δ, Δ + h_Δ] meets that interval. The sign is reported too: a
Δ whose interval excludes 0 with the opposite sign of a difference that excludes 0 fails.
As for aggregates, when most cells disagree the line is skipped as "not a difference of …".

**Against a baseline row** (:func:`_against_baseline_row`): a Δ column that names nothing and
follows one numeric column, with ``—`` in exactly one row, is each row's difference from that row.
"""

from __future__ import annotations

import re

from claims.consistency.cells import EPS, Printed, fmt
from claims.consistency.context import Matrix, TableView
from claims.consistency.vocabulary import DELTA_LABEL, is_delta
from claims.consistency.model import Check, make_check

PAIR = re.compile(r"(?P<a>[^()\[\]]+?)\s*(?:\s[-–]\s|[−–]|\sminus\s|\svs\.?\s|\sversus\s)\s*(?P<b>[^()\[\]]+)",
                  re.I)
BASELINE = re.compile(r"\b(?:over|vs\.?|versus|relative to|w\.r\.t\.?|against|from)\s+(?P<b>[^()\[\]]+)", re.I)
KIND = "difference"


def _interval(formula: str, a: Printed, b: Printed) -> tuple[float, float, float] | None:
    """(value, low, high) of the formula over the operands' printed intervals."""
    if formula == "absolute":
        value, spread = a.value - b.value, a.half_unit + b.half_unit
        return value, value - spread, value + spread
    if formula == "points":
        value, spread = 100 * (a.value - b.value), 100 * (a.half_unit + b.half_unit)
        return value, value - spread, value + spread
    if b.value - b.half_unit <= 0:
        return None
    corners = [100 * (x - y) / y for x in (a.value - a.half_unit, a.value + a.half_unit)
               for y in (b.value - b.half_unit, b.value + b.half_unit)]
    return 100 * (a.value - b.value) / b.value, min(corners), max(corners)


def _cell(matrix: Matrix, i: int, a: int, b: int, j: int, formula: str):
    delta, x, y = matrix.value(i, j), matrix.value(a, j), matrix.value(b, j)
    where = f"{matrix.label(i)} × {matrix.minor_label(j)}"
    if delta is None:
        return None, None
    if x is None or y is None:
        return None, f"{where}: an operand cell is missing or not a number"
    if formula == "absolute" and not (x.percent == y.percent == delta.percent or not (x.percent or y.percent)):
        return None, f"{where}: mixes % and plain numbers"
    return _delta_verdict(formula, delta, x, y, where)


def _operands(matrix: Matrix, i: int) -> list[tuple[int, int]] | str:
    label = matrix.label(i)
    others = [k for k in matrix.majors if k != i and not is_delta(matrix.label(k))]
    stripped = DELTA_LABEL.sub(" ", label).strip(" :()[]")
    inner = re.search(r"[(\[](?P<inside>[^)\]]+)[)\]]", label)
    for text in ([inner.group("inside")] if inner else []) + [stripped]:
        pair = PAIR.fullmatch(text.strip())
        if pair:
            a, b = matrix.find(pair.group("a"), exclude=(i,)), matrix.find(pair.group("b"), exclude=(i,))
            if a is not None and b is not None and a != b:
                return [(a, b)]
        base = BASELINE.search(text)
        if base:
            b = matrix.find(base.group("b"), exclude=(i,))
            if b is None:
                return f"its baseline {base.group('b').strip()!r} is not a {matrix.axis} of the table"
            before = [k for k in others if k < i and k != b]
            if not before:
                return "no numeric line before it to compare with its baseline"
            return [(before[-1], b)]
    before = [k for k in others if k < i]
    if len(before) < 2:
        return f"it names no two {matrix.axis}s and fewer than two numeric {matrix.axis}s precede it"
    return [(before[-1], before[-2]), (before[-2], before[-1])]


def check_matrix(matrix: Matrix, quiet: bool = False) -> list[Check]:
    """Every Δ line of the matrix; ``quiet`` drops the skip for a Δ line with no operands."""
    checks: list[Check] = []
    view = matrix.view
    for i in matrix.majors:
        if not is_delta(matrix.label(i)):
            continue
        line = view.table.line if matrix.axis == "column" else view.row_line(i)
        ident = f"{view.index}:{matrix.axis}:{matrix.label(i)}" + (f"@{line}" if matrix.axis == "row" else "")
        operands = _operands(matrix, i)
        if isinstance(operands, str):
            against_row = _against_baseline_row(matrix, i, ident, line)
            if against_row is not None:
                checks += against_row
                continue
            if not quiet:
                checks.append(make_check(KIND, ident, None, f"{view.name()} {matrix.axis} "
                                         f"{matrix.label(i)!r}: {operands}", line))
            continue
        percent = any((v := matrix.value(i, j)) is not None and v.percent for j in matrix.minors)
        plain = not any((v := matrix.value(a, j)) is not None and v.percent
                        for a, _ in operands for j in matrix.minors)
        formulas = ["absolute"] + (["relative", "points"] if percent and plain else [])
        best = None
        for a, b in operands:
            for formula in formulas:
                results = [(j, *_cell(matrix, i, a, b, j, formula)) for j in matrix.minors]
                agree = sum(1 for _, ok, _ in results if ok)
                if best is None or agree > best[0]:
                    best = (agree, a, b, formula, results)
        agree, a, b, formula, results = best  # type: ignore[misc]
        tested = [r for r in results if r[1] is not None]
        relation = f"{matrix.label(a)!r} − {matrix.label(b)!r} ({formula})"
        if not tested:
            checks.append(make_check(KIND, ident, None, f"{view.name()} {matrix.axis} {matrix.label(i)!r}: "
                                     f"nothing to test for {relation}", line))
            continue
        if len(tested) - agree > agree:
            checks.append(make_check(KIND, ident, None, (
                f"{view.name()} {matrix.axis} {matrix.label(i)!r}: not a difference of {relation} — "
                f"{len(tested) - agree} of {len(tested)} cells disagree"), line))
            continue
        for j, ok, text in results:
            if text is not None:
                checks.append(make_check(KIND, f"{ident}:{matrix.minor_label(j)}", ok,
                                         f"{view.name()}: {text} [{relation}]", matrix.line(i, j)))
    return checks


def _against_baseline_row(matrix: Matrix, i: int, ident: str, line: int) -> list[Check] | None:
    """A Δ column after exactly one numeric column, whose cell is missing (``—``) in exactly one
    row and printed in the others: the difference of each row from that baseline row (``| BM25 |
    0.812 | — |``, ``| hybrid | 0.845 | +0.043 |``: 0.845 − 0.812 = 0.033, so +0.043 fails). Before,
    such a column was a SKIP ("names no two columns"). The reading (absolute; relative or points for
    % cells of plain values) is the one most cells agree with; when most disagree it is a SKIP, "not
    a difference from the baseline row", as for the other Δ lines. None when the shape is not this."""
    if matrix.axis != "column":
        return None
    before = [k for k in matrix.majors if k < i and not is_delta(matrix.label(k))]
    if len(before) != 1:
        return None
    a = before[0]
    baselines = [j for j in matrix.minors if matrix.value(i, j) is None and matrix.missing(i, j)
                 and matrix.value(a, j) is not None]
    printed = [j for j in matrix.minors if matrix.value(i, j) is not None]
    if len(baselines) != 1 or not printed:
        return None
    base = baselines[0]
    view = matrix.view
    percent = any(matrix.value(i, j).percent for j in printed)  # type: ignore[union-attr]
    plain = not any((v := matrix.value(a, j)) is not None and v.percent for j in matrix.minors)
    formulas = ["absolute"] + (["relative", "points"] if percent and plain else [])
    best = None
    for formula in formulas:
        results = [(j, *_cell_against(matrix, i, a, base, j, formula)) for j in printed]
        agree = sum(1 for _, ok, _ in results if ok)
        if best is None or agree > best[0]:
            best = (agree, formula, results)
    agree, formula, results = best  # type: ignore[misc]
    tested = [r for r in results if r[1] is not None]
    relation = f"{matrix.label(a)!r} − its value in the baseline row {matrix.minor_label(base)!r} ({formula})"
    if not tested:
        return [make_check(KIND, ident, None, f"{view.name()} column {matrix.label(i)!r}: nothing to test for "
                                              f"{relation}", line)]
    if len(tested) - agree > agree:
        return [make_check(KIND, ident, None, (
            f"{view.name()} column {matrix.label(i)!r}: not a difference from the baseline row — "
            f"{len(tested) - agree} of {len(tested)} cells disagree with {relation}"), line)]
    return [make_check(KIND, f"{ident}:{matrix.minor_label(j)}", ok, f"{view.name()}: {text} [{relation}]",
                       matrix.line(i, j)) for j, ok, text in results if text is not None]


def _cell_against(matrix: Matrix, i: int, a: int, base: int, j: int, formula: str):
    """(ok or None, arithmetic) of the Δ cell (column i, row j) against column a's row j minus its
    baseline row: :func:`_cell` with the operands taken down one column."""
    delta, x, y = matrix.value(i, j), matrix.value(a, j), matrix.value(a, base)
    where = f"{matrix.minor_label(j)} × {matrix.label(i)}"
    if delta is None:
        return None, None
    if x is None or y is None:
        return None, f"{where}: an operand cell is missing or not a number"
    return _delta_verdict(formula, delta, x, y, where)


def check_differences(view: TableView, quiet: bool = False) -> list[Check]:
    """Δ columns and Δ rows of one table."""
    if not view.numeric_columns():
        return []
    return (check_matrix(Matrix.along(view, "column"), quiet)
            + check_matrix(Matrix.along(view, "row"), quiet))


def _delta_verdict(formula: str, delta, x, y, where: str) -> tuple[bool | None, str]:
    """(ok or None, arithmetic) of a Δ cell against ``x − y`` by ``formula`` (``absolute``,
    ``points`` or ``relative``): the corner interval of the operands' printed intervals must meet
    the Δ cell's own printed interval, with the same sign (shared by the row-pair and the
    baseline-row checks)."""
    span = _interval(formula, x, y)
    if span is None:
        return None, f"{where}: baseline interval reaches 0, relative change undefined"
    value, low, high = span
    ok = delta.value + delta.half_unit >= low - EPS and delta.value - delta.half_unit <= high + EPS
    sign_clash = (delta.value - delta.half_unit > 0 and high < 0) or (delta.value + delta.half_unit < 0 and low > 0)
    ok = ok and not sign_clash
    shape = {"absolute": f"{x.text} − {y.text}", "points": f"100·({x.text} − {y.text})",
             "relative": f"100·({x.text} − {y.text})/{y.text}"}[formula]
    gap = abs(delta.value - value)
    tolerance = delta.half_unit + (high - low) / 2
    return ok, (f"{where}: {delta.text} vs {shape} = {fmt(value)} {'✓' if ok else '✗'} "
                f"(|Δ| {fmt(gap)} {'≤' if ok else '>'} {fmt(tolerance)}"
                f"{'; sign differs' if sign_clash else ''})")
