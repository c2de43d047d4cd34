"""Commands of the sources area (registered on the root app by cli)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from cli.common import cli_errors
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
        no_search: bool = typer.Option(False, "--no-search",
                                       help="Skip the primary-source search (Crossref, arXiv) for "
                                            "the chapter's attributions and free-text citations."),
        references: Optional[List[Path]] = typer.Option(None, "--references",
                                                        help="The chapter's bibliography: BibTeX or CSL-JSON (repeatable)."),
    ) -> None:
        """Identify and look up each candidate line of PACK (Crossref, arXiv, GitHub metadata),
        then search Crossref and arXiv for the chapter's attributions and free-text citations.

        Prints how many candidate lines were read and how many records were made (always equal).
        Exit 0 even when sources stay UNVERIFIED; exit 2 for a malformed pack.
        """
        from audit.pack import load_pack
        from claims.extract import extract_claims
        from sources.check import check_sources, render_check_json, render_check_table
        from sources.http import ClientConfig, SourceEndpoints

        if output_format not in ("table", "json"):
            raise InputError(f"--format must be 'table' or 'json', got {output_format!r}")
        loaded = load_pack(pack)
        from claims.extract import claims_for_pack
        from sources.check import own_references

        document, claim_rows, _ = claims_for_pack(loaded)
        own = own_references(loaded, document, claim_rows, tuple(references or ()))
        check = check_sources(list(loaded.candidate_sources) + own.candidates,
                              [] if no_search else extract_claims(loaded), offline=offline,
                              cache_dir=sources_cache, endpoints=SourceEndpoints.from_env(),
                              client_config=ClientConfig.from_env(), refresh=refresh,
                              search=not no_search)
        typer.echo(render_check_table(check) if output_format == "table"
                   else render_check_json(check), nl=False)
