"""The tables of a page or chapter, read with the document model, robust to flattened pages.

GFM lets a table row lack its pipes, so on a page flattened to one paragraph per line (the
seed-000 results page) a prose line directly under a table becomes a row, and a second table
directly under the first becomes more rows of it. Each run of consecutive lines starting with
``|`` is therefore cut out and parsed on its own with ``audit.document.read_markdown``
(markdown-it-py), and a run holding tables back to back is cut before each further header +
delimiter pair. Line numbers are those of the given text plus ``offset``; ``section`` is the
ATX heading path above the table; ``caption`` is the paragraph (consecutive non-blank, non-table
lines) or heading just before it, '' when a table follows another directly.
"""

from __future__ import annotations

import re
from dataclasses import replace

from audit.document import Table, read_markdown

DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
FENCE = re.compile(r"^\s{0,3}(```|~~~)")


def read_tables(text: str, path: str | None = None, offset: int = 0) -> list[Table]:
    """Every pipe table of ``text`` in page order (see the module docstring)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    tables: list[Table] = []
    headings: list[tuple[int, str]] = []
    caption_lines: list[str] = []
    caption = ""
    fenced = False
    index = 0
    while index < len(lines):
        line = lines[index]
        if FENCE.match(line):
            fenced = not fenced
        if fenced or FENCE.match(line):
            index += 1
            continue
        heading = HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            title = heading.group(2).replace("**", "").replace("`", "")
            headings = [h for h in headings if h[0] < level] + [(level, title)]
            caption_lines, caption = [], title
            index += 1
            continue
        found = _html_tables(lines, index, headings, caption, offset) if "<table" in line.lower() else None
        if found:  # an HTML <table> (audit.htmltable), read to the end of its HTML block
            index, more = found
            tables.extend(more)
            caption_lines, caption = [], ""
            continue
        grid = _grid_table(lines, index, headings, caption, offset) if line.lstrip().startswith("+") else None
        if grid:  # a Pandoc / RST grid table (audit.gridtable)
            index, table = grid
            tables.append(table)
            caption_lines, caption = [], ""
            continue
        if not line.lstrip().startswith("|"):
            if line.strip():
                caption_lines.append(line.strip())
                caption = " ".join(caption_lines)
            else:
                caption_lines = []
            index += 1
            continue
        start = index
        while index < len(lines) and lines[index].lstrip().startswith("|"):
            index += 1
        cuts = [start] + [i - 1 for i in range(start + 2, index) if DELIMITER.match(lines[i])] + [index]
        for begin, stop in zip(cuts, cuts[1:]):
            for table in read_markdown("\n".join(lines[begin:stop]) + "\n", path).tables():
                tables.append(replace(table, line=table.line + begin + offset,
                                      end_line=table.end_line + begin + offset,
                                      section=tuple(h[1] for h in headings), caption=caption))
            caption = ""
        caption_lines, caption = [], ""
    return tables


def _html_tables(lines: list[str], index: int, headings: list[tuple[int, str]], caption: str, offset: int
                 ) -> tuple[int, list[Table]] | None:
    """The HTML tables of the HTML block from ``lines[index]`` (which holds ``<table``) to its first
    blank line, and the index after it; None when it holds no well-formed table (the lines are then
    read as any others). Caption: the ``<caption>``, else the paragraph or heading before."""
    from audit.htmltable import read_html_tables

    stop = next((i for i in range(index, len(lines)) if not lines[i].strip()), len(lines))
    found = read_html_tables("\n".join(lines[index:stop]))
    if not found:
        return None
    section = tuple(h[1] for h in headings)
    caption = "" if caption.lstrip().startswith("<") else caption  # the block's own opening tag (<div>): no caption
    return stop, [Table(t.first_line + index + offset, t.last_line + index + offset, section,
                        t.caption or (caption if number == 0 else ""), t.header, t.rows)
                  for number, t in enumerate(found)]


def _grid_table(lines: list[str], index: int, headings: list[tuple[int, str]], caption: str, offset: int
                ) -> tuple[int, Table] | None:
    """The grid table starting at ``lines[index]`` (audit.gridtable) and the index after it; None
    when none starts there."""
    from audit.document import table_cell_text
    from audit.gridtable import find_grid_tables

    found = find_grid_tables(lines[index:], table_cell_text)
    if not found or found[0].first_line != 1:
        return None
    t = found[0]
    return index + t.last_line, Table(t.first_line + index + offset, t.last_line + index + offset,
                                      tuple(h[1] for h in headings), caption, t.header, t.rows,
                                      row_lines=tuple(n + index + offset for n in t.row_lines))
