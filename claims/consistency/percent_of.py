"""Percent-of-baseline and ratio columns: a cell that says "X % of a named baseline" (or "X× of it")
equals 100·v/b (or v/b) of the table's own numbers. Check kinds ``percent-of-baseline`` and
``ratio-to-baseline`` (issue 22: the reviewer's arithmetic).

**Which columns.** A header naming a baseline: ``% of float32``, ``% of BM25 (nDCG@10)``,
``percent of baseline``, ``relative to fp32 (%)``, ``retention vs. float32``, ``float32 = 100%``;
or a ratio: ``ratio to BM25``, ``× BM25``, ``speed-up over fp32``, ``vs. float32 (×)``; or
``Recovery (Strict)`` / ``accuracy recovery (%)``, a percent of the rows labelled ``baseline``.

**Which baseline.** The named baseline is a **row** when exactly one data row's label contains the
name as a whole word (``float32`` → ``float32 d=1024``), else a **column** when exactly one other
header does. When neither exists (``Percentage of default performance``), rows whose labels share a
stem before ``:`` form a group (``e5-base-v2: float32``, ``e5-base-v2: int8``) and the group's
first row printing 100% is the baseline of the rows after it. When several rows are labelled
``baseline`` and each opens a group of rows sharing the first part of its label (``Model-A /
baseline``, ``Model-A / int4``), each row's baseline is its group's. Otherwise the column is skipped
(never failed) as ambiguous.

**Which value.** With a baseline row, the operand column is the numeric column the header names by
its metric, else the nearest numeric column to the left that is not itself a percent or ratio
column; the baseline row's own percent cell, when printed, must read 100 (or 1 for a ratio) —
otherwise the reading is not this one and the column is skipped. With a baseline column, the
operand is the nearest other numeric column to the left of the percent column.

**Tolerance** (the shared printed-precision rule of ``cells``): the ratio's interval over the
operands' printed intervals (corners of [v ± h_v] / [b ± h_b], b − h_b > 0 required), ×100 for a
percent, must meet the printed cell's [p ± h_p]. A column where most rows disagree is skipped as
"not a percent of …" rather than failed (a different definition is more likely than many errors);
a column with one or two disagreeing rows among agreeing ones fails at those rows.
"""

from __future__ import annotations

import re

from claims.consistency.cells import EPS, Printed, fmt, normalise_label
from claims.consistency.context import TableView
from claims.consistency.model import Check, make_check
from claims.consistency.vocabulary import label_metrics

PERCENT = re.compile(
    r"(?:%|percent(?:age)?|retention|retained|relative)\s*(?:of|vs\.?|versus|relative to|to|w\.r\.t\.?)\s+"
    r"(?P<base>[^()%]+?)\s*(?:\(.*\))?\s*$"
    r"|^(?P<base2>[^()=]+?)\s*=\s*100\s*%\s*$"
    r"|^relative to\s+(?P<base3>[^()]+?)\s*\(\s*%\s*\)\s*$", re.I)
RATIO = re.compile(
    r"(?:ratio|speed-?up|×|x)\s*(?:to|of|vs\.?|versus|over|relative to)\s+(?P<base>[^()]+?)\s*(?:\(.*\))?\s*$"
    r"|^vs\.?\s+(?P<base2>[^()]+?)\s*\(\s*[×x]\s*\)\s*$"
    r"|^×\s*(?P<base3>[A-Za-z][^()]*?)\s*$", re.I)
RECOVERY = re.compile(r"^(?:accuracy\s+)?recovery(?:\s*\((?P<col>[^()%]+)\))?\s*(?:\(\s*%\s*\))?$", re.I)
KINDS = ("percent-of-baseline", "ratio-to-baseline")


