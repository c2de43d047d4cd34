"""The sandbox tokenizer: one regular expression, case-insensitive, tokens lowercased.

Convention (docs/sandbox.md, "Tokenizer"): a token is a maximal match of
:data:`TOKEN_PATTERN` (``[a-z0-9]+(?:[-'][a-z0-9]+)?``) applied with ``re.IGNORECASE`` to
the text, then lowercased. A hyphen or apostrophe joins at most two alphanumeric runs
(``held-out`` is one token, ``a-b-c`` is ``a-b`` then ``c``); every other character separates
tokens. The method is deliberately English-oriented: non-ASCII letters are separators.
A document's retrieval text is ``title + " " + text`` (:func:`document_text`).
"""

from __future__ import annotations

import re

TOKEN_PATTERN = r"[a-z0-9]+(?:[-'][a-z0-9]+)?"
"""The tokenizer's regular expression, recorded verbatim in every sandbox manifest."""

TOKEN_FLAGS = "IGNORECASE"
"""The regular-expression flags (recorded in the manifest beside the pattern)."""

_TOKEN_RE = re.compile(TOKEN_PATTERN, re.IGNORECASE)
_ASCII_TOKEN_RE = re.compile(TOKEN_PATTERN)


def tokenize(text: str) -> list[str]:
    """Lowercased tokens of ``text`` in order of appearance (repeats kept).

    ASCII text (``str.isascii``, a flag CPython stores) is lowercased first and matched without
    ``IGNORECASE``: for ASCII, lowercasing maps exactly ``A–Z`` to ``a–z`` and keeps every
    offset, so the tokens are identical and no per-token ``lower()`` is needed (the bulk of a
    large corpus's tokenisation time). Other text keeps the general path, where
    ``IGNORECASE`` also matches e.g. the Kelvin sign ``K`` as ``k`` before lowercasing.
    """
    if text.isascii():
        return _ASCII_TOKEN_RE.findall(text.lower())
    return [match.lower() for match in _TOKEN_RE.findall(text)]


def document_text(title: str, text: str) -> str:
    """The retrieval text of a record: its title, one space, its body text."""
    return f"{title} {text}"


def tokenizer_description() -> dict[str, object]:
    """What the manifest records about the tokenizer (pattern, flags, case, document text)."""
    return {"pattern": TOKEN_PATTERN, "flags": TOKEN_FLAGS, "lowercase": True,
            "document_text": 'title + " " + text'}
