"""One pipe table (GFM) read from its own lines, for the flattened-text reader.

:mod:`audit.flattened` finds pipe tables written into flattened text and parses each alone with
markdown-it-py (CommonMark + the GFM table rule), so that the line under a table is never a row.
The cell text follows :func:`audit.document.inline_text` for cells: inline markup removed, inline
code keeps its content, ``<br>`` is a line break, an HTML comment and a formatting tag (``<b>``) are
dropped, ``<sup>``/``<sub>`` are markers (:mod:`audit.cellmarks`). Kept apart from
:mod:`audit.document` so that the two readers do not import each other.
"""

from __future__ import annotations

import re
from typing import Any, Callable

_BREAK = re.compile(r"^<br\s*/?>$", re.I)
_FORMAT = re.compile(r"^</?\s*(?:b|i|em|strong|u|s|del|ins|mark|small|span|font|code|a|abbr)\b[^>]*>$", re.I)
"""A formatting tag in a cell (``<b>0.91</b>``): no text, its content stays; any other tag-like text
(``<unk>``, a tokenizer's special token in a cell) is kept as written."""


def _cell(children: list[Any] | None) -> str:
    from audit.cellmarks import mark_children

    parts = []
    for child in mark_children(children):
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type == "html_inline":
            content = child.content.strip()
            parts.append("\n" if _BREAK.match(content) else "" if content.startswith("<!--") or _FORMAT.match(content)
                         else child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type in ("math_inline", "math_inline_double"):
            parts.append(f"${child.content}$")
    return "\n".join(" ".join(p.split()) for p in "".join(parts).split("\n")).strip()


def read_pipe_table(lines: list[str]) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...]] | None:
    """``(header, rows)`` of the first table in ``lines`` (rows padded or cut to the header's
    length), or None when the lines hold no table."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse("\n".join(lines) + "\n")
    first = next((i for i, token in enumerate(tokens) if token.type == "table_open"), None)
    if first is None:
        return None
    _, header, rows = table_tokens(tokens, first, _cell)
    width = len(header)
    return tuple(header), tuple(tuple((row + [""] * width)[:width]) for row in rows)


def table_tokens(tokens: list[Any], index: int, cell: Callable[[list[Any] | None], str]
                 ) -> tuple[int, list[str], list[list[str]]]:
    """From ``tokens[index]`` (a ``table_open``) to its ``table_close``: that index, the header
    cells and the body rows, each cell's text from ``cell(inline children)``. Shared by both
    readers (:mod:`audit.document` and :func:`read_pipe_table`)."""
    header: list[str] = []
    rows: list[list[str]] = []
    current: list[str] | None = None
    in_head = False
    while index < len(tokens) and tokens[index].type != "table_close":
        token = tokens[index]
        if token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            current = []
        elif token.type == "tr_close" and current is not None:
            if in_head:
                header = current
            else:
                rows.append(current)
            current = None
        elif token.type == "inline" and current is not None:
            current.append(cell(token.children))
        index += 1
    return index, header, rows
