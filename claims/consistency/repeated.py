"""Repeated values: the same metric for the same pair of labels (system and dataset) printed in
two tables, or twice in one table, must agree.

**What is "the same".** A cell is keyed by (metric, {row label, column header}) with labels
normalised (case, whitespace, footnote marks) and the pair unordered, so a table of datasets ×
systems and its transpose share keys. Only cells whose metric is named *outside* both labels
(a group row, the caption or a section heading) are keyed: when the metric is a column header,
the row label alone does not say which dataset the number is for. Aggregate and difference
lines (``Avg.``, ``Δ``) are left out: their meaning depends on their group. Two tables with
identical headers whose metric is not named anywhere are never compared (one skip records it).

**Tolerance.** Values are put on one scale (``%`` and tables printing a metric ×100 divided by
100); two printed values agree when their intervals meet: |v₁ − v₂| ≤ h₁ + h₂ (+1e−9).

**Parallel tables are not the same table.** A page often prints one table per model with the
same row and column labels and names the model only in the corner cell (the header of the label
column: ``| Llama-3.1-8B | fp8 | bf16 |``, then ``| Phi-3-mini | fp8 | bf16 |``). So when two
printings disagree, have the same row label and the same column header (the same orientation),
and their tables' corner cells differ, the disagreement is a skip naming both locations, never
a failure. A transposed printing (a summary table of runs × corpora repeating a corpora × runs
table) and printings under the same corner (``System`` in both, a row copied into another
section) still fail; an agreement always passes.

Each later printing is compared with the first one (n − 1 checks for n printings). A
disagreement is a failure that names **both** locations (table, section, row, group, column,
line): it is either a real inconsistency or a label copied from another section that makes two
different rows look like the same system, and only a human can tell which.
"""

from __future__ import annotations

from dataclasses import dataclass

from claims.consistency.vocabulary import aggregate_label
from claims.consistency.cells import fmt, normalise_label, within
from claims.consistency.context import TableView
from claims.consistency.vocabulary import is_delta
from claims.consistency.model import Check, make_check

KEYED_SOURCES = ("group row", "caption", "section heading")
KIND = "repeated"


@dataclass(frozen=True)
class Fact:
    metric: str
    labels: frozenset[str]
    value: float
    half: float
    text: str
    where: str
    line: int
    table: int
    corner: str = ""                                   # the label column's header, normalised
    orientation: tuple[str, str] = ("", "")            # row label, column header


def table_facts(view: TableView) -> list[Fact]:
    facts = []
    for r in view.data_rows():
        for c in view.numeric_columns():
            number = view.numbers[r][c]
            row, column = view.row_label(r), view.header[c]
            if number is None or any(is_delta(x) or aggregate_label(x) for x in (row, column)):
                continue
            metric, source = view.metric_of(r, c)
            if metric is None or source not in KEYED_SOURCES:
                continue
            labels = frozenset({normalise_label(view.row_label(r)), normalise_label(view.header[c])})
            if len(labels) < 2 or "" in labels:
                continue
            value, half = number.scaled(view.factor(r, c, metric))
            corner = normalise_label(view.header[0]) if view.header else ""
            facts.append(Fact(metric, labels, value, half, number.text, view.where(r, c),
                              view.row_line(r), view.index, corner,
                              (normalise_label(row), normalise_label(column))))
    return facts


def _unnamed_twins(views: list[TableView]) -> list[Check]:
    """One skip per set of tables with identical headers, no metric named for any, and a shared
    pair of labels: the trap of tables whose metric is only named elsewhere, recorded, not guessed."""
    def unnamed(v: TableView) -> bool:
        return bool(v.numeric_columns()) and all(
            v.metric_of(r, c)[0] is None for r in v.data_rows() for c in v.numeric_columns())

    def pairs(v: TableView) -> set[tuple[str, str]]:
        return {(normalise_label(v.row_label(r)), normalise_label(v.header[c]))
                for r in v.data_rows() for c in v.numeric_columns() if v.numbers[r][c] is not None}

    sets: dict[tuple[str, ...], list[TableView]] = {}
    for view in views:
        if len(view.header) >= 2 and unnamed(view):
            sets.setdefault(tuple(normalise_label(h) for h in view.header), []).append(view)
    checks = []
    for group in sets.values():
        shared = [v for v in group if any(pairs(v) & pairs(w) for w in group if w is not v)]
        if len(shared) >= 2:
            names = ", ".join(str(v.index) for v in shared)
            checks.append(make_check(KIND, f"unnamed:{names}", None, (
                f"tables {names} (lines {', '.join(str(v.table.line) for v in shared)}) have identical "
                f"headers and share labels, but no metric is named for them (header, caption or section): "
                f"their cells are not compared"), shared[0].table.line))
    return checks


def check_repeated(views: list[TableView]) -> list[Check]:
    by_key: dict[tuple[str, frozenset[str]], list[Fact]] = {}
    for view in views:
        for fact in table_facts(view):
            by_key.setdefault((fact.metric, fact.labels), []).append(fact)
    checks: list[Check] = []
    for (metric, labels), facts in by_key.items():
        first = facts[0]
        for second in facts[1:]:
            gap = abs(first.value - second.value)
            tolerance = first.half + second.half
            ok = within(gap, tolerance)
            names = " / ".join(sorted(labels))
            text = (f"{metric} for {names}: {first.text} at {first.where} vs {second.text} at {second.where} "
                    f"{'✓' if ok else '✗'} (|Δ| {fmt(gap)} {'≤' if ok else '>'} {fmt(tolerance)})")
            verdict: bool | None = ok
            if not ok and first.corner != second.corner and first.orientation == second.orientation:
                verdict = None
                text += (" — parallel tables (the same row and column labels) under different corner "
                         "cells: the same labels may stand for different data, not compared")
            elif not ok:
                text += (" — the same metric for the same labels printed twice with different values: "
                         "an inconsistency, or a label copied from another section; check both locations")
            checks.append(make_check(KIND, f"{metric}:{names}:{first.line}-{second.line}", verdict, text,
                                     second.line, (first.where, second.where)))
    return checks + _unnamed_twins(views)
