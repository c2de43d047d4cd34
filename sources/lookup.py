"""Turn candidate sources into :class:`SourceRecord` s: identify, then cache or look up.

Order of decisions for one candidate (docs/sources.md, "Cache" and "Offline"):

1. :func:`sources.leads.identify_lead` the identifier text (a bare DOI is a DOI; none at all is
   a free-text ``citation``). Kinds ``url`` and ``citation`` have no metadata API: UNVERIFIED,
   "not accessible", no request (a citation may be *searched*: :mod:`sources.search`).
2. A cached VERIFIED record is reused (``from_cache``, original ``accessed_at``) unless
   ``refresh``; offline, a cached VERIFIED record is used even with ``refresh``.
3. Offline with no cached VERIFIED record: UNVERIFIED "offline run: not looked up" (plus the last
   cached attempt's date and reason when there is one). No request.
4. Otherwise one polite request; the outcome (VERIFIED or UNVERIFIED with the reason) is cached.

Candidates naming the same ``kind:identifier`` share one look-up. Every candidate gives exactly
one record, in order; its ``notes`` and ``discrepancies`` are recomputed on every run.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable

from sources import arxiv, crossref, github
from sources.cache import DEFAULT_CACHE_DIR, SourceCache
from sources.crossref import LookupFailure
from engine.runs.progress import tracked
from sources.http import ClientConfig, FetchResult, PoliteClient, SourceEndpoints
from sources.leads import description_conflicts, identify_lead, title_conflicts, written_as_citation
from sources.records import (ABSTRACT_ONLY, NOT_ACCESSIBLE, REASON_CITATION, REASON_NO_API,
                             REASON_OFFLINE, UNVERIFIED, VERIFIED, SourceRecord, notice_text)

SERVICES = {"doi": crossref, "arxiv": arxiv, "github": github}


def _candidate_fields(candidate: Any) -> tuple[str, str, int | None]:
    return (str(getattr(candidate, "description", "") or ""), str(candidate.url or ""),
            getattr(candidate, "line", None))


def candidate_notes(candidate: Any) -> list[str]:
    """Observations about a candidate line kept on its record (further identifiers it names)."""
    return [f"the line also names {other} (not looked up: one record per candidate line)"
            for other in getattr(candidate, "also", ()) or ()]


def _finish(record: SourceRecord, candidate: Any) -> SourceRecord:
    """Per-candidate fields recomputed on every run: notes and description discrepancies."""
    record.notes = candidate_notes(candidate)
    record.discrepancies = description_conflicts(record)
    cited_title = getattr(candidate, "title", "")   # a bibliography entry's own title field
    if cited_title and not written_as_citation(record.description):
        # without a year the description is no citation to parse, but the entry names its title:
        # a DOI pasted from another entry was VERIFIED without a word (campaign o)
        record.discrepancies += title_conflicts(record, cited_title)
    return record


def record_from_fetch(kind: str, identifier: str, description: str, url: str,
                      fetch: FetchResult, *, line: int | None = None) -> SourceRecord:
    """Interpret one fetch for one identifier (VERIFIED only on a 200 that parses and matches)."""
    service = SERVICES[kind]
    record = SourceRecord(kind=kind, identifier=identifier, description=description, url=url,
                          status=UNVERIFIED, reason="not looked up", line=line,
                          request_url=fetch.request_url, http_status=fetch.http_status,
                          accessed_at=fetch.accessed_at, response_sha256=fetch.sha256,
                          attempts=fetch.attempts)
    if fetch.error is not None:
        record.reason = fetch.error
        return record
    if fetch.http_status != 200:
        reason = f"{service.SERVICE} returned {fetch.http_status}"
        if (kind == "github" and fetch.http_status == 403
                and fetch.headers.get("x-ratelimit-remaining") == "0"):
            reason += " (rate limit exhausted)"
        record.reason = reason
        return record
    try:
        verified = service.parse(fetch.body or b"", identifier)
    except LookupFailure as exc:
        record.reason = str(exc)
        return record
    record.status, record.reason = VERIFIED, None
    record.reading_status = ABSTRACT_ONLY
    record.verified = verified
    return record


def lookup_one(client: PoliteClient, kind: str, identifier: str, description: str, url: str,
               endpoints: SourceEndpoints, *, line: int | None = None) -> SourceRecord:
    service = SERVICES[kind]
    fetch = client.get(service.request_url(identifier, endpoints), headers=service.HEADERS)
    return record_from_fetch(kind, identifier, description, url, fetch, line=line)


def lookup_sources(candidates: Iterable[Any], *, offline: bool,
                   cache_dir: str | Path | None = DEFAULT_CACHE_DIR,
                   endpoints: SourceEndpoints | None = None,
                   client_config: ClientConfig | None = None,
                   refresh: bool = False) -> list[SourceRecord]:
    """One :class:`SourceRecord` per candidate (objects with ``description``, ``url`` and
    optionally ``line``), in order. Never raises for network trouble; ``cache_dir=None`` disables
    the cache. Endpoints and client settings default to the environment (``from_env``), so the
    library and every command honour the same ``CHAPTER_AUDIT_*`` overrides."""
    endpoints = endpoints or SourceEndpoints.from_env()
    cache = SourceCache(cache_dir) if cache_dir is not None else None
    client: PoliteClient | None = None
    done: dict[str, SourceRecord] = {}
    records: list[SourceRecord] = []
    try:
        for candidate in tracked(list(candidates), "sources: look-ups", unit="sources",
                                 enabled=False if offline else None):
            description, url, line = _candidate_fields(candidate)
            ident = identify_lead(url)
            if ident.kind == "citation":
                ident = replace(ident, identifier=" ".join(description.split()))
            key = f"{ident.kind}:{ident.identifier}"
            if key in done:
                records.append(_finish(replace(done[key], description=description, url=url,
                                               line=line, verified=dict(done[key].verified)),
                                       candidate))
                continue
            if ident.kind == "citation":
                record = SourceRecord(kind="citation", identifier=ident.identifier,
                                      description=description, url="", status=UNVERIFIED,
                                      reason=REASON_CITATION, reading_status=NOT_ACCESSIBLE,
                                      line=line)
            elif ident.kind not in SERVICES:
                record = SourceRecord(kind=ident.kind, identifier=ident.identifier,
                                      description=description, url=url, status=UNVERIFIED,
                                      reason=REASON_NO_API, reading_status=NOT_ACCESSIBLE,
                                      line=line)
            else:
                cached = cache.get(ident.kind, ident.identifier) if cache else None
                usable = cached is not None and cached.status == VERIFIED
                if usable and (offline or not refresh):
                    record = replace(cached, description=description, url=url, line=line,
                                     from_cache=True)
                elif offline:
                    reason = REASON_OFFLINE
                    if cached is not None:
                        reason += (f" (last online attempt {cached.accessed_at}: "
                                   f"{cached.reason})")
                    record = SourceRecord(kind=ident.kind, identifier=ident.identifier,
                                          description=description, url=url, status=UNVERIFIED,
                                          reason=reason, reading_status=NOT_ACCESSIBLE,
                                          line=line)
                else:
                    if client is None:
                        client = PoliteClient(client_config or ClientConfig.from_env(),
                                              allow_loopback_http=endpoints.allow_loopback_http)
                    record = lookup_one(client, ident.kind, ident.identifier, description, url,
                                        endpoints, line=line)
                    if cache is not None:
                        cache.put(record)
            done[key] = record
            records.append(_finish(record, candidate))
    finally:
        if client is not None:
            client.close()
    return records


TABLE_COLUMNS = ("kind", "identifier", "status", "reading", "verified title (date) / reason",
                 "accessed")


CITATION_WIDTH = 40


def short(text: str, width: int = CITATION_WIDTH) -> str:
    """``text`` cut to ``width`` characters with an ellipsis (for a table cell)."""
    return text if len(text) <= width else text[:width - 1].rstrip() + "…"


def table_row(record: SourceRecord) -> tuple[str, ...]:
    if record.status == VERIFIED:
        detail = record.title or ""
        if record.date:
            detail += f" ({record.date})"
        if record.renamed:
            detail += f"; renamed: {record.renamed}"
        update = record.update_status
        if update:  # VERIFIED says the record was read, not that the work stands (a retraction is news)
            detail += f"; {update}: " + "; ".join(notice_text(u) for u in record.update_notices(update))
    else:
        detail = record.reason or ""
    detail += "".join(f"; DISCREPANCY: {d}" for d in record.discrepancies)
    accessed = record.accessed_at or "-"
    if record.from_cache:
        accessed += " (cache)"
    identifier = short(record.identifier) if record.kind == "citation" else record.identifier
    return (record.kind, identifier, record.status, record.reading_status, detail, accessed)


def pad_columns(rows: list[tuple[str, ...]]) -> list[str]:
    """Rows as lines, columns padded with two spaces (last column unpadded)."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return ["  ".join([cell.ljust(widths[i]) for i, cell in enumerate(row[:-1])]
                      + [row[-1]]).rstrip() for row in rows]


def render_table(records: Iterable[SourceRecord]) -> str:
    """One row per record, columns padded with two spaces (last column unpadded)."""
    return "\n".join(pad_columns([TABLE_COLUMNS] + [table_row(r) for r in records])) + "\n"
