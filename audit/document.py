"""TEMPORARY minimal document model (issue 12), to be replaced by issue 9's ``audit/document.py``.

Implements only the agreed interface: ``read_markdown(text, path) -> Document`` and
``Document.tables() -> list[Table]``. Tables are read with markdown-it-py
(``MarkdownIt("commonmark").enable("table")``). Each run of consecutive lines starting with ``|``
is parsed on its own, because in GFM a prose line directly under a table would otherwise become a
row; a run holding two tables back to back is cut before each further header + delimiter pair.
``caption`` is the paragraph (consecutive non-blank, non-table lines) or heading just before the
table; ``section`` the heading path (``#`` ATX headings) above it. Cell texts have bold, emphasis
and code marks stripped and whitespace collapsed; rows are padded with ``''`` to the header's
length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from markdown_it import MarkdownIt

DELIMITER = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")
HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")


@dataclass(frozen=True)
class Table:
    line: int
    end_line: int
    section: tuple[str, ...]
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    recovered: bool = False


@dataclass(frozen=True)
class Document:
    path: str | None
    text: str
    _tables: tuple[Table, ...]

    def tables(self) -> list[Table]:
        return list(self._tables)


def _plain(inline_token) -> str:
    """Text of an inline token with emphasis/code markup dropped."""
    parts = []
    for child in inline_token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return " ".join("".join(parts).split())


def _parse_block(md: MarkdownIt, block: list[str]) -> list[tuple[int, int, tuple, tuple]]:
    tokens = md.parse("\n".join(block) + "\n")
    found = []
    header: list[str] = []
    rows: list[list[str]] = []
    row: list[str] | None = None
    in_head = False
    start = end = 0
    for token in tokens:
        if token.type == "table_open":
            header, rows = [], []
            start, end = token.map[0], token.map[1]
        elif token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            row = []
        elif token.type == "inline" and row is not None:
            row.append(_plain(token))
        elif token.type == "tr_close" and row is not None:
            (header.extend(row) if in_head else rows.append(row))
            row = None
        elif token.type == "table_close":
            width = len(header)
            body = tuple(tuple((r + [""] * width)[:width]) for r in rows)
            found.append((start, end, tuple(header), body))
    return found


def read_markdown(text: str, path: str | None = None) -> Document:
    """Parse ``text`` into a Document holding its pipe tables (1-based file lines)."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    md = MarkdownIt("commonmark").enable("table")
    tables: list[Table] = []
    headings: list[tuple[int, str]] = []
    caption_lines: list[str] = []
    caption = ""
    index = 0
    while index < len(lines):
        line = lines[index]
        heading = HEADING.match(line)
        if heading:
            level = len(heading.group(1))
            headings = [h for h in headings if h[0] < level] + [(level, heading.group(2))]
            caption_lines, caption = [], heading.group(2)
            index += 1
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
            for t_start, t_end, header, rows in _parse_block(md, lines[begin:stop]):
                tables.append(Table(line=begin + t_start + 1, end_line=begin + t_end,
                                    section=tuple(h[1] for h in headings),
                                    caption=caption, header=header, rows=rows))
            caption = ""
        caption_lines, caption = [], ""
    return Document(path=path, text=text, _tables=tuple(tables))
