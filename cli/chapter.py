"""Commands of the audit area (registered on the root app by cli):
``fingerprint``, ``claims`` and ``consistency``. Each only parses arguments and calls the
library (audit.fingerprint, claims.extract, claims.consistency)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer

from cli.common import FormatOption, KindsOption, cli_errors, emit_json, kinds_choice, output_format
from engine.runs.errors import InputError, RefusalError
from engine.runs.outdir import file_output, publish_file


def write_output(path: Path, text: str, force: bool) -> None:
    """Write ``text`` to ``path`` whole (temp file + rename); refuse an existing file unless force."""
    path = Path(path)
    if path.exists() and not force:
        raise RefusalError(f"{path}: output file exists; refusing to overwrite it (use --force)")
    if path.exists() and path.is_dir():
        raise RefusalError(f"{path}: output path is a directory")
    with file_output(path, holder="claims", may_replace=(lambda _: True) if force else None):
        publish_file(path, text, replace=force)  # never replaces a file that appeared meanwhile


def register(app: typer.Typer) -> None:
    """Add this area's commands to the root app."""

    @app.command("fingerprint")
    @cli_errors
    def fingerprint(
        file: Path = typer.Argument(..., help="A research pack, a chapter snapshot (.md/.txt), "
                                              "or a directory of them ('-' for stdin; gzip read as is)."),
        expect: Optional[str] = typer.Option(None, "--expect", help="Expected sha256 (64 hex)."),
        fmt: str = FormatOption(),
    ) -> None:
        """Hash the normalised chapter prose and compare it with --expect or the pack's stated
        fingerprint. Exit 1 on MISMATCH; an EXCERPT (cannot match a full-chapter fingerprint)
        and NO-FINGERPRINT exit 0. A directory prints one line per pack."""
        from audit import fingerprint as fp

        from engine.runs.opener import is_stdin

        fmt = output_format(fmt)
        if not is_stdin(file) and not file.exists():
            raise InputError("no such file or directory", path=file)
        if not is_stdin(file) and file.is_dir():
            if expect is not None:
                raise InputError("--expect applies to one file, not a directory", path=file)
            checks = fp.check_directory(file)
            if not checks:
                raise InputError("directory holds no *.txt, *.md or *.pack files", path=file)
            if fmt == "json":
                emit_json({"checks": checks})
            else:
                typer.echo(fp.format_rows(checks), nl=False)
            raise typer.Exit(fp.exit_code(checks))
        check = fp.check_file(file, expect)
        if fmt == "json":
            emit_json(check)
        else:
            typer.echo(fp.format_single(check), nl=False)
        raise typer.Exit(fp.exit_code([check]))

    @app.command("claims")
    @cli_errors
    def claims(
        pack: Path = typer.Argument(..., help="A research pack or chapter snapshot."),
        fmt: str = typer.Option("md", "--format", help="md | csv | json"),
        output: Optional[Path] = typer.Option(None, "--output", "-o", help="Write here instead of stdout."),
        force: bool = typer.Option(False, "--force", help="Overwrite an existing --output file."),
        not_claims: bool = typer.Option(False, "--not-claims", help="List instead the blocks read as not a "
                                        "claim (heading, code, markup, …), one FILE:LINE line each."),
        kinds: str = KindsOption("a note on stderr says which, and each row's cue records it"),
    ) -> None:
        """One row per prose sentence and numeric table cell: id, section, location, kind, quantities, names."""
        from audit.pack import load_pack
        from claims.extract import claims_for_pack
        from reports.claims_table import FORMATS, format_claims

        fmt = output_format(fmt, tuple(FORMATS))
        if output is not None and output.exists() and not force:
            raise RefusalError(f"{output}: output file exists; refusing to overwrite it (use --force)")
        kinds = kinds_choice(kinds)
        # --not-claims lists no row, so no kind: the classifier is not run and no kinds note printed
        _, rows, note = claims_for_pack(load_pack(pack), kinds="rules" if not_claims else kinds)
        if note:
            typer.echo(f"{pack}: note: {note}", err=True)
        if kinds == "model" and not not_claims:  # the convention is in each row's cue too (json)
            from claims.kinds_model import shipped_model

            typer.echo(f"{pack}: note: measured results decided by claims/kinds_model.py "
                       f"(weights sha256 {shipped_model().sha256[:12]})", err=True)
        elif not not_claims:
            typer.echo(f"{pack}: note: measured results decided by the rules of claims/kinds.py (--kinds rules)",
                       err=True)
        text = format_claims(rows, fmt)
        if not_claims:  # instead of the rows: each block read as not a claim, with its line
            from audit.document import document_from_pack

            text = "".join(f"{pack}:{line}: {label}\n"
                           for line, label in document_from_pack(load_pack(pack)).not_claim_lines())
        if output is None:
            typer.echo(text, nl=False)
        else:
            write_output(output, text, force)
            typer.echo(f"wrote {output}", err=True)

    @app.command("consistency")
    @cli_errors
    def consistency(
        file: Path = typer.Argument(..., help="A results page with Markdown pipe or HTML tables."),
        tasks: Optional[str] = typer.Option(
            None, "--tasks", help="A denominator for every table (e.g. 40), or R03 tasks per subset "
                                  "(all=48,final=36,development=12)"),
        requirements: Optional[str] = typer.Option(
            None, "--requirements", help="Requirements per subset, e.g. all=192,final=144,development=48"),
        fmt: str = FormatOption(),
        strict: bool = typer.Option(False, "--strict", help="Skipped checks count as failures."),
    ) -> None:
        """Check a page's tables and prose against each other: aggregate rows/columns, differences,
        granularity (GRIM), ranges, repeated values, prose against tables, and the R03-layout
        extras. Exit 1 when a check fails (or, with --strict, is skipped); 3 when no relation
        between printed numbers could be checked."""
        from claims import consistency as cc

        fmt = output_format(fmt)
        report = cc.check_results_page(file, tasks=cc.parse_counts(tasks, "--tasks"),
                                       requirements=cc.parse_counts(requirements, "--requirements"))
        typer.echo(cc.format_report(report, fmt, strict), nl=False)
        raise typer.Exit(report.exit_code(strict))
