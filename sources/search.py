"""Primary-source search: the chapter's attributions and the pack's free-text citations, looked
for in Crossref and arXiv (research method, section 3: "look for primary sources independently").

**Targets.** An attribution claim row (``kind == "attribution"``) that cites at least one person
name (:func:`sources.names.person_names`), target ``C-PPP-SS``; and each free-text ``citation``
record of the pack, target ``line N`` — searched when :func:`sources.names.parse_citation` reads a
name with a year or a title, or a title of three or more words (otherwise "not searched: ...").

**Queries** (identical queries share one request):

* Crossref ``GET {crossref}/works?query.bibliographic=Q&rows=5`` with Q = the person names, then
  the citation's title (and year) or the claim's other cited terms (``MMR``);
* arXiv ``GET {arxiv}/query?search_query=Q&start=0&max_results=5`` with Q = ``au:NAME`` for up to
  three names (accents folded), ``AND ti:"TITLE"`` for a citation's title or ``AND all:TERM``
  for each term, joined by ``AND``.

Requests go through :class:`sources.http.PoliteClient` (https only, retries, size limit, arXiv's
3 s spacing). A successful answer is cached like a look-up (one JSON file per service and
query in the sources cache, ``sha256("search:SERVICE:ROWS:QUERY").json``), reused unless
``refresh``; failures are not cached. Offline: a cached answer is used, otherwise the target is
``not searched (offline)``.

**Score** (0–100, one decimal) of each hit against its target, the mean of the parts available:

* *author agreement* — the fraction of the target's names that match a word of some hit author
  name (accent- and case-folded; ``rapidfuzz.fuzz.ratio ≥ 90``); 0 when the hit lists no authors;
* *title agreement* — for a citation with a title, ``rapidfuzz.fuzz.token_set_ratio`` (with
  ``rapidfuzz.utils.default_process``) of the citation's title and the hit's title, / 100 (a title
  that is a word subset of the other scores 1); for a claim, the fraction of its terms that occur
  as whole words (any case) in the hit's title or abstract. No part when the target has no title
  and no terms.

The best hits — score ≥ ``min_score`` (60), at most ``max_hits`` (2) per target, ordered by score,
then Crossref before arXiv, then the service's own rank — are **found by search**: their
metadata is VERIFIED *as metadata* (read from the search answer; the identifier is the one the
answer gives — a DOI or arXiv id is never made up), but the link to the claim is a candidate for
a human to confirm, never support, until the author adds the identifier to the pack.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

from rapidfuzz import fuzz, utils

from engine.runs.hashing import dump_json, sha256_bytes
from engine.runs.outdir import write_file_atomically
from sources import arxiv, crossref
from sources.cache import DEFAULT_CACHE_DIR
from sources.crossref import LookupFailure
from engine.runs.progress import tracked
from sources.http import ClientConfig, FetchResult, PoliteClient, SourceEndpoints
from sources.names import fold, name_tokens, parse_citation, person_names, terms
from sources.records import ABSTRACT_ONLY, VERIFIED, SourceRecord

SEARCH_ROWS = 5
MIN_SCORE = 60.0
MAX_HITS = 2
AUTHOR_MATCH = 90.0
MAX_QUERY_NAMES = 3
CANDIDATE_NOTE = "candidate: confirm before citing"
NOT_SEARCHED_OFFLINE = "not searched (offline)"
SEARCHED = "searched"
SERVICES = (("Crossref", crossref), ("arXiv", arxiv))


@dataclass(frozen=True)
class SearchTarget:
    """What to search for: a claim row's attribution or a pack's free-text citation."""

    target: str                  # "C-010-01" or "line 44"
    text: str                    # the claim sentence or the citation line
    names: tuple[str, ...]       # person names to find among a hit's authors
    terms: tuple[str, ...] = ()  # other cited terms (claims): "MMR"
    title: str | None = None     # a citation's title
    year: str | None = None
    unsearchable: str | None = None  # why it is not searched (then no query is made)

    def queries(self) -> dict[str, str]:
        """The query sent to each service (see the module docstring)."""
        if self.unsearchable:
            return {}
        tail = [self.title] if self.title else list(self.terms)
        bibliographic = " ".join([*self.names, *tail] + ([self.year] if self.year else []))
        parts = [f"au:{_arxiv_word(n)}" for n in self.names[:MAX_QUERY_NAMES] if _arxiv_word(n)]
        if self.title:
            words = _arxiv_phrase(self.title)
            if words:
                parts.append(f'ti:"{words}"')
        else:
            parts += [f"all:{_arxiv_word(t)}" for t in self.terms if _arxiv_word(t)]
        return {"Crossref": bibliographic.strip(), "arXiv": " AND ".join(parts)}


def _arxiv_word(text: str) -> str:
    """ASCII letters, digits and hyphens of ``text`` (accents folded, case kept)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^A-Za-z0-9\-]", "", "".join(c for c in decomposed
                                                  if not unicodedata.combining(c)))


