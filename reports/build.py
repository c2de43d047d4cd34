"""Assemble the report's inputs from files, the execution log and the source cache, then write it.

Data flows one way: the pack is parsed, claims are extracted, bound numbers are read from the
log (never recomputed), sources come from recorded look-ups (or are UNVERIFIED offline), and the
renderer turns those facts into Markdown. The report is validated with markdown-it-py before it
is written, and an existing report file is never overwritten silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime, timezone
from pathlib import Path
from typing import Any

from claims.kinds import DEFAULT_KINDS
from engine.runs.errors import InputError, RefusalError
from engine.runs.outdir import file_output, publish_file
from engine.runs.runlog import read_records
from reports.render import Fingerprint, ReportInputs, render_report
from reports.validate import validation_problems


@dataclass(frozen=True)
class ReportOptions:
    pack: Path
    output: Path
    log: Path
    claims_files: tuple[Path, ...] = ()
    references: tuple[Path, ...] = ()   # BibTeX / CSL-JSON files: the chapter's bibliography
    sources_cache: Path = Path(".chapter-audit") / "sources"
    offline: bool = False
    report_date: str | None = None
    similarity_links: bool = False
    force: bool = False
    search: bool = True   # primary-source search for attributions and free-text citations
    history: str = ""     # section 1 "research history" row (``book``: the earlier pass this report differs from)
    kinds: str = DEFAULT_KINDS  # who decides the measured-result kind: "model" (claims/kinds_model.py) or "rules"


def parse_report_date(value: str | None) -> str:
    """``YYYY-MM-DD`` as given (validated), else today's UTC date."""
    if value is None:
        return datetime.now(timezone.utc).date().isoformat()
    try:
        return date.fromisoformat(value).isoformat()
    except ValueError:
        raise InputError(f"not a date in YYYY-MM-DD form: {value!r}", field="--date")


def build_report_inputs(options: ReportOptions, *, endpoints: Any = None) -> ReportInputs:
    """Parse, read the log and the sources; no rendering, no writing."""
    from audit.fingerprint import check_pack
    from audit.pack import load_pack
    from claims.bindings import load_claims_file
    from claims.consistency import check_chapter
    from claims.extract import claims_for_pack
    from claims.verify import verify_bindings
    from sources.check import check_sources, reference_entry_rows, report_candidates
    from sources.link import link_claims

    from engine.runs.opener import refuse_second_stdin

    refuse_second_stdin([options.pack, *options.claims_files, *options.references], "--claims")
    pack = load_pack(options.pack)
    check = check_pack(pack)
    document, claims, _ = claims_for_pack(pack, kinds=options.kinds)
    claims_files = [load_claims_file(path) for path in options.claims_files]
    log_records = read_records(options.log)
    verdicts = [v for cf in claims_files for v in verify_bindings(cf, options.log, log_records)]
    candidates, searchable, refs = report_candidates(pack, document, claims, options.references)
    entry_rows = reference_entry_rows(claims, refs)  # sources, not claims
    found = check_sources(candidates, searchable, offline=options.offline,
                          cache_dir=options.sources_cache, endpoints=endpoints, search=options.search)
    sources = found.records
    encoder = None
    if options.similarity_links:
        from engine.encoder.encode import EncoderConfig, load_encoder

        encoder = load_encoder(EncoderConfig())
    # the pack's leads are linked by what a sentence mentions; the chapter's own references only by
    # position (the sentence that holds the link or marker), never by word overlap
    links = link_claims(claims, sources[:len(pack.candidate_sources)], encoder=encoder)
    if refs.candidates:
        from sources.references import citation_links

        cited = citation_links(refs, sources, offset=len(pack.candidate_sources))
        taken = {(l.claim_id, l.source_kind, l.source) for l in cited}
        links = cited + [l for l in links if (l.claim_id, l.source_kind, l.source) not in taken
                         and l.claim_id not in entry_rows]
    consistency = check_chapter(pack, claims).failed  # the chapter's own tables and prose
    return ReportInputs(reference_entries=entry_rows, reference_origins=refs.origins,
                        pack_source_count=len(pack.candidate_sources),
        pack=pack, pack_path=Path(options.pack), pack_sha256=pack.source_sha256, claims=claims,
        fingerprint=Fingerprint(computed=check.computed, stated=check.stated, status=check.status),
        report_date=parse_report_date(options.report_date), offline=options.offline,
        log_path=Path(options.log), log_records=log_records, verdicts=verdicts, claims_files=claims_files,
        sources=sources, links=links, similarity_links=options.similarity_links, searches=found.searches,
        search_enabled=options.search, document=document, consistency=consistency, history=options.history,
        kinds=options.kinds)


def write_report(options: ReportOptions, *, endpoints: Any = None) -> tuple[Path, ReportInputs]:
    """Build, render, validate and write the report whole; refuse to overwrite unless forced.

    The output is locked from the check to the write (``engine.runs.outdir.file_output``): a
    second report into the same file while this one runs is refused naming this one, and a
    file that appears meanwhile is never replaced (without ``--force``).
    """
    if options.output.exists() and not options.force and not options.output.is_dir():
        raise RefusalError(f"{options.output}: already exists; refusing to overwrite it (use --force)")
    parse_report_date(options.report_date)
    with file_output(options.output, holder="report", may_replace=(lambda _: True) if options.force else None):
        inputs = build_report_inputs(options, endpoints=endpoints)
        markdown = render_report(inputs)
        problems = validation_problems(markdown)
        if problems:  # a renderer defect, never the user's: fail loudly, write nothing
            raise RuntimeError("rendered report failed its structure check: " + "; ".join(problems))
        publish_file(options.output, markdown, replace=options.force)
    return options.output, inputs
