"""The one way every text input is opened: gzip, a UTF-8 byte-order mark, ``-`` for stdin.

Files as the field ships them (issue 21):

* **gzip**: a file whose first two bytes are gzip's magic number ``1f 8b`` is decompressed as
  it is read, whatever its name (TREC collections ship ``qrels.gz``, ``run.gz``, BEIR
  ``corpus.jsonl.gz``). No UTF-8 text starts with those bytes (``8b`` cannot follow ``1f``),
  so the test cannot mistake a text file for gzip. A damaged or truncated gzip stream is an
  InputError naming the file;
* **bzip2 and xz** (campaign p): ``.bz2`` and ``.xz`` runs and qrels are decompressed alike, by
  their magic bytes: xz's ``fd 37 7a 58 5a 00`` (``fd`` is no UTF-8 lead byte) and bzip2's
  ``BZh`` + a block size digit + the block magic ``31 41 59 26 53 59`` (or the end-of-stream
  magic of an empty stream), ten bytes no real text starts with; before, they were refused as
  "not valid UTF-8", which sent users looking for an encoding problem;
* **byte-order mark**: a UTF-8 BOM at the start of the (decompressed) text is removed with one
  warning on stderr (``warning: FILE: UTF-8 byte-order mark removed``), so that Notepad's or
  PowerShell's files do not turn the first topic id into ``\\ufeff301``;
* **stdin**: where a command reads one input, ``-`` names standard input.
  :func:`stdin_as_file` copies it once into a private temporary file (removed at exit), so the
  input is hashed by content and read like any file; the log and manifest name it ``-``
  (:func:`display_name`), and a command given ``-`` twice refuses (:func:`refuse_second_stdin`).

Line ends are universal (``\\r\\n`` and ``\\r`` read as ``\\n``), as ``open(..., encoding=...)``.
"""

from __future__ import annotations

import atexit
import bz2
import gzip
import io
import os
import shutil
import stat
import sys
import tempfile
import lzma
import zlib
from pathlib import Path
from typing import BinaryIO, TextIO

GZIP_MAGIC = b"\x1f\x8b"
XZ_MAGIC = b"\xfd7zXZ\x00"
BZIP2_BLOCK_MAGICS = (b"\x31\x41\x59\x26\x53\x59", b"\x17\x72\x45\x38\x50\x90")
UTF8_BOM = b"\xef\xbb\xbf"
STDIN = "-"

_stdin_copy: tuple[object, Path] | None = None   # (the stdin object copied, the copy): held, so
                                                 # that a later stream cannot reuse its id
_warned_bom: set[str] = set()                   # files whose BOM was reported (once a process)


def require_regular_file(path: str | Path) -> None:
    """InputError unless ``path`` is an existing regular file (a FIFO, device or directory would
    block or fail on open; NUL bytes in the name are refused by name)."""
    from engine.runs.errors import InputError

    text = os.fspath(path)
    if "\x00" in str(text):
        raise InputError("file name contains a NUL byte", path=repr(str(text)))
    try:
        mode = os.stat(path).st_mode
    except OSError as exc:
        raise InputError(f"cannot read file ({exc.strerror})", path=path)
    if stat.S_ISDIR(mode):
        raise InputError("is a directory, expected a file", path=path)
    if not stat.S_ISREG(mode):
        raise InputError("is not a regular file (a FIFO, socket or device is never read)", path=path)


def is_stdin(path: str | Path | None) -> bool:
    return path is not None and str(path) == STDIN


def stdin_as_file() -> Path:
    """Standard input copied (once per stdin stream) into a private file; the same path on every call."""
    global _stdin_copy
    if _stdin_copy is None or _stdin_copy[0] is not sys.stdin or not _stdin_copy[1].exists():
        directory = Path(tempfile.mkdtemp(prefix="chapter-audit-stdin-"))
        atexit.register(shutil.rmtree, directory, True)
        target = directory / "stdin"
        source = getattr(sys.stdin, "buffer", None)
        with open(target, "wb") as handle:
            if source is not None:
                shutil.copyfileobj(source, handle)
            else:  # a text stream without a buffer (e.g. a test runner's): its text as UTF-8
                handle.write(sys.stdin.read().encode("utf-8"))
        _stdin_copy = (sys.stdin, target)
        from engine.runs.errors import SHOWN_AS

        SHOWN_AS[str(target)] = STDIN   # every InputError about the copy names it '-'
    return _stdin_copy[1]


def resolve_input(path: str | Path) -> Path:
    """``-`` → the stdin copy; any other path unchanged."""
    return stdin_as_file() if is_stdin(path) else Path(path)


def display_name(path: str | Path) -> str:
    """How messages, manifests and logs name an input: ``-`` for the stdin copy, else the path."""
    if _stdin_copy is not None and str(path) in (STDIN, str(_stdin_copy[1])):
        return STDIN
    return str(path)


