"""The append-only execution log: one JSON object a line.

Record fields (the contract the audit layer reads, see docs/DEVELOPING.md):
``run_id``, ``command``, ``parameters``, ``inputs`` {path: sha256}, ``outputs`` {path: sha256},
``results`` {name: path of a result file, e.g. ``"metrics": "out/metrics.json"``},
``status`` (``ok`` | ``invalid`` | ``failed``), ``error`` (null or one line),
``started_at``, ``ended_at`` (UTC, ISO 8601 with ``Z``), ``versions``, and, for a run started
through the experiment registry, ``invocation``: the complete invocation by role,
``{"inputs": {role: {"path", "sha256"}}, "outputs": {role: {"path"}}, "options": {name: value}}``
(:class:`Invocation`; a directory input's sha256 is that of the JSON object
``{relative path: sha256}`` of the files the run read under it).

**Paths are relocatable**: every path a record holds is written relative to the log's *base*
(:func:`log_base`: the log's folder, or the project folder holding it when that folder is
``.chapter-audit``), in POSIX form, and absolute only when it lies outside the base. Readers
resolve them with :func:`resolve_logged_path`; old records (absolute paths, no ``invocation``)
read as before.

A record is appended only for a run that was attempted: the audit side takes
"ran" / UNRUN from this file alone, so nothing else may write it.
"""

from __future__ import annotations

import errno
import fcntl
import json
import os
import sys
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterator

from engine.runs.errors import InputError
from engine.runs.hashing import sha256_file, sha256_json
from engine.runs.jsonl import loads_json, require_regular_file
from engine.runs.outdir import release_all_output_locks
from engine.runs.versions import package_versions

DEFAULT_LOG = Path(".chapter-audit") / "log.jsonl"
STATUSES = ("ok", "invalid", "failed")


def log_base(log_path: str | Path) -> Path:
    """The folder a log's relative paths are relative to: the log's own folder, or its parent
    when that folder is ``.chapter-audit`` (the default ``--log`` lives in the project folder's
    ``.chapter-audit/``, and the project's inputs and outputs sit beside it). Absolute, not
    resolved through symlinks."""
    folder = Path(os.path.abspath(log_path)).parent
    return folder.parent if folder.name == ".chapter-audit" else folder


def portable_path(path: str | Path, base: Path | None) -> str:
    """``path`` as a log records it: relative to ``base`` (POSIX separators) when it lies inside
    it, else absolute. ``base=None`` keeps the path as given; ``-`` (stdin) stays ``-``."""
    if base is None or str(path) == "-":
        return str(path)
    absolute = os.path.abspath(path)
    if base.parent == base:  # a log at the file-system root: relative paths would move nothing
        return absolute
    try:
        inside = os.path.commonpath([absolute, str(base)]) == str(base)
    except ValueError:
        inside = False
    if not inside or absolute == str(base):
        return absolute
    return Path(os.path.relpath(absolute, base)).as_posix()


def resolve_logged_path(path: str, log_path: str | Path) -> Path:
    """A path read from a log record: absolute as written, or relative to :func:`log_base`."""
    return Path(path) if os.path.isabs(path) else log_base(log_path) / path


