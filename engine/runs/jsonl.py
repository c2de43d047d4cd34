"""Line-numbered JSON Lines reading: every defect is an InputError naming FILE:LINE."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, Iterator


def read_text_file(path: str | Path, *, encoding: str = "utf-8") -> str:
    """A whole UTF-8 text file; unreadable or undecodable files are InputErrors naming the file."""
    from engine.runs.errors import InputError

    path = Path(path)
    try:
        return path.read_text(encoding=encoding)
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", path=path)
    except UnicodeDecodeError:
        raise InputError("file is not valid UTF-8", path=path)


def read_json_file(path: str | Path) -> Any:
    """A whole JSON file; a syntax error is an InputError naming FILE:LINE and the column."""
    from engine.runs.errors import InputError

    text = read_text_file(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"invalid JSON ({exc.msg} at column {exc.colno})", path=path, line=exc.lineno)


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line; a non-object is an error."""
    from engine.runs.errors import InputError

    path = Path(path)
    try:
        handle = open(path, encoding="utf-8")
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", path=path)
    with handle:
        try:
            for number, line in enumerate(handle, start=1):
                if not line.strip():
                    continue
                try:
                    value = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise InputError(f"invalid JSON ({exc.msg} at column {exc.colno})", path=path, line=number)
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
