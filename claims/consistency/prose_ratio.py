"""Prose ratios and point differences against the table values they name: "Dense is 2.5× faster
than BM25", "the hybrid gains +3.1 points over BM25". Check kinds ``prose-ratio`` and
``prose-points`` (issue 22: the reviewer's arithmetic).

**Which statements.** A number followed by ``×`` / ``x`` / ``times`` and a direction (faster,
slower, higher, lower, larger, smaller, more, less, fewer, better, worse, quicker, cheaper), or a
number followed by ``points`` / ``pp`` / ``percentage points`` (signed ``+3.1 points``, or with a
direction: higher, lower, more, less, better, worse, above, below, ahead, behind, over). A bound
(``up to``, ``more than``, ``at least``, ``over``, ``under``, ``almost``) is not an equality: skipped.

**Which cells.** In exactly one table the sentence names exactly two row labels (whole words,
case-insensitive; the first named is A, the other B) and one numeric column: the column whose
header the sentence names, else the table's only numeric column, else the one column whose
metric the sentence names; anything else is skipped as ambiguous, never failed.

**Which arithmetic.** A ratio: faster / quicker / cheaper on a time or cost column (latency, time,
ms, s, seconds, minutes, cost, $) is B/A, slower A/B; on a throughput column (QPS, throughput,
per second, /s) faster is A/B, slower B/A; on any other column higher / larger / more / better
is A/B and lower / smaller / less / fewer / worse B/A (faster and slower skipped). Points:
A − B (B − A for lower / less / worse / below / behind), ×100 when the cells are fractions; a
stated number below 1 printed with decimals (``0.15 points above``) may also be points of the
score's own scale, and passes when either reading agrees.

**Tolerance** (the shared printed-precision rule): the function's interval over the cells'
printed intervals (corners) must meet the stated number's [n ± h_n] (``3×`` stands for
[2.5, 3.5]).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from claims.consistency.cells import EPS, Printed, fmt, normalise_label
from claims.consistency.context import TableView
from claims.consistency.model import Check, make_check
from claims.consistency.vocabulary import label_metrics, metrics_named

RATIO = re.compile(
    r"(?P<bound>\b(?:up to|more than|at least|over|under|almost|nearly|less than)\s+)?(?P<n>\d+(?:\.\d+)?)\s*"
    r"(?:×|x\b|times\b)\s*(?P<dir>faster|slower|higher|lower|larger|smaller|more|less|fewer|better|worse|"
    r"quicker|cheaper)\b", re.I)
POINTS = re.compile(
    r"(?P<bound>\b(?:up to|more than|at least|over|under|almost|nearly|less than)\s+)?(?P<sign>[+\-−])?"
    r"(?P<n>\d+(?:\.\d+)?)\s*(?:percentage\s+points?|points?|pp|pts?)\b"
    r"(?:\s+(?P<dir>higher|lower|more|less|better|worse|above|below|ahead|behind|over))?", re.I)
TIME = re.compile(r"\b(?:latency|time|ms|msec|s|sec|seconds?|minutes?|hours?|duration|cost|\$|usd)\b", re.I)
THROUGHPUT = re.compile(r"\b(?:qps|throughput|per second|/s|docs/s|tokens/s|queries/s|speed)\b|/s\b", re.I)
DOWN = ("lower", "smaller", "less", "fewer", "worse", "below", "behind")
KINDS = ("prose-ratio", "prose-points")


def _printed(text: str) -> Printed:
    decimals = len(text.split(".", 1)[1]) if "." in text else 0
    return Printed(float(text), decimals, False, text)


def _named(label: str, sentence: str) -> int:
    """The offset where the sentence names the label as whole words (-1 when it does not)."""
    text = normalise_label(label)
    if len(text) < 2:
        return -1
    m = re.search(rf"(?<![\w-]){re.escape(text)}(?![\w-])", sentence.lower())
    return m.start() if m else -1


def _column(view: TableView, sentence: str, speed: bool = False) -> int | None:
    numeric = view.numeric_columns()
    named = [c for c in numeric if _named(view.header[c], sentence) >= 0]
    if len(named) == 1:
        return named[0]
    if len(numeric) == 1:
        return numeric[0]
    if speed:   # faster / slower: the table's one time column, else its one throughput column
        for pattern in (TIME, THROUGHPUT):
            fitting = [c for c in numeric if pattern.search(view.header[c])]
            if len(fitting) == 1:
                return fitting[0]
    metrics = metrics_named(sentence)
    by_metric = [c for c in numeric if metrics and label_metrics(view.header[c], 3) == metrics[:1]]
    return by_metric[0] if len(by_metric) == 1 else None


def _pair(views: Sequence[TableView], sentence: str, speed: bool = False) -> tuple[TableView, int, int, int] | str | None:
    """The one (table, row A, row B, column) the sentence names; a reason to skip; or None when no
    table names any of the sentence's words as a row (the statement is not about the tables)."""
    found, touched = [], False
    for view in views:
        rows = sorted(((pos, r) for r in view.data_rows() if (pos := _named(view.row_label(r), sentence)) >= 0))
        distinct = {view.row_label(r) for _, r in rows}
        touched = touched or bool(distinct)
        if len(distinct) != 2:
            continue
        c = _column(view, sentence, speed)
        if c is None:
            continue
        found.append((view, rows[0][1], next(r for _, r in rows if view.row_label(r) != view.row_label(rows[0][1])), c))
    if not found and not touched:
        return None
    if len(found) != 1:
        return "no single table names two rows and one column" if not found else "several tables fit"
    return found[0]


