"""`chapter-audit bind`: draft a claims file from a pack's printed numbers and the logged runs."""

from __future__ import annotations

from pathlib import Path

import typer

from cli.common import LogOption, cli_errors


def register(app: typer.Typer) -> None:
    """Add the bind command to the root app."""

    @app.command("bind")
    @cli_errors
    def bind(
        pack: Path = typer.Argument(..., help="Research pack (or chapter snapshot) whose numbers to bind."),
        log: Path = LogOption,
        output: Path = typer.Option(..., "--output", help="Draft claims TOML to write (never replaced)."),
    ) -> None:
        """Suggest a binding for every printed number that a logged ok run reproduces; exit 1 if none does."""
        from claims.draft import unmatched_note, write_draft

        suggestions, written = write_draft(pack, log, output)
        bound = [s for s in suggestions if s.status == "bound"]
        ambiguous = [s for s in suggestions if s.status == "ambiguous"]
        for suggestion in suggestions:
            if suggestion.best is None:
                typer.echo(f"{suggestion.claim_id} {suggestion.claimed}: {unmatched_note(suggestion)}")
            elif suggestion.status == "ambiguous":
                top = [f"{c.value.key} (run {c.value.run_id})" for c in suggestion.candidates
                       if c.score == suggestion.candidates[0].score]
                typer.echo(f"{suggestion.claim_id} {suggestion.claimed}: ambiguous, not bound: {', '.join(top)}")
        typer.echo(f"{len(suggestions)} printed numbers: {len(bound)} bound, {len(ambiguous)} ambiguous, "
                   f"{len(suggestions) - len(bound) - len(ambiguous)} unmatched")
        if not bound:
            typer.echo("nothing written: no printed number matches a logged value", err=True)
            raise typer.Exit(1)
        typer.echo(f"wrote {written}")
