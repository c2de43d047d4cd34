"""Content hashes and canonical JSON, shared by manifests, freezes and the log."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import IO, Any

CHUNK = 1 << 20


def sha256_file(path: str | Path) -> str:
    """Hex sha256 of a file's bytes (InputError for a FIFO, device or directory, which would
    block or fail)."""
    from engine.runs.jsonl import require_regular_file

    require_regular_file(path)
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def canonical_json(value: Any) -> str:
    """JSON with sorted keys, no insignificant whitespace and ASCII escapes: the hashing form."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def sha256_json(value: Any) -> str:
    return sha256_bytes(canonical_json(value).encode("ascii"))


def dump_json(value: Any) -> str:
    """The on-disk JSON form of every output file: sorted keys, two-space indent, final newline."""
    return json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


class LazyMapping(Mapping):
    """A read-only mapping whose values are computed when read (for :func:`write_json`).

    ``LazyMapping(keys, value_of)``: the keys are known up front, ``value_of(key)`` builds a
    value when the writer reaches it, so a large result file (every listed document of every
    topic) is never held as one object tree.
    """

    def __init__(self, keys: Iterable[str], value_of: Callable[[str], Any]) -> None:
        self._keys = list(keys)
        self._value_of = value_of

    def __getitem__(self, key: str) -> Any:
        return self._value_of(key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __len__(self) -> int:
        return len(self._keys)


def iter_json(value: Any, level: int = 0) -> Iterator[str]:
    """The text of :func:`dump_json` (without its final newline), piece by piece.

    A :class:`LazyMapping`, or a dict holding one (not inside a list), with string keys is walked key by key in
    sorted order; every other value is dumped whole (one ``json.dumps`` call) and re-indented to
    its depth (JSON strings hold no raw newline, so inserting the indent after each newline is
    exact). Byte-identical to ``json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)``
    (tested).
    """
    if _holds_lazy(value) and value and all(isinstance(key, str) for key in value):
        inner = "\n" + "  " * (level + 1)
        separator = "{"
        for key in sorted(value):
            yield separator + inner + json.dumps(key, ensure_ascii=False) + ": "
            yield from iter_json(value[key], level + 1)
            separator = ","
        yield "\n" + "  " * level + "}"
        return
    if isinstance(value, LazyMapping):   # empty, or keys json would convert: materialise
        value = dict(value)
    text = json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False)
    yield text.replace("\n", "\n" + "  " * level) if level else text


def _holds_lazy(value: Any) -> bool:
    """True for a LazyMapping or a dict with one among its (nested) values (lists are not searched)."""
    if isinstance(value, LazyMapping):
        return True
    return isinstance(value, dict) and any(_holds_lazy(item) for item in value.values())


def write_json(handle: IO[str], value: Any) -> None:
    """Write :func:`dump_json` of ``value`` to an open text file, streamed (same bytes)."""
    for piece in iter_json(value):
        handle.write(piece)
    handle.write("\n")
