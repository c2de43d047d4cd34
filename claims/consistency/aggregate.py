"""Aggregate rows and columns: a line labelled Avg/Average/Mean/Macro/Total/Sum/Overall equals the
mean (or, for Total/Sum, the sum) of the lines it aggregates.

**Which lines are labelled aggregates.** The label, case-insensitive and with bold already
stripped, is one of those words (``Avg.``, ``Macro-avg``, ``Mean``, ``Total`` …), optionally
followed only by a parenthesis, ``all`` or an exclusion (``w/o X``, ``without X``, ``excluding
X``, ``except X``). ``Avg. D/Q``, ``Mean grade`` or ``Macro Recall@3`` name a measure and are not
aggregate labels. A table without numeric columns has no aggregate.

**What they aggregate.** A row aggregates the data rows of its group (rows since the last group
row, other aggregate rows excluded); an aggregate row at the end of a table with several groups
may instead aggregate every data row of the table: both readings are tried and the one the data
agree with more often is used. A column aggregates every other numeric column of its row. Rows
or columns named in an exclusion are left out.

**Position and data must agree.** An aggregate row must come last in its group, followed only
by other aggregate rows; an aggregate column must be the first numeric column or come after
every non-aggregate numeric column; otherwise it is skipped as "not in an aggregate
position". When most of its cells disagree with the arithmetic, the line is reported as one skip,
"not an aggregate" with the count, rather than as failures: a column headed "Average" may be a
method (a fusion named Average), not an aggregate. Otherwise every cell is a pass or a fail.

**Tolerance** (interval arithmetic over printed precision): with printed aggregate a (half-unit
h_a) and printed members xᵢ (half-units hᵢ), n members, the mean passes when
|a − Σxᵢ/n| ≤ h_a + Σhᵢ/n and the sum when |a − Σxᵢ| ≤ h_a + Σhᵢ (+1e−9); whole numbers
without ``%`` are counts and exact (:func:`_exact_counts`), so their sum passes only when equal,
unless the header names a rate, scale or measured unit. A Total/Sum line that disagrees is a
failure even when most of its cells disagree (the "not an aggregate" reading is for mean labels,
which may name a method). A missing member cell, a non-numeric one, a mix of ``%`` and plain numbers,
or a Total/Sum cell of a metric column (an overall rate, whose weights are not printed) skips that cell.
"""

from __future__ import annotations

import re

from claims.consistency.cells import bound, fmt, within
from claims.consistency.context import Matrix, TableView
from claims.consistency.model import Check, make_check
from claims.consistency.ranges import COUNT_HEADER, NOT_COUNT
from claims.consistency.vocabulary import AggregateLabel, aggregate_label

KIND = "aggregate"


MEASURED_HEADER = re.compile(r"\b(?:time|times|latency|duration|seconds?|secs?|minutes?|mins?|hours?|days?|ms|"
                             r"cost|price|usd|eur|memory|size|[kmgt]i?b|gb|mb|kb|flops?|energy|kwh|co2)\b|[$€£]", re.I)
"""A header naming a measured quantity with a unit (a time, a cost, a size): its whole numbers may be
rounded measurements (12 s + 13 s printed for 12.4 s + 12.6 s), so they keep the printed-precision
tolerance."""


def _exact_counts(header: str, numbers: list) -> bool:
    """Whether a sum's cells are whole counts that must add exactly (campaign o: 7 + 3 = 11 passed
    under the ±1.5 of three half-units). Convention: every cell a whole number without ``%``, in a
    column that is a count header (``ranges.COUNT_HEADER``) or any header that names no rate,
    share, scale (``ranges.NOT_COUNT``: mean, per, %, thousands, …) and no measured unit
    (``MEASURED_HEADER``). Percentages (33% + 33% + 33% = 100%) and decimals keep the printed
    precision: half a unit in the last printed place of each term, summed."""
    if any(v.decimals or v.percent for v in numbers):
        return False
    text = header.strip()
    if COUNT_HEADER.search(text):
        return not NOT_COUNT.search(text)
    return not NOT_COUNT.search(text) and not MEASURED_HEADER.search(text)