def _box(a: Printed, b: Printed, f) -> tuple[float, float, float] | None:
    try:
        corners = [f(x, y) for x in (a.value - a.half_unit, a.value + a.half_unit)
                   for y in (b.value - b.half_unit, b.value + b.half_unit)]
        return f(a.value, b.value), min(corners), max(corners)
    except ZeroDivisionError:
        return None


def check_prose_ratios(claims: Sequence[Any], views: Sequence[TableView]) -> list[Check]:
    """One check per ratio or point statement of a prose claim row that names two rows of one table."""
    checks: list[Check] = []
    if not views:
        return checks
    for claim in claims:
        text = str(getattr(claim, "text", ""))
        if "|" in text:
            continue
        line = getattr(claim, "line", None) or None
        for kind, pattern in ((KINDS[0], RATIO), (KINDS[1], POINTS)):
            for m in pattern.finditer(text):
                if kind == KINDS[1] and not (m.group("sign") or m.group("dir")):
                    continue            # "12 points" alone is a count, not a difference
                cid = f"{getattr(claim, 'claim_id', '?')}:{m.start()}"
                if m.group("bound") and _pair(views, text) is None:
                    continue
                if m.group("bound"):
                    checks.append(make_check(kind, cid, None, f"{claim.claim_id}: “{m.group(0).strip()}” is a bound, "
                                             "not an equality", line))
                    continue
                speed = (m.groupdict().get("dir") or "").lower() in ("faster", "quicker", "slower", "cheaper")
                found = _pair(views, text, speed and kind == KINDS[0])
                if found is None:
                    continue
                if isinstance(found, str):
                    checks.append(make_check(kind, cid, None, f"{claim.claim_id}: “{m.group(0).strip()}”: {found}",
                                             line))
                    continue
                view, ra, rb, c = found
                a, b = view.numbers[ra][c], view.numbers[rb][c]
                if a is None or b is None:
                    checks.append(make_check(kind, cid, None, f"{claim.claim_id}: a named cell is not a number", line))
                    continue
                stated = _printed(m.group("n"))
                direction = (m.group("dir") or "").lower()
                header = view.header[c]
                if kind == KINDS[0]:
                    if direction in ("faster", "quicker", "cheaper", "slower"):
                        timed, rate = bool(TIME.search(header)), bool(THROUGHPUT.search(header))
                        if timed == rate:
                            checks.append(make_check(kind, cid, None, f"{claim.claim_id}: “{m.group(0)}” on column "
                                                     f"{header!r}, neither a time nor a throughput", line))
                            continue
                        a_over_b = (direction == "slower") if timed else (direction != "slower")
                    else:
                        a_over_b = direction not in DOWN
                    f = (lambda x, y: x / y) if a_over_b else (lambda x, y: y / x)
                    formula = f"{a.text}/{b.text}" if a_over_b else f"{b.text}/{a.text}"
                else:
                    scale = 100.0 if not (a.percent or b.percent) and max(abs(a.value), abs(b.value)) <= 1 else 1.0
                    down = direction in DOWN or m.group("sign") in ("-", "−")
                    f = (lambda x, y, s=scale: s * (y - x)) if down else (lambda x, y, s=scale: s * (x - y))
                    formula = (f"{'100·' if scale == 100 else ''}({b.text} − {a.text})" if down
                               else f"{'100·' if scale == 100 else ''}({a.text} − {b.text})")
                box = _box(a, b, f)
                if box is None:
                    checks.append(make_check(kind, cid, None, f"{claim.claim_id}: a named cell is zero", line))
                    continue
                value, low, high = box
                ok = stated.value + stated.half_unit + EPS >= low and stated.value - stated.half_unit - EPS <= high
                if not ok and kind == KINDS[1] and scale == 100.0 and stated.decimals and stated.value < 1:
                    raw = _box(a, b, (lambda x, y: y - x) if down else (lambda x, y: x - y))
                    if raw is not None and stated.value + stated.half_unit + EPS >= raw[1] \
                            and stated.value - stated.half_unit - EPS <= raw[2]:
                        # "0.15 points above" of scores in [0, 1]: points of the score's own scale
                        value, low, high, ok = *raw, True
                        formula = formula.replace("100·", "") + " (points of the score's own scale)"
                arithmetic = (f"{claim.claim_id} says “{m.group(0).strip()}”: {view.row_label(ra)!r} vs "
                              f"{view.row_label(rb)!r} in {view.name()} column {header!r}: {formula} = {fmt(value, 3)} "
                              f"(interval [{fmt(low, 3)}, {fmt(high, 3)}]; the statement stands for "
                              f"[{fmt(stated.value - stated.half_unit, 3)}, {fmt(stated.value + stated.half_unit, 3)}])")
                checks.append(make_check(kind, cid, ok, arithmetic, line,
                                         (view.where(ra, c), view.where(rb, c))))
    return checks
