"""Grid tables (Pandoc / Quarto / reStructuredText) found in Markdown source lines.

markdown-it-py knows only GFM pipe tables, so a grid table's borders and cells would be read as
prose. :func:`find_grid_tables` finds them line by line before the parse (outside code fences and
indented code) so that :func:`audit.document.read_markdown` can set their lines aside as ``table``
blocks. Conventions (Pandoc's manual, "Grid tables"; docutils' "Grid Tables"):

* a grid table starts with a ``+---+---+`` border (``-``, ``=`` or ``:`` between ``+``, indented
  at most three spaces) and holds only border lines and ``|`` content lines; it ends at its last
  border line, and the first line after it that is neither is never part of it (prose);
* the column boundaries are the ``+`` positions of the first border line;
* a ``+===+`` line ends the header: the logical rows above it are the header; with none, the first
  logical row is the header (as the HTML reader takes the first row when none is marked);
* a logical row is the content lines between two border lines; a cell's lines are joined with
  spaces (a wrapped cell), a blank line inside a cell is a line break; inline markup is removed as
  in pipe-table cells (the caller's ``cell`` function);
* a content line with no ``|`` at a column boundary joins the two cells (a column span): the text
  is in the span's first cell and the cells it covers are '' (the HTML reader's convention);
* a table whose content lines do not line up with its first border (a line too short, or not
  starting and ending with ``|``) is not read: its lines are left as they were.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

_BORDER = re.compile(r"^ {0,3}\+(?:[-=:]+\+)+\s*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


@dataclass(frozen=True)
class GridTable:
    """One grid table: its first and last line (1-based), header cells, body rows (as wide as the
    header) and the first line of each body row."""

    first_line: int
    last_line: int
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    row_lines: tuple[int, ...]


def _boundaries(border: str) -> list[int]:
    return [i for i, ch in enumerate(border) if ch == "+"]


def _split(line: str, bounds: list[int]) -> list[str] | None:
    """The cell texts of a content line between ``bounds``; a missing ``|`` at an inner boundary
    joins two cells (a column span: the text in its first cell, '' in the cells it covers)."""
    line = line.rstrip()
    if len(line) < bounds[-1] + 1 or line[bounds[0]] != "|" or line[bounds[-1]] != "|":
        return None
    cells: list[str] = []
    start, first_column = bounds[0] + 1, 0
    for column, b in enumerate(bounds[1:], start=1):
        if line[b] == "|":
            cells.append(line[start:b])
            cells.extend([""] * (column - first_column - 1))
            start, first_column = b + 1, column
    return cells


def _row(lines: list[list[str]], width: int, cell: Callable[[str], str]) -> tuple[str, ...]:
    """One logical row from its content lines' cells: each column's lines joined (a blank line is a
    line break), then ``cell`` removes inline markup."""
    texts = []
    for x in range(width):
        paragraphs: list[list[str]] = [[]]
        for parts in lines:
            piece = parts[x].strip()
            if piece:
                paragraphs[-1].append(piece)
            elif paragraphs[-1]:
                paragraphs.append([])
        joined = [" ".join(p) for p in paragraphs if p]
        texts.append("\n".join(cell(p) for p in joined).strip())
    return tuple(texts)


def _read(lines: list[str], first: int, last: int, cell: Callable[[str], str]) -> GridTable | None:
    bounds = _boundaries(lines[first].rstrip())
    width = len(bounds) - 1
    logical: list[tuple[int, list[list[str]]]] = []
    header_rows = 0
    current: list[list[str]] = []
    current_line = 0
    for number in range(first + 1, last + 1):
        line = lines[number]
        if _BORDER.match(line):
            if current:
                logical.append((current_line, current))
                current = []
            if "=" in line and not header_rows:
                header_rows = len(logical)
            continue
        parts = _split(line, bounds)
        if parts is None:
            return None
        if not current:
            current_line = number + 1
        current.append(parts)
    rows = [(at, _row(parts, width, cell)) for at, parts in logical]
    if not rows:
        return None
    head = header_rows or 1
    header = tuple(" ".join(" ".join(r[x].split()) for _, r in rows[:head] if r[x].strip()) for x in range(width))
    body = rows[head:]
    return GridTable(first + 1, last + 1, header, tuple(r for _, r in body), tuple(at for at, _ in body))


def fenced_lines(lines: list[str]) -> list[bool]:
    """For each line, whether it is a code fence or inside one (CommonMark: a closing fence is the
    opening fence's character, at least as long, with nothing after it), so that no table finder
    reads a table inside code; the grid and the simple-table finders share it."""
    out: list[bool] = []
    fence: str | None = None
    for line in lines:
        opened = _FENCE.match(line)
        if fence is not None:
            if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= len(fence) \
                    and not line.strip()[len(opened.group(1)):].strip():
                fence = None
            out.append(True)
        elif opened:
            fence = opened.group(1)
            out.append(True)
        else:
            out.append(False)
    return out


def find_grid_tables(lines: list[str], cell: Callable[[str], str]) -> list[GridTable]:
    """Every readable grid table of ``lines`` (module docstring), outside fenced and indented code."""
    tables: list[GridTable] = []
    code = fenced_lines(lines)
    index = 0
    while index < len(lines):
        line = lines[index]
        if code[index]:
            index += 1
            continue
        if _BORDER.match(line) and "=" not in line:
            end = index
            last_border = index
            while end + 1 < len(lines) and (_BORDER.match(lines[end + 1]) or lines[end + 1].lstrip().startswith("|")):
                end += 1
                if _BORDER.match(lines[end]):
                    last_border = end
            if last_border > index:
                table = _read(lines, index, last_border, cell)
                if table is not None:
                    tables.append(table)
                    index = last_border + 1
                    continue
        index += 1
    return tables


# ---------------------------------------------------------------------------------------------
# Simple tables: reStructuredText (``=====  =====`` rules) and Pandoc (a ``-----  -----`` rule under
# the header). Columns are the rule's runs of ``=`` or ``-``; a cell is the text over its run (a
# cell's text may overhang its run to the right up to the next run, as both tools allow).

_RULE = {"=": re.compile(r"^ {0,3}=+(?: +=+)+\s*$"), "-": re.compile(r"^ {0,3}-{3,}(?: +-{3,})+\s*$")}


def _runs(rule: str) -> list[tuple[int, int]]:
    return [(m.start(), m.end()) for m in re.finditer(r"[-=]+", rule)]


def _cells(line: str, runs: list[tuple[int, int]]) -> list[str] | None:
    """The cell texts of ``line`` under ``runs``; None when a word straddles a gap between columns
    (the line is not laid out in these columns)."""
    cells = []
    for k, (start, _) in enumerate(runs):
        stop = runs[k + 1][0] if k + 1 < len(runs) else len(line)
        if k + 1 < len(runs) and 0 < stop <= len(line) and line[stop - 1:stop + 1].strip() and \
                len(line[stop - 1:stop + 1].strip()) == 2:
            return None
        cells.append(line[start:stop].strip())
    if runs[0][0] > 0 and line[:runs[0][0]].strip():
        return None
    return cells


def _simple_table(lines: list[str], index: int, cell: Callable[[str], str]) -> tuple[GridTable, int] | None:
    """The simple table whose rule is ``lines[index]``, and the index after it (module comments)."""
    rule = lines[index]
    runs = _runs(rule)
    if _RULE["="].match(rule):  # RST: rule, [header, rule], rows, rule
        end = next((j for j in range(index + 1, len(lines)) if _RULE["="].match(lines[j])), None)
        if end is None:
            return None
        close = next((j for j in range(end + 1, len(lines)) if _RULE["="].match(lines[j])), None)
        head_lines, body_first, last = (list(range(index + 1, end)), end + 1, close) if close else ([], index + 1, end)
        if close is None:
            head_lines, body_first, last = [], index + 1, end
    else:  # Pandoc: header line right above the rule, rows to the first blank line
        if index == 0 or not lines[index - 1].strip():
            return None
        head_lines, body_first = [index - 1], index + 1
        last = next((j for j in range(body_first, len(lines)) if not lines[j].strip()), len(lines))
        if last == body_first:
            return None
    parsed_head = [_cells(lines[j], runs) for j in head_lines]
    if any(p is None for p in parsed_head):
        return None
    header = tuple(" ".join(c for c in col if c) for col in zip(*parsed_head)) if parsed_head else ()
    rows: list[list[str]] = []
    row_lines: list[int] = []
    for j in range(body_first, last):
        if not lines[j].strip():
            continue
        parts = _cells(lines[j], runs)
        if parts is None:
            return None
        if rows and not parts[0] and lines is not None and _RULE["="].match(rule):  # RST continuation line
            rows[-1] = [f"{a} {b}".strip() for a, b in zip(rows[-1], parts)]
            continue
        rows.append(parts)
        row_lines.append(j + 1)
    if not header:
        if len(rows) < 2:
            return None
        header, rows, row_lines = tuple(rows[0]), rows[1:], row_lines[1:]
    if not rows:
        return None
    first = head_lines[0] if head_lines and head_lines[0] < index else index
    table = GridTable(first + 1, last + 1 if _RULE["="].match(rule) else last,
                      tuple(cell(h) for h in header), tuple(tuple(cell(c) for c in r) for r in rows),
                      tuple(row_lines))
    return table, (last + 1 if _RULE["="].match(rule) else last)


def find_simple_tables(lines: list[str], cell: Callable[[str], str]) -> list[GridTable]:
    """Every readable RST simple table of ``lines``, outside fenced code (section comment). Pandoc
    simple tables (a ``-----  -----`` rule) are read by :mod:`audit.sitemarkup` as pipe tables, the
    ``Table:`` caption line with them, so they are left to it."""
    tables: list[GridTable] = []
    code = fenced_lines(lines)
    index = 0
    while index < len(lines):
        line = lines[index]
        if code[index]:
            index += 1
            continue
        if _RULE["="].match(line):  # Pandoc simple tables: audit.sitemarkup reads them as pipe tables
            found = _simple_table(lines, index, cell)
            if found is not None:
                tables.append(found[0])
                index = found[1]
                continue
        index += 1
    return tables
