"""Granularity (GRIM, Brown & Heathers 2017): a mean of N integers is k/N for some integer k.

**Where a denominator comes from** (nearest wins): ``(n = 40)`` / ``N=40`` in the column header;
``n = 40`` in the table's caption (the text just before it); a ``k/N`` cell in the same row (a
column of counts such as ``29/40``, its header without a slash: ``lost / gained`` is a pair);
a page-wide count given on the command line (``--tasks 40``). No declared denominator, no check: a count guessed from prose
could be the wrong one.

**Which cells are granular.** Cells whose metric (header, row label, group row or caption; see
``context``) is a per-item 0/1 proportion — accuracy, success@k, hit@k, exact match — step 1/N;
precision@k, step 1/(k·N); columns headed as a proportion, share, fraction or rate, step 1/N;
columns headed as a mean count (``mean number of …``, ``avg. # …``), step 1/N with no upper
bound. Percent cells (or a table printing the metric ×100) are divided by 100 first.
A ``k/N (x)`` or ``k/N = x`` cell states its own fraction: x must be k/N.

**Tolerance.** With step s and printed value v (half-unit h): pass when some integer k has
|k·s − v| ≤ h (+1e−9). When s ≤ 2h every printed value is reachable and the test says nothing: the
column is reported once as a skip ("uninformative").
"""

from __future__ import annotations

import re

from claims.consistency.cells import EPS, fmt, parse_fraction, parse_number
from claims.consistency.context import TableView
from claims.consistency.vocabulary import PROPORTIONS
from claims.consistency.model import Check, make_check

DENOMINATOR = re.compile(r"(?<![\w])[nN]\s*=\s*(?P<n>\d[\d,]*)")
PROPORTION_HEADER = re.compile(r"\b(?:proportion|share|fraction|rate)\b|%", re.I)
COUNT_MEAN_HEADER = re.compile(r"\b(?:mean|avg\.?|average)\s+(?:number|no\.|#|count)\b", re.I)
STATED_FRACTION = re.compile(r"^(?P<k>\d+)/(?P<n>\d+)\s*(?:\((?P<a>[^)]+)\)|=\s*(?P<b>\S+))$")
KIND = "granularity"


def _denominator(text: str) -> int | None:
    match = DENOMINATOR.search(text)
    return int(match.group("n").replace(",", "")) if match else None


def _step(view: TableView, r: int, c: int, n: int) -> float | None:
    """The granularity of a cell with denominator n, or None when the cell is not granular."""
    metric, _ = view.metric_of(r, c)
    if metric:
        base, _, cutoff = metric.partition("@")
        if base in PROPORTIONS:
            return 1 / n
        if base == "precision" and cutoff:
            return 1 / (int(cutoff) * n)
        return None
    header = view.header[c]
    if PROPORTION_HEADER.search(header) or COUNT_MEAN_HEADER.search(header):
        return 1 / n
    return None


def _stated(view: TableView, r: int, c: int) -> Check | None:
    match = STATED_FRACTION.match(view.rows[r][c].strip())
    if not match:
        return None
    k, n = int(match.group("k")), int(match.group("n"))
    shown = parse_number((match.group("a") or match.group("b") or "").strip())
    if shown is None or n == 0:
        return None
    value, half = shown.scaled(0.01 if shown.percent else 1.0)
    gap = abs(value - k / n)
    ok = gap <= half + EPS
    return make_check(KIND, f"{view.index}:{view.row_label(r)}:{view.header[c]}", ok,
                      f"{view.where(r, c)}: {shown.text} vs {k}/{n} = {fmt(k / n)} {'✓' if ok else '✗'} "
                      f"(|Δ| {fmt(gap)} {'≤' if ok else '>'} {fmt(half)})", view.row_line(r))


def _row_denominators(view: TableView) -> dict[int, tuple[int, str]]:
    """Row → (N, the k/N cell's column) when the row has exactly one denominator in k/N cells."""
    out = {}
    for r in view.data_rows():
        found = {(f.denominator, view.header[c]) for c in range(view.label_columns, len(view.header))
                 if "/" not in view.header[c] and (f := parse_fraction(view.rows[r][c])) is not None}
        if len({n for n, _ in found}) == 1:
            out[r] = sorted(found)[0]
    return out


def check_granularity(view: TableView, page_n: int | None = None) -> list[Check]:
    checks: list[Check] = []
    caption_n = _denominator(view.table.caption)
    row_n = _row_denominators(view)
    for c in range(view.label_columns, len(view.header)):
        uninformative = False
        for r in view.data_rows():
            n, source = _denominator(view.header[c]), "column header"
            if n is None and caption_n:
                n, source = caption_n, "caption"
            if n is None and r in row_n:
                n, source = row_n[r][0], f"k/N cell in column {row_n[r][1]!r}"
            if n is None and page_n:
                n, source = page_n, "--tasks"
            stated = _stated(view, r, c)
            if stated is not None:
                checks.append(stated)
                continue
            number = view.numbers[r][c]
            if number is None or n is None:
                continue
            step = _step(view, r, c, n)
            if step is None:
                continue
            metric, _ = view.metric_of(r, c)
            value, half = number.scaled(view.factor(r, c, metric))
            if step <= 2 * half:
                uninformative = True
                continue
            k = round(value / step)
            gap = min(abs(value - kk * step) for kk in (k - 1, k, k + 1))
            k = min((k - 1, k, k + 1), key=lambda kk: abs(value - kk * step))
            ok = gap <= half + EPS
            count = round(1 / step)
            checks.append(make_check(KIND, f"{view.index}:{view.row_label(r)}:{view.header[c]}", ok, (
                f"{view.where(r, c)}: {number.text} = {k}/{count} = {fmt(k * step)} "
                f"{'✓' if ok else '✗'} (|Δ| {fmt(gap)} {'≤' if ok else '>'} {fmt(half)}; "
                f"N = {n} from {'the ' if not source.startswith('k/N') else 'a '}{source}{'' if ok else f'; no integer k/{count} rounds to it'})"),
                view.row_line(r)))
        if uninformative:
            checks.append(make_check(KIND, f"{view.index}:{view.header[c]}:uninformative", None,
                                     f"{view.name()} column {view.header[c]!r}: 1/N is finer than the "
                                     f"printed precision, so every value is reachable (uninformative)",
                                     view.table.line))
    return checks
