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
* **A description written as a citation** ("Robertson and Zaragoza (2009). The Probabilistic
  Relevance Framework: BM25 and Beyond. doi:…", read by :func:`sources.names.parse_citation`) is
  checked against the VERIFIED record too (:func:`citation_conflicts`): its names before the year
  as above; its year against every year the record gives (Crossref ``issued``, arXiv
  ``published`` and ``updated``; a year off by one is still a discrepancy: an online-first year
  is for a human to confirm, never silently accepted); and its title (capitalised, three or more
  words) against the verified title by ``rapidfuzz.fuzz.token_set_ratio`` with
  ``default_process`` (a title that is a word subset of the other scores 100): below
  :data:`TITLE_AGREEMENT` the identifier resolves to another work than the one cited. Before,
  such a line was VERIFIED with no word of doubt.
"""

from __future__ import annotations

import re
from typing import Any

from sources.identify import DOI_RE, Identified, identify
from sources.names import ORGANISATION_WORDS, fold, name_tokens, parse_citation, surname

_HEAD_SPLIT = re.compile(r"\s*(?:;|:|\s—\s|\s–\s|\s-\s)")
_POSSESSIVE = re.compile(r"^(?P<names>.+?)(?:\s+et\s+al\.?)?\s*['’]s\s+(?P<thing>.+)$")
_ET_AL = re.compile(r"^(?P<names>.+?)\s+et\s+al\.?(?:\s|$)")
MAX_AUTHORS_SHOWN = 6
TITLE_AGREEMENT = 60.0  # token_set_ratio (0-100) below which a cited title names another work
_RECORD_YEARS = ("issued", "published", "updated")  # publication dates (never GitHub's pushed_at)
_NAME_WORD = r"(?:[A-ZÀ-Þ][\w'’\-]+|[A-Z]\.(?:\s?[A-Z]\.)*|and|&|et\s+al\.?)"
_CITATION_HEAD = re.compile(rf"^(?P<names>{_NAME_WORD}(?:,?\s+{_NAME_WORD})*),?\s*\(?(?:19|20)\d\d[a-z]?\b")


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
    names = description_names(record.description)
    names += [n for n in _citation_names(record.description) if n not in names]
    return [name for name in names if fold(name) not in tokens]


def written_as_citation(description: str) -> bool:
    """The description opens with authors then the year, as a reference list writes it
    ("Robertson and Zaragoza (2009).", "Quillfeather, A. and Oakhurst, B. (2002)", "Karpukhin et
    al. 2020,"): every word before the year is a capitalised name, an initial, ``and``/``&`` or
    ``et al.``, and no word is an organisation's. "The Pyserini toolkit (2021)", "BEIR benchmark,
    NeurIPS 2021" or "leaderboard as of March 2023" are descriptions, not citations: not checked."""
    match = _CITATION_HEAD.match(" ".join(description.split()))
    if not match:
        return False
    words = [w.strip(",.") for w in match.group("names").replace(",", " ").split()]
    return bool(words) and not any(w.lower() in ORGANISATION_WORDS for w in words)


def _citation_names(description: str) -> list[str]:
    """The names before the year of a description written as a citation (else ``[]``)."""
    if not written_as_citation(description):
        return []
    return list(parse_citation(description).names)


def citation_conflicts(record: Any) -> list[str]:
    """Year and title discrepancies of a description written as a citation against a VERIFIED
    record (module docstring); names are :func:`conflicting_names`."""
    if getattr(record, "status", None) != "VERIFIED":
        return []
    if not written_as_citation(record.description):
        return []
    cited = parse_citation(record.description)
    out = []
    dates = [str(record.verified[k]) for k in _RECORD_YEARS if record.verified.get(k)]
    years = sorted({d[:4] for d in dates if d[:4].isdigit()})
    if years and cited.year not in years:
        out.append(f"the pack's description gives the year {cited.year}, the verified record "
                   f"{' / '.join(years)} ({', '.join(dates)}): confirm which work is meant")
    if cited.title and cited.title[0].isupper() and len(cited.title.split()) >= 3:
        out += title_conflicts(record, cited.title)
    return out


def title_conflicts(record: Any, cited_title: str) -> list[str]:
    """The discrepancy of a cited title against a VERIFIED record's title (``[]`` when they agree,
    by ``rapidfuzz.fuzz.token_set_ratio`` ≥ :data:`TITLE_AGREEMENT`, or either is missing)."""
    title = record.verified.get("title") if getattr(record, "status", None) == "VERIFIED" else None
    if not cited_title.strip() or not isinstance(title, str) or not title.strip():
        return []
    from rapidfuzz import fuzz, utils

    agreement = fuzz.token_set_ratio(cited_title, title, processor=utils.default_process)
    if agreement >= TITLE_AGREEMENT:
        return []
    return [f"the pack's description cites the title '{cited_title}', the identifier "
            f"resolves to '{title}' (title agreement {agreement:.1f}, below "
            f"{TITLE_AGREEMENT:.0f}): the identifier may belong to another work"]


def description_conflicts(record: Any) -> list[str]:
    """Discrepancies between a VERIFIED record's authors and the names its description credits."""
    authors = [str(a) for a in (record.verified.get("authors") or [])]
    return [f"the pack's description names '{name}', who is not among the verified authors "
            f"({_authors_text(authors)}): the record is used and the description's name links "
            "nothing" for name in conflicting_names(record)] + citation_conflicts(record)
