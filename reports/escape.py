"""Escaping arbitrary text for one cell of a Markdown pipe table.

:func:`escape_cell` is shared by the claims table (``chapter-audit claims --format md``) and the
report renderer. The goal is structural safety: no input text can end a cell, end a row,
or inject HTML. Rules, applied in this order:

1. ``\\`` → ``\\\\`` (so an input backslash cannot escape what follows it);
2. ``&`` → ``&amp;``, ``<`` → ``&lt;``, ``>`` → ``&gt;`` (no raw HTML, e.g. ``<script>``);
3. ``|`` → ``\\|`` (a literal pipe, not a cell boundary);
4. ``[``, ``]`` and ``!`` → ``\\[``, ``\\]``, ``\\!``, so that no link or image can form: text
   from a chapter, a claims file or a source record is inert (it never fetches or runs anything);
5. a ``javascript:``, ``vbscript:`` or ``data:`` scheme loses its colon to an escape
   (``javascript\\:``), so that such a URL appears nowhere in the report, not even as a
   candidate for a renderer's autolinker;
6. every line break (CR LF, CR, LF, VT, FF, NEL U+0085, U+2028, U+2029) → one space, because
   a table row is one line.

Other Markdown punctuation (``*``, ``_``, backticks) is left alone: it can change inline
formatting inside the cell but cannot break the table. Rendered with a CommonMark + GFM-tables
parser (markdown-it-py), the cell's text is the input with line breaks as spaces.
"""

from __future__ import annotations

import re

_LINE_BREAKS = re.compile(r"\r\n|[\r\n\x0b\x0c\x85\u2028\u2029]")
_LINK_PUNCTUATION = re.compile(r"([\[\]!])")
_ACTIVE_SCHEMES = re.compile(r"\b(javascript|vbscript|data)\s*:", re.IGNORECASE)


def neutralise_schemes(text: str) -> str:
    """``javascript:`` → ``javascript\\:`` (likewise ``vbscript:``, ``data:``): an escaped colon
    renders as a colon but no longer spells the scheme in the Markdown source."""
    return _ACTIVE_SCHEMES.sub(lambda m: m.group(0)[:-1] + "\\:", text)


def escape_cell(text: str) -> str:
    """Escape ``text`` for one Markdown pipe-table cell (see module docstring)."""
    value = str(text).replace("\\", "\\\\")
    value = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    value = value.replace("|", "\\|")
    value = _LINK_PUNCTUATION.sub(r"\\\1", value)
    value = neutralise_schemes(value)
    return _LINE_BREAKS.sub(" ", value)