def _cell(matrix: Matrix, i: int, j: int, members: list[int], operation: str):
    """(ok or None, arithmetic) for one aggregate cell."""
    target = matrix.value(i, j)
    where = f"{matrix.label(i)} × {matrix.minor_label(j)}"
    if target is None:
        return None, None
    values = [matrix.value(k, j) for k in members]
    absent = [matrix.label(k) for k, v in zip(members, values) if v is None]
    if absent:
        return None, f"{where}: member cell(s) {', '.join(repr(a) for a in absent)} missing or not numbers"
    if any(v.percent != target.percent for v in values):  # type: ignore[union-attr]
        return None, f"{where}: mixes % and plain numbers"
    r, c = matrix._rc(i, j)
    metric, _ = matrix.view.metric_of(r, c)
    if operation == "sum" and metric:   # "Total" over rates: an overall (weighted) rate, not a sum
        return None, f"{where}: {metric} is a rate, not a sum (a total's rate is an overall rate; its weights are not printed)"
    total = sum(v.value for v in values)  # type: ignore[union-attr]
    halves = sum(v.half_unit for v in values)  # type: ignore[union-attr]
    n = len(values)
    expected, tolerance = (total / n, target.half_unit + halves / n) if operation == "mean" else \
        (total, target.half_unit + halves)
    header = matrix.view.header[c]
    if operation == "sum" and _exact_counts(header, [target, *values]):  # type: ignore[list-item]
        tolerance = 0.0   # whole counts are exact: 7 + 3 is 10, never 11
    gap = abs(target.value - expected)
    ok = within(gap, tolerance)
    shown = ", ".join(v.text for v in values)  # type: ignore[union-attr]
    return ok, (f"{where}: {target.text} vs {operation}({shown}) = {fmt(expected)} "
                f"{'✓' if ok else '✗'} ({bound(gap, tolerance, ok)})")


def _members(matrix: Matrix, i: int, label: AggregateLabel) -> list[tuple[str, list[int]]] | str:
    """Candidate member sets for the aggregate at major ``i``, or the reason there is none."""
    segment = next(s for s in matrix.segments if i in s)
    after = segment[segment.index(i) + 1:]
    first_column = matrix.axis == "column" and segment.index(i) == 0
    if any(aggregate_label(matrix.label(k)) is None for k in after) and not first_column:
        return ("not in an aggregate position (data follow it in its group)" if matrix.axis == "row" else
                "not in an aggregate position (neither the first nor the last numeric column)")
    group = [k for k in segment if aggregate_label(matrix.label(k)) is None]
    candidates = [("its group" if len(matrix.segments) > 1 else "the table", group)]
    if matrix.axis == "row" and len(matrix.segments) > 1 and segment is matrix.segments[-1]:
        every = [k for s in matrix.segments for k in s if aggregate_label(matrix.label(k)) is None]
        candidates.append(("every group", every))
    out = []
    for name, members in candidates:
        for excluded in label.excluded:
            found = matrix.find(excluded, exclude=(i,))
            if found is None or found not in members:
                return f"cannot find {excluded!r}, which its label excludes"
            members = [k for k in members if k != found]
        if len(members) >= 2:
            out.append((name, members))
    return out or "fewer than two lines to aggregate"


def check_matrix(matrix: Matrix) -> list[Check]:
    checks: list[Check] = []
    view = matrix.view
    for i in matrix.majors:
        label = aggregate_label(matrix.label(i))
        if label is None:
            continue
        line = view.table.line if matrix.axis == "column" else view.row_line(i)
        ident = f"{view.index}:{matrix.axis}:{matrix.label(i)}" + (f"@{line}" if matrix.axis == "row" else "")
        candidates = _members(matrix, i, label)
        if isinstance(candidates, str):
            checks.append(make_check(KIND, ident, None, f"{view.name()} {matrix.axis} "
                                     f"{matrix.label(i)!r}: {candidates}", line))
            continue
        best = None
        for name, members in candidates:
            results = [(j, *_cell(matrix, i, j, members, label.operation)) for j in matrix.minors]
            agree = sum(1 for _, ok, _ in results if ok)
            if best is None or agree > best[0]:
                best = (agree, name, members, results)
        agree, name, members, results = best  # type: ignore[misc]
        tested = [(j, ok, text) for j, ok, text in results if ok is not None]
        disagree = len(tested) - agree
        if not tested:
            reasons = "; ".join(text for _, _, text in results if text) or "no numeric cell"
            checks.append(make_check(KIND, ident, None, f"{view.name()} {matrix.axis} {matrix.label(i)!r}: "
                                     f"nothing to test ({reasons})", line))
            continue
        if disagree > agree and label.operation != "sum":   # "Average" may name a method; "Total" is a sum
            checks.append(make_check(KIND, ident, None, (
                f"{view.name()} {matrix.axis} {matrix.label(i)!r}: not an aggregate — {disagree} of "
                f"{len(tested)} cells differ from the {label.operation} of {name} beyond printed "
                f"precision, so the label is read as a name (e.g. a method), not an arithmetic claim"), line))
            continue
        members_text = ", ".join(repr(matrix.label(k)) for k in members)
        for j, ok, text in results:
            if text is None:
                continue
            checks.append(make_check(KIND, f"{ident}:{matrix.minor_label(j)}", ok,
                                     f"{view.name()}: {text} [{label.operation} of {name}: {members_text}]",
                                     matrix.line(i, j)))
    return checks


def check_aggregates(view: TableView) -> list[Check]:
    """Aggregate rows (per group) and aggregate columns of one table."""
    if not view.numeric_columns():
        return []
    return check_matrix(Matrix.along(view, "row")) + check_matrix(Matrix.along(view, "column"))
