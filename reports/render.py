"""The seven-section research report, built only from parsed, logged and recorded facts.

No language model and no guessing: every row comes from the pack (parsing), the claim rows
(deterministic extraction), binding verdicts (the execution log), source records (recorded
look-ups) and claim links (stated reasons), through the rules of :mod:`reports.assess`. Where
none of those holds a fact, the report says UNVERIFIED (for sources and claims) or UNRUN (for
experiments); it never writes a run id, a date or a result that the log or a source record
does not hold.
"""

from __future__ import annotations

import re
import string
from collections import defaultdict
from importlib import resources
from pathlib import Path
from typing import Any

from reports.assess import (CANDIDATE_NOTE, EVIDENCE_CLASSES, REPORTED, REPRODUCED, UNRUN, UNVERIFIED,
                            ClaimAssessment, Fingerprint, Proposal, ReportInputs, assess_claim, attribute,
                            date_part, experiment_rows, format_value, identity_fields, link_key,
                            metadata_text, metadata_value, notebook_run, proposals, run_citation, shared_experiment_rows, source_label,
                            stale_bindings, verdicts_by_claim)
from reports.fixfirst import fix_first_items, render_fix_first
from sources.records import notice_text
from reports.markdown import Raw, anchor, bullets, escape_inline, table

__all__ = ["Fingerprint", "ReportInputs", "render_report"]


# ---------------------------------------------------------------------------------------------
# Sections.

def section_context(inputs: ReportInputs) -> str:
    pack = inputs.pack
    identity = identity_fields(pack)
    rows = [[name.replace("_", " "), value] for name, value in identity.items() if name != "fingerprint"]
    fp = inputs.fingerprint
    rows.append(["stated fingerprint", fp.stated or "none stated"])
    rows.append(["fingerprint of the text read", fp.computed])
    fp_text = {"MATCH": "MATCH: the text read is the fingerprinted revision",
               "MISMATCH": "MISMATCH: the text read is not the fingerprinted revision",
               "EXCERPT": "EXCERPT: the pack holds only part of the chapter, so it cannot match the "
                          "full-chapter fingerprint",
               "NO-FINGERPRINT": "no fingerprint stated; the revision read is identified by the hash above"}
    rows.append(["fingerprint status", fp_text.get(fp.status, fp.status)])
    rows.append(["text read", f"{inputs.pack_path.name} (sha256 {inputs.pack_sha256})"])
    paragraphs = max((c.paragraph for c in inputs.claims), default=0)
    scope = (f"excerpt: {paragraphs} paragraphs, {len(inputs.claims)} sentences; the rest of the chapter "
             "was not read" if attribute(pack, "is_excerpt", False)
             else f"whole text: {paragraphs} paragraphs, {len(inputs.claims)} sentences")
    rows.append(["scope", scope])
    document = attribute(inputs, "document")
    if document is not None:
        rows.extend(document_rows(document))
    rows.append(["report date", inputs.report_date])
    if attribute(inputs, "history"):
        rows.append(["research history", inputs.history])
    ok_runs = [r for r in inputs.log_records if r.get("status") == "ok"]
    rows.append(["execution log", f"{inputs.log_path} ({len(inputs.log_records)} records, {len(ok_runs)} ok)"])
    bound = sum(len(cf.bindings) for cf in inputs.claims_files)
    rows.append(["claims files", "; ".join(f"{Path(cf.path).name} ({len(cf.bindings)} bindings)"
                                           for cf in inputs.claims_files)
                 + f" — {bound} printed numbers bound to runs" if inputs.claims_files
                 else "none given: no printed number is bound to a run"])
    verified = sum(1 for s in inputs.sources if s.status == "VERIFIED")
    lookups = ("offline: no source was looked up in this run (cached records are used where they exist)"
               if inputs.offline else "online: each candidate looked up with httpx (see section 3)")
    rows.append(["source look-ups", f"{lookups}; {verified} of {len(inputs.sources)} verified"])
    rows.append(["primary-source search", _search_context(inputs)])
    rows.append(["claim links", "explicit mentions and embedding similarity" if inputs.similarity_links
                 else "explicit mentions only (embedding similarity not used)"])
    rows.append(["method", "no language model: rows come from parsing, the execution log and recorded "
                           "source look-ups"])
    if attribute(inputs, "kinds", "rules") == "model":
        from claims.kinds_model import shipped_model

        rows.append(["measured-result kind", "decided by the trained classifier claims/kinds_model.py "
                                             f"(weights sha256 {shipped_model().sha256[:12]}), not by the rules"])
    else:
        rows.append(["measured-result kind", "decided by the rules of claims/kinds.py (--kinds rules), "
                                             "not by the trained classifier"])
    parts = [table(["Field", "Value"], rows)]
    if attribute(pack, "is_excerpt", False):
        snapshot = attribute(pack, "snapshot_url") or "the pack's snapshot link"
        parts.append(escape_inline(
            f"The chapter text in this pack is an EXCERPT. The complete snapshot ({snapshot}) was not "
            "fetched, and nothing in this report describes the missing text: please paste the remainder "
            "of the chapter to audit it."))
    material = attribute(pack, "associated_material", []) or []
    if material:
        parts.append("Associated material (availability is not evidence: no run of it is recorded unless "
                     "section 6 cites one):")
        parts.append(bullets(escape_inline(_material_text(item, inputs.log_records)) for item in material))
    return "\n\n".join(parts)


