"""The pre-outcome freeze: exclusive read-only files, their hashes, and the judgment barrier.

Source: seed 003 ``integrity`` ("Prepare stage refuses to open qrels or judgments ... Immutable
freeze files refuse overwrite"); seed 000 ("Preparation enforced a file-open barrier on
judgment/outcome filenames").

* **Freeze files** are created with ``open(path, "xb")`` (never overwriting), fsynced and then
  ``chmod 0o444``. A freeze directory that already holds any freeze file is refused
  (:class:`engine.runs.errors.RefusalError`). Note: the read-only bit does not stop ``root``;
  the hashes in ``freeze_manifest.json`` are what evaluate checks.
* **Judgment barrier**: a process-wide :func:`sys.addaudithook` hook on the ``open`` audit
  event (raised by ``open``/``io.open``/``os.open`` and therefore by numpy, pathlib, json
  readers ...). While a barrier is active (a :mod:`contextvars` variable set by
  :func:`judgment_barrier`), opening a file whose *basename* matches one of the barrier's
  glob patterns (case-insensitive :func:`fnmatch.fnmatchcase` on the lower-cased name; default
  ``judgments*`` and ``qrels*``), or whose *real path* (symlinks resolved) has such a basename, raises :class:`JudgmentBarrierError` (a ``PermissionError``).
  Audit hooks cannot be removed, so the hook is installed once and toggled; outside a barrier
  (e.g. in evaluate) it does nothing. Only opening is barred: listing a directory is not.
  The files prepare itself writes (its ``--log`` and the freeze's lock file, by real path) are
  exempt: the barrier matches judgment files, not a log that happens to be named ``qrels-log``.
"""

from __future__ import annotations

import contextvars
import fnmatch
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from engine.runs.errors import RefusalError
from engine.runs.hashing import sha256_file
from engine.runs.outdir import current_umask

DEFAULT_BARRIER_PATTERNS = ("judgments*", "qrels*")
READ_ONLY = 0o444

class Barrier:
    """An active barrier: its patterns and every barred path an open was attempted on.

    ``hits`` lets the caller notice an attempt even where a reader turned the
    :class:`JudgmentBarrierError` into another error or swallowed it.
    """

    def __init__(self, patterns: tuple[str, ...], exempt: frozenset[str] = frozenset()) -> None:
        self.patterns = patterns
        self.exempt = exempt      # real paths prepare itself writes (its --log, the freeze's lock)
        self.hits: list[str] = []

    def error(self) -> "JudgmentBarrierError":
        return JudgmentBarrierError(f"judgment barrier: prepare may not open {self.hits[0]} "
                                    f"(matches {', '.join(self.patterns)})")


_ACTIVE: contextvars.ContextVar[Barrier | None] = contextvars.ContextVar(
    "chapter_audit_judgment_barrier", default=None)
_INSTALLED = False


class JudgmentBarrierError(PermissionError):
    """An attempt to open a judgment/outcome file while the barrier is active."""


def _basenames(target: object) -> list[str]:
    """The basename of the path opened and of its real path (symlinks resolved), so that a
    link named ``notes.txt`` pointing at ``qrels.txt`` is barred like ``qrels.txt`` itself."""
    if isinstance(target, (str, bytes, os.PathLike)):
        name = os.fsdecode(os.fspath(target))
    else:
        return []  # file descriptors and the like
    names = [os.path.basename(name.rstrip("/\\"))]
    try:
        names.append(os.path.basename(os.path.realpath(name)))
    except (OSError, ValueError):
        pass
    return [n for n in names if n]


def _exempt(target: object, barrier: Barrier) -> bool:
    """Whether ``target`` is one of the files prepare itself writes (by real path): the barrier
    bars judgment files, never prepare's own log whatever its name (``--log qrels-log.jsonl``)."""
    if not barrier.exempt or not isinstance(target, (str, bytes, os.PathLike)):
        return False
    try:
        return os.path.realpath(os.fsdecode(os.fspath(target))) in barrier.exempt
    except (OSError, ValueError):
        return False


def barred(name: str, patterns: Sequence[str]) -> bool:
    """Whether a basename matches any barrier pattern (case-insensitive glob)."""
    lowered = name.lower()
    return any(fnmatch.fnmatchcase(lowered, p.lower()) for p in patterns)


def _hook(event: str, args: tuple) -> None:
    if event != "open":
        return
    barrier = _ACTIVE.get()
    if barrier is None or not args:
        return
    if any(barred(name, barrier.patterns) for name in _basenames(args[0])) and not _exempt(args[0], barrier):
        target = args[0]
        shown = os.fsdecode(target) if isinstance(target, (str, bytes, os.PathLike)) else str(target)
        barrier.hits.append(shown)
        raise barrier.error()


def install_barrier_hook() -> None:
    """Install the audit hook once per process (idempotent)."""
    global _INSTALLED
    if not _INSTALLED:
        sys.addaudithook(_hook)
        _INSTALLED = True


@contextmanager
def judgment_barrier(patterns: Sequence[str] = DEFAULT_BARRIER_PATTERNS,
                     exempt: Sequence[str | Path] = ()) -> Iterator[Barrier]:
    """Bar opening judgment-like files inside the block (see module docstring); the ``exempt``
    paths (prepare's own log and lock file, compared by real path) are not judgment files."""
    install_barrier_hook()
    check_barrier_patterns(patterns)
    barrier = Barrier(tuple(patterns) if patterns else DEFAULT_BARRIER_PATTERNS,
                      frozenset(os.path.realpath(p) for p in exempt))
    token = _ACTIVE.set(barrier)
    try:
        yield barrier
    finally:
        _ACTIVE.reset(token)


def check_barrier_patterns(patterns: Sequence[str]) -> None:
    """InputError for an empty or blank ``--barrier-pattern`` (it would bar nothing)."""
    from engine.runs.errors import InputError

    for pattern in patterns or ():
        if not isinstance(pattern, str) or not pattern.strip() or "\x00" in pattern:
            raise InputError("an empty or blank barrier pattern would bar nothing", field="--barrier-pattern")


def barrier_active() -> bool:
    return _ACTIVE.get() is not None


def write_exclusive(path: str | Path, data: bytes) -> str:
    """Create ``path`` exclusively, write ``data``, fsync, make it read-only; return its sha256."""
    path = Path(path)
    with open(path, "xb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.chmod(path, READ_ONLY & ~current_umask())   # read-only, and no wider than the umask allows
    return sha256_file(path)


def refuse_existing_freeze(freeze_dir: str | Path, names: Sequence[str]) -> None:
    """Refuse a freeze directory that holds any freeze file (or is not a directory)."""
    freeze_dir = Path(freeze_dir)
    if not freeze_dir.exists():
        return
    if not freeze_dir.is_dir():
        raise RefusalError(f"{freeze_dir}: freeze path exists and is not a directory")
    present = sorted(n for n in names if (freeze_dir / n).exists())
    if present:
        raise RefusalError(f"{freeze_dir}: already holds freeze file(s) {', '.join(present)}; "
                           "a freeze is never overwritten (choose a new --freeze directory)")
    others = sorted(p.name for p in freeze_dir.iterdir())
    if others:
        raise RefusalError(f"{freeze_dir}: freeze directory is not empty ({', '.join(others[:3])}); "
                           "refusing to mix a freeze with other files")
