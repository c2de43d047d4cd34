"""One pipe table (GFM) read from its own lines, for the flattened-text reader.

:mod:`audit.flattened` finds pipe tables written into flattened text and parses each alone with
markdown-it-py (CommonMark + the GFM table rule), so that the line under a table is never a row.
The cell text follows :func:`audit.document.inline_text` for cells: inline markup removed, inline
code keeps its content, ``<br>`` is a line break, an HTML comment is dropped. Kept apart from
:mod:`audit.document` so that the two readers do not import each other.
"""

from __future__ import annotations

import re
from typing import Any

_BREAK = re.compile(r"^<br\s*/?>$", re.I)


def _cell(children: list[Any] | None) -> str:
    parts = []
    for child in children or ():
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type == "html_inline":
            content = child.content.strip()
            parts.append("\n" if _BREAK.match(content) else "" if content.startswith("<!--") else child.content)
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
    header: list[str] = []
    rows: list[list[str]] = []
    current: list[str] | None = None
    in_head = found = False
    for token in tokens:
        if token.type == "table_open":
            found = True
        elif token.type == "table_close":
            break
        elif token.type == "thead_open":
            in_head = True
        elif token.type == "thead_close":
            in_head = False
        elif token.type == "tr_open":
            current = []
        elif token.type == "tr_close" and current is not None:
            (header.extend(current) if in_head else rows.append(current))
            current = None
        elif token.type == "inline" and current is not None:
            current.append(_cell(token.children))
    if not found:
        return None
    width = len(header)
    return tuple(header), tuple(tuple((row + [""] * width)[:width]) for row in rows)
