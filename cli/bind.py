"""`chapter-audit bind`: draft a claims file from a pack's printed numbers and the logged runs."""

from __future__ import annotations

from pathlib import Path

import typer

from cli.common import FormatOption, LogOption, cli_errors, emit_json, output_format


def _shown(path: str) -> str:
    """A path as the user typed paths: relative to the working directory when under it."""
    try:
        return str(Path(path).relative_to(Path.cwd()))
    except ValueError:
        return path


def register(app: typer.Typer) -> None:
    """Add the bind command to the root app."""

    @app.command("bind")
    @cli_errors
    def bind(
        pack: Path = typer.Argument(..., help="Research pack (or chapter snapshot) whose numbers to bind."),
        log: Path = LogOption,
        output: Path = typer.Option(..., "--output", "-o", help="Draft claims TOML to write (never replaced)."),
        fmt: str = FormatOption(),
    ) -> None:
        """Suggest a binding for every printed number that a logged ok run reproduces; exit 1 if none does."""
        from claims.draft import unmatched_note, write_draft

        from claims.suggest import unread_results
        from claims.verify import read_log_records

        fmt = output_format(fmt)
        suggestions, written = write_draft(pack, log, output)
        unread = unread_results(read_log_records(log), log)
        if unread:   # a moved or edited output: its values are not the chapter's fault
            one = len(unread) == 1
            shown = ", ".join(_shown(path) for path in unread[:3]) + (", …" if len(unread) > 3 else "")
            typer.echo(f"warning: {log}: {len(unread)} result file{'' if one else 's'} of the logged ok runs "
                       f"{'is' if one else 'are'} missing or changed since {'its' if one else 'their'} run, so "
                       f"{'its' if one else 'their'} values were not read: {shown}", err=True)
        bound = [s for s in suggestions if s.status == "bound"]
        ambiguous = [s for s in suggestions if s.status == "ambiguous"]
        if fmt == "json":
            emit_json({"printed": len(suggestions), "bound": len(bound), "ambiguous": len(ambiguous),
                       "unmatched": len(suggestions) - len(bound) - len(ambiguous),
                       "written": str(written) if bound else None, "suggestions": suggestions})
            if not bound:
                typer.echo(f"{pack}: nothing written: no printed number matches a logged value", err=True)
                raise typer.Exit(1)
            return
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
            typer.echo(f"{pack}: nothing written: no printed number matches a logged value", err=True)
            raise typer.Exit(1)
        typer.echo(f"wrote {written}")