def refuse_second_stdin(paths: "list[str | Path | None]", field: str) -> None:
    """InputError (one line, naming ``field``) when more than one of ``paths`` is ``-``: standard
    input can be read once, and two roles given the same bytes would be a silent mistake."""
    from engine.runs.errors import InputError

    if sum(is_stdin(p) for p in paths) > 1:
        raise InputError("only one input can be read from stdin ('-')", field=field)


def _input_error(message: str, path: str | Path):
    from engine.runs.errors import InputError

    return InputError(message, path=display_name(path))


def is_gzip(path: str | Path) -> bool:
    """True when the file starts with gzip's magic number."""
    return compression(path) == "gzip"


def compression(path: str | Path) -> str | None:
    """``gzip``, ``bzip2`` or ``xz`` by the file's magic bytes, else None (plain, or unreadable)."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(10)
    except OSError:
        return None
    if head[:2] == GZIP_MAGIC:
        return "gzip"
    if head[:6] == XZ_MAGIC:
        return "xz"
    if head[:3] == b"BZh" and head[3:4].isdigit() and head[3:4] != b"0" and head[4:10] in BZIP2_BLOCK_MAGICS:
        return "bzip2"
    return None


_DECOMPRESSORS = {"gzip": gzip.open, "bzip2": bz2.open, "xz": lzma.open}


class _CheckedStream(io.RawIOBase):
    """A compressed stream whose damage surfaces as an InputError naming the file and the format."""

    def __init__(self, path: str | Path, kind: str) -> None:
        self.path = path
        self.kind = kind
        self.inner = _DECOMPRESSORS[kind](path, "rb")

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:  # type: ignore[override]
        try:
            return self.inner.readinto(buffer)
        except (OSError, EOFError, zlib.error, lzma.LZMAError, ValueError) as exc:
            raise _input_error(f"not a valid {self.kind} file ({' '.join(str(exc).split()) or 'truncated'})",
                               self.path) from None

    def close(self) -> None:
        self.inner.close()
        super().close()


def open_binary(path: str | Path) -> BinaryIO:
    """The file's bytes, decompressed when it is gzip, bzip2 or xz (buffered, with ``peek``)."""
    require_regular_file(path)
    try:
        kind = compression(path)
        if kind is not None:
            return io.BufferedReader(_CheckedStream(path, kind), buffer_size=1 << 16)  # type: ignore[return-value]
        return open(path, "rb")
    except OSError as exc:
        raise _input_error(f"cannot read file ({exc.strerror or exc})", path) from None


def open_text(path: str | Path, *, encoding: str = "utf-8", warn: bool = True) -> TextIO:
    """The file as text (gzip decompressed, a leading BOM removed with a warning)."""
    stream = open_binary(path)
    try:
        head = stream.peek(3)[:3]  # type: ignore[attr-defined]
    except Exception:
        stream.close()
        raise
    has_bom = head == UTF8_BOM and encoding.lower().replace("_", "-") in ("utf-8", "utf8")
    if has_bom:
        if warn and str(path) not in _warned_bom:
            _warned_bom.add(str(path))
            print(f"warning: {display_name(path)}: UTF-8 byte-order mark removed", file=sys.stderr)
        encoding = "utf-8-sig"
    return io.TextIOWrapper(stream, encoding=encoding)  # type: ignore[arg-type]


def read_text(path: str | Path, *, encoding: str = "utf-8") -> str:
    """The whole file as text (:func:`open_text`); InputErrors name the file."""
    with open_text(path, encoding=encoding) as handle:
        try:
            return handle.read()
        except UnicodeDecodeError:
            raise not_utf8_error(path, encoding) from None


def not_utf8_error(path: str | Path, encoding: str = "utf-8"):
    """The InputError for a file that does not decode: ``FILE:LINE: file is not valid UTF-8
    (byte 0xff at column 7)``, LINE and column (1-based, in bytes) of the first undecodable byte of
    the (decompressed, BOM-less) content; without a line when the file cannot be read again."""
    from engine.runs.errors import InputError

    try:
        with open_binary(path) as stream:
            data = stream.read()
    except (OSError, EOFError, InputError):
        return _input_error("file is not valid UTF-8", path)
    if data.startswith(UTF8_BOM):
        data = data[len(UTF8_BOM):]
    try:
        data.decode(encoding)
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        return InputError(f"file is not valid UTF-8 (byte 0x{data[exc.start]:02x} at column "
                          f"{exc.start - line_start + 1})", path=display_name(path),
                          line=data.count(b"\n", 0, exc.start) + 1)
    except LookupError:
        pass
    return _input_error("file is not valid UTF-8", path)
