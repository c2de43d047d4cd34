"""The book's research history: ``OUT/passes.jsonl``, one JSON line per pass, oldest first.

Each line: ``pass`` (1, 2, …), ``run_id`` (the pass's log record), ``date`` (the report date of
the pass), ``title``, ``chapters`` (per chapter: ``name``, ``file``, ``title``, ``state`` —
``new``, ``changed`` or ``unchanged`` since the previous pass —, ``changed`` (the parts of its
key that differ, :mod:`books.keys`), ``fingerprint``, ``previous_fingerprint``,
``written_in_pass`` (the pass whose report it carries), ``report_sha256``, ``status``,
``counts`` and ``key``), ``removed`` (chapters of the previous pass no longer in the book) and
``unlisted`` (chapter files ``book.toml`` does not list). Wall-clock times are only in the
execution log, so a pass's files are the same whichever executor ran it.

The previous output directory is trusted only as far as its own manifest (``manifest.json``,
command ``book``) vouches for it: every file must still have the sha256 the manifest lists,
otherwise the pass is refused (a user's edit is never replaced silently).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.runs.errors import RefusalError
from engine.runs.hashing import sha256_file

MANIFEST = "manifest.json"
PASSES = "passes.jsonl"


@dataclass
class PreviousPass:
    """What the output directory holds from earlier passes (nothing for a new directory)."""

    directory: Path
    passes: list[dict[str, Any]] = field(default_factory=list)
    manifest: dict[str, Any] | None = None

    @property
    def last(self) -> dict[str, Any] | None:
        return self.passes[-1] if self.passes else None

    @property
    def number(self) -> int:
        return int(self.last["pass"]) if self.last else 0

    def chapter(self, name: str) -> dict[str, Any] | None:
        """This chapter's entry of the last pass, with that pass's number, date and run id."""
        last = self.last
        if last is None:
            return None
        for entry in last.get("chapters", []):
            if entry.get("name") == name:
                return {"key": entry.get("key"), "fingerprint": entry.get("fingerprint"),
                        "pass": last.get("pass"), "date": last.get("date"), "run_id": last.get("run_id"),
                        "written_in_pass": entry.get("written_in_pass"), "status": entry.get("status"),
                        "counts": entry.get("counts")}
        return None


def _refuse(directory: Path, why: str) -> RefusalError:
    return RefusalError(f"{directory}: {why}; refusing to replace it (choose a new --output, or restore it)")


def read_previous(directory: Path) -> PreviousPass:
    """The earlier passes of ``directory``, checked against its manifest; RefusalError when the
    directory holds anything a book pass did not write (or that changed since)."""
    previous = PreviousPass(directory)
    if not directory.exists():
        return previous
    if not directory.is_dir():
        raise _refuse(directory, "exists and is not a directory")
    entries = sorted(p for p in directory.rglob("*") if p.is_file() or p.is_symlink())
    if not entries and not any(directory.iterdir()):
        return previous
    manifest_path = directory / MANIFEST
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError):
        raise _refuse(directory, f"is not empty and holds no readable {MANIFEST} of a book pass") from None
    if not isinstance(manifest, dict) or manifest.get("command") != "book" or not isinstance(manifest.get("outputs"), dict):
        raise _refuse(directory, f"is not empty and its {MANIFEST} is not a book pass's")
    outputs = manifest["outputs"]
    for path in entries:
        relative = path.relative_to(directory).as_posix()
        if relative == MANIFEST:
            continue
        if path.is_symlink() or relative not in outputs:
            raise _refuse(directory, f"holds {relative}, which no book pass wrote")
        if sha256_file(path) != outputs[relative]:
            raise _refuse(directory, f"{relative} changed since book pass {manifest.get('pass')} wrote it")
    missing = sorted(set(outputs) - {p.relative_to(directory).as_posix() for p in entries})
    if missing:
        raise _refuse(directory, f"{missing[0]} was removed since book pass {manifest.get('pass')} wrote it")
    passes = []
    for number, line in enumerate((directory / PASSES).read_text(encoding="utf-8").splitlines(), start=1):
        try:
            passes.append(json.loads(line))
        except ValueError:
            raise _refuse(directory, f"{PASSES}:{number} is not a JSON line") from None
    previous.passes, previous.manifest = passes, manifest
    return previous


def pass_line(entry: dict[str, Any]) -> str:
    """One ``passes.jsonl`` line (sorted keys, no insignificant whitespace)."""
    return json.dumps(entry, sort_keys=True, ensure_ascii=False, separators=(",", ":")) + "\n"
