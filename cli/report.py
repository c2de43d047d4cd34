"""`chapter-audit report` and `chapter-audit demo`."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from cli.common import FormatOption, KindsOption, LogOption, cli_errors, emit_json, kinds_choice, output_format
from engine.runs.errors import EXIT_FAILED


def register(app: typer.Typer) -> None:
    """Add the report and demo commands to the root app."""

    @app.command("report")
    @cli_errors
    def report(
        pack: Path = typer.Argument(..., help="Chapter research pack (== N. Title == sections) or a chapter snapshot."),
        output: Path = typer.Option(..., "--output", "-o", help="Where to write the Markdown report."),
        log: Path = LogOption,
        claims: Optional[List[Path]] = typer.Option(None, "--claims", help="Claims TOML binding numbers to runs (repeatable)."),
        references: Optional[List[Path]] = typer.Option(None, "--references",
                                                        help="The chapter's bibliography: BibTeX or CSL-JSON (repeatable; '-' for stdin)."),
        sources_cache: Path = typer.Option(Path(".chapter-audit") / "sources", "--sources-cache",
                                           help="On-disk cache of source records."),
        offline: bool = typer.Option(False, "--offline", help="Look nothing up; sources are UNVERIFIED unless cached."),
        report_date: Optional[str] = typer.Option(None, "--date", help="Report date YYYY-MM-DD (default: today, UTC)."),
        similarity_links: bool = typer.Option(False, "--similarity-links",
                                              help="Also link claims to sources by MiniLM embedding similarity."),
        force: bool = typer.Option(False, "--force", help="Overwrite an existing report file."),
        no_search: bool = typer.Option(False, "--no-search",
                                       help="Skip the primary-source search (Crossref, arXiv) for attributions."),
        kinds: str = KindsOption("section 1 of the report says which"),
        fmt: str = FormatOption(),
    ) -> None:
        """Write the seven-section research report for a chapter pack. Exit 1 (the report is
        still written) when a source look-up or search could not be made (network)."""
        from reports.assess import binding_counts
        from reports.build import ReportOptions, write_report
        from sources.check import SourceCheck

        fmt = output_format(fmt)
        kinds = kinds_choice(kinds)

        path, inputs = write_report(ReportOptions(kinds=kinds, references=tuple(references or ()),
            pack=pack, output=output, log=log, claims_files=tuple(claims or ()), sources_cache=sources_cache,
            offline=offline, report_date=report_date, similarity_links=similarity_links, force=force,
            search=not no_search))
        found = SourceCheck(len(inputs.sources), list(inputs.sources), list(inputs.searches), inputs.search_enabled)
        matched, bound, not_printed = binding_counts(inputs.claims, inputs.verdicts)
        if fmt == "json":
            emit_json({"report": str(path), "claim_rows": len(inputs.claims), "sources": len(inputs.sources),
                       "bound": bound, "matched": matched, "not_printed": not_printed, "offline": offline,
                       "kinds": kinds, "not_reached": found.unreached_dict()})
        else:
            typer.echo(f"wrote {path}: {len(inputs.claims)} claim rows, {len(inputs.sources)} sources, "
                       f"{matched}/{bound} bound numbers match"
                       + (f" ({not_printed} quote text the chapter does not print: they check nothing of it)"
                          if not_printed else ""))
        if found.incomplete:
            typer.echo(f"{pack}: {found.unreached_line}", err=True)
            raise typer.Exit(EXIT_FAILED)

    @app.command("demo")
    @cli_errors
    def demo(
        workdir: Path = typer.Option(Path("chapter-audit-demo"), "--workdir", "--output", "-o",
                                     help="New directory for the demo's runs, log and report."),
        report_date: Optional[str] = typer.Option(None, "--date", help="Report date YYYY-MM-DD (default: today, UTC)."),
        fmt: str = FormatOption(),
    ) -> None:
        """Run the bundled sandbox and R03 mini benchmark, then report on the bundled example pack, offline."""
        from cli.demo import run_demo

        fmt = output_format(fmt)
        result = run_demo(workdir, report_date=report_date)
        if fmt == "json":
            emit_json(result)
            return
        for line in result.summary_lines():
            typer.echo(line)
