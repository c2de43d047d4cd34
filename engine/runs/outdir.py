"""Output directories that are written whole or not at all.

A pipeline writes into a staging directory beside the target and :func:`publish` moves it
into place only after every file is written, so a failure leaves no partial output.
A target that already exists is replaced only when it holds a manifest of the *same* run id
(a byte-identical re-run); a manifest of another run, or any user file without a manifest,
is a refusal: nothing a user wrote is overwritten silently.

**Locking.** From :func:`check_target` to :func:`publish` the target is held under an exclusive
``fcntl.flock`` on a sibling lock file ``.<name>.lock`` (holding the pid and run id of the
holder). A second run that wants the same target while it is held is refused
(:class:`RefusalError`, exit 3) naming the other run; the lock is released (and its file
removed) on publish, on a failure inside :func:`staged_directory`, or when the process dies.

**Publication re-checks.** :func:`publish` checks the target again just before it moves the
staging directory into place: if something else appeared in it since :func:`check_target`
(a file the notebook or the user wrote meanwhile), or an earlier copy of the same run holds
files this run does not write, the run is refused and nothing there is touched.

**Single files** (a report, a draft claims file, a JUnit report): :func:`file_output` holds the
same lock from the check to the write and refuses an existing file unless the command has an
explicit overwrite flag (or the file is one it may replace, e.g. its own earlier JUnit report);
:func:`publish_file` writes a temp file beside the target, fsyncs it and then *links* it into
place, so a file that appeared meanwhile is never replaced (``os.replace`` only when replacing
is allowed).

**Permissions follow the umask.** The staging directory is private while it is written
(``mkdtemp``: 0700); :func:`publish` gives the published directory ``0o777 & ~umask`` and
:func:`write_files_atomically` gives each file ``0o666 & ~umask`` (0755 / 0644 under umask 022,
0700 / 0600 under 077), as ``mkdir`` and ``open`` would have.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterable, Iterator

from engine.runs.errors import InputError, RefusalError

# Output locks held by this process: absolute target → (descriptor, lock file).
_HELD: dict[str, tuple[int, Path]] = {}
# Targets locked by file_output (released by their own block, never by a failed run).
_FILE_OUTPUTS: set[str] = set()
# What check_target accepted for each target: absolute target → (manifest name, run id).
_CHECKED: dict[str, tuple[str, str]] = {}


def current_umask() -> int:
    """The process umask (read from ``/proc`` where possible, else set and restored at once)."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def published_mode(directory: bool) -> int:
    """The mode a new directory (``0o777``) or file (``0o666``) gets under the umask."""
    return (0o777 if directory else 0o666) & ~current_umask()


def lock_file(target: str | Path) -> Path:
    """The sibling lock file of an output target."""
    target = Path(os.path.abspath(target))
    return target.parent / f".{target.name}.lock"


def acquire_output_lock(target: str | Path, run_id: str | None = None, *, holder: str | None = None) -> None:
    """Take the exclusive lock on ``target`` (re-entrant within one process).

    Refuses (:class:`RefusalError`) when another process holds it, naming that run. The lock
    file records ``holder`` (e.g. ``"report"``), else ``run RUN_ID``, and the pid.
    """
    key = os.path.abspath(target)
    if "\x00" in key:
        raise InputError("output path contains a NUL byte", field="--output")
    if key in _HELD:
        return
    lock = lock_file(target)
    lock.parent.mkdir(parents=True, exist_ok=True)
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 4096, 0).decode("utf-8", "replace").strip() or "a run that is starting"
            os.close(fd)
            raise RefusalError(f"{target}: another run ({holder}) is writing this output right now; "
                               "refusing to write into it at the same time") from None
        try:
            same = os.stat(lock).st_ino == os.fstat(fd).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the lock file was removed by its previous holder: take the new one
    os.ftruncate(fd, 0)
    os.write(fd, f"{holder or 'run ' + (run_id or 'unassigned')}, pid {os.getpid()}".encode())
    _HELD[key] = (fd, lock)


def release_output_lock(target: str | Path) -> None:
    """Release this process's lock on ``target`` (nothing if not held)."""
    _CHECKED.pop(os.path.abspath(target), None)
    entry = _HELD.pop(os.path.abspath(target), None)
    if entry is not None:
        fd, lock = entry
        lock.unlink(missing_ok=True)
        os.close(fd)


def release_all_output_locks() -> None:
    """Release every run output lock this process holds (a run that failed before publishing).

    Locks of single-file outputs (:func:`file_output`, e.g. ``verify --junit`` held across the
    reruns) belong to the command around the runs and are released by it, not here.
    """
    for key in list(_HELD):
        if key not in _FILE_OUTPUTS:
            release_output_lock(key)


@contextmanager
def output_lock(target: str | Path, run_id: str | None = None, *, holder: str | None = None) -> Iterator[None]:
    """Hold the output lock of ``target`` for the block (:func:`acquire_output_lock`)."""
    acquire_output_lock(target, run_id, holder=holder)
    try:
        yield
    finally:
        release_output_lock(target)


def check_target(target: Path, manifest_name: str, run_id: str) -> None:
    """Lock ``target`` for this run, then refuse it if it holds anything but an earlier copy of
    this same run (the lock is released again on a refusal)."""
    acquire_output_lock(target, run_id)
    try:
        _check_target(Path(target), manifest_name, run_id)
    except BaseException:
        release_output_lock(target)
        raise
    _CHECKED[os.path.abspath(target)] = (manifest_name, run_id)


