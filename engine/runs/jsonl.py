"""Line-numbered JSON Lines reading: every defect is an InputError naming FILE:LINE."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import Any, Iterator

from engine.runs.opener import require_regular_file  # noqa: F401  (re-exported: the one file check)

# A JSON escape that may encode half of a surrogate pair (checked only when present).
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


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
        return read_text(path, encoding=encoding)  # an undecodable file is read_text's InputError
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", path=path)


def read_json_file(path: str | Path) -> Any:
    """A whole JSON file; a syntax error is an InputError naming FILE:LINE and the column."""
    return loads_json(read_text_file(path), path)


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)`` for each non-blank line; a non-object is an error.
    gzip files are decompressed and a leading BOM removed with a warning (:mod:`engine.runs.opener`)."""
    from engine.runs.errors import InputError
    from engine.runs.opener import not_utf8_error, open_text

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
            raise not_utf8_error(path) from None


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


# the fields a corpus record may name its document by (BEIR ``_id``, the sandbox's ``doc_id``,
# a plain ``id``), accepted alike by every corpus reader
DOCUMENT_ID_FIELDS = ("_id", "doc_id", "id")


def document_id(record: dict[str, Any], path: str | Path, line: int) -> tuple[str, str]:
    """``(id, field)`` of a corpus record: the value of ``_id``, ``doc_id`` or ``id`` (a string or
    an integer, read as its decimal text), non-empty and without whitespace (it is a TREC
    column); two of them with different values are ambiguous (InputError naming FILE:LINE)."""
    from engine.runs.errors import InputError

    present = [name for name in DOCUMENT_ID_FIELDS if record.get(name) is not None]
    if not present:
        raise InputError("missing field '_id' (BEIR) or 'doc_id' (sandbox) or 'id'", path=path, line=line)
    values = []
    for name in present:
        value = record[name]
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise InputError(f"field {name!r} must be a string or an integer", path=path, line=line)
        text = str(value)
        if not text or any(ch.isspace() for ch in text):
            raise InputError(f"field {name!r} must be non-empty and contain no whitespace, got {text!r}",
                             path=path, line=line)
        values.append(text)
    if len(set(values)) > 1:
        raise InputError(f"fields {present[0]!r} ({values[0]!r}) and {present[1]!r} ({values[1]!r}) disagree",
                         path=path, line=line)
    return values[0], present[0]
