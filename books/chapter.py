"""One chapter of a book pass: the task an executor runs (here, in a process pool or on Dask).

:func:`audit_chapter` takes a :class:`ChapterTask` (plain, picklable data) and returns a plain
dict, so it runs the same wherever the executor puts it (workers of a Dask cluster need the
book, the log and the sources cache at the same paths: a shared filesystem). It either finds
the chapter unchanged since the previous pass (every part of its key, :mod:`books.keys`, equal)
and returns ``{"reused": True, ...}`` — the pass then copies the previous files byte for byte —
or audits it through the library, never re-implementing a step:

* ``report.md`` — :func:`reports.build.write_report` (the seven sections; section 1 carries the
  ``research history`` row naming the pass this report differs from);
* ``claims.json`` — the claim rows (:func:`reports.claims_table.format_claims`);
* ``consistency.json`` — :func:`claims.consistency.check_chapter`, as ``consistency --format json``;
* ``verify.json`` — the binding verdicts from the log (:func:`claims.verify.verify_bindings`, as
  ``verify --format json``), when a claims file binds the chapter;
* ``summary.json`` — fingerprint, counts, status and key (what the index is built from).
"""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from books.keys import CHEAP_PARTS, PART_WORDS, changed_parts, cheap_key, cited_runs, references_digest
from books.layout import ChapterSpec
from engine.runs.hashing import dump_json

# Severity order of a chapter's status: the first that applies is shown.
STATUSES = ("CONTRADICTED", "RETRACTED", "INCONSISTENT", "UNCHECKED", "UNRUN", "UNVERIFIED", "NO-FLAGS")
COUNTS = ("contradicted", "retracted", "inconsistent", "unchecked", "unrun", "unverified")


@dataclass(frozen=True)
class ChapterTask:
    chapter: ChapterSpec
    log: str
    sources_cache: str
    offline: bool
    search: bool
    report_date: str
    toolkit: str
    pass_number: int
    run_id: str
    previous: dict[str, Any] | None   # this chapter's entry of the previous pass (books.history), or None


def counts_of(inputs: Any, records: list[dict[str, Any]]) -> dict[str, int]:
    """The index's counts for one chapter, from the report's own inputs.

    ``contradicted``: bound numbers the log contradicts (verdict MISMATCH); ``unchecked``: bound
    numbers that could not be checked (any other verdict but MATCH and NO RUN, and every binding
    the chapter does not hold: one whose quoted sentence no longer prints its claimed value, a
    claims file older than the chapter, or whose quote is nowhere in it, e.g. "of 0.75" after the
    chapter was edited to 0.80: its MATCH is about a sentence the chapter no longer has, and it
    used to leave the chapter NO-FLAGS); ``unrun``:
    experiments of the claims files with no ok run in the log; ``unverified``: sources no look-up
    verified; ``retracted``: sources whose record is marked retracted; ``inconsistent``: failed
    checks of the chapter's own numbers (consistency).
    """
    from claims.verify import find_run, identity_pins
    from reports.assess import verdicts_by_claim

    claims = list(getattr(inputs, "claims", []) or [])
    _, unplaced = verdicts_by_claim(claims, inputs.verdicts)
    unheld = {id(v) for v in unplaced}  # bindings the chapter does not print (stale or quoted nowhere)
    verdicts = [v for v in inputs.verdicts if id(v) not in unheld]
    unrun = sum(1 for cf in inputs.claims_files for e in cf.experiments.values()
                if find_run(records, e, pins=identity_pins(e, cf.path)) is None)
    retracted = sum(1 for s in inputs.sources if getattr(s, "update_status", None) == "RETRACTED")
    return {
        "contradicted": sum(1 for v in verdicts if v.status == "MISMATCH"),
        "unchecked": sum(1 for v in verdicts if v.status not in ("MATCH", "MISMATCH", "NO RUN")) + len(unheld),
        "unrun": unrun,
        "unverified": sum(1 for s in inputs.sources if getattr(s, "status", "") == "UNVERIFIED"),
        "retracted": retracted,
        "inconsistent": len(inputs.consistency),
    }


def status_of(counts: dict[str, int]) -> str:
    for status in STATUSES[:-1]:
        if counts.get(status.lower(), 0) > 0:
            return status
    return "NO-FLAGS"


