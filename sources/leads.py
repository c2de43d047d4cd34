"""Candidate leads: what a pack line names, and where its description disagrees with the record.

* :func:`identify_lead` classifies the identifier text a pack candidate carries: a bare DOI
  (``10.NNNN/...``) is read as ``doi:10.NNNN/...``; an empty identifier (a free-text citation)
  is kind ``citation``; everything else goes to :func:`sources.identify.identify` (a URL that
  cannot be parsed is kind ``url``, never looked up).
* :func:`description_names` are the person names a candidate's description credits: the names
  before ``'s`` / ``et al.'s`` / ``et al.`` in its head (the text before the first ``;``/``:``):
  "Carbonell and Goldstein's MMR" → Carbonell, Goldstein; "Santos et al.'s xQuAD" → Santos.
* :func:`description_conflicts` — **record over description**: once a record is VERIFIED and
  has authors, each description name that matches no word of any verified author name
  (:func:`sources.names.name_tokens`, accent- and case-insensitive) is a discrepancy. A
  discrepancy is reported (ledger Limitations, Findings) and the conflicting name is never used
  to link a claim (:mod:`sources.link`).
"""

from __future__ import annotations

import re
from typing import Any

from sources.identify import DOI_RE, Identified, identify
from sources.names import fold, name_tokens, surname

_HEAD_SPLIT = re.compile(r"\s*(?:;|:|\s—\s|\s–\s|\s-\s)")
_POSSESSIVE = re.compile(r"^(?P<names>.+?)(?:\s+et\s+al\.?)?\s*['’]s\s+(?P<thing>.+)$")
_ET_AL = re.compile(r"^(?P<names>.+?)\s+et\s+al\.?(?:\s|$)")
MAX_AUTHORS_SHOWN = 6


def identify_lead(text: str) -> Identified:
    """Identify a candidate's identifier text; ``""`` is a free-text citation (kind citation)."""
    stripped = (text or "").strip()
    if not stripped:
        return Identified("citation", "", "")
    if DOI_RE.match(stripped):
        found = identify(f"doi:{stripped}")
        return Identified(found.kind, found.identifier, stripped)
    try:
        return identify(stripped)
    except ValueError:  # a URL urllib cannot split (e.g. "https://[::1/x"): a plain, unlooked-up URL
        return Identified("url", stripped, stripped)


def description_head(description: str) -> str:
    return _HEAD_SPLIT.split(description.strip(), maxsplit=1)[0].strip()


def description_names(description: str) -> list[str]:
    """Person surnames a description credits (see the module docstring), in order."""
    head = description_head(description)
    match = _POSSESSIVE.match(head) or _ET_AL.match(head)
    if not match:
        return []
    names: list[str] = []
    for part in re.split(r"\s*(?:,|\band\b|&)\s*", match.group("names")):
        name = surname(part)
        if name and name not in names:
            names.append(name)
    return names


def _authors_text(authors: list[str]) -> str:
    shown = [surname(a) or a for a in authors[:MAX_AUTHORS_SHOWN]]
    more = len(authors) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def conflicting_names(record: Any) -> list[str]:
    """Description names that match no verified author of a VERIFIED record (else ``[]``)."""
    if getattr(record, "status", None) != "VERIFIED":
        return []
    authors = [str(a) for a in (record.verified.get("authors") or [])]
    if not authors:
        return []
    tokens: set[str] = set()
    for author in authors:
        tokens |= name_tokens(author)
    return [name for name in description_names(record.description) if fold(name) not in tokens]


def description_conflicts(record: Any) -> list[str]:
    """Discrepancies between a VERIFIED record's authors and the names its description credits."""
    authors = [str(a) for a in (record.verified.get("authors") or [])]
    return [f"the pack's description names '{name}', who is not among the verified authors "
            f"({_authors_text(authors)}): the record is used and the description's name links "
            "nothing" for name in conflicting_names(record)]
