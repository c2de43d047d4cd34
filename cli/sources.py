"""Commands of the sources area (registered on the root app by cli)."""

from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from cli.common import FormatOption, cli_errors, output_format
from engine.runs.errors import EXIT_FAILED


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
        fmt: str = FormatOption(),
        no_search: bool = typer.Option(False, "--no-search",
                                       help="Skip the primary-source search (Crossref, arXiv) for "
                                            "the chapter's attributions and free-text citations."),
        references: Optional[List[Path]] = typer.Option(None, "--references",
                                                        help="The chapter's bibliography: BibTeX or CSL-JSON (repeatable; '-' for stdin)."),
    ) -> None:
        """Identify and look up each candidate line of PACK (Crossref, arXiv, GitHub metadata),
        then search Crossref and arXiv for the chapter's attributions and free-text citations.

        Prints how many candidate lines were read and how many records were made (always equal),
        and how many look-ups could not be made (unreachable services are not retried). Exit 0
        even when sources stay UNVERIFIED; exit 1 when a look-up or search could not be made
        (network); exit 2 for a malformed pack.
        """
        from audit.pack import load_pack
        from sources.check import check_sources, render_check_json, render_check_table
        from sources.http import ClientConfig, SourceEndpoints

        from engine.runs.opener import refuse_second_stdin

        fmt = output_format(fmt)
        refuse_second_stdin([pack, *(references or ())], "--references")
        loaded = load_pack(pack)
        from claims.extract import claims_for_pack
        from claims.kinds import DEFAULT_KINDS
        from sources.check import own_references

        document, claim_rows, _ = claims_for_pack(loaded, kinds=DEFAULT_KINDS)  # searched as the report searches
        own = own_references(loaded, document, claim_rows, tuple(references or ()))
        check = check_sources(list(loaded.candidate_sources) + own.candidates,
                              [] if no_search else claim_rows, offline=offline,
                              cache_dir=sources_cache, endpoints=SourceEndpoints.from_env(),
                              client_config=ClientConfig.from_env(), refresh=refresh,
                              search=not no_search)
        typer.echo(render_check_table(check) if fmt == "text" else render_check_json(check), nl=False)
        if check.incomplete:
            typer.echo(f"{pack}: {check.unreached_line}", err=True)
            raise typer.Exit(EXIT_FAILED)
