"""Progress of long steps on stderr, one way for every command (issue 21).

``with progress("sandbox run: scoring", total=len(topics), unit="topics") as bar: bar.advance()``

* **On a terminal** (stderr is a TTY) the step is drawn by `rich <https://rich.readthedocs.io>`_
  (already installed with typer, so no new dependency for users): a bar, done/total, elapsed and
  time left; the line is left on screen when the step ends. A step that ends within
  :data:`START_DELAY` draws nothing.
* **Off a terminal** (a pipe, a file, CI) nothing is written by default, so no ``\\r`` ever
  reaches a log. Asked for explicitly (``encode --progress``, or ``CHAPTER_AUDIT_PROGRESS=1``)
  it writes plain lines, at most one every :data:`PLAIN_INTERVAL` seconds and one at the end,
  each ending in ``\\n``.
* ``--no-progress`` (or ``CHAPTER_AUDIT_PROGRESS=0``) silences it everywhere.

The decision, in order: the caller's ``enabled`` (a command's ``--progress/--no-progress``), then
:func:`configure` (the command line sets it once), then ``CHAPTER_AUDIT_PROGRESS``, then whether
stderr is a terminal. A progress display never changes a result and is never part of an output.

``describe`` replaces the default text by the caller's own line (``encode`` shows texts done,
rate and an ETA that follows the work left: :class:`engine.encoder.stream.ProgressMeter`).
"""

from __future__ import annotations

import os
import sys
import time
from types import TracebackType
from typing import Callable, Optional, TextIO

ENV_PROGRESS = "CHAPTER_AUDIT_PROGRESS"
PLAIN_INTERVAL = 10.0   # seconds between two plain lines off a terminal
START_DELAY = 0.5       # a step shorter than this draws nothing on a terminal

_configured: Optional[bool] = None


def configure(enabled: Optional[bool]) -> None:
    """Set the process default (None: decide by the environment and the terminal)."""
    global _configured
    _configured = enabled


def progress_enabled(enabled: Optional[bool] = None, stream: Optional[TextIO] = None) -> bool:
    """Whether a progress display should be shown on ``stream`` (default stderr)."""
    for choice in (enabled, _configured):
        if choice is not None:
            return bool(choice)
    env = os.environ.get(ENV_PROGRESS, "").strip().lower()
    if env in ("0", "no", "false", "off"):
        return False
    if env in ("1", "yes", "true", "on"):
        return True
    stream = stream or sys.stderr
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class Progress:
    """One step's progress (a context manager); every method is a no-op when disabled."""

    def __init__(self, label: str, total: Optional[int] = None, *, unit: str = "items",
                 enabled: Optional[bool] = None, stream: Optional[TextIO] = None,
                 describe: Optional[Callable[[float], str]] = None) -> None:
        self.label = label
        self.total = total
        self.unit = unit
        self.done = 0
        self.stream = stream or sys.stderr
        self.enabled = progress_enabled(enabled, self.stream)
        self.describe = describe
        self.started = time.monotonic()
        self._last_plain = self.started
        self._rich = None
        self._task = None
        self._terminal = self.enabled and _is_terminal(self.stream)

    # -- rendering ------------------------------------------------------------------------
    def _start_rich(self) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress, TextColumn,
                                   TimeElapsedColumn, TimeRemainingColumn)

        columns = [TextColumn("{task.description}"), BarColumn(bar_width=24)]
        if self.describe is not None:
            columns += [TextColumn("{task.fields[line]}")]
        elif self.total:
            columns += [MofNCompleteColumn(), TextColumn(self.unit), TimeElapsedColumn(),
                        TextColumn("left"), TimeRemainingColumn()]
        else:
            columns += [TextColumn("{task.completed:,.0f} " + self.unit), TimeElapsedColumn()]
        self._rich = RichProgress(*columns, console=Console(file=self.stream), transient=False,
                                  refresh_per_second=4)
        self._rich.start()
        self._task = self._rich.add_task(self.label, total=self.total, line="")

    def text(self) -> str:
        """The plain line: the caller's ``describe`` or ``LABEL: DONE/TOTAL UNIT (P%)``."""
        elapsed = time.monotonic() - self.started
        if self.describe is not None:
            return self.describe(elapsed)
        if self.total:
            return (f"{self.label}: {self.done:,}/{self.total:,} {self.unit} "
                    f"({100.0 * self.done / self.total:.1f}%), {elapsed:.0f} s")
        return f"{self.label}: {self.done:,} {self.unit}, {elapsed:.0f} s"

    def _show(self, final: bool = False) -> None:
        if not self.enabled:
            return
        if self._terminal:
            if self._rich is None:
                if time.monotonic() - self.started < START_DELAY:
                    return
                self._start_rich()
            fields = {"line": self.describe(time.monotonic() - self.started)} if self.describe else {}
            self._rich.update(self._task, completed=self.done, total=self.total, **fields)
            return
        now = time.monotonic()
        if final or now - self._last_plain >= PLAIN_INTERVAL:
            self._last_plain = now
            print(self.text(), file=self.stream, flush=True)

    # -- the interface --------------------------------------------------------------------
    def advance(self, amount: int = 1) -> None:
        self.done += amount
        self._show()

    def update(self, done: Optional[int] = None, total: Optional[int] = None) -> None:
        if done is not None:
            self.done = done
        if total is not None:
            self.total = total
        self._show()

    def close(self) -> None:
        if not self.enabled:
            return
        if self._terminal:
            if self._rich is not None:
                self._show()
                self._rich.stop()
                self._rich = None
        else:
            self._show(final=True)
        self.enabled = False

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def progress(label: str, total: Optional[int] = None, *, unit: str = "items",
             enabled: Optional[bool] = None, stream: Optional[TextIO] = None,
             describe: Optional[Callable[[float], str]] = None) -> Progress:
    """A :class:`Progress` for one step (see the module docstring)."""
    return Progress(label, total, unit=unit, enabled=enabled, stream=stream, describe=describe)


def tracked(items, label: str, *, total: Optional[int] = None, unit: str = "items",
            enabled: Optional[bool] = None):
    """Iterate ``items`` while showing progress (``total`` defaults to ``len(items)``)."""
    if total is None:
        try:
            total = len(items)
        except TypeError:
            total = None
    with progress(label, total, unit=unit, enabled=enabled) as bar:
        for item in items:
            yield item
            bar.advance()


def counted(chunks, label: str, *, size: Callable = len, total: Optional[int] = None, unit: str = "rows",
            enabled: Optional[bool] = None):
    """Iterate ``chunks`` (e.g. a chunked file reader), advancing by ``size(chunk)`` each time."""
    with progress(label, total, unit=unit, enabled=enabled) as bar:
        for chunk in chunks:
            yield chunk
            bar.advance(size(chunk))