def _baseline(header: str) -> tuple[str, str] | None:
    """(kind, baseline name) of a percent or ratio header, else None."""
    if RECOVERY.match(header.strip()):       # "Recovery (Strict)": % of each group's baseline row
        return KINDS[0], "baseline"
    for pattern, kind in ((PERCENT, KINDS[0]), (RATIO, KINDS[1])):
        m = pattern.search(header.strip())
        if m:
            name = next(g for g in m.groups() if g)
            name = re.sub(r"^(?:the|a)\s+", "", name.strip(), flags=re.I).strip(" .:")
            if name:
                return kind, name
    return None


def names_baseline(header: str) -> bool:
    """Whether a header is a percent-of or ratio-to a named baseline (its cells may exceed 100%)."""
    return _baseline(header) is not None


def _stem(label: str) -> str | None:
    """``mxbai-embed-large-v1`` of ``mxbai-embed-large-v1: int8`` (None without a ``:``)."""
    return label.split(":", 1)[0].strip().lower() or None if ":" in label else None


def _group_baselines(view: TableView, c: int, factor: float) -> dict[int, int]:
    """Row → its group's baseline row: the first row with the same label stem (before ``:``) whose
    cell in column ``c`` prints 100 (1 for a ratio), when it lies above the row."""
    first: dict[str, int] = {}
    out: dict[int, int] = {}
    for r in view.data_rows():
        stem, cell = _stem(view.row_label(r)), view.numbers[r][c]
        if stem is None:
            continue
        if stem not in first:
            if cell is not None and abs(cell.value - factor) <= cell.half_unit + EPS:
                first[stem] = r
            continue
        out[r] = first[stem]
    return out


def _baseline_per_group(view: TableView, rows: list[int]) -> dict[int, int] | None:
    """Row → the baseline row of its group, when several rows are named ``baseline`` and each
    opens a group of rows sharing the first part of its label (``Model-A / baseline``,
    ``Model-A / int4``, then ``Model-B / baseline`` …); None when a row has no such baseline above."""
    def group(r: int) -> str:
        return normalise_label(view.row_label(r).split(" / ")[0])

    out: dict[int, int] = {}
    current: dict[str, int] = {}
    for r in view.data_rows():
        if r in rows:
            current[group(r)] = r
        elif all(view.numbers[r][c] is None for c in view.numeric_columns()):
            continue
        elif group(r) in current:
            out[r] = current[group(r)]
        else:
            return None
    return out or None


def _operand(view: TableView, c: int, numeric: list[int], special: dict) -> int | None:
    """The column a percent column is computed from: the one its header's metric names, else the
    nearest numeric column to its left that is not itself a percent or ratio column."""
    operands = [o for o in numeric if o != c and o not in special]
    wanted = label_metrics(view.header[c], 4)
    named = [o for o in operands if wanted and label_metrics(view.header[o], 3) == wanted]
    left = [o for o in operands if o < c]
    return named[0] if len(named) == 1 else (left[-1] if left and not wanted else None)


def _names(label: str, name: str) -> bool:
    # "_" separates parts of a name: ``bf16_sdpa`` names SDPA
    return re.search(rf"(?<![A-Za-z0-9-]){re.escape(normalise_label(name))}(?![A-Za-z0-9])",
                     normalise_label(label)) is not None


def _ratio_interval(v: Printed, b: Printed, factor: float) -> tuple[float, float, float] | None:
    if b.value - b.half_unit <= 0 or v.value - v.half_unit < 0:
        return None
    corners = [factor * x / y for x in (v.value - v.half_unit, v.value + v.half_unit)
               for y in (b.value - b.half_unit, b.value + b.half_unit)]
    return factor * v.value / b.value, min(corners), max(corners)