def _check_target(target: Path, manifest_name: str, run_id: str) -> None:
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
    except (OSError, ValueError, RecursionError, AttributeError):
        previous = None
    if previous != run_id:
        raise RefusalError(f"{target}: holds {manifest_name} of run {previous} with different inputs "
                           f"or parameters (this run is {run_id}); refusing to overwrite it")


def _files_not_in(target: Path, staging: Path) -> list[str]:
    """Paths (relative, sorted) of the files and links under ``target`` that ``staging`` lacks."""
    extra = []
    for root, dirs, files in os.walk(target):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            relative = os.path.relpath(os.path.join(root, name), target)
            if not os.path.lexists(staging / relative):
                extra.append(relative)
    return sorted(extra)


@contextmanager
def staged_directory(target: str | Path) -> Iterator[Path]:
    """Yield an empty staging directory next to ``target``; removed again on any failure."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{target.name}.staging-", dir=target.parent))
    try:
        yield staging
    except BaseException:
        release_output_lock(target)
        raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)


def publish(staging: Path, target: str | Path) -> None:
    """Move a complete staging directory into place (replacing an earlier copy of the same run),
    then release the output lock.

    The target is checked again first (module docstring, "Publication re-checks"): a
    :class:`RefusalError` leaves it exactly as it is.
    """
    target = Path(target)
    try:
        checked = _CHECKED.get(os.path.abspath(target))
        if checked is not None and target.exists():
            _check_target(target, *checked)  # something may have appeared since check_target
            extra = _files_not_in(target, staging)
            if extra:
                shown = ", ".join(extra[:5]) + (f" and {len(extra) - 5} more" if len(extra) > 5 else "")
                raise RefusalError(f"{target}: holds files this run does not write ({shown}); "
                                   "refusing to delete them (move them away, or choose a new --output)")
        os.chmod(staging, published_mode(directory=True))   # private while staged, then the umask's
        if target.exists():
            backup = Path(tempfile.mkdtemp(prefix=f".{target.name}.old-", dir=target.parent))
            backup.rmdir()
            target.rename(backup)
            staging.rename(target)
            shutil.rmtree(backup, ignore_errors=True)
        else:
            staging.rename(target)
    finally:
        release_output_lock(target)


def write_files_atomically(contents: dict[Path, bytes | str | Iterable[bytes]]) -> None:
    """Write several files whole: each to a temp file beside it (fsynced, mode ``0o666 & ~umask``), then all
    renamed into place in the given order; on any failure no temp file is left behind.

    Put the file that marks a complete output (a manifest) last. Text is written as UTF-8
    exactly as given (no newline translation). A value may also be an iterable of byte
    chunks (written as they come, so a large file need not be held in memory).
    """
    staged: list[tuple[str, Path]] = []
    mode = published_mode(directory=False)
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
            os.chmod(temporary, mode)
        for temporary, path in staged:
            os.replace(temporary, path)
    finally:
        for temporary, _ in staged:
            Path(temporary).unlink(missing_ok=True)


def write_file_atomically(path: str | Path, data: bytes | str) -> None:
    """One file, whole or not at all (:func:`write_files_atomically`)."""
    write_files_atomically({Path(path): data})


@contextmanager
def file_output(target: str | Path, *, holder: str, may_replace: Callable[[Path], bool] | None = None,
                flag: str = "--output") -> Iterator[Path]:
    """Hold the output lock of a single user-named file from its check to its write.

    Refuses (:class:`RefusalError`, exit 3) when another process is writing it (naming that
    process) or when it exists and ``may_replace`` does not allow replacing it; a directory
    there is bad input (:class:`InputError`). Write it inside the block with :func:`publish_file`.
    """
    target = Path(target)
    if "\x00" in str(target):
        raise InputError("path contains a NUL byte", field=flag)
    created = [p for p in Path(os.path.abspath(target)).parents if not p.exists()]  # made for the lock file
    acquire_output_lock(target, holder=holder)
    key = os.path.abspath(target)
    _FILE_OUTPUTS.add(key)
    try:
        check_file_output(target, may_replace=may_replace)
        yield target
    finally:
        _FILE_OUTPUTS.discard(key)
        release_output_lock(target)
        if not os.path.lexists(target):  # nothing written: leave no directory made for it behind
            for directory in created:
                try:
                    directory.rmdir()
                except OSError:
                    break


def check_file_output(target: Path, *, may_replace: Callable[[Path], bool] | None = None) -> None:
    """The refusals of :func:`file_output`, without taking the lock."""
    if target.is_dir():
        raise InputError("is a directory, not a file", path=target)
    if target.exists() or target.is_symlink():
        if may_replace is None or not may_replace(target):
            raise RefusalError(f"{target}: already exists; refusing to replace it")


def publish_file(target: str | Path, data: bytes | str, *, replace: bool = False) -> None:
    """Write one file whole: a temp file beside ``target`` (fsynced, mode 0644), then linked into
    place, so an existing file is never replaced (:class:`RefusalError` if one appeared), or
    moved over it with ``os.replace`` when ``replace`` is true."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data.encode("utf-8") if isinstance(data, str) else data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temporary, published_mode(directory=False))
        if replace:
            os.replace(temporary, target)
            return
        try:
            os.link(temporary, target)
        except FileExistsError:
            raise RefusalError(f"{target}: appeared while this command ran; refusing to replace it") from None
        except OSError:  # a file system without hard links: exclusive check, then rename
            if target.exists() or target.is_symlink():
                raise RefusalError(f"{target}: appeared while this command ran; refusing to replace it") from None
            os.replace(temporary, target)
    finally:
        Path(temporary).unlink(missing_ok=True)