def _search_context(inputs: ReportInputs) -> str:
    if not inputs.search_enabled:
        return "not run (--no-search)"
    if not inputs.searches:
        return "no attribution claim or free-text citation to search for"
    found = sum(len(s.hits) for s in inputs.searches)
    searched = sum(1 for s in inputs.searches if s.status == "searched")
    where = ("offline: not searched (cached searches are used where they exist)" if inputs.offline
             else "online: Crossref and arXiv searched for each attribution and free-text citation")
    return (f"{where}; {searched} of {len(inputs.searches)} targets searched; {found} found-by-search "
            f"candidates ({CANDIDATE_NOTE}; never support)")


def document_rows(document: Any) -> list[list[str]]:
    """Section 1 rows for what the document model read: code examples, tables, recovered structure."""
    from audit.document import describe_block

    code = ["; ".join(f"{describe_block(b)}" + (f" (section: {' › '.join(b.section)})" if b.section else "")
                      for b in document.code_blocks())]
    tables = []
    for number, t in enumerate(document.tables(), start=1):
        span = f"line {t.line}" if t.line == t.end_line else f"lines {t.line}–{t.end_line}"
        how = ", recovered from flattened text" if t.recovered else ""
        caption = f" after “{t.caption[:80]}”" if t.caption else ""
        tables.append(f"T-{number}: {len(t.header)} columns ({', '.join(t.header)}) × {len(t.rows)} rows, "
                      f"{span}{how}{caption}")
    # an HTML <table> the reader could not read (malformed: audit/htmltable.py) is set aside as markup:
    # its numbers are neither claim rows nor checked, so say so instead of "none"
    read = [(t.line, t.end_line) for t in document.tables()]
    html_tables = [b.line for b in document.blocks if b.kind == "html" and "<table" in b.text.lower()
                   and not any(b.line <= line and end <= b.end_line for line, end in read)]
    if html_tables:
        tables.append(f"{len(html_tables)} HTML table(s) set aside at line(s) "
                      f"{', '.join(map(str, html_tables))}: their numbers are not read, bound or checked")
    from claims.extract import structure_summary

    recovered = [b for b in document.blocks if b.recovered and b.kind != "paragraph"]
    return [
        ["structure read", f"{document.source_format} text: {structure_summary(document)}"],
        ["code examples read", code[0] if document.code_blocks() else "none"],
        ["tables read", "; ".join(tables) if tables else "none"],
        ["structure recovered", "; ".join(f"{b.kind} at line {b.line} ({b.note})" for b in recovered)
         if recovered else "none (no heuristic fired)"],
    ]


