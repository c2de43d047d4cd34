"""Chapter prose fingerprints: sha256 of the normalised prose, and checks against stated ones.

Normalisation (:func:`normalise_prose`, docs/audit.md "Fingerprints"):

1. Unicode NFC (so precomposed and decomposed accents hash alike);
2. CRLF and lone CR become LF;
3. every run of whitespace is collapsed to one ASCII space, using Python's ``str.split()``
   with no argument: Unicode-aware, so tabs, newlines, NBSP (U+00A0), the other Unicode
   space separators and line/paragraph separators all count as whitespace; zero-width
   characters (U+200B, U+FEFF) are *not* whitespace and are kept;
4. leading and trailing whitespace is removed;
5. the result is encoded as UTF-8 and hashed with sha256 (lower-case hex).

A pack that holds only an EXCERPT cannot match a fingerprint stated for the whole chapter;
:func:`check_file` reports that as status ``EXCERPT`` rather than as a mismatch.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from audit.pack import PACK_SUFFIXES, Pack, _suffix, load_pack
from engine.runs.errors import InputError

MATCH = "MATCH"
MISMATCH = "MISMATCH"
EXCERPT = "EXCERPT"
NO_FINGERPRINT = "NO-FINGERPRINT"
INVALID = "INVALID"
HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")


def normalise_prose(text: str) -> str:
    """NFC, CRLF/CR → LF, whitespace runs (``str.split()`` semantics) → one space, trimmed."""
    text = unicodedata.normalize("NFC", text)
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return " ".join(text.split())


def fingerprint_text(text: str) -> str:
    """Lower-case hex sha256 of the UTF-8 bytes of :func:`normalise_prose` of ``text``."""
    return hashlib.sha256(normalise_prose(text).encode("utf-8")).hexdigest()


def fingerprint_pack(pack: Pack) -> str:
    """Fingerprint of a pack's chapter prose (excerpt markers already excluded)."""
    return fingerprint_text(pack.chapter_text)


@dataclass(frozen=True)
class FingerprintCheck:
    """One file's fingerprint status.

    ``status``: MATCH, MISMATCH, EXCERPT (an excerpt checked against the stated full-chapter
    fingerprint: cannot match), NO-FINGERPRINT (nothing to compare with) or INVALID (the file
    could not be parsed; ``message`` says why; directory mode only).
    """

    path: str
    status: str
    computed: str | None
    stated: str | None
    expected: str | None
    is_excerpt: bool
    characters: int
    message: str

    @property
    def failed(self) -> bool:
        return self.status == MISMATCH


def validate_hash(value: str, what: str = "--expect") -> str:
    if not HEX64.match(value.strip()):
        raise InputError(f"{what} must be a 64-digit hex sha256, got {value!r}")
    return value.strip().lower()


def check_pack(pack: Pack, expect: str | None = None) -> FingerprintCheck:
    """Compare a pack's prose fingerprint with ``expect`` (if given) else its stated one."""
    computed = fingerprint_pack(pack)
    stated = pack.identity.fingerprint
    expected = validate_hash(expect) if expect is not None else None
    characters = len(normalise_prose(pack.chapter_text))
    common = dict(path=pack.source_path, computed=computed, stated=stated, expected=expected,
                  is_excerpt=pack.is_excerpt, characters=characters)
    if expected is not None:
        if computed == expected:
            return FingerprintCheck(status=MATCH, message="computed hash equals --expect", **common)
        note = (" (the file holds an EXCERPT, so only a hash of this same excerpt can match)"
                if pack.is_excerpt else "")
        return FingerprintCheck(status=MISMATCH, message=f"computed hash differs from --expect{note}",
                                **common)
    if stated is None:
        return FingerprintCheck(status=NO_FINGERPRINT,
                                message="the file states no fingerprint; nothing to compare", **common)
    if computed == stated:
        return FingerprintCheck(status=MATCH, message="computed hash equals the stated fingerprint",
                                **common)
    if pack.is_excerpt:
        where = f" ({pack.snapshot_url})" if pack.snapshot_url else ""
        return FingerprintCheck(
            status=EXCERPT,
            message=("EXCERPT — cannot match: the pack holds only an excerpt of the chapter, and the "
                     "stated fingerprint is of the whole chapter, so the hashes cannot be equal. This "
                     "is not evidence of a changed chapter; fingerprint the complete snapshot"
                     f"{where} with --expect to verify it."),
            **common)
    return FingerprintCheck(status=MISMATCH,
                            message="the chapter prose does not match the stated fingerprint "
                                    "(the text differs from the revision the pack names)", **common)


def check_file(path: str | Path, expect: str | None = None) -> FingerprintCheck:
    """Load a pack or snapshot and check it (see :func:`check_pack`)."""
    return check_pack(load_pack(path), expect)


def pack_files(directory: str | Path) -> list[Path]:
    """Pack candidates in a directory (not recursive): ``*.txt``, ``*.md``, ``*.pack`` and the same
    gzipped (``*.txt.gz``, …), sorted."""
    directory = Path(directory)
    return sorted(p for p in directory.iterdir() if p.is_file() and _suffix(p) in PACK_SUFFIXES)


def check_directory(directory: str | Path) -> list[FingerprintCheck]:
    """Check every pack in ``directory``; an unparsable file is an INVALID row, not an abort."""
    checks = []
    for path in pack_files(directory):
        try:
            checks.append(check_file(path))
        except InputError as exc:
            checks.append(FingerprintCheck(path=str(path), status=INVALID, computed=None, stated=None,
                                           expected=None, is_excerpt=False, characters=0,
                                           message=str(exc)))
    return checks


def exit_code(checks: list[FingerprintCheck]) -> int:
    """1 if any MISMATCH; else 2 if any INVALID; else 0 (EXCERPT and NO-FINGERPRINT are 0)."""
    if any(c.status == MISMATCH for c in checks):
        return 1
    if any(c.status == INVALID for c in checks):
        return 2
    return 0


def format_single(check: FingerprintCheck) -> str:
    """Human-readable lines for one file."""
    lines = [f"file: {check.path}",
             f"sha256: {check.computed} (normalised chapter prose, {check.characters} characters"
             f"{', EXCERPT' if check.is_excerpt else ''})"]
    if check.stated is not None:
        lines.append(f"stated: {check.stated}")
    if check.expected is not None:
        lines.append(f"expected: {check.expected}")
    lines.append(f"status: {check.status}")
    lines.append(check.message)
    return "\n".join(lines) + "\n"


def format_rows(checks: list[FingerprintCheck]) -> str:
    """Directory mode: one tab-separated line per file: path, status, computed, stated."""
    out = []
    for c in checks:
        row = [c.path, c.status, c.computed or "-", c.stated or "-"]
        if c.status == INVALID:
            row.append(c.message)
        out.append("\t".join(row))
    return "\n".join(out) + ("\n" if out else "")
