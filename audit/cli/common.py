"""Shared pieces of the thin typer layer: error rendering and the --log option."""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any, Callable

import typer

from engine.runs.errors import InputError, RefusalError
from engine.runs.runlog import DEFAULT_LOG, InvalidRun

EXIT_INPUT = 2       # malformed input: one line naming file and line, nothing written
EXIT_REFUSED = 3     # a deliberate refusal (occupied output, existing freeze, changed hashes)
EXIT_INVALID = 4     # a stop condition: the run is logged invalid

LogOption = typer.Option(DEFAULT_LOG, "--log", help="Append-only execution log (JSON lines).")


def fail(message: str, code: int) -> None:
    typer.echo(f"error: {' '.join(message.split())}", err=True)
    raise typer.Exit(code)


def cli_errors(func: Callable[..., Any]) -> Callable[..., Any]:
    """Map library errors to one stderr line and an exit code; never a traceback for bad input."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except InputError as exc:
            fail(str(exc), EXIT_INPUT)
        except RefusalError as exc:
            fail(str(exc), EXIT_REFUSED)
        except InvalidRun as exc:
            fail(f"run invalid: {exc}", EXIT_INVALID)
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            raise typer.Exit(130)

    return wrapper


def log_path(value: Path | None) -> Path:
    return Path(value) if value is not None else DEFAULT_LOG


def echo_err(message: str) -> None:
    print(message, file=sys.stderr)
