"""Output directories that are written whole or not at all.

A pipeline writes into a staging directory beside the target and :func:`publish` moves it
into place only after every file is written, so a failure leaves no partial output.
A target that already exists is replaced only when it holds a manifest of the *same* run id
(a byte-identical re-run); a manifest of another run, or any user file without a manifest,
is a refusal: nothing a user wrote is overwritten silently.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterable, Iterator

from engine.runs.errors import RefusalError


def check_target(target: Path, manifest_name: str, run_id: str) -> None:
    """Refuse a target directory that holds anything but an earlier copy of this same run."""
    if not target.exists():
        return
    if not target.is_dir():
        raise RefusalError(f"{target}: output path exists and is not a directory")
    entries = list(target.iterdir())
    if not entries:
        return
    manifest = target / manifest_name
    if not manifest.is_file():
        raise RefusalError(f"{target}: output directory is not empty and holds no {manifest_name}; "
                           "refusing to overwrite it (choose a new --output)")
    try:
        previous = json.loads(manifest.read_text(encoding="utf-8")).get("run_id")
    except (OSError, json.JSONDecodeError, AttributeError):
        previous = None
    if previous != run_id:
        raise RefusalError(f"{target}: holds {manifest_name} of run {previous} with different inputs "
                           f"or parameters (this run is {run_id}); refusing to overwrite it")


@contextmanager
def staged_directory(target: str | Path) -> Iterator[Path]:
    """Yield an empty staging directory next to ``target``; removed again on any failure."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.staging-", dir=target.parent))
    try:
        yield staging
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def publish(staging: Path, target: str | Path) -> None:
    """Move a complete staging directory into place (replacing an earlier copy of the same run)."""
    target = Path(target)
    if target.exists():
        backup = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
        backup.rmdir()
        target.rename(backup)
        staging.rename(target)
        shutil.rmtree(backup, ignore_errors=True)
    else:
        staging.rename(target)


def write_files_atomically(contents: dict[Path, bytes | str | Iterable[bytes]]) -> None:
    """Write several files whole: each to a temp file beside it (fsynced, mode 0644), then all
    renamed into place in the given order; on any failure no temp file is left behind.

    Put the file that marks a complete output (a manifest) last. Text is written as UTF-8
    exactly as given (no newline translation). A value may also be an iterable of byte
    chunks (written as they come, so a large file need not be held in memory).
    """
    staged: list[tuple[str, Path]] = []
    try:
        for path, data in contents.items():
            path = Path(path)
            path.parent.mkdir(parents=True, exist_ok=True)
            handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
            staged.append((temporary, path))
            with os.fdopen(handle, "wb") as out:
                if isinstance(data, (bytes, bytearray, memoryview, str)):
                    out.write(data.encode("utf-8") if isinstance(data, str) else data)
                else:
                    for chunk in data:
                        out.write(chunk)
                out.flush()
                os.fsync(out.fileno())
            os.chmod(temporary, 0o644)
        for temporary, path in staged:
            os.replace(temporary, path)
    finally:
        for temporary, _ in staged:
            Path(temporary).unlink(missing_ok=True)


def write_file_atomically(path: str | Path, data: bytes | str) -> None:
    """One file, whole or not at all (:func:`write_files_atomically`)."""
    write_files_atomically({Path(path): data})
