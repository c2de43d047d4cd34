"""What a table measures, read from its labels, group rows, caption and section headings.

**Metric of a cell** (first that names exactly one metric wins): its column header (the metric
and at most two other words: ``Agreed coverage@5``), its row label (the metric alone), its group
row (the metric and at most one word), the last sentence of the table's caption (the paragraph
or heading just before it) when that sentence introduces the table (a caption of at most 15
words, a sentence ending with a colon, or one that says table / below / following / reports /
lists / shows / gives), then the section headings from the innermost out (at most three other
words). The table-wide sources (group row, caption, section) do not reach a column whose header
is itself a measure (``#…``, ``number of …``, ``… count``, mean, median, ratio, rate, share, %,
time, size, length …); a bare name such as ``Count`` or ``Characters`` may be a method. A system
called ``Fixed coverage`` is thus not read as a coverage metric, nor is a metric mentioned in
passing in a long paragraph. Several different metrics in one place name none, and the cell's
metric is then *unknown*, as it is for every cell not named by its own labels in a table with a
``Metric`` column (lm-evaluation-harness prints ``| Tasks | Version | Filter | n-shot | Metric |
Value |``: each row names its own metric, so a heading's "accuracy" reaches none of them): checks that need it (ranges, repeated values) leave the cell alone
rather than guess, because identical tables whose metric is named only in the text before each
of them must not be compared with each other. The words themselves are in ``vocabulary``.

**Scale**: within one table, the cells of one metric are on the fraction scale when most of
them are ≤ 1, otherwise on the percent scale (×100); a cell printed with ``%`` is on the percent
scale.

**Orientation**: the leading columns without any number (or ``k/N`` fraction) hold the row labels (at least the
first column); a row's label joins them with `` / ``, and an empty first cell repeats the one
above it (tables that emulate a row span: ``| | Deactivate random | …``). A *group row* has a
label and every other cell empty (``| **MiniLM Models** | |``); it opens a group that runs to
the next group row. A ``Matrix`` presents a table along one axis (rows or columns) so that a
check written for "a row that relates other rows" also handles "a column that relates other
columns".
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from claims.consistency.cells import Printed, is_missing, normalise_label, parse_fraction, parse_number
from claims.consistency.vocabulary import (INTRODUCES, MEASURE_HEADER, aggregate_label, label_metrics,
                                           metrics_named)


METRIC_COLUMN = re.compile(r"^(?:metrics?|measures?)$", re.I)


def caption_metrics(caption: str) -> list[str]:
    """Metrics the caption names in its last sentence (the one that introduces the table)."""
    from claims.extract import split_sentences

    sentences = split_sentences(caption) if caption.strip() else []
    if not sentences:
        return []
    last = sentences[-1]
    introduces = len(caption.split()) <= 15 or last.rstrip().endswith(":") or INTRODUCES.search(last)
    return metrics_named(last) if introduces else []


@dataclass
class TableView:
    """A document-model table with its numbers parsed and its group rows found."""

    table: object          # audit.document.Table
    index: int             # 1-based order on the page
    numbers: list[list[Printed | None]] = field(default_factory=list)
    missing: list[list[bool]] = field(default_factory=list)
    is_group: list[bool] = field(default_factory=list)
    group_of: list[str] = field(default_factory=list)
    label_columns: int = 1
    labels: list[str] = field(default_factory=list)
    _metrics: dict = field(default_factory=dict)   # memo: (r, c) → (metric, source)
    _scales: dict = field(default_factory=dict)    # memo: metric → scale

    @classmethod
    def of(cls, table, index: int) -> "TableView":
        # the reader keeps a cell's <br> as a line break; a check names its cells on one line
        table = replace(table, header=tuple(" ".join(h.split()) for h in table.header),
                        rows=tuple(tuple(" ".join(c.split()) for c in row) for row in table.rows))
        view = cls(table, index)
        group = ""
        for row in table.rows:
            view.numbers.append([parse_number(cell) for cell in row])
            view.missing.append([is_missing(cell) for cell in row])
            grouping = bool(row) and bool(row[0].strip()) and all(not c.strip() for c in row[1:]) \
                and len(row) > 1
            if grouping:
                group = row[0]
            view.is_group.append(grouping)
            view.group_of.append(group)
        width = len(table.header)
        while view.label_columns < width and not any(
                view.numbers[r][view.label_columns] is not None
                or parse_fraction(table.rows[r][view.label_columns]) is not None for r in view.data_rows()):
            view.label_columns += 1
        carried = ""
        for r, row in enumerate(table.rows):
            if view.is_group[r]:
                carried = ""
                view.labels.append(row[0])
                continue
            carried = row[0] if row[0].strip() else carried
            parts = [carried] + [row[c] for c in range(1, min(view.label_columns, width - 1))]
            view.labels.append(" / ".join(p for p in parts if p.strip()))
        return view

    def row_label(self, r: int) -> str:
        """The row's label: its label cells joined with `` / `` (an empty first cell repeats the one
        above it, as in tables that emulate a row span)."""
        return self.labels[r]

    @property
    def header(self) -> tuple[str, ...]:
        return self.table.header

    @property
    def rows(self) -> tuple[tuple[str, ...], ...]:
        return self.table.rows

    def row_line(self, r: int) -> int:
        """The file line of body row ``r`` (0-based) of a table written one row a line (a pipe
        table: header, delimiter, then the rows); the table's first line when its rows do not map
        onto its lines one to one (an HTML table, a table recovered from one flattened line), as
        ``claims.extract.table_row_line`` gives the claim rows: never another row's line."""
        table = self.table
        row_lines = getattr(table, "row_lines", ())
        if len(row_lines) == len(table.rows) and 0 <= r < len(row_lines):
            return row_lines[r]  # a grid table: each row's first content line
        end = getattr(table, "end_line", None)
        if not getattr(table, "recovered", False) and (end is None or end - table.line == len(table.rows) + 1):
            return table.line + 2 + r
        return table.line

    def name(self) -> str:
        return f"table {self.index} (line {self.table.line})"

    def where(self, r: int, c: int) -> str:
        group = f" [{self.group_of[r]}]" if self.group_of[r] and not self.is_group[r] else ""
        section = f" in § {' › '.join(self.table.section)}" if self.table.section else ""
        return (f"{self.name()}{section}, row {self.row_label(r)!r}{group} × column {self.header[c]!r}, "
                f"line {self.row_line(r)}")

    def numeric_columns(self) -> list[int]:
        return [c for c in range(self.label_columns, len(self.header))
                if any(self.numbers[r][c] is not None for r in range(len(self.rows)))]

    def data_rows(self) -> list[int]:
        return [r for r in range(len(self.rows)) if not self.is_group[r]]

    def metric_of(self, r: int, c: int) -> tuple[str | None, str]:
        """(metric, where it was named) for one cell; see the module docstring for the order."""
        if (r, c) not in self._metrics:
            self._metrics[(r, c)] = self._metric_of(r, c)
        return self._metrics[(r, c)]

    def _metric_of(self, r: int, c: int) -> tuple[str | None, str]:
        for names, source in ((label_metrics(self.header[c], 2), "column header"),
                              (label_metrics(self.row_label(r), 0), "row label")):
            if len(names) == 1:
                return names[0], source
            if len(names) > 1:
                return None, f"{source} names several metrics"
        if self._measures_something_else(c):
            return None, "its column header names another measure"
        if any(METRIC_COLUMN.match(h.strip()) for h in self.header):
            return None, "a Metric column names each row's metric"
        for names, source in ((label_metrics(self.group_of[r], 1), "group row"),
                              (caption_metrics(self.table.caption), "caption")):
            if len(names) == 1:
                return names[0], source
            if len(names) > 1:
                return None, f"{source} names several metrics"
        for heading in reversed(self.table.section):
            names = label_metrics(heading, 3)
            if len(names) == 1:
                return names[0], "section heading"
            if len(names) > 1:
                return None, "section heading names several metrics"
        return None, "no metric named"

    def _measures_something_else(self, c: int) -> bool:
        """A header that is itself a measure (a count, a mean, a share …) is not under the table's metric."""
        header = self.header[c]
        if re.match(r"^\s*(?:test\s+)?(?:queries|documents|docs|passages|tasks|topics|qrels|judgments|judgements)\s*$",
                    header, re.I):   # a count noun (ranges.COUNT_HEADER's): counts, never the caption's metric
            return True
        return bool(MEASURE_HEADER.search(header)) and aggregate_label(header) is None

    def scale_of(self, metric: str) -> float:
        """1 (fractions) or 1/100 (the table prints this metric ×100), by majority of its cells."""
        if metric not in self._scales:
            self._scales[metric] = self._scale_of(metric)
        return self._scales[metric]

    def _scale_of(self, metric: str) -> float:
        small = large = 0
        for r in self.data_rows():
            for c in range(self.label_columns, len(self.header)):
                number = self.numbers[r][c]
                if number is None or number.percent or self.metric_of(r, c)[0] != metric:
                    continue
                if abs(number.value) <= 1:
                    small += 1
                else:
                    large += 1
        return 0.01 if large > small else 1.0

    def factor(self, r: int, c: int, metric: str | None) -> float:
        number = self.numbers[r][c]
        if number is not None and number.percent:
            return 0.01
        return self.scale_of(metric) if metric else 1.0