def check_percent_of(view: TableView) -> list[Check]:
    """One check per (percent or ratio cell) of every baseline column of the table."""
    checks: list[Check] = []
    numeric = view.numeric_columns()
    special = {c: _baseline(view.header[c]) for c in numeric}
    special = {c: found for c, found in special.items() if found}
    for c, (kind, name) in special.items():
        factor = 100.0 if kind == KINDS[0] else 1.0
        column_id = f"{view.index}:{c}"
        rows = [r for r in view.data_rows() if _names(view.row_label(r), name)]
        columns = [o for o in numeric if o != c and _names(view.header[o], name)]
        grouped = _group_baselines(view, c, factor) if not rows and not columns else {}
        if len(rows) > 1 and name == "baseline":        # one baseline row per group
            grouped = _baseline_per_group(view, rows) or {}
            rows = [] if grouped else rows
        operand = _operand(view, c, numeric, special)
        pairs: list[tuple[int, int, int, int]] = []    # (r, value col, baseline row, baseline col)
        if len(rows) == 1:                              # a named baseline row
            base_row = rows[0]
            if operand is None:
                checks.append(make_check(kind, column_id, None, f"{view.name()}: column {view.header[c]!r} names "
                                         f"baseline row {view.row_label(base_row)!r} but which column it is a "
                                         "percent of is ambiguous", view.table.line))
                continue
            own = view.numbers[base_row][c]
            if own is not None and abs(own.value - factor) > own.half_unit + EPS:
                checks.append(make_check(kind, column_id, None, f"{view.name()}: the baseline row "
                                         f"{view.row_label(base_row)!r} prints {own.text}, not {fmt(factor, 0)}, in "
                                         f"{view.header[c]!r}: another definition", view.table.line))
                continue
            pairs = [(r, operand, base_row, operand) for r in view.data_rows() if r != base_row]
        elif grouped:                                   # "% of default": each label group's 100% row
            if operand is None:
                checks.append(make_check(kind, column_id, None, f"{view.name()}: which column "
                                         f"{view.header[c]!r} is a percent of is ambiguous", view.table.line))
                continue
            pairs = [(r, operand, b, operand) for r, b in grouped.items()]
        elif len(columns) == 1 and not rows:            # a named baseline column
            base_col = columns[0]
            left = [o for o in numeric if o < c and o != base_col and o not in special]
            if not left:
                checks.append(make_check(kind, column_id, None, f"{view.name()}: no operand column for "
                                         f"{view.header[c]!r}", view.table.line))
                continue
            pairs = [(r, left[-1], r, base_col) for r in view.data_rows()]
        else:
            checks.append(make_check(kind, column_id, None, f"{view.name()}: column {view.header[c]!r} names "
                                     f"{name!r}, which is {'several rows' if rows else 'no single row or column'}",
                                     view.table.line))
            continue
        results = []
        for r, vc, br, bc in pairs:
            printed, v, b = view.numbers[r][c], view.numbers[r][vc], view.numbers[br][bc]
            if printed is None or v is None or b is None:
                continue
            interval = _ratio_interval(v, b, factor)
            if interval is None:
                continue
            value, low, high = interval
            ok = printed.value + printed.half_unit + EPS >= low and printed.value - printed.half_unit - EPS <= high
            sign = "100·" if factor == 100 else ""
            arithmetic = (f"{view.where(r, c)}: {printed.text} vs {sign}{v.text}/{b.text} = {fmt(value, 3)} "
                          f"(interval [{fmt(low, 3)}, {fmt(high, 3)}] from the printed precision; the cell stands "
                          f"for [{fmt(printed.value - printed.half_unit, 3)}, {fmt(printed.value + printed.half_unit, 3)}])"
                          f" — baseline {view.row_label(br) if br != r else view.header[bc]!r}")
            results.append((r, ok, arithmetic))
        if not results:
            continue
        bad = [x for x in results if not x[1]]
        if len(bad) * 2 > len(results):
            checks.append(make_check(kind, column_id, None, f"{view.name()}: most cells of {view.header[c]!r} are "
                                     f"not a {'percent' if factor == 100 else 'ratio'} of {name!r} as read: another "
                                     "definition; skipped", view.table.line))
            continue
        for r, ok, arithmetic in results:
            checks.append(make_check(kind, f"{column_id}:{r}", ok, arithmetic, view.row_line(r),
                                     (view.where(r, c),)))
    return checks