def _arxiv_phrase(text: str) -> str:
    return " ".join(w for w in (_arxiv_word(w) for w in text.split()) if w)


@dataclass
class SearchHit:
    record: SourceRecord     # kind doi/arxiv, VERIFIED metadata from the search answer
    service: str
    query: str
    rank: int                # 1-based position in the service's answer
    score: float
    author_agreement: float | None
    title_agreement: float | None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["record"] = self.record.to_dict()
        return data


@dataclass
class SearchResult:
    target: str
    text: str
    queries: dict[str, str]
    status: str                  # "searched", "not searched (offline)", "not searched: ...", "search failed: ..."
    hits: list[SearchHit] = field(default_factory=list)
    examined: int = 0
    best_score: float | None = None
    failures: list[str] = field(default_factory=list)
    accessed_at: str | None = None
    from_cache: bool = False
    answered: list[str] = field(default_factory=list)   # services whose answer was read

    @property
    def summary(self) -> str:
        """One line: what was searched and what came of it."""
        if self.status != SEARCHED:
            return self.status
        where = " and ".join(self.answered)
        text = f"searched {where}: {self.examined} hit{'s' if self.examined != 1 else ''} examined"
        if self.hits:
            text += f", {len(self.hits)} scored ≥ {MIN_SCORE:g}"
        else:
            best = f" (best {self.best_score:.1f})" if self.best_score is not None else ""
            text += f", none scored ≥ {MIN_SCORE:g}{best}"
        if self.failures:
            text += "; " + "; ".join(self.failures)
        if self.from_cache:
            text += " (from cache)"
        return text

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["hits"] = [h.to_dict() for h in self.hits]
        data["summary"] = self.summary
        return data


# ---------------------------------------------------------------------------------------------
# Targets.

def claim_targets(rows: Iterable[Any]) -> list[SearchTarget]:
    """One target per attribution row naming a person (rows with ``claim_id``, ``text``,
    ``kind`` and ``cited_names``), in row order."""
    out = []
    for row in rows:
        if getattr(row, "kind", None) != "attribution":
            continue
        cited = [str(n) for n in getattr(row, "cited_names", []) or []]
        names = person_names(cited)
        if names:
            out.append(SearchTarget(str(row.claim_id), str(row.text), tuple(names),
                                    tuple(terms(cited))))
    return out


def citation_targets(records: Iterable[SourceRecord]) -> list[SearchTarget]:
    """One target per free-text ``citation`` record of the pack (deduplicated by text)."""
    out, seen = [], set()
    for record in records:
        if record.kind != "citation" or record.identifier in seen:
            continue
        seen.add(record.identifier)
        target = f"line {record.line}" if record.line is not None else "citation"
        parsed = parse_citation(record.identifier)
        why = None if parsed.searchable else \
            "not searched: no name with a year or title, and no title of three words, in the citation"
        out.append(SearchTarget(target, record.identifier, tuple(parsed.names), (),
                                parsed.title, parsed.year, why))
    return out


# ---------------------------------------------------------------------------------------------
# Scoring.

