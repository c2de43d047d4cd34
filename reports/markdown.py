"""Small Markdown builders: tables with escaped cells, escaped inline text, bullet lists."""

from __future__ import annotations

import html
import re
from collections.abc import Iterable, Sequence

from reports.escape import neutralise_schemes

_INLINE_SPECIAL = re.compile(r"([\\`*_\[\]|#<>!])")


class Raw(str):
    """Markdown the renderer wrote itself (an anchor, an in-report link): never escaped again.

    Only :func:`anchor` and :func:`anchor_link` make these, from ids of the form ``[a-z0-9-]+``,
    so no chapter or source text can reach the output through them."""


_ANCHOR_ID = re.compile(r"^[a-z0-9][a-z0-9-]*$")


def anchor_id(name: str) -> str:
    """A row id as an HTML anchor id: ``C-004-01`` → ``c-004-01`` (anything else → ``-``)."""
    value = re.sub(r"[^a-z0-9-]+", "-", name.lower()).strip("-")
    return value or "row"


def anchor(name: str, label: str) -> Raw:
    """``<a id="c-004-01"></a>C-004-01``: the row's id, with an anchor a fix-first item links to."""
    ident = anchor_id(name)
    assert _ANCHOR_ID.match(ident)
    return Raw(f'<a id="{ident}"></a>{escape_cell(label)}')


def anchor_link(name: str, label: str) -> Raw:
    """``[C-004-01](#c-004-01)``: a link to a row of this report (the label escaped as inline text)."""
    return Raw(f"[{escape_inline(label)}](#{anchor_id(name)})")


def escape_cell(text: object) -> str:
    """Escape text for one pipe-table cell (delegates to reports.escape when present)."""
    if isinstance(text, Raw):
        return str(text)
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