def _material_text(item: Any, records: list[dict[str, Any]] | None = None) -> str:
    """One associated resource; a notebook cites its latest logged ``notebook run`` when there is one."""
    if isinstance(item, str):
        return item
    label = attribute(item, "label") or attribute(item, "description") or ""
    url = attribute(item, "url") or ""
    note = attribute(item, "note") or ""
    record = notebook_run(records or [], url) if url else None
    recorded = f"recorded: {run_citation(record)}" if record is not None else ""
    return " — ".join(part for part in (label, url, note, recorded) if part)


def _where(c: Any) -> str:
    return (attribute(c, "where") or attribute(c, "location")
            or f"paragraph {c.paragraph}, sentence {c.sentence}")


_LOCATION = re.compile(r"^table (\d+) \(line \d+\).*?, row '(.*)'(?: \[.*\])? × column '(.*)', line \d+$")


def mark_consistency(assessments: list[ClaimAssessment], failed: list[Any]) -> None:
    """A claim row a failed consistency check names (a prose row by its id, a table cell by its
    table, row and column) becomes high priority, its concern citing the check (``K-n``)."""
    by_claim: dict[str, list[str]] = defaultdict(list)
    cells: dict[tuple[str, str, str], list[str]] = defaultdict(list)
    for n, check in enumerate(failed, start=1):
        label = f"K-{n} ({check.group})"
        for claim_id in re.findall(r"\b[CT]-\d+(?:-R\d+-C\d+|-\d+)\b", check.arithmetic.split(":", 1)[0]):
            by_claim[claim_id].append(label)
        for where in check.locations:
            m = _LOCATION.match(where)
            if m:
                cells[(f"T-{m.group(1)}", m.group(2).split(" / ")[0], m.group(3))].append(label)
    for a in assessments:
        c = a.claim
        labels = by_claim.get(c.claim_id, []) + cells.get((attribute(c, "table", ""), attribute(c, "row_label", ""),
                                                          attribute(c, "column", "")), [])
        if labels:
            a.priority = "high"
            a.concern = (f"the chapter's own numbers disagree: {', '.join(sorted(set(labels)))} in section 4"
                         + ("; " + a.concern if a.concern and not a.concern.startswith("none") else ""))
            a.response = "correct the number or the numbers it is computed from (see section 4)" + (
                "; " + a.response if a.response.split(";")[0] != "keep" else "")


def reference_entry(claim: Any) -> ClaimAssessment:
    """A row of the chapter's reference list or a footnote: a source (section 3), not a claim."""
    return ClaimAssessment(claim, ["the chapter's own reference entry: a record in section 3"], "background",
                           "none: a reference entry, looked up as a source", "low", "keep", [], [])


