"""Shared pieces of the thin typer layer: the CLI habits every command follows.

* **Errors** are one stderr line in ``FILE:LINE: message`` form (``FILE: message`` without a
  line), as editors and CI annotations read them; an error without a file is
  ``chapter-audit: message`` (:func:`error_line`). Exit codes: README, "Exit codes".
* **``--format text|json``** (:func:`FormatOption`, :func:`output_format`): text is the command's
  table; json is one JSON document on stdout with sorted keys (:func:`emit_json`). An older
  spelling (``table``) stays accepted as a hidden alias.
* **``-o/--output``** is the spelling of every command's output (declared in each command).
* **``--log``** (:data:`LogOption`).
"""

from __future__ import annotations

import errno
import functools
import os
import re
import signal
import sys
from pathlib import Path
from typing import Any, Callable, Mapping

import click
import typer

from engine.runs.errors import (EXIT_FAILED, EXIT_INPUT, EXIT_INVALID, EXIT_REFUSED, InputError,
                                RefusalError)
from engine.runs.runlog import DEFAULT_LOG, InvalidRun, LogWriteError

EXIT_TERMINATED = 143  # SIGTERM (128 + 15), handled like Ctrl-C (130)

# Errors of the machine rather than of the input: exit 1, not 2.
ENVIRONMENT_ERRNOS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EFBIG, errno.EIO}

LogOption = typer.Option(DEFAULT_LOG, "--log", help="Append-only execution log (JSON lines).")

PROGRAM = "chapter-audit"
FORMATS = ("text", "json")
FORMAT_ALIASES = {"table": "text"}   # the spelling `sources` and `verify` used before: kept working

# ``FILE: message`` or ``FILE:LINE: message`` at the start of a message: FILE has no blank
# (or names a path that exists), so "run invalid: ..." or "field '--x': ..." is not a location.
_LOCATED = re.compile(r"^(?P<file>[^:\s][^:]*?)(?::\d+)?: \S")


def is_located(message: str) -> bool:
    """Whether ``message`` already starts with ``FILE[:LINE]: `` naming a file."""
    match = _LOCATED.match(message)
    if match is None:
        return False
    name = match.group("file")
    if not any(ch.isspace() for ch in name):
        return True
    try:
        return os.path.lexists(name) or os.path.isdir(os.path.dirname(name) or ".") and "/" in name
    except (OSError, ValueError):
        return False


def error_line(message: str) -> str:
    """One line in ``FILE:LINE: message`` form: the message itself when it names its file, else
    ``chapter-audit: message`` (the program is the place, as grep or gcc say it)."""
    text = " ".join(str(message).split()) or "error"
    return text if is_located(text) else f"{PROGRAM}: {text}"


def fail(message: str, code: int) -> None:
    typer.echo(error_line(message), err=True)
    raise typer.Exit(code)


def FormatOption(default: str = "text") -> Any:  # noqa: N802 - a typer option
    """``--format text|json``."""
    return typer.Option(default, "--format", help="text | json: json prints one JSON document (sorted keys).")


def output_format(value: str, allowed: tuple[str, ...] = FORMATS) -> str:
    """The canonical format name (``table`` → ``text``); InputError naming ``--format`` otherwise."""
    from engine.runs.errors import InputError

    name = FORMAT_ALIASES.get(value, value) if "text" in allowed else value
    if name not in allowed:
        raise InputError(f"must be one of {', '.join(allowed)}, got {value!r}", field="--format")
    return name


KINDS_DEFAULT = "model"
"""``--kinds``' default: :data:`claims.kinds.DEFAULT_KINDS` (spelled here so that every command's
``--help`` does not import claims.kinds, about 90 ms; tests/test_kinds_default.py checks they agree)."""


def KindsOption(what: str) -> Any:  # noqa: N802 - a typer option
    """``--kinds rules|model`` (default ``model``); ``what`` says where the choice is recorded."""
    return typer.Option(KINDS_DEFAULT, "--kinds", help="model | rules: who decides the measured-result kind "
                        f"(default model, the trained classifier claims/kinds_model.py; rules: claims/kinds.py; {what}).")


def kinds_choice(value: str) -> str:
    """``--kinds`` as given when it is one of :data:`claims.kinds.KIND_OPTIONS` (``rules``,
    ``model``); InputError naming ``--kinds`` otherwise."""
    from claims.kinds import KIND_OPTIONS
    from engine.runs.errors import InputError

    if value not in KIND_OPTIONS:
        raise InputError(f"--kinds: unknown value {value!r} (choose rules or model)")
    return value


def json_ready(value: Any) -> Any:
    """``value`` as plain JSON types: paths and other objects as text, tuples and sets as lists,
    numpy scalars and arrays as numbers and lists, dataclasses through ``to_dict``/``as_dict``."""
    import dataclasses

    if isinstance(value, Mapping):
        return {str(k): json_ready(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_ready(v) for v in value]
    if isinstance(value, (set, frozenset)):
        return sorted(json_ready(v) for v in value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    for method in ("to_dict", "as_dict"):
        if callable(getattr(value, method, None)):
            return json_ready(getattr(value, method)())
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return json_ready(dataclasses.asdict(value))
    if hasattr(value, "tolist"):   # numpy scalars and arrays
        return json_ready(value.tolist())
    return str(value)


def emit_json(value: Any) -> None:
    """One JSON document on stdout: sorted keys, two-space indent, final newline (the bytes of
    :func:`engine.runs.hashing.dump_json`). A non-finite number is refused, never printed as NaN."""
    import json

    from engine.runs.errors import RefusalError

    try:
        text = json.dumps(json_ready(value), sort_keys=True, indent=2, ensure_ascii=False, allow_nan=False)
    except ValueError:
        raise RefusalError("the result holds a non-finite number (NaN or infinity); "
                           "refusing to print it as JSON") from None
    typer.echo(text + "\n", nl=False)


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
            typer.echo(f"{PROGRAM}: terminated (SIGTERM): the run is logged failed and nothing was published", err=True)
            raise typer.Exit(EXIT_TERMINATED)
        except KeyboardInterrupt:
            typer.echo(f"{PROGRAM}: interrupted", err=True)
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
