"""Crossref works API: ``GET {base}/works/{doi}`` → verified title, authors, container, issued.

Response shape (https://api.crossref.org/swagger-ui/index.html, "works/{doi}"):
``{"status": "ok", "message": {"DOI", "title": [..], "author": [{"given", "family"} | {"name"}],
"container-title": [..], "issued": {"date-parts": [[y, m, d]]}}}``. Only fields actually present
are recorded; ``issued`` is written ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` as deep as given.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import quote

from sources.http import SourceEndpoints

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


def parse(body: bytes, doi: str) -> dict[str, Any]:
    """Verified fields from a Crossref ``works`` response, or :class:`LookupFailure`."""
    data = load_json(body, SERVICE)
    if not isinstance(data, dict) or not isinstance(data.get("message"), dict):
        raise LookupFailure("malformed response from Crossref: no 'message' object")
    if data.get("status") != "ok":
        raise LookupFailure(f"Crossref answered status {data.get('status')!r}")
    message = data["message"]
    returned = message.get("DOI")
    if isinstance(returned, str) and returned.lower() != doi.lower():
        raise LookupFailure(f"Crossref returned a record for a different DOI ({returned})")
    title = _first(message.get("title"))
    if title is None:
        raise LookupFailure("Crossref record has no title")
    verified: dict[str, Any] = {"title": title}
    if isinstance(returned, str):
        verified["doi"] = returned.lower()
    authors = []
    for author in message.get("author") or []:
        if not isinstance(author, dict):
            continue
        given, family = author.get("given"), author.get("family")
        if isinstance(family, str) and family.strip():
            name = f"{given.strip()} {family.strip()}" if isinstance(given, str) and given.strip() \
                else family.strip()
            authors.append(" ".join(name.split()))
        elif isinstance(author.get("name"), str) and author["name"].strip():
            authors.append(" ".join(author["name"].split()))
    if authors:
        verified["authors"] = authors
    container = _first(message.get("container-title"))
    if container:
        verified["container_title"] = container
    issued = format_date_parts(message.get("issued"))
    if issued:
        verified["issued"] = issued
    return verified