def section_claims(inputs: ReportInputs, assessments: list[ClaimAssessment]) -> str:
    """Ranked rows (reports/ranking.py), then table values per table, then the rows needing nothing."""
    from reports.ranking import cell_line, keep_line, split_rows, table_line, unbacked_cells

    ranked, tables, keep = split_rows(assessments)
    rows = []
    for a in ranked:
        c = a.claim
        rows.append([anchor(c.claim_id, c.claim_id), f"{c.text} ({_where(c)})",
                     c.kind, "; ".join(a.evidence), a.evidence_class, a.concern, a.priority, a.response])
    head = ["ID", "Claim and location", "Kind", "Current evidence", "Evidence class", "Concern", "Priority",
            "Proposed response"]
    counts = defaultdict(int)
    for a in assessments:
        counts[a.priority] += 1
    summary = (f"{len(assessments)} claim rows: {counts['high']} high, {counts['medium']} medium, "
               f"{counts['low']} low priority. Ranked by priority (high, medium, low; measured results, "
               f"attributions and contradicted table values first within each); {len(ranked)} rows need "
               f"attention below, {sum(len(v) for v in tables.values())} table values are listed per table "
               f"and {len(keep)} rows need nothing (background / keep, listed last).")
    parts = [summary, table(head, rows) if rows else "No row needs the author's attention."]
    if tables:
        every_cell: dict[str, list[ClaimAssessment]] = defaultdict(list)
        for a in assessments:
            if a.claim.kind == "table value":
                every_cell[attribute(a.claim, "table", "") or a.claim.text.split(" · ", 1)[0]].append(a)
        lines = []
        unbacked = {id(a) for a in unbacked_cells(assessments)}   # fix-first links to these
        for table_id, cells in tables.items():
            lines.append(f"- {escape_inline(table_line(table_id, cells, every_cell[table_id]))}")
            for a in cells:
                text = cell_line(a)
                if id(a) in unbacked:
                    ident = a.claim.claim_id
                    lines.append(f"  - {anchor(ident, ident)}{escape_inline(text[len(ident):])}")
                else:
                    lines.append(f"  - {escape_inline(text)}")
        parts.append("Table values (one line per table; its cells under it):\n\n" + "\n".join(lines))
    if keep:
        parts.append("Rows that need nothing (background / keep), in document order:\n\n"
                     + bullets(escape_inline(keep_line(a)) for a in keep))
    return "\n\n".join(parts)


def _bears_on(link: Any) -> str:
    """How one claim link reads in the ledger's "Bears on" column."""
    if link.kind == "topical-only":
        return f"{link.claim_id}: topical only — supports nothing"
    if link.kind == "similarity":
        return f"{link.claim_id}: {link.reason} (a candidate to check; similarity alone supports nothing)"
    return f"{link.claim_id}: {link.reason}"


def _source_name(s: Any, origin: str = "") -> str:
    where = f"{origin} at line {s.line}: " if origin else ""
    if s.kind == "citation":
        return f"citation ({origin + ', ' if origin else ''}line {s.line}): {s.description}"
    return f"{source_label(s)} — {where}{s.description}"


def _year(s: Any) -> str | None:
    date = s.verified.get("issued") or s.verified.get("published") or s.verified.get("pushed_at")
    return str(date)[:4] if date else None


def _first_authors(authors: Any) -> str | None:
    if not isinstance(authors, list) or not authors:
        return None
    return ", ".join(str(a) for a in authors[:3]) + (" et al." if len(authors) > 3 else "")


def ledger_metadata(s: Any) -> str:
    """Status, title, first authors, venue, year, identifiers (abstracts go to the notes below)."""
    v = s.verified
    update = getattr(s, "update_status", None)
    if s.status != "VERIFIED":
        return f"{UNVERIFIED}: {s.reason}"
    status = "VERIFIED"
    if update:
        status = f"{update} ({'; '.join(notice_text(u) for u in s.update_notices(update))})"
    parts = [f"status: {status}"]
    if s.kind == "github":
        parts.append(f"title: {v.get('full_name', s.identifier)}")
        parts.append("venue: GitHub repository")
        if v.get("pushed_at"):
            parts.append(f"last push: {str(v['pushed_at'])[:10]}")
        parts.append(f"archived: {metadata_value(v.get('archived'))}; license: {metadata_value(v.get('license'))}")
    else:
        parts.append(f"title: {s.title or 'none'}")
        authors = _first_authors(v.get("authors"))
        if authors:
            parts.append(f"first authors: {authors}")
        venue = v.get("container_title") or v.get("journal_ref") or ("arXiv preprint" if s.kind == "arxiv" else None)
        if venue:
            parts.append(f"venue: {venue}")
        if _year(s):
            parts.append(f"year: {_year(s)}")
    identifiers = [source_label(s)] + ([f"doi:{v['doi']}"] if v.get("doi") and s.kind != "doi" else [])
    if s.kind == "arxiv" and v.get("id"):
        identifiers.append(f"version read: {v['id']}")
    parts.append("identifiers: " + ", ".join(identifiers))
    if v.get("update_to"):
        parts.append("this record is itself a notice: " + "; ".join(
            f"{u.get('type', 'update').replace('_', ' ')} of doi:{u.get('doi', '?')}" for u in v["update_to"]))
    if s.renamed:
        parts.append(f"renamed: {s.renamed}")
    return "; ".join(parts)


