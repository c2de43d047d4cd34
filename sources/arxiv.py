"""arXiv export API: ``GET {base}/query?id_list={id}`` (Atom 1.0) → title, authors, dates, version.

Per https://info.arxiv.org/help/api/user-manual.html: each ``entry`` has ``id``
(``http://arxiv.org/abs/ID vN``), ``title``, ``summary`` (the abstract), ``author/name``,
``published`` (first version) and ``updated`` (this version). An id the API rejects comes back as
an entry whose ``id`` is under ``http://arxiv.org/api/errors``; an unknown well-formed id comes
back as a feed with no entry. Both are UNVERIFIED with that observation as the reason.
Search (``query?search_query=au:NAME AND all:TERM&max_results=5``) answers the same feed with
several entries, each read with the same rules (:func:`parse_search`).

**Withdrawn** (https://info.arxiv.org/help/withdraw.html): a withdrawn article's new version says
so in its comment ("This paper has been withdrawn by the author ...", "withdrawn by arXiv
administrators") and usually in place of its abstract. Such an entry is still read (VERIFIED: it
is the record), with its ``comment`` and one ``updated_by`` entry ``{"type": "withdrawal",
"label": "Withdrawal", "source": "arXiv comment", "date": <updated, YYYY-MM-DD>, "comment"}``, the shape of
Crossref's notices, so ``update_status`` is RETRACTED and every surface says it (before, the
``sources`` table and the report showed a withdrawn paper as plainly VERIFIED).

Parsed with :mod:`xml.etree.ElementTree` after refusing any DTD (``<!DOCTYPE``/``<!ENTITY``):
the Atom feed never needs one, and refusing it rules out entity-expansion tricks.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any
from urllib.parse import quote

from sources.crossref import LookupFailure
from sources.http import SourceEndpoints

SERVICE = "arXiv"
HEADERS = {"Accept": "application/atom+xml"}
ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
VERSION_RE = re.compile(r"^(.*?)(v\d+)?$")
WITHDRAWN_COMMENT = re.compile(  # arXiv's wordings; "an earlier version withdrawn from ICLR" is not one
    r"^\W*withdrawn\b|\bthis (?:paper|submission|article|manuscript|work|version) (?:has been|was|is) "
    r"withdrawn\b|\bwithdrawn by (?:the )?(?:authors?|submitter|arxiv(?: administrators?| admin)?)\b",
    re.IGNORECASE)
WITHDRAWN_SUMMARY = re.compile(r"^\W*(?:withdrawn\b|this (?:paper|submission|article|manuscript|work) "
                               r"(?:has been|was|is) withdrawn\b)", re.IGNORECASE)


def request_url(arxiv_id: str, endpoints: SourceEndpoints) -> str:
    return f"{endpoints.arxiv.rstrip('/')}/query?id_list={quote(arxiv_id, safe='/')}"


def split_version(arxiv_id: str) -> tuple[str, str | None]:
    """``"2212.10496v2"`` → ``("2212.10496", "v2")``; no version → ``(id, None)``."""
    match = VERSION_RE.match(arxiv_id)
    assert match is not None
    return match.group(1), match.group(2)


def _text(element: ET.Element | None) -> str | None:
    if element is None or element.text is None:
        return None
    text = " ".join(element.text.split())
    return text or None


def _feed(body: bytes) -> ET.Element:
    head = body[:4096].lower()
    if b"<!doctype" in head or b"<!entity" in body.lower():
        raise LookupFailure("malformed response from arXiv: XML with a DTD refused")
    try:
        root = ET.fromstring(body)
    except ET.ParseError as exc:
        raise LookupFailure(f"malformed response from arXiv: not XML ({exc})")
    if root.tag != f"{ATOM}feed":
        raise LookupFailure("malformed response from arXiv: not an Atom feed")
    return root


def _entry_id(entry: ET.Element) -> str:
    """The id (with version) an entry is for; :class:`LookupFailure` for an error entry."""
    entry_id = _text(entry.find(f"{ATOM}id")) or ""
    if "/api/errors" in entry_id:
        detail = _text(entry.find(f"{ATOM}summary")) or _text(entry.find(f"{ATOM}title")) or ""
        raise LookupFailure(f"arXiv API error: {detail}".rstrip(": "))
    match = re.search(r"/abs/(.+)$", entry_id)
    if not match:
        raise LookupFailure(f"malformed response from arXiv: entry id {entry_id!r}")
    return match.group(1)


def entry_fields(entry: ET.Element, returned: str) -> dict[str, Any]:
    """Verified fields of one Atom entry whose id is ``returned``."""
    title = _text(entry.find(f"{ATOM}title"))
    if title is None:
        raise LookupFailure(f"arXiv entry for {returned} has no title")
    verified: dict[str, Any] = {"id": returned, "title": title}
    version = split_version(returned)[1]
    if version:
        verified["version"] = version
    authors = [name for name in (_text(a.find(f"{ATOM}name"))
                                 for a in entry.findall(f"{ATOM}author")) if name]
    if authors:
        verified["authors"] = authors
    for name in ("published", "updated"):
        value = _text(entry.find(f"{ATOM}{name}"))
        if value:
            verified[name] = value
    summary = _text(entry.find(f"{ATOM}summary"))
    if summary:
        verified["abstract"] = summary
    for name in ("doi", "journal_ref", "comment"):
        value = _text(entry.find(f"{ARXIV}{name}"))
        if value:
            verified[name] = value
    if WITHDRAWN_COMMENT.search(verified.get("comment") or "") \
            or WITHDRAWN_SUMMARY.search(summary or ""):
        verified["updated_by"] = [{"type": "withdrawal", "label": "Withdrawal", "source": "arXiv comment",
                                   "date": str(verified.get("updated") or "")[:10],
                                   "comment": verified.get("comment") or summary or ""}]
    return verified


def parse(body: bytes, arxiv_id: str) -> dict[str, Any]:
    """Verified fields for ``arxiv_id`` from an Atom feed, or :class:`LookupFailure`."""
    root = _feed(body)
    entries = root.findall(f"{ATOM}entry")
    if not entries:
        return_text = f"arXiv returned no entry for {arxiv_id}"
        raise LookupFailure(return_text)
    entry = entries[0]
    returned = _entry_id(entry)
    want_base, want_version = split_version(arxiv_id)
    got_base, got_version = split_version(returned)
    if got_base != want_base or (want_version and got_version != want_version):
        raise LookupFailure(f"arXiv returned a different entry ({returned})")
    return entry_fields(entry, returned)


def search_url(query: str, endpoints: SourceEndpoints, rows: int) -> str:
    """``{base}/query?search_query=QUERY&start=0&max_results=N`` (arXiv API field queries)."""
    return (f"{endpoints.arxiv.rstrip('/')}/query?search_query={quote(query, safe='')}"
            f"&start=0&max_results={rows}")


def parse_search(body: bytes) -> list[tuple[str, dict[str, Any]]]:
    """``(id with version, verified fields)`` of each entry of a search feed, in order; an error
    entry raises :class:`LookupFailure`, an entry without a title is skipped."""
    hits = []
    for entry in _feed(body).findall(f"{ATOM}entry"):
        returned = _entry_id(entry)
        try:
            hits.append((returned, entry_fields(entry, returned)))
        except LookupFailure:
            continue
    return hits