def utc_now() -> str:
    """Current UTC time, ISO 8601 to the second with a ``Z`` suffix."""
    return datetime.now(timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


class LogWriteError(Exception):
    """The log record could not be appended whole (disk full, read-only disk, wrong kind of path).

    The log is left exactly as it was before the attempt; ``str()`` is one line naming the log.
    """

    def __init__(self, message: str, errno_value: int | None = None) -> None:
        super().__init__(" ".join(message.split()))
        self.errno = errno_value


def check_log_path(path: str | Path) -> None:
    """InputError unless ``path`` is a regular file or does not exist yet (and has no NUL byte)."""
    text = str(path)
    if "\x00" in text or not text:
        raise InputError("must be a non-empty path without NUL bytes", field="--log")
    path = Path(path)
    if path.exists() or path.is_symlink():
        try:
            require_regular_file(path)
        except InputError as exc:
            raise InputError(f"--log {exc.message}", path=path) from None


def _encode_record(record: dict[str, Any]) -> bytes:
    line = json.dumps(record, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return (line + "\n").encode("utf-8", "backslashreplace")


def append_record(log_path: str | Path, record: dict[str, Any]) -> None:
    """Append one record as a single line, all or nothing.

    The whole line is written with one ``os.write`` on an ``O_APPEND`` descriptor held under an
    exclusive ``flock`` (so concurrent writers never interleave); the byte count is checked, and
    on a short or failed write the file is truncated back to its size before the attempt, so a
    full disk never leaves half a line for the next record to be glued to. The failure is raised
    as :class:`LogWriteError` naming the log.
    """
    if record.get("status") not in STATUSES:
        raise ValueError(f"log status must be one of {STATUSES}, got {record.get('status')!r}")
    path = Path(log_path)
    data = _encode_record(record)
    try:
        check_log_path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o644)
    except InputError as exc:
        raise LogWriteError(str(exc)) from exc
    except OSError as exc:
        raise LogWriteError(f"{path}: cannot append to the execution log ({exc.strerror})", exc.errno) from exc
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        before = os.fstat(fd).st_size
        if before and os.pread(fd, 1, before - 1) != b"\n":
            data = b"\n" + data  # never glue a record to a damaged last line
        try:
            written = os.write(fd, data)
            if written != len(data):
                raise OSError(errno.ENOSPC, f"short write ({written} of {len(data)} bytes)")
            os.fsync(fd)
        except OSError as exc:
            try:
                os.ftruncate(fd, before)
            except OSError:
                pass
            raise LogWriteError(f"{path}: the run's log record could not be appended "
                                f"({exc.strerror}); the log is unchanged", exc.errno) from exc
    finally:
        os.close(fd)


@dataclass(frozen=True)
class DamagedLine:
    """A log line that is not a usable record (cut short, not JSON, wrong field types)."""

    line: int
    reason: str

    def describe(self, path: str | Path) -> str:
        return f"warning: {path}:{self.line}: damaged log line skipped ({self.reason})"


def _record_problem(record: Any) -> str | None:
    """Why a parsed log line is not a usable record, or None."""
    if not isinstance(record, dict):
        return "not a JSON object"
    if not isinstance(record.get("run_id"), str) or not isinstance(record.get("status"), str):
        return "lacks run_id or status"
    if record["status"] not in STATUSES:
        return f"unknown status {record['status']!r}"
    for name in ("command", "started_at", "ended_at"):
        if name in record and record[name] is not None and not isinstance(record[name], str):
            return f"field {name!r} is not a string"
    for name in ("parameters", "inputs", "outputs", "results"):
        if name in record and record[name] is not None and not isinstance(record[name], dict):
            return f"field {name!r} is not an object"
    for name in ("inputs", "outputs", "results"):
        values = record.get(name) or {}
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in values.items()):
            return f"field {name!r} must map strings to strings"
    invocation = record.get("invocation")
    if invocation is not None:
        if not isinstance(invocation, dict):
            return "field 'invocation' is not an object"
        for name in ("inputs", "outputs"):
            roles = invocation.get(name) or {}
            if not isinstance(roles, dict) or not all(
                    isinstance(role, str) and isinstance(entry, dict) and isinstance(entry.get("path"), str)
                    and isinstance(entry.get("sha256", ""), str) for role, entry in roles.items()):
                return f"field 'invocation.{name}' must map roles to {{path, sha256}}"
        if not isinstance(invocation.get("options") or {}, dict):
            return "field 'invocation.options' is not an object"
    return None


