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
from claims.consistency.percent_of import check_percent_of
from claims.consistency.prose_ratio import check_prose_ratios
from claims.consistency.prose_arithmetic import check_prose_arithmetic
from claims.consistency.code_counts import check_code_counts
from claims.consistency.r03_layout import run_layout
from claims.consistency.ranges import check_ranges
from claims.consistency.repeated import check_repeated
from claims.consistency.tables import read_tables
from engine.runs.jsonl import read_text_file


def check_text(text: str, path: str, *, claims: list | None = None, tasks: dict[str, int] | None = None,
               requirements: dict[str, int] | None = None, offset: int = 0) -> ConsistencyReport:
    """All checks on ``text`` (a page or a chapter); ``claims`` are its claim rows (prose sentences
    are used; table-value rows are not prose); ``offset`` moves line numbers to file lines.

    ``tasks`` may hold ``"*"``: a page-wide denominator for the granularity check; the other
    names (``all``, ``final``, ``development``) are the R03 layout's subsets.
    """
    tasks = dict(tasks or {})
    page_n = tasks.pop("*", None)
    tables = read_tables(text, path, offset)
    layout = run_layout(path, text, tables, tasks=tasks, requirements=requirements)
    covered = layout.covered_lines()
    views = [TableView.of(table, index) for index, table in enumerate(tables, start=1)]
    checks = list(layout.checks)
    for view in views:
        checks += check_aggregates(view)
        checks += check_differences(view, quiet=view.table.line in covered)
        checks += check_granularity(view, page_n)
        checks += check_ranges(view)
        checks += check_percent_of(view)
    checks += check_repeated(views)
    prose = [c for c in claims or [] if getattr(c, "block", "paragraph") != "table"]
    if prose:
        checks += check_prose(prose, views)
        checks += check_prose_ratios(prose, views)
        checks += check_code_counts(text, prose, offset)
        checks += check_prose_arithmetic(prose)
    return ConsistencyReport(path, layout.tasks, layout.requirements, layout.count_sources, layout.tables,
                             checks, n_tables=len(tables))


def check_results_page(path: str | Path, *, tasks: dict[str, int] | None = None,
                       requirements: dict[str, int] | None = None) -> ConsistencyReport:
    """Read a results page (Markdown or text) and run every check, prose included."""
    from audit.document import looks_like_markdown
    from claims.extract import extract_claims

    from engine.runs.opener import resolve_input

    path = Path(path)   # '-' is standard input (engine.runs.opener); a BOM is removed with a warning
    text = read_text_file(resolve_input(path)).replace("\r\n", "\n").replace("\r", "\n")
    suffixes = [s.lower() for s in path.suffixes if s.lower() != ".gz"]
    markdown = (suffixes[-1:] in ([".md"], [".markdown"])) or (looks_like_markdown(text) and "\n\n" in text)
    claims = extract_claims(text, "block" if markdown else "line", path=str(path))
    return check_text(text, str(path), claims=claims, tasks=tasks, requirements=requirements)


def check_chapter(pack, claims: list) -> ConsistencyReport:
    """The chapter's own tables and prose (a pack's chapter text or a snapshot), in file lines."""
    path = str(getattr(pack, "source_path", "") or "chapter")
    offset = getattr(pack, "chapter_text_line", 1) - 1
    return check_text(pack.chapter_text, path, claims=claims, offset=offset)
