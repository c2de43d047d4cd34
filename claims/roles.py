"""Inline roles and citations of documentation sites: their targets are references, not prose
(issue 19; docs/audit.md "Quantities" and "How kinds are decided").

Three shapes are recognised, each a span of the sentence:

* a **MyST role** ``{name}`target``` (``{numref}`fig-1```, ``{eq}`2```, ``{cite:p}`doe2019```,
  ``{doc}`part 2 <chapter2>```) — the MyST syntax, https://myst-parser.readthedocs.io/en/latest/syntax/roles-and-directives.html;
* a **Sphinx / reStructuredText / d2l role** ``:name:`target``` (``:numref:```, ``:ref:```,
  ``:label:```, ``:eqref:```, ``:cite:```, ``:citet:```) — docutils "Interpreted Text";
* a **pandoc citation** in brackets ``[@key]``, ``[see @key, p. 3; @other]`` — pandoc manual
  "Citation syntax": the bracket holds one or more ``@key`` items separated by ``;``, each
  after the start, a space or ``;``. ``[team@example.org]`` is no citation (the ``@`` follows a
  letter).

:func:`role_spans` gives every such span; :func:`masked` replaces each span by underscores of
the same length so that offsets stay valid (a role target — a figure number, an equation label,
a page locator — is never a quantity and never a person name). :func:`citation_keys` gives the
keys of the citation roles in order (``{cite}``, ``:cite:``, ``:citet:``, ``:citep:``,
``{cite:t}``, ``{cite:p}``, ``:footcite:``, ``:citeauthor:``, pandoc brackets).
"""

from __future__ import annotations

import re

_NAME = r"[A-Za-z][\w.\-]*(?::[A-Za-z][\w.\-]*)*"
ROLE = re.compile(r"(?:(?<![\w`\\$])\{(?P<myst>" + _NAME + r")\}|(?<![\w`]):(?P<rst>" + _NAME + r"):)"
                  r"`(?P<target>[^`\n]*)`")
PANDOC_CITATION = re.compile(r"\[(?P<body>[^\[\]\n]*@[^\[\]\n]*)\](?![(\[])")
_PANDOC_KEY = re.compile(r"(?:^|(?<=[\s;]))-?@(?P<key>[\w](?:[\w:.#$%&+?<>~/\-]*\w)?)")
CITATION_ROLES = re.compile(r"(?:cite|citet|citep|citealp|citealt|citeauthor|citeyear|footcite|footcitet)"
                            r"(?::[a-z]+)?")
"""The role names that cite (Sphinx ``sphinxcontrib-bibtex``, MyST, d2l's ``:cite:``/``:citet:``)."""


def role_spans(sentence: str) -> list[tuple[int, int]]:
    """The spans of every role and pandoc citation in ``sentence``, left to right."""
    spans = [m.span() for m in ROLE.finditer(sentence)]
    for m in PANDOC_CITATION.finditer(sentence):
        if _PANDOC_KEY.search(m.group("body")) and not any(s < m.end() and m.start() < e for s, e in spans):
            spans.append(m.span())
    return sorted(spans)


def masked(sentence: str) -> str:
    """``sentence`` with every role span replaced by underscores (same length, same offsets)."""
    out = sentence
    for start, end in role_spans(sentence):
        out = out[:start] + "_" * (end - start) + out[end:]
    return out


def citation_keys(sentence: str) -> list[tuple[int, str]]:
    """``(offset, key)`` of every key cited by a citation role or a pandoc citation, in order."""
    keys: list[tuple[int, str]] = []
    for m in ROLE.finditer(sentence):
        name = m.group("myst") or m.group("rst")
        if CITATION_ROLES.fullmatch(name):
            for k in re.finditer(r"[^,;\s]+", m.group("target")):
                keys.append((m.start("target") + k.start(), k.group(0)))
    for m in PANDOC_CITATION.finditer(sentence):
        for k in _PANDOC_KEY.finditer(m.group("body")):
            keys.append((m.start("body") + k.start("key"), k.group("key")))
    return sorted(keys, key=lambda item: item[0])
