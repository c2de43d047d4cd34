"""`chapter-audit verify`: claimed numbers against the latest ok logged runs."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from cli.common import FormatOption, LogOption, cli_errors, output_format


def register(app: typer.Typer) -> None:
    """Add the verify command to the root app."""

    @app.command("verify")
    @cli_errors
    def verify(
        claims_file: Path = typer.Argument(..., help="Claims TOML binding quoted numbers to result keys."),
        log: Path = LogOption,
        rerun: bool = typer.Option(False, "--rerun", help="Run each bound experiment first (logged like any run)."),
        rerun_dir: Path = typer.Option(Path(".chapter-audit") / "reruns", "--rerun-dir",
                                       help="Where --rerun writes its outputs."),
        fmt: str = FormatOption(),
        junit: Path = typer.Option(None, "--junit", help="Also write the verdicts as JUnit XML (one test case per binding)."),
    ) -> None:
        """Print claimed vs reproduced for every binding; exit 1 unless every one matches."""
        from claims.bindings import load_claims_file
        from claims.verify import rerun_experiments, verdict_table, verify_bindings
        fmt = output_format(fmt)
        claims = load_claims_file(claims_file)
        if junit is not None:
            from claims.junit import hold_junit_target

            hold_junit_target(junit)  # refuse before anything runs; locked until written
        failed: dict[str, str] = {}
        rerun_dirs: dict[str, str] = {}
        if rerun:
            for outcome in rerun_experiments(claims, log, rerun_dir):
                code = outcome.code
                state = "no rerun declared" if code == -1 else ("ok" if code == 0 else
                                                                f"failed (exit {code}): {outcome.message}")
                if code > 0:
                    failed[outcome.experiment] = f"exit {code}: {outcome.message}"
                elif code == -1:   # --rerun asked: an older logged run never stands in for a re-run
                    failed[outcome.experiment] = ("no rerun steps declared, so nothing was re-run (add `rerun` "
                                                  "steps, or verify without --rerun to read the log)")
                elif code == 0:
                    rerun_dirs[outcome.experiment] = outcome.workdir
                typer.echo(f"{claims_file}: rerun {outcome.experiment}: {state}", err=True)
        verdicts = verify_bindings(claims, log, failed_reruns=failed, rerun_dirs=rerun_dirs)
        if junit is not None:
            from claims.junit import write_junit

            write_junit(verdicts, claims_file, junit)
        if fmt == "json":
            typer.echo(json.dumps([v.as_dict() for v in verdicts], indent=2, sort_keys=True))
        else:
            typer.echo(verdict_table(verdicts))
        if not all(v.ok for v in verdicts):
            raise typer.Exit(1)
