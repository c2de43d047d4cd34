"""On-disk cache of source records: one JSON file per source.

File name: ``sha256("kind:identifier").json`` inside the cache directory (default
``.chapter-audit/sources/``), written atomically (temporary file in the same directory, fsync,
``os.replace``) in the canonical on-disk JSON form (:func:`engine.runs.hashing.dump_json`).

Reuse policy (applied by :func:`sources.lookup.lookup_sources`): a cached VERIFIED record is
reused with its original ``accessed_at`` unless ``--refresh``; a cached UNVERIFIED record is not
final and is looked up again on the next online run. An unreadable or foreign cache file is
treated as a miss (and overwritten by the next write), never as evidence about the source.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.runs.errors import InputError
from engine.runs.hashing import dump_json, sha256_bytes
from engine.runs.outdir import write_file_atomically
from sources.records import SourceRecord

DEFAULT_CACHE_DIR = Path(".chapter-audit/sources")


def cache_key(kind: str, identifier: str) -> str:
    return sha256_bytes(f"{kind}:{identifier}".encode("utf-8"))


class SourceCache:
    def __init__(self, directory: str | Path = DEFAULT_CACHE_DIR) -> None:
        self.directory = Path(directory)

    def path(self, kind: str, identifier: str) -> Path:
        return self.directory / f"{cache_key(kind, identifier)}.json"

    def get(self, kind: str, identifier: str) -> SourceRecord | None:
        path = self.path(kind, identifier)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            record = SourceRecord.from_dict(data, path=str(path))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, InputError):
            return None
        if record.kind != kind or record.identifier != identifier:
            return None
        return record

    def put(self, record: SourceRecord) -> Path:
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.path(record.kind, record.identifier)
        data = record.to_dict()
        data["from_cache"] = False
        write_file_atomically(path, dump_json(data))
        return path