@dataclass
class Matrix:
    """A table seen along one axis: *majors* relate to each other, position by position over *minors*."""

    view: TableView
    axis: str              # "row": majors are body rows; "column": majors are numeric columns
    majors: list[int]
    minors: list[int]
    segments: list[list[int]]  # majors cut at group rows (one segment on the column axis)

    @classmethod
    def along(cls, view: TableView, axis: str) -> "Matrix":
        numeric = view.numeric_columns()
        if axis == "row":
            segments: list[list[int]] = [[]]
            for r in range(len(view.rows)):
                if view.is_group[r]:
                    if segments[-1]:
                        segments.append([])
                    continue
                segments[-1].append(r)
            segments = [s for s in segments if s]
            return cls(view, axis, [r for s in segments for r in s], numeric, segments)
        return cls(view, axis, numeric, view.data_rows(), [numeric])

    def label(self, i: int) -> str:
        return self.view.row_label(i) if self.axis == "row" else self.view.header[i]

    def minor_label(self, j: int) -> str:
        return self.view.header[j] if self.axis == "row" else self.view.row_label(j)

    def _rc(self, i: int, j: int) -> tuple[int, int]:
        return (i, j) if self.axis == "row" else (j, i)

    def value(self, i: int, j: int) -> Printed | None:
        r, c = self._rc(i, j)
        return self.view.numbers[r][c]

    def missing(self, i: int, j: int) -> bool:
        r, c = self._rc(i, j)
        return self.view.missing[r][c]

    def line(self, i: int, j: int) -> int:
        return self.view.row_line(self._rc(i, j)[0])

    def where(self, i: int, j: int) -> str:
        return self.view.where(*self._rc(i, j))

    def find(self, name: str, exclude: tuple[int, ...] = ()) -> int | None:
        """The one major whose label equals ``name`` (normalised), else the one containing it."""
        target = normalise_label(name)
        if not target:
            return None
        labels = {i: normalise_label(self.label(i)) for i in self.majors if i not in exclude}
        exact = [i for i, label in labels.items() if label == target]
        if len(exact) == 1:
            return exact[0]
        pattern = re.compile(rf"(?<![\w]){re.escape(target)}(?![\w])")
        contains = [i for i, label in labels.items() if pattern.search(label)]
        return contains[0] if len(contains) == 1 else None
