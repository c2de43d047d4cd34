"""The ``chapter-audit`` command line: a thin typer root.

Each area registers its commands from its own module, and every command only parses
arguments and calls a library function that the tests call directly.
"""

from __future__ import annotations

import sys
from typing import Any, Optional

import typer
from typer.core import TyperGroup

try:  # typer ≥ 0.20 carries its own copy of click; its exceptions are the ones raised
    from typer._click import exceptions as click_errors
except ImportError:  # pragma: no cover - older typer on the real click
    from click import exceptions as click_errors

from cli import bind, budget, chapter, encode, evaluate, notebook, r03, report, sandbox, sources, verify
from cli.common import PROGRAM, FormatOption


class HabitGroup(TyperGroup):
    """The root group: click's usage errors (unknown option, missing value) become one
    ``chapter-audit COMMAND: message`` line and exit 2, like every other error, instead of a
    boxed usage screen; ``-h`` is ``--help`` everywhere (inherited by every sub-context)."""

    def main(self, args: Any = None, prog_name: Optional[str] = None, complete_var: Optional[str] = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        try:
            code = super().main(args, prog_name or PROGRAM, complete_var, standalone_mode=False, **extra)
        except click_errors.NoArgsIsHelpError as exc:   # a bare group: its help, as click prints it
            typer.echo(exc.ctx.get_help() if exc.ctx is not None else "")
            code = exc.exit_code
        except click_errors.ClickException as exc:
            where = exc.ctx.command_path if getattr(exc, "ctx", None) is not None else PROGRAM
            hint = " (see --help)" if isinstance(exc, click_errors.UsageError) else ""
            typer.echo(f"{where}: {' '.join(exc.format_message().split())}{hint}", err=True)
            code = exc.exit_code
        except typer.Abort:
            typer.echo(f"{PROGRAM}: aborted", err=True)
            code = 1
        if not standalone_mode:
            return code
        sys.exit(code if isinstance(code, int) else 0)


app = typer.Typer(
    name=PROGRAM,
    cls=HabitGroup,
    help="Audit the measured claims of technical-book chapters against reproduced runs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    context_settings={"help_option_names": ["-h", "--help"]},
)


def version_text() -> str:
    """``chapter-audit X.Y.Z`` and, one per line, the versions every manifest records."""
    from engine.runs.versions import package_versions

    versions = package_versions()
    lines = [f"{PROGRAM} {versions.get('chapter-audit', 'unknown')}",
             "recorded in every manifest and log record:"]
    lines += [f"  {name} {value}" for name, value in versions.items()]
    return "\n".join(lines) + "\n"


def _show_version(value: bool) -> None:
    if value:
        typer.echo(version_text(), nl=False)
        raise typer.Exit(0)


@app.callback()
def root(
    version: bool = typer.Option(False, "--version", is_eager=True, callback=_show_version,
                                 help="Print the package version and the versions manifests record, then exit."),
    show_progress: Optional[bool] = typer.Option(
        None, "--progress/--no-progress",
        help="Progress of long steps on stderr (default: only when stderr is a terminal; "
             "off a terminal, plain lines without \\r)."),
) -> None:
    """chapter-audit: reproduce chapter experiments, then audit the chapter's claims against them."""
    from engine.runs.progress import configure

    configure(show_progress)


@app.command("version")
def version(fmt: str = FormatOption()) -> None:
    """Print the versions recorded in every manifest."""
    from cli.common import cli_errors, emit_json, output_format
    from engine.runs.versions import package_versions

    @cli_errors
    def show() -> None:
        versions = package_versions()
        if output_format(fmt) == "json":
            return emit_json(versions)
        for name, value in versions.items():
            typer.echo(f"{name}\t{value}")

    show()


for module in (sandbox, evaluate, encode, budget, r03, chapter, verify, sources, report, bind, notebook):
    module.register(app)
from cli import book as book_command  # noqa: E402  (book: whole books, incrementally; docs/book.md)
book_command.register(app)


def main() -> None:
    from cli.common import install_signal_handlers

    install_signal_handlers()
    app()


if __name__ == "__main__":
    main()
