"""Line-numbered JSON Lines reading: every defect is an InputError naming FILE:LINE."""

from __future__ import annotations

import json
import math
import os
import re
import stat
from pathlib import Path
from typing import Any, Iterator

# A JSON escape that may encode half of a surrogate pair (checked only when present).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


def require_regular_file(path: str | Path) -> None:
    """InputError unless ``path`` is an existing regular file (a FIFO, device or directory would
    block or fail on open; NUL bytes in the name are refused by name)."""
    from engine.runs.errors import InputError

    text = os.fspath(path)
    if "\x00" in str(text):
        raise InputError("file name contains a NUL byte", path=repr(str(text)))
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", path=path)
    if stat.S_ISDIR(mode):
        raise InputError("is a directory, expected a file", path=path)
    if not stat.S_ISREG(mode):
        raise InputError("is not a regular file (a FIFO, socket or device is never read)", path=path)


def _has_lone_surrogate(value: Any) -> bool:
    if isinstance(value, str):
        return any("\ud800" <= ch <= "\udfff" for ch in value)
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(v) for v in value)
    return False


def loads_json(text: str, path: str | Path | None = None, line: int | None = None) -> Any:
    """``json.loads`` whose every failure is an InputError naming FILE[:LINE]: syntax errors,
    integers too long to convert, nesting too deep for the decoder and strings holding
    a lone UTF-16 surrogate (which no UTF-8 output could hold)."""
    from engine.runs.errors import InputError

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        where = exc.lineno if line is None else line
        raise InputError(f"invalid JSON ({exc.msg} at column {exc.colno})", path=path, line=where)
    except RecursionError:
        raise InputError("invalid JSON (nested too deeply)", path=path, line=line)
    except ValueError as exc:  # e.g. an integer of more than 4300 digits
        raise InputError(f"invalid JSON ({' '.join(str(exc).split())[:120]})", path=path, line=line)
    if _SURROGATE_ESCAPE.search(text) and _has_lone_surrogate(value):
        raise InputError("JSON string holds a lone UTF-16 surrogate (not valid Unicode text)", path=path, line=line)
    return value


def read_text_file(path: str | Path, *, encoding: str = "utf-8") -> str:
    """A whole UTF-8 text file (gzip decompressed, a leading BOM removed with a warning:
    :mod:`engine.runs.opener`); unreadable or undecodable files are InputErrors naming the file."""
    from engine.runs.errors import InputError
    from engine.runs.opener import read_text

    require_regular_file(path)
    path = Path(path)
    try:
        return read_text(path, encoding=encoding)
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", path=path)
    except UnicodeDecodeError:
        raise InputError("file is not valid UTF-8", path=path)


def read_json_file(path: str | Path) -> Any:
    """A whole JSON file; a syntax error is an InputError naming FILE:LINE and the column."""
    return loads_json(read_text_file(path), path)


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line; a non-object is an error.
    gzip files are decompressed and a leading BOM removed with a warning (:mod:`engine.runs.opener`)."""
    from engine.runs.errors import InputError
    from engine.runs.opener import open_text

    require_regular_file(path)
    path = Path(path)
    try:
        handle = open_text(path, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", path=path)
    with handle:
        try:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                value = loads_json(line, path, number)
                if not isinstance(value, dict):
                    raise InputError("each line must be a JSON object", path=path, line=number)
                yield number, value
        except UnicodeDecodeError:
            raise InputError("file is not valid UTF-8", path=path)


def require_fields(record: dict[str, Any], fields: tuple[str, ...], path: str | Path, line: int,
                   kinds: dict[str, type | tuple[type, ...]] | None = None) -> None:
    """Raise an InputError naming the first missing (or wrongly typed) field."""
    from engine.runs.errors import InputError

    for name in fields:
        if name not in record or record[name] is None:
            raise InputError(f"missing field {name!r}", path=path, line=line)
        expected = (kinds or {}).get(name)
        if expected is not None and not isinstance(record[name], expected):
            raise InputError(f"field {name!r} must be {_kind_name(expected)}", path=path, line=line)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(k.__name__ for k in kinds)


def parse_number(text: str, what: str, path: str | Path, line: int) -> float:
    """A finite float from text, or an InputError naming what it should have been."""
    from engine.runs.errors import InputError

    try:
        value = float(text)
    except ValueError:
        raise InputError(f"non-numeric {what} {text!r}", path=path, line=line)
    if not math.isfinite(value):
        raise InputError(f"{what} must be finite, got {text!r}", path=path, line=line)
    return value
