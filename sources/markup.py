"""Markup in metadata text: Crossref titles and abstracts may carry JATS or HTML tags
(``<i>MMR</i>``, ``<jats:p>``, ``<sub>2</sub>``) and character references (``&amp;``).

:func:`strip_markup` keeps the text and drops the tags: every tag of the form ``<name ...>``,
``</name>`` or ``<name/>`` (a letter first, then letters, digits, ``:``, ``.``, ``_``, ``-``) is
removed (a block-level JATS/HTML tag — ``p``, ``title``, ``sec``, ``br``, ``div``, list items —
becomes a space, an inline one nothing), then HTML character references are decoded once and
the tag rule applied again (so an escaped ``&lt;i&gt;`` cannot come back as a tag), then
whitespace runs collapse to one space. A ``<`` that does not open such a tag (``k < n``)
is text and stays. A leading ``Abstract`` heading (JATS ``<jats:title>Abstract</jats:title>``)
is dropped from abstracts by :func:`clean_abstract`.
"""

from __future__ import annotations

import html
import re

_TAG = re.compile(r"</?([A-Za-z][\w:.\-]*)(?:\s[^<>]*)?/?>")
BLOCK_TAGS = frozenset({"p", "title", "sec", "br", "div", "li", "list", "list-item", "para",
                        "abstract", "label", "caption"})


def _replace(match: re.Match[str]) -> str:
    name = match.group(1).lower().split(":")[-1]
    return " " if name in BLOCK_TAGS else ""


def strip_markup(text: str) -> str:
    """``"The use of <i>MMR</i>,  diversity"`` → ``"The use of MMR, diversity"``."""
    decoded = html.unescape(_TAG.sub(_replace, text))
    return " ".join(_TAG.sub(_replace, decoded).split())


def clean_abstract(text: str) -> str:
    """:func:`strip_markup`, then a leading "Abstract" heading word removed."""
    cleaned = strip_markup(text)
    return re.sub(r"^abstract\b[\s.:]*", "", cleaned, flags=re.IGNORECASE) if \
        re.match(r"^abstract\b\s+\S", cleaned, re.IGNORECASE) else cleaned
