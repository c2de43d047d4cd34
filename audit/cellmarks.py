"""``<sup>`` / ``<sub>`` in a table cell: a footnote or significance marker, an exponent, a spread.

Results tables mark cells with superscripts (``0.97<sup>8</sup>``: footnote 8; ``41.2<sup>†</sup>``:
significant) and print a spread as a subscript (``0.81<sub>±0.02</sub>``). Dropping the tags glues
the marker to the number (``0.978``), a wrong value. Conventions, for every table reader (HTML
tables, pipe tables in Markdown and in flattened text, grid tables):

* a ``<sup>`` holding an integer right after a standalone ``10`` is an exponent: written glued in
  superscript digits (``10<sup>-4</sup>`` → ``10⁻⁴``), which :mod:`claims.quantities` reads as a
  power of ten, as it reads ``3 × 10⁻⁴`` in prose;
* a ``<sup>`` or ``<sub>`` of footnote symbols only (``*``, ``†``, ``‡``, ``§``) is glued as written
  (``0.61<sup>*</sup>`` → ``0.61*``, the way pipe cells write it);
* any other ``<sup>`` is a marker: written after a space, in superscript characters where Unicode
  has them (``⁸``, ``ᵃ``) and as written otherwise, so that the number before it keeps its value
  and the marker is no quantity (``0.97 ⁸``);
* a ``<sub>`` that opens with ``±`` or ``(`` is a spread, written after a space (``0.81 ±0.02``, the
  value and its spread as in an ``0.81 ± 0.02`` cell); any other ``<sub>`` is a marker as above, in
  subscript characters.
"""

from __future__ import annotations

import re
from typing import Any

_SUPER = dict(zip("0123456789+-−=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVW",
                  "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ"))
_SUB = dict(zip("0123456789+-−=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
_TEN = re.compile(r"(?:^|[^\d.,])10$")
_EXPONENT = re.compile(r"^[-+−]?\d+$")
_TAG = re.compile(r"^<\s*(/?)\s*(sup|sub)\b[^>]*>$", re.I)


def marked(tag: str, inner: str, before: str) -> str:
    """The text a ``<sup>``/``<sub>`` holding ``inner`` stands for after the cell text ``before``
    (module docstring)."""
    inner = " ".join(inner.split())
    if not inner:
        return ""
    if tag == "sup" and _TEN.search(before) and _EXPONENT.match(inner):
        return "".join(_SUPER[ch] for ch in inner)
    if all(ch in "*†‡§" for ch in inner):
        return inner  # glued as written, as in a pipe cell (``41.2*``, ``0.812†``)
    if tag == "sub" and inner[0] in "±(":
        return " " + inner
    table = _SUPER if tag == "sup" else _SUB
    return " " + "".join(table.get(ch, ch) for ch in inner)


def mark_children(children: list[Any] | None) -> list[Any]:
    """Inline tokens of a cell (markdown-it-py) with each ``<sup>…</sup>`` / ``<sub>…</sub>`` run
    replaced by one text token of :func:`marked` text; other tokens unchanged."""
    from markdown_it.token import Token

    out: list[Any] = []
    items = list(children or ())
    index = 0
    while index < len(items):
        child = items[index]
        opened = _TAG.match(child.content.strip()) if child.type == "html_inline" else None
        if opened and not opened.group(1):
            tag = opened.group(2).lower()
            close = next((j for j in range(index + 1, len(items)) if items[j].type == "html_inline"
                          and (m := _TAG.match(items[j].content.strip())) and m.group(1)
                          and m.group(2).lower() == tag), None)
            if close is not None:
                inner = "".join(c.content for c in items[index + 1:close] if c.type in ("text", "code_inline"))
                before = "".join(c.content for c in out if c.type in ("text", "code_inline"))
                out.append(Token("text", "", 0, content=marked(tag, inner, before)))
                index = close + 1
                continue
        out.append(child)
        index += 1
    return out