def score_hit(target: SearchTarget, verified: dict[str, Any]) -> tuple[float, float | None,
                                                                       float | None]:
    """``(score, author agreement, title agreement)``; see the module docstring."""
    author = None
    if target.names:
        tokens: set[str] = set()
        for name in verified.get("authors") or []:
            tokens |= name_tokens(str(name))
        matched = sum(1 for n in target.names
                      if any(fuzz.ratio(fold(n), t) >= AUTHOR_MATCH for t in tokens))
        author = matched / len(target.names)
    title = None
    hit_title = str(verified.get("title") or "")
    if target.title:
        title = fuzz.token_set_ratio(target.title, hit_title, processor=utils.default_process) / 100
    elif target.terms:
        text = f"{hit_title} {verified.get('abstract') or ''}"
        found = sum(1 for t in target.terms
                    if re.search(rf"(?<!\w){re.escape(t)}(?!\w)", text, re.IGNORECASE))
        title = found / len(target.terms)
    parts = [p for p in (author, title) if p is not None]
    score = round(100 * sum(parts) / len(parts), 1) if parts else 0.0
    return score, author, title


# ---------------------------------------------------------------------------------------------
# Cache of search answers.

@dataclass
class _Answer:
    service: str
    query: str
    request_url: str
    http_status: int | None
    accessed_at: str | None
    response_sha256: str | None
    attempts: int
    items: list[tuple[str, dict[str, Any]]]
    from_cache: bool = False


class SearchCache:
    """One JSON file per (service, rows, query) in the sources cache directory."""

    def __init__(self, directory: str | Path = DEFAULT_CACHE_DIR) -> None:
        self.directory = Path(directory)

    def path(self, service: str, query: str, rows: int) -> Path:
        key = sha256_bytes(f"search:{service}:{rows}:{query}".encode("utf-8"))
        return self.directory / f"{key}.json"

    def get(self, service: str, query: str, rows: int) -> _Answer | None:
        path = self.path(service, query, rows)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if data.get("service") != service or data.get("query") != query:
                return None
            items = [(str(i["identifier"]), dict(i["verified"])) for i in data["items"]]
            return _Answer(service, query, str(data["request_url"]), data.get("http_status"),
                           data.get("accessed_at"), data.get("response_sha256"),
                           int(data.get("attempts", 0)), items, from_cache=True)
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError,
                ValueError, AttributeError):
            return None

    def put(self, answer: _Answer, rows: int) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        data = {"service": answer.service, "query": answer.query, "rows": rows,
                "request_url": answer.request_url, "http_status": answer.http_status,
                "accessed_at": answer.accessed_at, "response_sha256": answer.response_sha256,
                "attempts": answer.attempts,
                "items": [{"identifier": i, "verified": v} for i, v in answer.items]}
        write_file_atomically(self.path(answer.service, answer.query, rows), dump_json(data))


def _answer(service: str, module: Any, query: str, fetch: FetchResult) -> _Answer | str:
    """Parsed items of one fetch, or the reason it failed."""
    if fetch.error is not None:
        return f"{service}: {fetch.error}"
    if fetch.http_status != 200:
        return f"{service}: {service} returned {fetch.http_status}"
    try:
        items = module.parse_search(fetch.body or b"")
    except LookupFailure as exc:
        return f"{service}: {exc}"
    return _Answer(service, query, fetch.request_url, fetch.http_status, fetch.accessed_at,
                   fetch.sha256, fetch.attempts, items)


def _hit_record(service: str, identifier: str, verified: dict[str, Any], answer: _Answer,
                target: str) -> SourceRecord:
    kind = "doi" if service == "Crossref" else "arxiv"
    url = f"https://doi.org/{identifier}" if kind == "doi" else f"https://arxiv.org/abs/{identifier}"
    return SourceRecord(kind=kind, identifier=identifier, url=url,
                        description=f"found by search for {target}", status=VERIFIED,
                        reading_status=ABSTRACT_ONLY, verified=verified,
                        request_url=answer.request_url, http_status=answer.http_status,
                        accessed_at=answer.accessed_at, response_sha256=answer.response_sha256,
                        attempts=answer.attempts, from_cache=answer.from_cache)


# ---------------------------------------------------------------------------------------------
# The search.

