"""A pack's sources in one call: every candidate line looked up, then the primary-source search.

:func:`own_references` adds the chapter's own references (a Markdown chapter's reference list,
footnotes and links, and ``--references`` BibTeX / CSL-JSON files) as further candidates.

:func:`check_sources` is what ``chapter-audit sources`` and the report use: one record per
candidate line (in order; ``lines_read == len(records)`` is checked, so a lead can never vanish
silently), then — unless ``search`` is off — one :class:`sources.search.SearchResult` per
attribution claim row and per free-text citation (:mod:`sources.search`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from engine.runs.hashing import dump_json
from sources.cache import DEFAULT_CACHE_DIR
from sources.http import ClientConfig, SourceEndpoints, is_network_failure
from sources.lookup import lookup_sources, render_table
from sources.records import SourceRecord
from sources.search import (SearchResult, citation_targets, claim_targets, render_search_table,
                            search_sources)


_CANNOT_REACH = re.compile(r"^cannot reach (\S+): (.+)$")


@dataclass
class SourceCheck:
    lines_read: int
    records: list[SourceRecord]
    searches: list[SearchResult] = field(default_factory=list)
    searched: bool = True
    unreachable_hosts: dict[str, str] = field(default_factory=dict)   # host[:port] → reason

    def __post_init__(self) -> None:
        if not self.unreachable_hosts:   # rebuilt from the records' own reasons (the report's case)
            reasons = [r.reason or "" for r in self.records] + [f.split(": ", 1)[-1] for s in self.searches
                                                                for f in s.failures]
            for reason in reasons:
                match = _CANNOT_REACH.match(reason)
                if match:
                    self.unreachable_hosts.setdefault(match.group(1), match.group(2))

    @property
    def count_line(self) -> str:
        return f"candidate lines read: {self.lines_read}; records made: {len(self.records)}"

    @property
    def unreached_lookups(self) -> int:
        """Records whose look-up could not be made (network or service trouble)."""
        return sum(is_network_failure(r.reason) for r in self.records)

    @property
    def unreached_searches(self) -> int:
        """Searches with at least one service that could not be asked."""
        return sum(any(is_network_failure(f.split(": ", 1)[-1]) for f in s.failures) for s in self.searches)

    @property
    def incomplete(self) -> bool:
        """Whether any look-up or search could not be made (``sources`` then exits 1)."""
        return bool(self.unreached_lookups or self.unreached_searches)

    @property
    def unreached_line(self) -> str:
        """One line: how many look-ups and searches could not be made, and which hosts."""
        if not self.incomplete:
            return "look-ups not made: none (every source that has a metadata API was asked)"
        hosts = "; ".join(f"{host}: {reason}" for host, reason in sorted(self.unreachable_hosts.items()))
        text = (f"look-ups not made: {self.unreached_lookups} of {len(self.records)} sources could not be "
                f"looked up, {self.unreached_searches} of {len(self.searches)} searches incomplete")
        return text + (f"; unreachable: {hosts}" if hosts else "")

    def unreached_dict(self) -> dict[str, Any]:
        return {"sources": self.unreached_lookups, "searches": self.unreached_searches,
                "hosts": dict(sorted(self.unreachable_hosts.items()))}


def check_sources(candidates: Sequence[Any], claim_rows: Sequence[Any] = (), *, offline: bool,
                  cache_dir: str | Path | None = DEFAULT_CACHE_DIR,
                  endpoints: SourceEndpoints | None = None,
                  client_config: ClientConfig | None = None, refresh: bool = False,
                  search: bool = True) -> SourceCheck:
    """Look up every candidate, then search for the attributions and free-text citations."""
    candidates = list(candidates)
    client_config = client_config or ClientConfig.from_env()   # one config: look-ups and search share
    records = lookup_sources(candidates, offline=offline, cache_dir=cache_dir,
                             endpoints=endpoints, client_config=client_config, refresh=refresh)
    if len(records) != len(candidates):  # a defect of ours, never the user's: fail loudly
        raise RuntimeError(f"{len(candidates)} candidate lines gave {len(records)} records")
    searches: list[SearchResult] = []
    if search:
        targets = claim_targets(claim_rows) + citation_targets(records)
        searches = search_sources(targets, offline=offline, cache_dir=cache_dir,
                                  endpoints=endpoints, client_config=client_config,
                                  refresh=refresh)
    return SourceCheck(len(candidates), records, searches, search,
                       dict(client_config.reachability.down))


def own_references(pack: Any, document: Any, claims: Sequence[Any], files: Sequence[Path] = ()) -> Any:
    """Reference list, footnotes and links of a Markdown chapter, then ``--references`` files
    (:mod:`sources.references`, :mod:`sources.bibfile`)."""
    from sources.references import ChapterReferences, chapter_references

    markdown = getattr(document, "source_format", "") == "markdown"
    bib = []
    if files:
        from sources.bibfile import read_bibliography

        for path in files:
            bib.extend(read_bibliography(path))
    if not markdown and not bib:
        return ChapterReferences()
    refs = ChapterReferences()
    keyed: dict[str, int] = {}
    for entry in bib:
        keyed[entry.key] = refs.add(entry.candidate, f"{entry.origin} @{entry.key}")
    if not markdown:   # a flattened text chapter: a sentence holding "@key" cites that entry
        from sources.references import CITE_KEY, Citation

        for row in claims:
            for m in CITE_KEY.finditer(str(getattr(row, "text", ""))):
                if m.group(1) in keyed:
                    refs.citations.append(Citation(row.claim_id, keyed[m.group(1)], int(getattr(row, "line", 0) or 0),
                                                   f"citation key @{m.group(1)}"))
    if markdown:
        text = pack.chapter_text
        found = chapter_references(text, claims, getattr(pack, "chapter_text_line", 1), keyed=keyed)
        base = len(refs.candidates)
        for candidate, origin in zip(found.candidates, found.origins):
            refs.add(candidate, origin)
        from dataclasses import replace

        refs.citations = [replace(c, index=c.index + base) if c.marker[:12] != "citation key" else c
                          for c in found.citations]
        refs.prose_identifiers = found.prose_identifiers
        refs.entry_lines = {(c.line, block) for c, origin in zip(found.candidates, found.origins)
                            if not origin.startswith("link") for block in ("paragraph", "list_item", "footnote")}
    return refs


def reference_entry_rows(claims: Sequence[Any], refs: Any) -> set[str]:
    """Claim ids of the rows that are reference-list entries or footnotes (sources, not claims):
    every sentence of a paragraph whose first sentence starts on an entry's line.

    A footnote that names no identifier and states a measured result ("[^1]: In our run the
    reranker reaches an nDCG@3 of 0.99.") is an aside, not a reference: its rows stay claims, so
    the report never keeps an unchecked (or contradicted) number as "a reference entry"."""
    paragraphs = {(c.paragraph, c.block) for c in claims if (c.line, c.block) in refs.entry_lines}
    bare_notes = {c.line for c, origin in zip(refs.candidates, refs.origins)
                  if origin.startswith("footnote") and not c.url}
    asides = {(c.paragraph, c.block) for c in claims if c.block == "footnote" and c.line in bare_notes
              and getattr(c, "kind", "") == "measured result"}
    return {c.claim_id for c in claims if (c.paragraph, c.block) in paragraphs - asides}


def report_candidates(pack: Any, document: Any, claims: Sequence[Any],
                      files: Sequence[Path] = ()) -> tuple[list[Any], list[Any], Any]:
    """(candidates, claim rows to search, the chapter's own references) exactly as the report
    looks them up: the pack's leads, then :func:`own_references`; reference-list entries and
    footnotes are sources, so they are not searched as claims. Anything that must reproduce the
    report's look-ups (a book pass deciding whether a chapter's references changed) calls this."""
    refs = own_references(pack, document, claims, files)
    entry_rows = reference_entry_rows(claims, refs)
    searchable = [c for c in claims if c.claim_id not in entry_rows]
    return list(pack.candidate_sources) + refs.candidates, searchable, refs


def render_check_table(check: SourceCheck) -> str:
    parts = [render_table(check.records), check.count_line + "\n"
             + (check.unreached_line + "\n" if check.incomplete else "")]
    if check.searched:
        parts.append(render_search_table(check.searches) if check.searches
                     else "found by search: no attribution claim or free-text citation to search for\n")
    return "\n".join(parts)


def render_check_json(check: SourceCheck) -> str:
    return dump_json({"candidate_lines": check.lines_read,
                      "not_reached": check.unreached_dict(),
                      "records": [r.to_dict() for r in check.records],
                      "searches": [s.to_dict() for s in check.searches]})