def _pack_source_row(s: Any, links: list[Any], row_id: str, origin: str = "") -> list[Any]:
    if s.status == "VERIFIED":
        verified_at = f"verified {date_part(s.accessed_at)}" + (" (from cache)" if s.from_cache else "")
    else:
        verified_at = UNVERIFIED
    accessed = f"accessed {date_part(s.accessed_at)}" if s.accessed_at else "not accessed"
    bears = "; ".join(_bears_on(l) for l in links) or "no claim linked"
    reading = s.reading_status
    if s.kind == "github" and reading == "abstract only":
        reading = "abstract only (the repository's description and metadata; no code read)"
    limits = ["metadata record only: it identifies the source but cannot support a claim's content"
              if s.reading_status == "abstract only" else "nothing was read"]
    if s.status != "VERIFIED":
        limits.append("absence of a record is not evidence that the source is fabricated")
    limits += [f"DISCREPANCY: {d}" for d in s.discrepancies] + list(s.notes)
    label = _source_name(s, origin)
    update = getattr(s, "update_status", None)
    if update:
        label = f"{update} — {label}"
    return [Raw(anchor(row_id, row_id.upper()) + " " + escape_cell_text(label)), ledger_metadata(s),
            s.url or "none given", reading, bears, "; ".join(limits), f"{verified_at}; {accessed}"]


def escape_cell_text(text: str) -> str:
    from reports.escape import escape_cell

    return escape_cell(text)


def source_notes(sources: list[Any], row_ids: dict[str, str]) -> str:
    """One note per source with an abstract (or a repository description), under the ledger."""
    notes = []
    for n, s in enumerate(sources, start=1):
        text = (s.verified.get("abstract") or s.verified.get("description")) if s.status == "VERIFIED" else None
        if text:
            what = "abstract" if s.verified.get("abstract") else "repository description"
            notes.append(f"S-{n} {source_label(s)} — {what} (as the record gives it, "
                         f"not the full text): {text}")
    return ("Notes on the sources (abstracts from the verified records):\n\n"
            + bullets(escape_inline(n) for n in notes)) if notes else ""


SEARCH_LIMITS = ("found by search, not named by the pack: the link to the claim is a candidate for a human "
                 "to confirm and supports nothing until the author adds the identifier to the pack; "
                 "metadata record only")


def _search_rows(search: Any, pack_lines: dict[str, Any]) -> list[list[str]]:
    rows = []
    for h in search.hits:
        r = h.record
        named = pack_lines.get(source_label(r))
        limits = SEARCH_LIMITS if named is None else (
            f"found by search; the pack names the same source (line {named}), whose own row above is the "
            "lead to check; a search hit is a candidate for a human to confirm and supports nothing")
        verified_at = f"verified {date_part(r.accessed_at)}" + (" (from cache)" if r.from_cache else "")
        rows.append([f"found by search for {search.target}: {source_label(r)}", metadata_text(r.verified),
                     r.url, r.reading_status,
                     f"{search.target}: {CANDIDATE_NOTE} (query '{h.query}' on {h.service}, score "
                     f"{h.score:.1f} of 100)", limits, f"{verified_at}; accessed {date_part(r.accessed_at)}"])
    if not search.hits:
        accessed = f"accessed {date_part(search.accessed_at)}" if search.accessed_at else "not accessed"
        queries = "; ".join(f"{k}: '{v}'" for k, v in search.queries.items() if v)
        rows.append([f"primary-source search for {search.target}",
                     search.summary + (f" (queries {queries})" if queries else ""), "none", "not accessible",
                     f"{search.target}: no candidate",
                     "absence of a search hit is not evidence that no source exists", f"{UNVERIFIED}; {accessed}"])
    return rows


