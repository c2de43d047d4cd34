"""Content hashes and canonical JSON, shared by manifests, freezes and the log."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

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
