"""The one error type for bad input, and its one-line rendering.

Every reader raises :class:`InputError` naming the file and line (or the field) at fault;
the command line prints ``str(error)`` on one line to stderr and exits with code 2,
having written nothing.
"""

from __future__ import annotations

from pathlib import Path

# Exit codes (README, "Exit codes"), one definition for the command line and ``verify --rerun``.
EXIT_FAILED = 1      # a run that started and failed (full or read-only disk, barrier, unexpected error)
EXIT_INPUT = 2       # malformed input: one line naming file and line, nothing written
EXIT_REFUSED = 3     # a deliberate refusal (occupied output, existing freeze, changed hashes)
EXIT_INVALID = 4     # a stop condition: the run is logged invalid


# Files named otherwise in messages: {actual path: name shown} (the stdin copy → "-").
SHOWN_AS: dict[str, str] = {}


class InputError(Exception):
    """Malformed or inconsistent user input.

    ``location`` is ``FILE``, ``FILE:LINE`` or ``FILE: field NAME``; the message says what is wrong.
    A path in :data:`SHOWN_AS` is named as it says (the private copy of standard input is ``-``:
    :func:`engine.runs.opener.stdin_as_file` registers it).
    """

    def __init__(self, message: str, *, path: str | Path | None = None,
                 line: int | None = None, field: str | None = None) -> None:
        self.message = message
        self.path = SHOWN_AS.get(str(path), str(path)) if path is not None else None
        self.line = line
        self.field = field
        super().__init__(self.render())

    def render(self) -> str:
        where = self.path or ""
        if self.line is not None:
            where = f"{where}:{self.line}"
        if self.field is not None:
            where = f"{where}: field {self.field!r}" if where else f"field {self.field!r}"
        text = f"{where}: {self.message}" if where else self.message
        return " ".join(text.split())  # always one line


class RefusalError(Exception):
    """A deliberate refusal (existing freeze, changed inputs, occupied output directory).

    Rendered like :class:`InputError`; the command exits non-zero and writes nothing.
    """

    def __init__(self, message: str) -> None:
        self.message = " ".join(message.split())
        super().__init__(self.message)