def section_sources(inputs: ReportInputs) -> str:
    if not inputs.sources and not inputs.searches:
        return "The pack lists no candidate sources; no source was looked up."
    by_source: dict[str, list[Any]] = defaultdict(list)
    for link in inputs.links:
        by_source[link_key(link)].append(link)
    row_ids = source_row_ids(inputs.sources)
    first_own = inputs.pack_source_count if inputs.pack_source_count is not None else len(inputs.sources)
    origins = ["the pack"] * first_own + [f"the chapter's {o}" if not o.endswith(")") and "@" not in o else o
                                          for o in inputs.reference_origins]
    rows = [_pack_source_row(s, by_source.get(source_label(s), []), f"s-{n}",
                             origins[n - 1] if n - 1 >= first_own and n - 1 < len(origins) else "")
            for n, s in enumerate(inputs.sources, start=1)]
    pack_lines: dict[str, Any] = {}
    for s in inputs.sources:
        pack_lines.setdefault(source_label(s), s.line)
    for search in inputs.searches:
        rows.extend(_search_rows(search, pack_lines))
    head = ["Source", "Verified metadata", "URL", "Reading status", "Bears on", "Limitations",
            "Verification and access dates"]
    count = len(inputs.searches)
    own = len(inputs.sources) - first_own
    intro = (f"{len(inputs.sources)} candidate lines, {len(inputs.sources)} records"
             + (f" ({first_own} from the pack, {own} from the chapter's own references, footnotes and links"
                " or its bibliography file)" if own else "")
             + (f"; then {count} primary-source search{'es' if count != 1 else ''}" if count else "") + ".")
    notes = source_notes(inputs.sources, row_ids)
    return intro + "\n\n" + table(head, rows) + ("\n\n" + notes if notes else "")


def source_row_ids(sources: list[Any]) -> dict[str, str]:
    """``kind:identifier`` → ``s-N`` (the first row naming it), the anchors of section 3."""
    ids: dict[str, str] = {}
    for n, s in enumerate(sources, start=1):
        ids.setdefault(source_label(s), f"s-{n}")
    return ids