def read_log(log_path: str | Path) -> tuple[list[dict[str, Any]], list[DamagedLine]]:
    """Every usable record in file order, and every damaged line (skipped, with its number).

    Relative paths come back absolute, resolved against the log's folder where it is now
    (:func:`absolute_paths`). A missing log has no records. A log path that is a directory, a FIFO or unreadable is an
    :class:`InputError`.
    """
    path = Path(log_path)
    if not path.exists():
        return [], []
    require_regular_file(path)
    records: list[dict[str, Any]] = []
    damaged: list[DamagedLine] = []
    base = log_base(path)
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read execution log ({exc.strerror})", path=path)
    from engine.runs import opener

    if raw.startswith(opener.UTF8_BOM):
        # a log saved by an editor that writes a byte-order mark (or merged from such a file): its
        # first record was "damaged" and skipped, so a newer run on line 1 gave way to an older one
        raw = raw[len(opener.UTF8_BOM):]
        if str(path) not in opener._warned_bom:
            opener._warned_bom.add(str(path))
            print(f"warning: {opener.display_name(path)}: UTF-8 byte-order mark removed", file=sys.stderr)
    for number, line_bytes in enumerate(raw.split(b"\n"), start=1):
        if not line_bytes.strip():
            continue
        try:
            line = line_bytes.decode("utf-8")
        except UnicodeDecodeError:
            damaged.append(DamagedLine(number, "not valid UTF-8"))
            continue
        try:
            record = loads_json(line, path, number)
        except InputError as exc:
            damaged.append(DamagedLine(number, exc.message))
            continue
        problem = _record_problem(record)
        if problem:
            damaged.append(DamagedLine(number, problem))
            continue
        records.append(absolute_paths(record, base))
    return records, damaged


def absolute_paths(record: dict[str, Any], base: Path) -> dict[str, Any]:
    """The record with every relative path it holds made absolute against ``base`` (the log's
    :func:`log_base` where it lies now), so readers see where the files are, wherever the
    project folder was moved; absolute paths (old records, files outside the base) and ``-``
    (standard input, engine.runs.opener) are kept."""
    def absolute(path: str) -> str:
        if path == "-" or os.path.isabs(path):
            return path
        return os.path.normpath(os.path.join(base, path))

    for name in ("inputs", "outputs"):
        if record.get(name):
            record[name] = {absolute(path): digest for path, digest in record[name].items()}
    if record.get("results"):
        record["results"] = {name: absolute(path) for name, path in record["results"].items()}
    invocation = record.get("invocation")
    if isinstance(invocation, dict):
        for name in ("inputs", "outputs"):
            for entry in (invocation.get(name) or {}).values():
                entry["path"] = absolute(entry["path"])
    return record


def read_records(log_path: str | Path, *, report_damaged: bool = True) -> list[dict[str, Any]]:
    """Every usable record in file order (:func:`read_log`); each damaged line is skipped and
    reported as one warning line on stderr naming ``LOG:LINE``."""
    records, damaged = read_log(log_path)
    if report_damaged:
        for entry in damaged:
            print(entry.describe(log_path), file=sys.stderr)
    return records


