"""HTML ``<table>`` elements in an HTML block, read as the table a browser shows.

Docs sites, Jupyter / nbconvert exports, pandas ``DataFrame.to_html``, knitr ``kable(format="html")``
and GitHub READMEs write tables as HTML; :func:`read_html_tables` reads every ``<table>`` …
``</table>`` of an HTML block with the standard library's :mod:`html.parser` (entities decoded).
Conventions (the HTML table model, WHATWG HTML §4.9.12 "Processing model", simplified):

* rows are read in rendering order: ``<thead>`` rows, then body rows (``<tbody>`` or none), then
  ``<tfoot>`` rows; ``<td>``/``<th>``/``<tr>`` may be left unclosed (HTML's optional end tags);
* header rows: the ``<thead>`` rows; without a ``<thead>``, the leading rows of ``<th>`` cells
  only; without those, the first row;
* ``colspan``/``rowspan`` are expanded on a grid (a ``rowspan`` stops at the end of its row group,
  ``rowspan="0"`` runs to it; ``colspan`` is capped at 1000 as HTML does). In a header a spanning
  cell names every column it covers, and the names of several header rows are joined with `` › ``
  (``BEIR › nDCG``, the two-level header convention of :func:`claims.extract._sub_header`), a level
  repeated by a ``rowspan`` or left empty (pandas' index-name row) said once. In the body a span's
  first cell holds the text and the cells it covers are '' (the pipe-table way of writing a group
  row or a row span, ``| | Deactivate random |``, which the table readers already interpret);
* a cell's text: tags dropped, their text kept, except ``<sup>``/``<sub>`` (a marker, an exponent or a
  spread, :mod:`audit.cellmarks`: ``0.97<sup>8</sup>`` is ``0.97 ⁸``, never ``0.978``); ``<br>``, ``<p>``, ``<div>``, ``<li>`` are line
  breaks; whitespace runs collapsed; ``<script>``/``<style>`` and comments are no text;
* ``caption`` is the ``<caption>`` text ('' when none).

A malformed table is not read (left as markup, never a guessed cell): one never closed, one
holding a nested table (the nested table is read on its own), a body row wider than the header,
a table wider than 1000 columns or whose spans fill over a million grid cells, or one with no cell.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html.parser import HTMLParser

from audit.cellmarks import marked

MAX_COLUMNS = 1000
MAX_CELLS = 1_000_000  # grid cells spans may fill: more is no table a reader checks, and would take memory
_GROUPS = ("thead", "tbody", "tfoot")
_BREAKS = ("br", "p", "div", "li", "ul", "ol", "tr", "hr")


@dataclass(frozen=True)
class HtmlTable:
    """One table read from HTML: its first and last line (1-based, in the given text: the lines of
    ``<table`` and ``</table>``), caption, header and body rows (each as wide as the header)."""

    first_line: int
    last_line: int
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass
class _Cell:
    parts: list[str]
    colspan: int
    rowspan: int  # 0: to the end of the row group
    heading: bool


@dataclass
class _Row:
    group: int
    kind: str  # thead, tbody, tfoot
    cells: list[_Cell] = field(default_factory=list)


@dataclass
class _State:
    first_line: int
    rows: list[_Row] = field(default_factory=list)
    row: _Row | None = None
    cell: _Cell | None = None
    caption: list[str] | None = None
    caption_text: str = ""
    group: int = 0
    kind: str = "tbody"
    nested: bool = False

    def close_cell(self) -> None:
        self.cell = None

    def close_row(self) -> None:
        self.close_cell()
        if self.row is not None and self.row.cells:
            self.rows.append(self.row)
        self.row = None


def _span(attrs: list[tuple[str, str | None]], name: str, default: int, cap: int) -> int:
    value = next((v for k, v in attrs if k == name), None)
    try:
        number = int((value or "").strip().rstrip(";"))
    except ValueError:
        return default
    return default if number < 0 or (number == 0 and name == "colspan") else min(number, cap)


class _Reader(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.open: list[_State] = []
        self.done: list[tuple[_State, int]] = []
        self.skip = 0
        self.marks: list[tuple[str, _Cell | None, int]] = []  # open <sup>/<sub>: tag, its cell, first part

    def _text(self, piece: str) -> None:
        if self.skip or not self.open:
            return
        state = self.open[-1]
        if state.caption is not None:
            state.caption.append(piece)
        elif state.cell is not None:
            state.cell.parts.append(piece)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in ("script", "style"):
            self.skip += 1
            return
        if tag == "table":
            if self.open:
                self.open[-1].nested = True
            self.open.append(_State(self.getpos()[0]))
            return
        if not self.open:
            return
        state = self.open[-1]
        if tag == "caption":
            state.close_row()
            state.caption = []
        elif tag in _GROUPS:
            state.close_row()
            state.group += 1
            state.kind = tag
        elif tag == "tr":
            state.close_row()
            state.row = _Row(state.group, state.kind)
        elif tag in ("td", "th"):
            state.close_cell()
            if state.row is None:  # a cell with no <tr>: HTML opens the row
                state.row = _Row(state.group, state.kind)
            state.cell = _Cell([], _span(attrs, "colspan", 1, MAX_COLUMNS), _span(attrs, "rowspan", 1, 65534),
                               tag == "th")
            state.row.cells.append(state.cell)
        elif tag in ("sup", "sub") and state.cell is not None and state.caption is None:
            self.marks.append((tag, state.cell, len(state.cell.parts)))
        elif tag in _BREAKS:
            self._text("\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self.skip = max(0, self.skip - 1)
            return
        if not self.open:
            return
        state = self.open[-1]
        if tag == "table":
            state.close_row()
            self.open.pop()
            if state.caption is not None:
                state.caption_text, state.caption = " ".join("".join(state.caption).split()), None
            self.done.append((state, self.getpos()[0]))
        elif tag == "caption" and state.caption is not None:
            state.caption_text, state.caption = " ".join("".join(state.caption).split()), None
        elif tag == "tr" or tag in _GROUPS:
            state.close_row()
        elif tag in ("td", "th"):
            state.close_cell()
        elif tag in ("sup", "sub") and self.marks and self.marks[-1][:2] == (tag, state.cell):
            _, _, start = self.marks.pop()
            parts = state.cell.parts
            if start <= len(parts):  # the marker's text in its cell (audit.cellmarks)
                parts[start:] = [marked(tag, "".join(parts[start:]), "".join(parts[:start]))]
        elif tag in _BREAKS:
            self._text("\n")

    def handle_data(self, data: str) -> None:
        self._text(data)


def _cell_text(cell: _Cell) -> str:
    lines = (" ".join(line.split()) for line in "".join(cell.parts).split("\n"))
    return "\n".join(line for line in lines if line)


def _grid(rows: list[_Row]) -> list[dict[int, tuple[str, bool]]] | None:
    """Each row's cells by column: ``(text, covered)``, covered True for a cell a span covers
    beyond its first; None when wider than :data:`MAX_COLUMNS`."""
    grid: list[dict[int, tuple[str, bool]]] = [{} for _ in rows]
    ends = list(range(len(rows)))  # the last row of each row's group
    for y in range(len(rows) - 2, -1, -1):
        if (rows[y + 1].group, rows[y + 1].kind) == (rows[y].group, rows[y].kind):
            ends[y] = ends[y + 1]
    placed = 0
    for y, row in enumerate(rows):
        end = ends[y]
        x = 0
        for cell in row.cells:
            while x in grid[y]:
                x += 1
            if x + cell.colspan > MAX_COLUMNS:
                return None
            text = _cell_text(cell)
            down = end - y + 1 if cell.rowspan == 0 else min(cell.rowspan, end - y + 1)
            placed += down * cell.colspan
            if placed > MAX_CELLS:
                return None
            for dy in range(down):
                for dx in range(cell.colspan):
                    grid[y + dy].setdefault(x + dx, (text, dx > 0 or dy > 0))
            x += cell.colspan
    return grid


def _table(state: _State, last_line: int) -> HtmlTable | None:
    if state.nested or not state.rows:
        return None
    order = {"thead": 0, "tbody": 1, "tfoot": 2}
    rows = sorted(state.rows, key=lambda r: order[r.kind])  # stable: source order within each kind
    grid = _grid(rows)
    if grid is None:
        return None
    heads = sum(1 for r in rows if r.kind == "thead")
    if not heads:
        while heads < len(rows) - 1 and all(c.heading for c in rows[heads].cells):
            heads += 1
        heads = heads or 1
    width = max((max(g) + 1 for g in grid[:heads] if g), default=0)
    if not width or any(g and max(g) + 1 > width for g in grid[heads:]):
        return None  # a body row wider than the header: no column to put its cells in
    header = []
    for x in range(width):
        levels: list[str] = []
        for g in grid[:heads]:
            name = " ".join(g.get(x, ("", False))[0].split())
            if name and (not levels or levels[-1] != name):
                levels.append(name)
        header.append(" › ".join(levels))
    body = tuple(tuple("" if g.get(x, ("", True))[1] else g[x][0] for x in range(width)) for g in grid[heads:])
    return HtmlTable(state.first_line, last_line, state.caption_text, tuple(header), body)


def read_html_tables(html: str) -> list[HtmlTable]:
    """Every well-formed ``<table>`` of ``html`` in source order (module docstring); never raises."""
    reader = _Reader()
    try:
        reader.feed(html)
        reader.close()
    except Exception:  # html.parser is lenient; a defect here must leave the block as markup
        return []
    tables = [t for t in (_table(state, last) for state, last in reader.done) if t is not None]
    return sorted(tables, key=lambda t: (t.first_line, t.last_line))