def section_findings(inputs: ReportInputs, assessments: list[ClaimAssessment], unplaced: list[Any]) -> str:
    supporting, qualifying, contradictory, unresolved = [], [], [], []
    for a in assessments:
        cid = a.claim.claim_id
        for v in a.verdicts:
            line = (f"[{cid}] {REPRODUCED}: {v.read_at} = {format_value(v.reproduced)} in run {v.run_id} "
                    f"against the printed {v.claimed.text}") if v.run_id else ""
            if v.status == "MATCH":
                supporting.append(line + " — matches within printed precision.")
            elif v.status == "MISMATCH":
                contradictory.append(line + " — differs beyond printed precision.")
            else:
                unresolved.append(f"[{cid}] {v.binding.binding_id}: {v.status} — {v.note or UNRUN}.")
        if not a.verdicts and a.priority == "medium":
            unresolved.append(f"[{cid}] {a.evidence_class}: {a.concern}.")
        for flag in a.flags:
            (contradictory if flag.startswith("RETRACTED") else qualifying).append(
                f"[{cid}] rests on a {flag}.")
        if a.evidence_class == REPORTED and a.evidence and a.evidence[0].startswith(f"{REPORTED}: "):
            supporting.append(f"[{cid}] {a.evidence[0]}; the full text was not read.")
        for link in a.links:
            if link.kind == "topical-only":
                continue   # topical nearness is not a finding (section 3 shows it)
            elif link.kind == "similarity":
                qualifying.append(f"[{cid}] {link_key(link)}: {link.reason}; a candidate for a human check, "
                                  "not support.")
            elif a.evidence_class == REPORTED and a.claim.kind == "attribution":
                qualifying.append(f"[{cid}] {REPORTED}: {link_key(link)} is named ({link.reason}); its "
                                  f"metadata is verified but its full text was not read.")
    qualifying.extend(_discrepancy_findings(inputs))
    for search in inputs.searches:
        for h in search.hits:
            unresolved.append(f"[{search.target}] found by search: {h.record.kind}:{h.record.identifier} "
                              f"({h.service}, score {h.score:.1f}) — {CANDIDATE_NOTE}; not support.")
        if not search.hits:
            unresolved.append(f"[{search.target}] primary-source search: {search.summary}.")
    consistency = []
    for n, check in enumerate(getattr(inputs, "consistency", []) or [], start=1):
        consistency.append(Raw(anchor(f"k-{n}", f"K-{n}") + " " + escape_inline(
            f"consistency ({check.group}) of the chapter's own numbers: {check.arithmetic}"
            + (f" [chapter line {check.line}]" if check.line else ""))))
    stale = {id(v) for v in stale_bindings(inputs.claims, unplaced)}
    for v in unplaced:
        if id(v) in stale:
            unresolved.append(f"binding {v.binding.binding_id} quotes {v.binding.quote!r}, but that sentence "
                              f"no longer prints {v.binding.claimed}: the claims file is older than the chapter; "
                              f"its verdict ({v.status}) is not about this text.")
            continue
        unresolved.append(f"binding {v.binding.binding_id} quotes text not found in this chapter "
                          f"({v.binding.quote!r}): {v.status}.")
    for gap in attribute(inputs.pack, "unresolved_gaps", []) or []:
        unresolved.append(f"gap stated by the pack: {gap} ({UNRUN}).")
    if attribute(inputs.pack, "is_excerpt", False):
        unresolved.append("the chapter beyond the excerpt was not read: its claims are not audited.")
    parts = []
    for title, items in (("Supporting", supporting), ("Qualifying", qualifying),
                         ("Contradictory", contradictory), ("Unresolved", unresolved)):
        escaped = [escape_inline(i) for i in items] + (consistency if title == "Contradictory" else [])
        parts.append(f"### {title}\n\n" + bullets(escaped))
    return "\n\n".join(parts)


def _discrepancy_findings(inputs: ReportInputs) -> list[str]:
    """Each description/record conflict, and each claim that names a conflicting name (not linked)."""
    import re

    from sources.leads import conflicting_names

    out = []
    for s in inputs.sources:
        for d in s.discrepancies:
            out.append(f"[line {s.line}] {source_label(s)}: DISCREPANCY — {d}.")
        for name in conflicting_names(s):
            pattern = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")
            for claim in inputs.claims:
                if pattern.search(claim.text):
                    out.append(f"[{claim.claim_id}] names '{name}', whom the pack's lead {source_label(s)} "
                               "credits, but the verified record does not list that author: not linked.")
    return out


def section_upgrade(inputs: ReportInputs, props: list[Proposal]) -> str:
    edits = [p for p in props if not p.change.startswith("experiment:")]
    if not edits:
        intro = ("No change to the chapter text is recommended from the evidence held: no reproduced number "
                 "contradicts it and no citation can be added from verified sources.")
    else:
        intro = (f"{len(edits)} minimal change(s) follow from the evidence held; nothing here rewrites "
                 "text that the evidence does not touch.")
    rows = [[p.proposal_id, p.claim_id, p.change, p.rationale, p.tradeoff] for p in props]
    parts = [intro, table(["Proposal", "Claim", "Change", "Rationale", "Tradeoff"], rows) if rows
             else "No proposals."]
    material = attribute(inputs.pack, "associated_material", []) or []
    lines = []
    for item in material:
        label = (attribute(item, "label") or attribute(item, "description") or str(item)) if not isinstance(item, str) \
            else item
        url = attribute(item, "url") or "" if not isinstance(item, str) else ""
        name = f"{label} ({url})" if url else label
        notebook = url.endswith(".ipynb") or "notebook" in f"{label} {url}".lower() or "colab" in url.lower()
        record = notebook_run(inputs.log_records, url) if url and notebook else None
        if notebook:
            lines.append(f"{name}: " + (f"recorded {run_citation(record)}; bind the numbers it prints before "
                                        "citing them" if record else
                                        "no logged run; run it with chapter-audit notebook run (section 6) "
                                        "before citing what it prints") + "; any edit to it is a dependency of "
                                                                          "this chapter, not applied here")
        else:
            lines.append(f"{name}: no logged run of it is cited here; any edit to it is a dependency of this "
                         "chapter, not applied here")
    if lines:
        parts.append("Associated resources:\n\n" + bullets(escape_inline(line) for line in lines))
    return "\n\n".join(parts)


