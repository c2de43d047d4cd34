"""`chapter-audit book`: every chapter of a book directory, incrementally (books.run)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from cli.common import LogOption, cli_errors


def register(app: typer.Typer) -> None:
    """Add the book command to the root app."""

    @app.command("book")
    @cli_errors
    def book(
        directory: Path = typer.Argument(..., help="Book directory: packs and .md/.txt snapshots, optional book.toml."),
        output: Path = typer.Option(..., "--output", "-o", help="Book output directory (a later pass updates it)."),
        log: Path = LogOption,
        offline: bool = typer.Option(False, "--offline", help="Look nothing up; sources are UNVERIFIED unless cached."),
        report_date: Optional[str] = typer.Option(None, "--date", help="Report date YYYY-MM-DD (default: today, UTC)."),
        claims_dir: Optional[Path] = typer.Option(None, "--claims-dir",
                                                  help="Where NAME.claims.toml files are found (default: the book directory)."),
        sources_cache: Path = typer.Option(Path(".chapter-audit") / "sources", "--sources-cache",
                                           help="On-disk cache of source records."),
        workers: Optional[int] = typer.Option(None, "--workers",
                                              help="Audit chapters on a Dask LocalCluster of N workers (optional extra 'distributed')."),
        scheduler: Optional[str] = typer.Option(None, "--scheduler",
                                                help="Audit chapters on your Dask cluster (tcp://host:port; shared filesystem)."),
    ) -> None:
        """Audit every chapter (fingerprint, claims, consistency, verify, report) and write OUT/index.md and
        OUT/index.html; an unchanged chapter keeps its previous report byte for byte."""
        from books.run import BookOptions, run_book

        result = run_book(BookOptions(directory=directory, output=output, log=log, offline=offline,
                                      report_date=report_date, claims_dir=claims_dir, sources_cache=sources_cache,
                                      workers=workers, scheduler=scheduler))
        for line in result.summary_lines():
            typer.echo(line)
        for line in result.warning_lines():
            typer.echo(line, err=True)
