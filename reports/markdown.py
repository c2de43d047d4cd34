"""Small Markdown builders: tables with escaped cells, escaped inline text, bullet lists."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

from reports.escape import neutralise_schemes

_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]|#<>!])")


def escape_cell(text: object) -> str:
    """Escape text for one pipe-table cell (delegates to reports.escape when present)."""
    try:
        from reports.escape import escape_cell as shared
    except ImportError:  # pragma: no cover - reports.escape ships with the package
        shared = None
    if shared is not None:
        return shared(str(text))
    value = html.escape(str(text), quote=False)
    value = value.replace("\\", "\\\\").replace("|", "\\|")
    return " ".join(value.split())


def escape_inline(text: object) -> str:
    """Escape text for a paragraph or list item: HTML entities, Markdown punctuation, one line."""
    value = " ".join(str(text).split())
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    value = re.sub(r"([\\`*_\[\]|#!])", r"\\\1", value)
    if value[:1] in "-+=" or re.match(r"^\d+[.)]", value):
        value = "\\" + value
    return neutralise_schemes(value)


def table(headers: Sequence[str], rows: Iterable[Sequence[object]]) -> str:
    """A pipe table; every cell escaped, every row the header's width."""
    width = len(headers)
    lines = ["| " + " | ".join(escape_cell(h) for h in headers) + " |",
             "|" + "---|" * width]
    for row in rows:
        cells = list(row)
        if len(cells) != width:
            raise ValueError(f"row has {len(cells)} cells, table has {width} columns")
        lines.append("| " + " | ".join(escape_cell(c) if c != "" else " " for c in cells) + " |")
    return "\n".join(lines)


def bullets(items: Iterable[str]) -> str:
    """A bullet list of already-escaped items; '- (none)' when empty."""
    items = list(items)
    return "\n".join(f"- {item}" for item in items) if items else "- (none)"