def section_experiments(inputs: ReportInputs) -> str:
    rows = [[r.name, r.tests, r.method, r.success, r.failure, r.status] for r in shared_experiment_rows(inputs)]
    if not rows:
        return f"No experiment is bound or proposed. {UNRUN}: nothing was run for this chapter."
    return table(["Experiment", "What it tests", "Method", "Success criterion", "Failure criterion", "Status"],
                 rows)


def section_checklist(inputs: ReportInputs, props: list[Proposal]) -> str:
    rows = [[f"{p.proposal_id}: {p.change}", p.recommendation, p.reason] for p in props]
    if attribute(inputs.pack, "is_excerpt", False):
        rows.insert(0, ["Supply the complete chapter text so the remainder can be audited", "accept",
                        "the pack holds an excerpt; unread text is not audited"])
    if inputs.fingerprint.status == "MISMATCH":
        rows.insert(0, ["Confirm which revision is being audited", "accept",
                        "the text read does not match the stated fingerprint"])
    if not rows:
        rows.append(["Leave the chapter unchanged", "accept", "no evidence held calls for a change"])
    return table(["Decision", "Recommendation", "Reason"], rows)


def render_report(inputs: ReportInputs) -> str:
    """The report as Markdown (deterministic for the same inputs and date)."""
    sources = {source_label(s): s for s in inputs.sources}
    links_by_claim: dict[str, list[Any]] = defaultdict(list)
    for link in inputs.links:
        links_by_claim[link.claim_id].append(link)
    placed, unplaced = verdicts_by_claim(inputs.claims, inputs.verdicts)
    searches = {s.target: s for s in inputs.searches}
    assessments = [assess_claim(c, placed.get(c.claim_id, []), links_by_claim.get(c.claim_id, []), sources,
                                searches.get(c.claim_id))
                   if c.claim_id not in (inputs.reference_entries or ()) else reference_entry(c)
                   for c in inputs.claims]
    mark_consistency(assessments, inputs.consistency or [])
    props = proposals(inputs, assessments)
    row_ids = {source_label(s): f"s-{n}" for n, s in reversed(list(enumerate(inputs.sources, start=1)))}
    consistency_ids = [(f"k-{n}", check) for n, check in enumerate(inputs.consistency or [], start=1)]
    first = render_fix_first(fix_first_items(inputs, assessments, row_ids, consistency_ids))
    identity = identity_fields(inputs.pack)
    title = identity.get("chapter") or inputs.pack_path.stem
    template = string.Template(resources.files("templates").joinpath("report.md").read_text(encoding="utf-8"))
    return template.substitute(
        title=escape_inline(title),
        date=inputs.report_date,
        classes=", ".join(EVIDENCE_CLASSES),
        context=first + "\n\n" + section_context(inputs),
        claims=section_claims(inputs, assessments),
        sources=section_sources(inputs),
        findings=section_findings(inputs, assessments, unplaced),
        upgrade=section_upgrade(inputs, props),
        experiments=section_experiments(inputs),
        checklist=section_checklist(inputs, props),
    ).rstrip("\n") + "\n"
