"""Candidate sources of a research pack: every lead line becomes one candidate, none is dropped.

**Candidate lines** (docs/sources.md, "Candidate lines"): in the *existing evidence* and the
*references and bibliography* sections, every list item (``-``, ``*``, ``+``, ``•`` or ``1.``/``1)``
followed by a space), with the indented lines that continue it, and every other non-blank line
that names an identifier (below). Prose lines without an identifier ("No references are
recorded ...") are not leads. Candidates are returned in file order.

**Identifiers** found in a line, scanned left to right in linear time:

* ``http(s)://`` URLs, running to the first space, ``<``, ``>`` or ``"``; parentheses and brackets
  are kept when balanced inside the URL (``https://doi.org/10.1016/S0168-8278(03)80643-8``,
  ``..._(linear_algebra)``), and an unbalanced ``)`` ends it (the one closing ``(URL)``);
* ``doi:10.NNNN/...`` (any case, optional space after the colon) → ``doi:10.NNNN/...``;
* bare DOIs ``10.NNNN/...`` not inside a URL → ``10.NNNN/...``;
* ``arXiv:ID`` (new ``YYMM.NNNNN[vN]`` or old ``archive/YYMMNNN[vN]`` ids) → ``arXiv:ID``.

Trailing sentence punctuation (``. , ; : ! ? '``) is not part of an identifier.

**One candidate per line.** The line's identifier is the first one with a metadata API (a DOI,
an arXiv id, a ``doi.org``/``arxiv.org``/``github.com`` URL or a publisher ``/doi/10.`` URL), else
the first identifier; any others are kept in ``also``. The description is the line without that
identifier: ``description (IDENTIFIER)`` gives the text before the parenthesis. A line with no
identifier is a **free-text citation**: its whole text is the description and ``url`` is ``""``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlsplit

CANDIDATE_SECTIONS = ("references", "existing_evidence")
_MARKER = re.compile(r"(?:[-*+•]|\d{1,4}[.)])\s")
_URL_START = re.compile(r"https?://", re.IGNORECASE)
_DOI_PREFIX = re.compile(r"\bdoi:[ \t]?(?=10\.\d{4,9}/)", re.IGNORECASE)
_BARE_DOI = re.compile(r"(?<![\w./:%-])10\.\d{4,9}/")
_ARXIV = re.compile(r"\barxiv:[ \t]?(\d{4}\.\d{4,5}(?:v\d+)?|[a-z][a-z\-]{0,30}(?:\.[A-Z]{2})?/\d{7}"
                    r"(?:v\d+)?)(?!\w|\.\w)", re.IGNORECASE)
API_HOSTS = {"doi.org", "dx.doi.org", "www.doi.org", "arxiv.org", "www.arxiv.org",
             "export.arxiv.org", "github.com", "www.github.com"}
TRAILING = ".,;:!?'’"
OPENERS, CLOSERS = "([", ")]"


@dataclass(frozen=True)
class CandidateSource:
    """One lead line of the evidence or references section (``line`` = its first file line).

    ``url`` is the identifier as written (a URL, ``doi:...``, a bare DOI or ``arXiv:...``), or
    ``""`` for a free-text citation; ``text`` is the whole line without its list marker.
    """

    description: str
    url: str
    line: int
    text: str = ""
    section: str = "existing_evidence"
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Span:
    start: int
    end: int
    value: str
    api: bool


def _extend(text: str, index: int) -> int:
    """End of an identifier that continues at ``index`` (balanced brackets kept)."""
    open_brackets: list[str] = []
    end = index
    while end < len(text):
        char = text[end]
        if char.isspace() or char in '<>"':
            break
        if char in OPENERS:
            open_brackets.append(char)
        elif char in CLOSERS:
            if not open_brackets or OPENERS.index(open_brackets[-1]) != CLOSERS.index(char):
                break
            open_brackets.pop()
        end += 1
    while end > index and text[end - 1] in TRAILING:
        end -= 1
    return end


def _api_url(url: str) -> bool:
    try:
        parts = urlsplit(url)
    except ValueError:
        return False
    host = (parts.hostname or "").lower()
    return host in API_HOSTS or "/doi/10." in parts.path.lower()


def find_identifiers(text: str) -> list[tuple[int, int, str, bool]]:
    """``(start, end, value, has_api)`` for each identifier in ``text``, left to right."""
    spans: list[_Span] = []

    def free(start: int, end: int) -> bool:
        return all(end <= s.start or start >= s.end for s in spans)

    for match in _URL_START.finditer(text):
        if not free(match.start(), match.end()):
            continue
        end = _extend(text, match.end())
        if end > match.end():
            value = text[match.start():end]
            spans.append(_Span(match.start(), end, value, _api_url(value)))
    for match in _DOI_PREFIX.finditer(text):
        end = _extend(text, match.end())
        if free(match.start(), end):
            spans.append(_Span(match.start(), end, "doi:" + text[match.end():end], True))
    for match in _BARE_DOI.finditer(text):
        end = _extend(text, match.end())
        if end > match.end() and free(match.start(), end):
            spans.append(_Span(match.start(), end, text[match.start():end], True))
    for match in _ARXIV.finditer(text):
        if free(match.start(), match.end()):
            spans.append(_Span(match.start(), match.end(), "arXiv:" + match.group(1), True))
    spans.sort(key=lambda s: s.start)
    return [(s.start, s.end, s.value, s.api) for s in spans]


def _tidy(text: str) -> str:
    text = re.sub(r"\(\s*[,;]\s*", "(", " ".join(text.split()))
    text = re.sub(r"\s*[,;]\s*\)", ")", text)
    text = re.sub(r"\(\s*\)|\[\s*\]", "", text)
    text = re.sub(r"\s+([,;.:])", r"\1", " ".join(text.split()))
    text = re.sub(r"[,;:]+(?=[.,;:]|$)", "", text)
    return text.strip(" ,;:—–-")


def parse_candidate(text: str, line: int, section: str = "existing_evidence") -> CandidateSource:
    """One candidate from one lead line (see the module docstring)."""
    text = " ".join(text.split())
    spans = find_identifiers(text)
    if not spans:
        return CandidateSource(text, "", line, text, section)
    primary = next((s for s in spans if s[3]), spans[0])
    start, end, value, _ = primary
    also = tuple(s[2] for s in spans if s is not primary)
    before, after = text[:start].rstrip(), text[end:].lstrip()
    if before.endswith("(") and after.startswith(")"):
        description = before[:-1].rstrip()
        rest = after[1:].strip()
        if rest.strip(".;,: "):
            description = f"{description} {rest}"
        description = description.strip()
    else:
        description = _tidy(f"{before} {after}")
    return CandidateSource(description, value, line, text, section, also)


def candidate_lines(lines: list[tuple[int, str]], section: str) -> list[CandidateSource]:
    """Candidates of one section's ``(file line, text)`` body lines."""
    out: list[CandidateSource] = []
    current: list[str] = []
    first = 0

    def close() -> None:
        if current:
            out.append(parse_candidate(" ".join(current), first, section))
            current.clear()

    for number, raw in lines:
        stripped = raw.strip()
        marker = _MARKER.match(stripped + " ") if stripped else None
        if marker and stripped[marker.end():].strip():
            close()
            current.append(stripped[marker.end():])
            first = number
        elif current and stripped and raw[:1] in (" ", "\t"):
            current.append(stripped)
        else:
            close()
            if stripped and find_identifiers(stripped):
                out.append(parse_candidate(stripped, number, section))
    close()
    return out
