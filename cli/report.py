"""`chapter-audit report` and `chapter-audit demo`."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from cli.common import LogOption, cli_errors


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
                                                        help="The chapter's bibliography: BibTeX or CSL-JSON (repeatable)."),
        sources_cache: Path = typer.Option(Path(".chapter-audit") / "sources", "--sources-cache",
                                           help="On-disk cache of source records."),
        offline: bool = typer.Option(False, "--offline", help="Look nothing up; sources are UNVERIFIED unless cached."),
        report_date: Optional[str] = typer.Option(None, "--date", help="Report date YYYY-MM-DD (default: today, UTC)."),
        similarity_links: bool = typer.Option(False, "--similarity-links",
                                              help="Also link claims to sources by MiniLM embedding similarity."),
        force: bool = typer.Option(False, "--force", help="Overwrite an existing report file."),
        no_search: bool = typer.Option(False, "--no-search",
                                       help="Skip the primary-source search (Crossref, arXiv) for attributions."),
    ) -> None:
        """Write the seven-section research report for a chapter pack."""
        from reports.build import ReportOptions, write_report

        path, inputs = write_report(ReportOptions(references=tuple(references or ()),
            pack=pack, output=output, log=log, claims_files=tuple(claims or ()), sources_cache=sources_cache,
            offline=offline, report_date=report_date, similarity_links=similarity_links, force=force,
            search=not no_search))
        typer.echo(f"wrote {path}: {len(inputs.claims)} claim rows, {len(inputs.sources)} sources, "
                   f"{sum(v.ok for v in inputs.verdicts)}/{len(inputs.verdicts)} bound numbers match")

    @app.command("demo")
    @cli_errors
    def demo(
        workdir: Path = typer.Option(Path("chapter-audit-demo"), "--workdir",
                                     help="New directory for the demo's runs, log and report."),
        report_date: Optional[str] = typer.Option(None, "--date", help="Report date YYYY-MM-DD (default: today, UTC)."),
    ) -> None:
        """Run the bundled sandbox and R03 mini benchmark, then report on the bundled example pack, offline."""
        from cli.demo import run_demo

        result = run_demo(workdir, report_date=report_date)
        for line in result.summary_lines():
            typer.echo(line)
