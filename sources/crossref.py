"""Crossref works API: ``GET {base}/works/{doi}`` → verified title, authors, container, issued.

Response shape (https://api.crossref.org/swagger-ui/index.html, "works/{doi}"):
``{"status": "ok", "message": {"DOI", "title": [..], "author": [{"given", "family"} | {"name"}],
"container-title": [..], "issued": {"date-parts": [[y, m, d]]}, "abstract"}}``. Only fields actually
present are recorded; ``issued`` is written ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` as deep as given;
JATS/HTML markup is stripped from titles and abstracts; an author's ``suffix`` ("Jr.") is kept.

Updates (retractions, corrections, expressions of concern; Crossref's tutorial "Get Retraction
Watch metadata from Crossref's API", https://crossref.gitlab.io/tutorials/get-rw-metadata/): a work
that has been updated carries ``"updated-by": [{"DOI": NOTICE, "type": "retraction" | "correction"
| "expression_of_concern" | ..., "label": "Retraction", "source": "publisher" | "retraction-watch",
"updated": {"date-parts": [[y, m, d]], "date-time": ..., "timestamp": ...}, "record-id": ...}]``;
the notice itself carries the same shape under ``"update-to"`` pointing at the updated work. Both
are recorded as ``updated_by`` / ``update_to``: lists of ``{"type", "label", "source", "date",
"doi", "record_id"}`` (fields absent from the response are left out), sorted.

Search: ``GET {base}/works?query.bibliographic=...&rows=5`` answers
``{"status": "ok", "message-type": "work-list", "message": {"items": [work, ...]}}``; each item
is read with the same rules (:func:`parse_search`).
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from sources.http import SourceEndpoints
from sources.markup import clean_abstract, strip_markup

SERVICE = "Crossref"
HEADERS = {"Accept": "application/json"}


class LookupFailure(Exception):
    """The response was received but does not verify the identifier; ``str()`` is the reason."""


def request_url(doi: str, endpoints: SourceEndpoints) -> str:
    return f"{endpoints.crossref.rstrip('/')}/works/{quote(doi, safe='/')}"


def load_json(body: bytes, service: str) -> Any:
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LookupFailure(f"malformed response from {service}: not JSON ({exc.__class__.__name__})")


def _first(value: Any) -> str | None:
    if isinstance(value, list) and value and isinstance(value[0], str) and value[0].strip():
        return " ".join(value[0].split())
    if isinstance(value, str) and value.strip():
        return " ".join(value.split())
    return None


def format_date_parts(value: Any) -> str | None:
    """``{"date-parts": [[2009, 11, 2]]}`` → ``"2009-11-02"`` (as deep as given), else None."""
    if not isinstance(value, dict):
        return None
    parts = value.get("date-parts")
    if not (isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]):
        return None
    numbers = parts[0][:3]
    if not all(isinstance(n, int) and not isinstance(n, bool) for n in numbers):
        return None
    text = f"{numbers[0]:04d}"
    for n in numbers[1:]:
        text += f"-{n:02d}"
    return text


def author_name(author: Any) -> str | None:
    """"Given Family Suffix" (Crossref's ``suffix``, e.g. "Jr.", is kept), or an organisation's
    ``name``; None when neither is given."""
    if not isinstance(author, dict):
        return None
    given, family, suffix = author.get("given"), author.get("family"), author.get("suffix")
    if isinstance(family, str) and family.strip():
        parts = [given, family, suffix]
        return " ".join(" ".join(p.split()) for p in parts if isinstance(p, str) and p.strip())
    if isinstance(author.get("name"), str) and author["name"].strip():
        return " ".join(author["name"].split())
    return None


def work_fields(message: dict[str, Any]) -> dict[str, Any]:
    """Verified fields of one Crossref work (a ``works/{doi}`` message or a search item).

    Titles, container titles and abstracts are cleaned of JATS/HTML markup
    (:func:`sources.markup.strip_markup`); a work with no title raises :class:`LookupFailure`.
    """
    title = _first(message.get("title"))
    title = strip_markup(title) if title else None
    if not title:
        raise LookupFailure("Crossref record has no title")
    verified: dict[str, Any] = {"title": title}
    returned = message.get("DOI")
    if isinstance(returned, str):
        verified["doi"] = returned.lower()
    authors = [name for name in (author_name(a) for a in message.get("author") or []) if name]
    if authors:
        verified["authors"] = authors
    container = _first(message.get("container-title"))
    if container and strip_markup(container):
        verified["container_title"] = strip_markup(container)
    issued = format_date_parts(message.get("issued"))
    if issued:
        verified["issued"] = issued
    abstract = message.get("abstract")
    if isinstance(abstract, str) and clean_abstract(abstract):
        verified["abstract"] = clean_abstract(abstract)
    for field_name, key in (("updated-by", "updated_by"), ("update-to", "update_to")):
        updates = [u for u in (update_fields(item) for item in message.get(field_name) or []
                               if isinstance(message.get(field_name), list)) if u]
        if updates:
            verified[key] = sorted(updates, key=lambda u: (u.get("date", ""), u.get("type", ""),
                                                           u.get("doi", ""), u.get("source", "")))
    return verified


def update_fields(item: Any) -> dict[str, str] | None:
    """One ``updated-by`` / ``update-to`` entry as ``{"type", "label", "source", "date", "doi",
    "record_id"}`` (only fields present; ``date`` from ``updated.date-parts``, else the date of
    ``updated.date-time``); None when the entry names no ``type``."""
    if not isinstance(item, dict) or not isinstance(item.get("type"), str) or not item["type"].strip():
        return None
    out = {"type": item["type"].strip().lower()}
    for name in ("label", "source"):
        if isinstance(item.get(name), str) and item[name].strip():
            out[name] = " ".join(item[name].split())
    updated = item.get("updated")
    date = format_date_parts(updated)
    if date is None and isinstance(updated, dict) and isinstance(updated.get("date-time"), str):
        date = updated["date-time"][:10]
    if date:
        out["date"] = date
    if isinstance(item.get("DOI"), str) and item["DOI"].strip():
        out["doi"] = item["DOI"].strip().lower()
    record = item.get("record-id")
    if isinstance(record, (str, int)) and not isinstance(record, bool) and str(record).strip():
        out["record_id"] = str(record).strip()
    return out


def parse(body: bytes, doi: str) -> dict[str, Any]:
    """Verified fields from a Crossref ``works`` response, or :class:`LookupFailure`."""
    data = load_json(body, SERVICE)
    if not isinstance(data, dict) or not isinstance(data.get("message"), dict):
        raise LookupFailure("malformed response from Crossref: no 'message' object")
    if data.get("status") != "ok":
        raise LookupFailure(f"Crossref answered status {data.get('status')!r}")
    message = data["message"]
    returned = message.get("DOI")
    if not isinstance(returned, str) or not returned.strip():
        # a record that names no DOI (a work-list, a proxy's or mirror's page) cannot be shown to be
        # the work asked for; it was VERIFIED (with whatever title it carried, or none)
        kind = data.get("message-type")
        raise LookupFailure("Crossref's answer names no DOI" + (f" (message-type {kind!r})" if kind else "")
                            + ": cannot tell it is the work asked for")
    if returned.lower() != doi.lower():
        raise LookupFailure(f"Crossref returned a record for a different DOI ({returned})")
    return work_fields(message)


def search_url(query: str, endpoints: SourceEndpoints, rows: int) -> str:
    """``{base}/works?query.bibliographic=QUERY&rows=N`` (Crossref's citation-matching query)."""
    return (f"{endpoints.crossref.rstrip('/')}/works?query.bibliographic="
            f"{quote(query, safe='')}&rows={rows}")


def parse_search(body: bytes) -> list[tuple[str, dict[str, Any]]]:
    """``(doi, verified fields)`` of each item of a ``works?query...`` answer, in the answer's
    order. An item without a ``DOI`` string or a title is skipped (a DOI is never made up)."""
    data = load_json(body, SERVICE)
    if not isinstance(data, dict) or data.get("status") != "ok" \
            or not isinstance(data.get("message"), dict):
        raise LookupFailure("malformed response from Crossref: no 'message' object")
    items = data["message"].get("items")
    if not isinstance(items, list):
        raise LookupFailure("malformed response from Crossref: no 'items' list")
    hits = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("DOI"), str):
            continue
        try:
            hits.append((item["DOI"].lower(), work_fields(item)))
        except LookupFailure:
            continue
    return hits
