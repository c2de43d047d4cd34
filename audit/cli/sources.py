"""Commands of the sources area (registered on the root app by audit.cli)."""

from __future__ import annotations

from pathlib import Path

import typer

from audit.cli.common import cli_errors
from engine.runs.errors import InputError


def register(app: typer.Typer) -> None:
    """Add this area's commands to the root app."""

    @app.command("sources")
    @cli_errors
    def sources(
        pack: Path = typer.Argument(..., help="Research pack whose candidate sources to check."),
        offline: bool = typer.Option(False, "--offline",
                                     help="Make no request: cached verified records or UNVERIFIED."),
        sources_cache: Path = typer.Option(Path(".chapter-audit/sources"), "--sources-cache",
                                           help="Directory of cached source records."),
        refresh: bool = typer.Option(False, "--refresh",
                                     help="Look up again even when a verified record is cached."),
        output_format: str = typer.Option("table", "--format", help="table or json."),
    ) -> None:
        """Identify and look up each candidate source of PACK (Crossref, arXiv, GitHub metadata).

        Exit 0 even when sources stay UNVERIFIED; exit 2 for a malformed pack.
        """
        from audit.pack import load_pack
        from sources.http import ClientConfig, SourceEndpoints
        from sources.lookup import lookup_sources, render_json, render_table

        if output_format not in ("table", "json"):
            raise InputError(f"--format must be 'table' or 'json', got {output_format!r}")
        loaded = load_pack(pack)
        records = lookup_sources(loaded.candidate_sources, offline=offline,
                                 cache_dir=sources_cache, endpoints=SourceEndpoints.from_env(),
                                 client_config=ClientConfig.from_env(), refresh=refresh)
        typer.echo(render_table(records) if output_format == "table" else render_json(records),
                   nl=False)
