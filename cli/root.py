"""The ``chapter-audit`` command line: a thin typer root.

Each area registers its commands from its own module, and every command only parses
arguments and calls a library function that the tests call directly.
"""

from __future__ import annotations

import typer

from cli import bind, budget, chapter, encode, evaluate, notebook, r03, report, sandbox, sources, verify

app = typer.Typer(
    name="chapter-audit",
    help="Audit the measured claims of technical-book chapters against reproduced runs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)



@app.callback()
def root() -> None:
    """chapter-audit: reproduce chapter experiments, then audit the chapter's claims against them."""


@app.command("version")
def version() -> None:
    """Print the versions recorded in every manifest."""
    from engine.runs.versions import package_versions

    for name, value in package_versions().items():
        typer.echo(f"{name}\t{value}")


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