def newest(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The record that ended last: the largest ``ended_at`` (UTC ISO 8601 with Z, so the strings
    order as the times), ties and records without one by log order (the later line). A log is
    appended in time order, but one a user merged (``cat ci-log.jsonl >> log.jsonl``, or a rotated
    log put back after the current one) is not: "latest" by line then meant an older run."""
    best, best_key = None, None
    for position, record in enumerate(records):
        ended = record.get("ended_at")
        key = (ended if isinstance(ended, str) else "", position)
        if best_key is None or key > best_key:
            best, best_key = record, key
    return best


def latest_ok(log_path: str | Path, command: str | None = None) -> dict[str, Any] | None:
    """The last ``ok`` record (optionally of one command), or None."""
    for record in reversed(read_records(log_path)):
        if record["status"] == "ok" and (command is None or record.get("command") == command):
            return record
    return None


@dataclass(frozen=True)
class Invocation:
    """What a run was asked to do, by role: the registry's input and output parameters (paths)
    and its other options. Set by :func:`engine.experiments.run_experiment` around the entry
    point (:func:`invoked`); the run's record (:func:`recorded_run`) of the same command holds it."""

    command: str
    inputs: dict[str, str]      # role -> file or directory the run reads
    outputs: dict[str, str]     # role -> where the run writes
    options: dict[str, Any]     # every other parameter, as given


_INVOCATION: ContextVar[Invocation | None] = ContextVar("chapter_audit_invocation", default=None)


@contextmanager
def invoked(invocation: Invocation) -> Iterator[None]:
    """Runs of ``invocation.command`` recorded inside the block carry it (a nested run of another
    command, e.g. the encoder inside ``budget run``, does not)."""
    token = _INVOCATION.set(invocation)
    try:
        yield
    finally:
        _INVOCATION.reset(token)


def _files_under(logged: dict[str, str], directory: str) -> dict[str, str]:
    """``{path relative to directory: sha256}`` of the logged files inside ``directory``."""
    root = os.path.abspath(directory)
    out = {}
    for path, digest in logged.items():
        absolute = os.path.abspath(path)
        if absolute.startswith(root + os.sep):
            out[Path(os.path.relpath(absolute, root)).as_posix()] = digest
    return dict(sorted(out.items()))


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
    invocation: Invocation | None = None

    def add_inputs(self, *paths: str | Path) -> None:
        for path in paths:
            if path is not None and Path(path).is_file():
                self.inputs[str(path)] = sha256_file(path)

    def add_outputs(self, directory: str | Path) -> None:
        """Hash every file under an output directory, keyed by absolute path (sorted)."""
        root = Path(directory).resolve()
        for file in sorted(p for p in root.rglob("*") if p.is_file()):
            self.outputs[str(file)] = sha256_file(file)

    def invocation_dict(self, base: Path | None = None) -> dict[str, Any] | None:
        """The invocation by role (module docstring), paths as :func:`portable_path` writes them.

        A file input's sha256 is the one the run logged for it, else (an ``ok`` run only) its
        hash now; a directory's is that of ``{relative path: sha256}`` of the logged files under it.
        """
        if self.invocation is None:
            return None
        logged = {os.path.abspath(path): digest for path, digest in self.inputs.items()}
        inputs: dict[str, dict[str, str]] = {}
        for role, path in sorted(self.invocation.inputs.items()):
            entry = {"path": portable_path(path, base)}
            digest = logged.get(os.path.abspath(path))
            try:
                if digest is None and os.path.isdir(path):
                    files = _files_under(self.inputs, path)
                    digest = sha256_json(files) if files else None
                elif digest is None and self.status == "ok" and os.path.isfile(path):
                    digest = sha256_file(path)
            except OSError:
                digest = None
            if digest is not None:
                entry["sha256"] = digest
            inputs[role] = entry
        outputs = {role: {"path": portable_path(path, base)}
                   for role, path in sorted(self.invocation.outputs.items())}
        return {"inputs": inputs, "outputs": outputs, "options": dict(sorted(self.invocation.options.items()))}

    def as_dict(self, base: Path | None = None) -> dict[str, Any]:
        """The log record; with ``base`` (:func:`log_base`) every path is relocatable."""
        record = {
            "run_id": self.run_id or "unassigned",
            "command": self.command,
            "parameters": self.parameters,
            "inputs": {portable_path(path, base): digest for path, digest in self.inputs.items()},
            "outputs": {portable_path(path, base): digest for path, digest in self.outputs.items()},
            "results": {name: portable_path(path, base) for name, path in self.results.items()},
            "status": self.status,
            "error": self.error,
            "started_at": self.started_at,
            "ended_at": utc_now(),
            "versions": package_versions(),
        }
        invocation = self.invocation_dict(base)
        if invocation is not None:
            record["invocation"] = invocation
        return record


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
    invocation = _INVOCATION.get()
    record = RunRecord(command=command, parameters=parameters,
                       invocation=invocation if invocation is not None and invocation.command == command else None)
    try:
        yield record
    except InvalidRun as exc:
        record.status, record.error = "invalid", " ".join(str(exc).split())
        release_all_output_locks()
        raise
    except BaseException as exc:  # noqa: BLE001 - every failure is logged, then re-raised
        record.status = "failed"
        record.error = " ".join(f"{type(exc).__name__}: {exc}".split())
        release_all_output_locks()  # the run publishes nothing: its output target is free again
        raise
    finally:
        if log_path is not None:
            append_record(log_path, record.as_dict(log_base(log_path)))
