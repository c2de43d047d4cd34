"""Shared pieces of the thin typer layer: error rendering and the --log option."""

from __future__ import annotations

import errno
import functools
import os
import signal
import sys
from pathlib import Path
from typing import Any, Callable

import click
import typer

from engine.runs.errors import (EXIT_FAILED, EXIT_INPUT, EXIT_INVALID, EXIT_REFUSED, InputError,
                                RefusalError)
from engine.runs.runlog import DEFAULT_LOG, InvalidRun, LogWriteError

EXIT_TERMINATED = 143  # SIGTERM (128 + 15), handled like Ctrl-C (130)

# Errors of the machine rather than of the input: exit 1, not 2.
ENVIRONMENT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG, errno.EIO}

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
        except Terminated:
            typer.echo("terminated (SIGTERM): the run is logged failed and nothing was published", err=True)
            raise typer.Exit(EXIT_TERMINATED)
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            raise typer.Exit(130)
        except (typer.Exit, typer.Abort, click.ClickException):
            raise
        except LogWriteError as exc:
            fail(str(exc), EXIT_FAILED)
        except OSError as exc:
            fail(describe_os_error(exc), EXIT_FAILED if exc.errno in ENVIRONMENT_ERRNOS else EXIT_INPUT)
        except (UnicodeEncodeError, UnicodeDecodeError) as exc:
            fail(f"text that is not valid Unicode (a lone surrogate?): {exc.reason}", EXIT_INPUT)
        except ValueError as exc:
            if "null byte" in str(exc) or "NUL" in str(exc):
                fail("a path or name contains a NUL byte", EXIT_INPUT)
            unexpected(exc)
        except Exception as exc:  # noqa: BLE001 - never a traceback (set CHAPTER_AUDIT_DEBUG=1 to see one)
            unexpected(exc)

    return wrapper


def describe_os_error(exc: OSError) -> str:
    """One line naming the file and the system's reason (disk full, read-only, wrong kind)."""
    where = exc.filename if exc.filename is not None else ""
    reason = exc.strerror or type(exc).__name__
    if exc.errno in ENVIRONMENT_ERRNOS:
        reason = (f"cannot write: {reason} (a full or read-only disk, or a file-size limit); "
                  "nothing was published and a started run is logged failed")
    return f"{where}: {reason}" if where else reason


def unexpected(exc: BaseException) -> None:
    """Any other error: one line and exit 1 (``CHAPTER_AUDIT_DEBUG=1`` re-raises it)."""
    if os.environ.get("CHAPTER_AUDIT_DEBUG") == "1":
        raise exc
    message = " ".join(str(exc).split())[:300]
    fail(f"unexpected {type(exc).__name__}: {message} (set CHAPTER_AUDIT_DEBUG=1 for a traceback)", EXIT_FAILED)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where the program is, so that it unwinds exactly like Ctrl-C: the running
    experiment is logged ``failed`` and its staging directory removed (exit 143)."""


def _on_sigterm(signum: int, frame: Any) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a second SIGTERM terminates at once
    raise Terminated()


def install_signal_handlers() -> None:
    """Handle SIGTERM like Ctrl-C (see :class:`Terminated`), and ignore SIGXFSZ so that a write
    past a file-size limit fails with an error we report instead of killing the process."""
    signal.signal(signal.SIGTERM, _on_sigterm)
    if hasattr(signal, "SIGXFSZ"):
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)


def log_path(value: Path | None) -> Path:
    return Path(value) if value is not None else DEFAULT_LOG


def echo_err(message: str) -> None:
    print(message, file=sys.stderr)
