"""Run every consistency check on a results page or on a chapter's own text.

Order: the R03-layout extras (``r03_layout``, only where that layout is found), then per table
the generic aggregate, difference, granularity and range checks, then repeated values across
tables, then prose against tables (sentences from ``claims.extract``). Each check module states
its own tolerance rule; all share the printed-precision rule of ``cells``.
"""

from __future__ import annotations

from pathlib import Path

from claims.consistency.aggregate import check_aggregates
from claims.consistency.context import TableView
from claims.consistency.difference import check_differences
from claims.consistency.granularity import check_granularity
from claims.consistency.model import ConsistencyReport
from claims.consistency.prose import check_prose
from claims.consistency.r03_layout import run_layout
from claims.consistency.ranges import check_ranges
from claims.consistency.repeated import check_repeated
from engine.runs.jsonl import read_text_file


def check_text(text: str, path: str, *, claims: list | None = None, tasks: dict[str, int] | None = None,
               requirements: dict[str, int] | None = None) -> ConsistencyReport:
    """All checks on ``text`` (a page or a chapter); ``claims`` are its prose sentences.

    ``tasks`` may hold ``"*"``: a page-wide denominator for the granularity check; the other
    names (``all``, ``final``, ``development``) are the R03 layout's subsets.
    """
    from audit.document import read_markdown

    tasks = dict(tasks or {})
    page_n = tasks.pop("*", None)
    tables = read_markdown(text, path).tables()
    layout = run_layout(path, text, tables, tasks=tasks, requirements=requirements)
    covered = layout.covered_lines()
    views = [TableView.of(table, index) for index, table in enumerate(tables, start=1)]
    checks = list(layout.checks)
    for view in views:
        checks += check_aggregates(view)
        checks += check_differences(view, quiet=view.table.line in covered)
        checks += check_granularity(view, page_n)
        checks += check_ranges(view)
    checks += check_repeated(views)
    if claims:
        checks += check_prose(claims, views)
    return ConsistencyReport(path, layout.tasks, layout.requirements, layout.count_sources, layout.tables,
                             checks, n_tables=len(tables))


def check_results_page(path: str | Path, *, tasks: dict[str, int] | None = None,
                       requirements: dict[str, int] | None = None) -> ConsistencyReport:
    """Read a results page (Markdown or text) and run every check, prose included."""
    from claims.extract import extract_claims

    path = Path(path)
    text = read_text_file(path, encoding="utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    rule = "block" if path.suffix.lower() in (".md", ".markdown") else "line"
    claims = extract_claims(text, rule)
    return check_text(text, str(path), claims=claims, tasks=tasks, requirements=requirements)


def check_chapter(pack, claims: list) -> ConsistencyReport:
    """The chapter's own tables and prose (a pack's chapter text or a snapshot)."""
    path = str(getattr(pack, "source_path", "") or "chapter")
    return check_text(pack.chapter_text, path, claims=claims)