def search_sources(targets: Sequence[SearchTarget], *, offline: bool,
                   cache_dir: str | Path | None = DEFAULT_CACHE_DIR,
                   endpoints: SourceEndpoints | None = None,
                   client_config: ClientConfig | None = None, refresh: bool = False,
                   rows: int = SEARCH_ROWS, min_score: float = MIN_SCORE,
                   max_hits: int = MAX_HITS) -> list[SearchResult]:
    """One :class:`SearchResult` per target, in order. Never raises for network trouble."""
    endpoints = endpoints or SourceEndpoints.from_env()
    cache = SearchCache(cache_dir) if cache_dir is not None else None
    client: PoliteClient | None = None
    answers: dict[tuple[str, str], _Answer | str | None] = {}
    results = []
    try:
        for target in tracked(targets, "sources: search", unit="targets", enabled=False if offline else None):
            queries = target.queries()
            if target.unsearchable:
                results.append(SearchResult(target.target, target.text, {}, target.unsearchable))
                continue
            got: list[_Answer] = []
            failures: list[str] = []
            for service, module in SERVICES:
                query = queries.get(service) or ""
                if not query:
                    continue
                key = (service, query)
                if key not in answers:
                    cached = cache.get(service, query, rows) if cache else None
                    if cached is not None and (offline or not refresh):
                        answers[key] = cached
                    elif offline:
                        answers[key] = None
                    else:
                        if client is None:
                            client = PoliteClient(client_config or ClientConfig.from_env(),
                                                  allow_loopback_http=endpoints.allow_loopback_http)
                        fetch = client.get(module.search_url(query, endpoints, rows),
                                           headers=module.HEADERS)
                        answers[key] = _answer(service, module, query, fetch)
                        if cache is not None and isinstance(answers[key], _Answer):
                            cache.put(answers[key], rows)
                answer = answers[key]
                if isinstance(answer, _Answer):
                    got.append(answer)
                elif isinstance(answer, str):
                    failures.append(answer)
            results.append(_result(target, queries, got, failures, offline, min_score, max_hits))
    finally:
        if client is not None:
            client.close()
    return results


def _result(target: SearchTarget, queries: dict[str, str], answers: list[_Answer],
            failures: list[str], offline: bool, min_score: float, max_hits: int) -> SearchResult:
    if not answers:
        status = NOT_SEARCHED_OFFLINE if offline else \
            ("search failed: " + "; ".join(failures) if failures else "not searched: no query")
        return SearchResult(target.target, target.text, queries, status, failures=failures)
    scored = []
    for order, answer in enumerate(answers):
        for rank, (identifier, verified) in enumerate(answer.items, start=1):
            score, author, title = score_hit(target, verified)
            scored.append((-score, order, rank, identifier, verified, answer, author, title))
    scored.sort(key=lambda s: s[:3])
    hits: list[SearchHit] = []
    seen = set()
    for negative, _, rank, identifier, verified, answer, author, title in scored:
        key = (answer.service, identifier)
        if -negative < min_score or len(hits) >= max_hits or key in seen:
            continue
        seen.add(key)
        record = _hit_record(answer.service, identifier, verified, answer, target.target)
        hits.append(SearchHit(record, answer.service, answer.query, rank, -negative, author,
                              title))
    accessed = max((a.accessed_at for a in answers if a.accessed_at), default=None)
    return SearchResult(target.target, target.text, queries, SEARCHED, hits, len(scored),
                        -scored[0][0] if scored else None, failures, accessed,
                        all(a.from_cache for a in answers), [a.service for a in answers])


SEARCH_COLUMNS = ("target", "service", "identifier", "score", "title (date) / status", "query")


def search_rows(results: Iterable[SearchResult]) -> list[tuple[str, ...]]:
    """Table rows: one per found-by-search hit, or one per target without a hit."""
    rows = []
    for result in results:
        for hit in result.hits:
            title = hit.record.title or ""
            if hit.record.date:
                title += f" ({hit.record.date})"
            rows.append((result.target, hit.service, hit.record.identifier, f"{hit.score:.1f}",
                         f"{title}; {CANDIDATE_NOTE}", hit.query))
        if not result.hits:
            query = " | ".join(q for q in result.queries.values() if q) or "-"
            rows.append((result.target, "-", "-", "-", result.summary, query))
    return rows


def render_search_table(results: Sequence[SearchResult]) -> str:
    """The found-by-search table (columns padded with two spaces, last column unpadded)."""
    from sources.lookup import pad_columns

    lines = ["found by search (candidates for a human to confirm; never support):"]
    return "\n".join(lines + pad_columns([SEARCH_COLUMNS] + search_rows(results))) + "\n"