def history_text(task: ChapterTask, changed: list[str], fingerprint: str) -> str:
    """Section 1's ``research history`` row: this pass and the earlier pass it differs from."""
    here = f"book pass {task.pass_number} ({task.report_date}, run {task.run_id})"
    previous = task.previous
    if previous is None:
        return f"{here}: first audit of this chapter in the book's history (passes.jsonl of the book output)"
    words = ", ".join(PART_WORDS[part] for part in changed) or "nothing"
    old = previous.get("fingerprint") or "none"
    fp = (f"fingerprint {old} → {fingerprint}" if old != fingerprint else f"fingerprint unchanged ({fingerprint})")
    return (f"{here}; differs from book pass {previous.get('pass')} ({previous.get('date')}, run "
            f"{previous.get('run_id')}) in: {words}; {fp}")


def audit_chapter(task: ChapterTask) -> dict[str, Any]:
    """Reuse or audit one chapter (see the module docstring); a plain, JSON-able dict."""
    from audit.pack import load_pack
    from claims.bindings import load_claims_file
    from engine.runs.runlog import read_records

    chapter = task.chapter
    records = read_records(task.log, report_damaged=False)
    claims_files = [load_claims_file(path) for path in chapter.claims]
    key = cheap_key(chapter.file, chapter.claims, claims_files, task.log, records, offline=task.offline,
                    search=task.search, toolkit=task.toolkit)
    previous_key = (task.previous or {}).get("key")
    changed = changed_parts(previous_key, key, CHEAP_PARTS)
    if previous_key is not None and not changed:
        # the cheap parts agree: the references decide (the same look-ups the report makes)
        from claims.extract import claims_for_pack
        from claims.kinds import DEFAULT_KINDS
        from sources.check import check_sources, report_candidates

        pack = load_pack(chapter.file)
        document, rows, _ = claims_for_pack(pack, kinds=DEFAULT_KINDS)  # as the report reads it
        candidates, searchable, _ = report_candidates(pack, document, rows)
        found = check_sources(candidates, searchable, offline=task.offline,
                              cache_dir=task.sources_cache, search=task.search)
        key["references"] = references_digest(found.records, found.searches)
        key["cited"] = cited_runs(pack, rows, records)
        changed = [part for part in ("references", "cited") if key[part] != previous_key.get(part)]
        if not changed:
            return {"name": chapter.name, "reused": True, "key": key, "changed": []}
    return _render(task, key, changed, records)


def _render(task: ChapterTask, key: dict[str, Any], changed: list[str],
            records: list[dict[str, Any]]) -> dict[str, Any]:
    from audit.fingerprint import check_pack
    from audit.pack import load_pack
    from claims.consistency import check_chapter, format_report
    from claims.kinds import DEFAULT_KINDS
    from reports.build import ReportOptions, write_report
    from reports.claims_table import format_claims

    chapter = task.chapter
    fingerprint = check_pack(load_pack(chapter.file)).computed
    with tempfile.TemporaryDirectory(prefix="chapter-audit-book-") as scratch:
        output = Path(scratch) / "report.md"
        _, inputs = write_report(ReportOptions(
            pack=chapter.file, output=output, log=Path(task.log), claims_files=chapter.claims,
            sources_cache=Path(task.sources_cache), offline=task.offline, report_date=task.report_date,
            search=task.search, history=history_text(task, changed if task.previous else [], fingerprint),
            kinds=DEFAULT_KINDS))
        report = output.read_text(encoding="utf-8")
    key["references"] = references_digest(inputs.sources, inputs.searches)
    key["cited"] = cited_runs(inputs.pack, inputs.claims, records)
    if task.previous is None:
        changed = []
    elif "references" not in changed and (task.previous.get("key") or {}).get("references") != key["references"]:
        changed = changed + ["references"]   # found only now (the history row names the cheap parts)
    counts = counts_of(inputs, records)
    summary = {
        "number": chapter.number, "title": chapter.title, "file": chapter.file.name, "name": chapter.name,
        "fingerprint": inputs.fingerprint.computed, "stated_fingerprint": inputs.fingerprint.stated,
        "fingerprint_status": inputs.fingerprint.status, "claim_rows": len(inputs.claims),
        "bound_numbers": len(inputs.verdicts), "matched": sum(1 for v in inputs.verdicts if v.ok),
        "counts": counts, "status": status_of(counts), "key": key,
        "written_in_pass": task.pass_number, "written_on": task.report_date,
        "claims_files": [Path(p).name for p in chapter.claims],
    }
    files = {
        "report.md": report,
        "claims.json": format_claims(inputs.claims, "json"),
        "consistency.json": format_report(check_chapter(inputs.pack, inputs.claims), "json"),
        "summary.json": dump_json(summary),
    }
    if chapter.claims:
        files["verify.json"] = json.dumps([v.as_dict() for v in inputs.verdicts], indent=2, sort_keys=True) + "\n"
    return {"name": chapter.name, "reused": False, "key": key, "changed": changed, "files": files,
            "summary": summary}
