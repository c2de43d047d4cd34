"""The append-only execution log: one JSON object a line.

Record fields (the contract the audit layer reads, see docs/contracts.md):
``run_id``, ``command``, ``parameters``, ``inputs`` {path: sha256}, ``outputs`` {path: sha256},
``results`` {name: path of a result file, e.g. ``"metrics": ".../metrics.json"``},
``status`` (``ok`` | ``invalid`` | ``failed``), ``error`` (null or one line),
``started_at``, ``ended_at`` (UTC, ISO 8601 with ``Z``), ``versions``.

A record is appended only for a run that was attempted: the audit side takes
"ran" / UNRUN from this file alone, so nothing else may write it.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from engine.runs.errors import InputError
from engine.runs.hashing import sha256_file
from engine.runs.versions import package_versions

DEFAULT_LOG = Path(".chapter-audit") / "log.jsonl"
STATUSES = ("ok", "invalid", "failed")


def utc_now() -> str:
    """Current UTC time, ISO 8601 to the second with a ``Z`` suffix."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def append_record(log_path: str | Path, record: dict[str, Any]) -> None:
    """Append one record as a single line (opened in append mode, flushed and fsynced)."""
    if record.get("status") not in STATUSES:
        raise ValueError(f"log status must be one of {STATUSES}, got {record.get('status')!r}")
    path = Path(log_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(line + "\n")
        handle.flush()
        os.fsync(handle.fileno())


def read_records(log_path: str | Path) -> list[dict[str, Any]]:
    """Every record in file order; a malformed line is an :class:`InputError` naming it."""
    path = Path(log_path)
    if not path.exists():
        return []
    records = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"invalid JSON in execution log ({exc.msg})", path=path, line=number)
            if not isinstance(record, dict) or "run_id" not in record or "status" not in record:
                raise InputError("log record lacks run_id or status", path=path, line=number)
            records.append(record)
    return records


def latest_ok(log_path: str | Path, command: str | None = None) -> dict[str, Any] | None:
    """The last ``ok`` record (optionally of one command), or None."""
    for record in reversed(read_records(log_path)):
        if record["status"] == "ok" and (command is None or record.get("command") == command):
            return record
    return None


@dataclass
class RunRecord:
    """A run being recorded; pipelines fill ``run_id``, ``inputs``, ``outputs`` and ``results``."""

    command: str
    parameters: dict[str, Any]
    run_id: str | None = None
    inputs: dict[str, str] = field(default_factory=dict)
    outputs: dict[str, str] = field(default_factory=dict)
    results: dict[str, str] = field(default_factory=dict)
    status: str = "ok"
    error: str | None = None
    started_at: str = field(default_factory=utc_now)

    def add_inputs(self, *paths: str | Path) -> None:
        for path in paths:
            if path is not None and Path(path).is_file():
                self.inputs[str(path)] = sha256_file(path)

    def add_outputs(self, directory: str | Path) -> None:
        """Hash every file under an output directory, keyed by absolute path (sorted)."""
        root = Path(directory).resolve()
        for file in sorted(p for p in root.rglob("*") if p.is_file()):
            self.outputs[str(file)] = sha256_file(file)

    def as_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id or "unassigned",
            "command": self.command,
            "parameters": self.parameters,
            "inputs": self.inputs,
            "outputs": self.outputs,
            "results": self.results,
            "status": self.status,
            "error": self.error,
            "started_at": self.started_at,
            "ended_at": utc_now(),
            "versions": package_versions(),
        }


class InvalidRun(Exception):
    """A stop condition fired: the run is logged ``invalid`` and the command exits non-zero."""


@contextmanager
def recorded_run(log_path: str | Path | None, command: str,
                 parameters: dict[str, Any]) -> Iterator[RunRecord]:
    """Record one run in the log whatever happens inside the block.

    ``InvalidRun`` → status ``invalid``; any other exception → ``failed`` with its one-line
    message; otherwise ``ok``. The exception is re-raised after the record is written.
    ``log_path=None`` disables logging (library use in tests).
    """
    record = RunRecord(command=command, parameters=parameters)
    try:
        yield record
    except InvalidRun as exc:
        record.status, record.error = "invalid", " ".join(str(exc).split())
        raise
    except BaseException as exc:  # noqa: BLE001 - every failure is logged, then re-raised
        record.status = "failed"
        record.error = " ".join(f"{type(exc).__name__}: {exc}".split())
        raise
    finally:
        if log_path is not None:
            append_record(log_path, record.as_dict())
