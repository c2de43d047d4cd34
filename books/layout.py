"""The chapters of a book directory, in order, with their titles and claims files.

Without ``book.toml`` the chapters are the directory's ``*.md``, ``*.txt`` and ``*.pack``
files (top level only, sorted by name; :data:`audit.pack.PACK_SUFFIXES`), each titled by its
pack identity's ``Chapter:`` line, else its first ``# `` heading, else its file name; a chapter
``NAME.SUFFIX`` binds ``NAME.SUFFIX.claims.toml``, else ``NAME.claims.toml``, from the claims
directory (``--claims-dir``, default the book directory) when that file exists. ``NAME.claims.toml``
belongs to one chapter only: when two chapters share the NAME (``03-fusion.md`` and
``03-fusion.txt``) it is refused (InputError naming both), because it bound each of them and the
chapter that prints other numbers was reported as matching the run.

``book.toml`` (read with :mod:`tomllib`) lists them instead, in order::

    title = "Measuring Retrieval Honestly"      # optional
    [[chapter]]
    file = "03-candidate-recall.txt"             # relative to the book directory
    title = "Candidate recall"                   # optional
    claims = ["03-candidate-recall.claims.toml"] # optional; relative to the book directory

Every defect is one :class:`InputError` naming the file and the field (``chapter[2].file``).
A chapter file of the directory that ``book.toml`` does not list is not audited; it is named in
the index (``not listed in book.toml``), never skipped silently.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from audit.pack import PACK_SUFFIXES, load_pack
from engine.runs.errors import InputError
from engine.runs.jsonl import read_text_file, require_regular_file

BOOK_FILE = "book.toml"
CLAIMS_SUFFIX = ".claims.toml"
SAFE_NAME = re.compile(r"[^A-Za-z0-9._-]")


@dataclass(frozen=True)
class ChapterSpec:
    """One chapter of the book: its file (absolute), title, claims files (absolute), output name."""

    number: int
    file: Path
    title: str
    claims: tuple[Path, ...]
    name: str          # the chapter's directory under OUT/chapters/ (its file name, made safe)


@dataclass(frozen=True)
class BookSpec:
    directory: Path
    title: str
    chapters: tuple[ChapterSpec, ...]
    unlisted: tuple[str, ...] = ()   # chapter files of the directory that book.toml does not list
    book_file: Path | None = None
    unbound_claims: tuple[str, ...] = ()   # NAME.claims.toml files of the claims directory no chapter reads


def chapter_files(directory: Path) -> list[Path]:
    """The directory's chapter files: ``*.md``, ``*.txt``, ``*.pack`` (top level, sorted by name)."""
    return sorted(p for p in directory.iterdir()
                  if p.is_file() and p.suffix.lower() in PACK_SUFFIXES and not p.name.startswith("."))


def output_name(file: Path) -> str:
    return SAFE_NAME.sub("_", file.name)


def chapter_title(file: Path) -> str:
    """The pack's ``Chapter:`` identity (a snapshot's first ``# `` heading), else the file name."""
    pack = load_pack(file)
    title = (pack.identity.chapter or "").strip()
    return title or file.name


def _string(value: object, path: Path, field: str) -> str:
    if not isinstance(value, str) or not value.strip() or "\x00" in value:
        raise InputError("must be a non-empty string", path=path, field=field)
    return value


def _inside_file(directory: Path, relative: str, path: Path, field: str) -> Path:
    candidate = Path(relative)
    if candidate.is_absolute() or ".." in candidate.parts:
        raise InputError(f"{relative!r} must be a path inside the book directory", path=path, field=field)
    full = directory / candidate
    if not full.exists():
        raise InputError(f"no such file {relative!r}", path=path, field=field)
    try:
        require_regular_file(full)
    except InputError:
        raise InputError(f"{relative!r} is not a regular file", path=path, field=field) from None
    return full


def read_book_file(directory: Path) -> tuple[str, list[tuple[Path, str | None, tuple[Path, ...] | None]], Path]:
    """``book.toml``: the title and, in order, (file, title or None, claims or None)."""
    path = directory / BOOK_FILE
    text = read_text_file(path)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"\(at line (\d+)", str(exc))   # Python < 3.14 has no exc.lineno
        line = getattr(exc, "lineno", None) or (int(found.group(1)) if found else None)
        raise InputError(f"invalid TOML ({str(exc).split(' (at')[0]})", path=path, line=line) from None
    except (RecursionError, ValueError) as exc:
        raise InputError(f"invalid TOML ({' '.join(str(exc).split())[:120]})", path=path) from None
    unknown = sorted(set(data) - {"title", "chapter"})
    if unknown:
        raise InputError(f"unknown key(s) {unknown}; expected title and [[chapter]]", path=path, field=unknown[0])
    title = _string(data["title"], path, "title") if "title" in data else directory.name
    chapters = data.get("chapter")
    if not isinstance(chapters, list) or not chapters:
        raise InputError("book.toml lists no [[chapter]] tables", path=path, field="chapter")
    entries: list[tuple[Path, str | None, tuple[Path, ...] | None]] = []
    seen: dict[Path, int] = {}
    for number, entry in enumerate(chapters, start=1):
        where = f"chapter[{number}]"
        if not isinstance(entry, dict):
            raise InputError("must be a table", path=path, field=where)
        extra = sorted(set(entry) - {"file", "title", "claims"})
        if extra:
            raise InputError(f"unknown key(s) {extra}; expected file, title, claims", path=path,
                             field=f"{where}.{extra[0]}")
        if "file" not in entry:
            raise InputError("missing", path=path, field=f"{where}.file")
        file = _inside_file(directory, _string(entry["file"], path, f"{where}.file"), path, f"{where}.file")
        if file.suffix.lower() not in PACK_SUFFIXES:
            raise InputError(f"a chapter must be one of {', '.join(PACK_SUFFIXES)}", path=path, field=f"{where}.file")
        if file.resolve() in seen:
            raise InputError(f"lists {entry['file']!r} again (first as chapter[{seen[file.resolve()]}])",
                             path=path, field=f"{where}.file")
        seen[file.resolve()] = number
        chapter_title_value = _string(entry["title"], path, f"{where}.title") if "title" in entry else None
        claims = None
        if "claims" in entry:
            if not isinstance(entry["claims"], list):
                raise InputError("must be a list of file names", path=path, field=f"{where}.claims")
            claims = tuple(_inside_file(directory, _string(c, path, f"{where}.claims"), path, f"{where}.claims")
                           for c in entry["claims"])
        entries.append((file, chapter_title_value, claims))
    return title, entries, path


def _default_claims(file: Path, claims_root: Path, same_stem: list[Path]) -> tuple[Path, ...]:
    """``NAME.SUFFIX.claims.toml``, else ``NAME.claims.toml`` when no other chapter has the NAME."""
    own = claims_root / (file.name + CLAIMS_SUFFIX)
    if own.is_file():
        return (own,)
    shared = claims_root / (file.name[: -len(file.suffix)] + CLAIMS_SUFFIX)
    if not shared.is_file():
        return ()
    if len(same_stem) > 1:
        others = ", ".join(p.name for p in same_stem)
        raise InputError(f"would bind each of the chapters {others}; name it after the chapter it binds "
                         f"(e.g. {file.name}{CLAIMS_SUFFIX}) or list the chapters in {BOOK_FILE}", path=shared)
    return (shared,)


def read_book(directory: str | Path, claims_dir: str | Path | None = None) -> BookSpec:
    """The book's chapters (see the module docstring); InputError on any defect."""
    directory = Path(directory)
    if not directory.exists():
        raise InputError("no such directory", path=directory)
    if not directory.is_dir():
        raise InputError("must be a directory of chapters", path=directory)
    directory = directory.resolve()
    claims_root = Path(claims_dir).resolve() if claims_dir is not None else directory
    if claims_dir is not None and not claims_root.is_dir():
        raise InputError("no such directory", path=claims_dir, field="--claims-dir")
    files = chapter_files(directory)
    book_file = None
    if (directory / BOOK_FILE).exists():
        title, entries, book_file = read_book_file(directory)
        listed = {file.resolve() for file, _, _ in entries}
        unlisted = tuple(p.name for p in files if p.resolve() not in listed)
    else:
        if not files:
            raise InputError(f"holds no chapter ({', '.join('*' + s for s in PACK_SUFFIXES)}) and no {BOOK_FILE}",
                             path=directory)
        title, unlisted = directory.name, ()
        entries = [(file, None, None) for file in files]
    chapters: list[ChapterSpec] = []
    names: dict[str, Path] = {}
    stems: dict[str, list[Path]] = {}
    for file, _, _ in entries:
        stems.setdefault(file.name[: -len(file.suffix)], []).append(file)
    for number, (file, title_value, claims) in enumerate(entries, start=1):
        if claims is None:
            claims = _default_claims(file, claims_root, stems[file.name[: -len(file.suffix)]])
        name = output_name(file)
        if name in names:
            raise InputError(f"{file.name} and {names[name].name} would share the output name {name!r}",
                             path=directory)
        names[name] = file
        chapters.append(ChapterSpec(number=number, file=file.resolve(),
                                    title=title_value or chapter_title(file),
                                    claims=tuple(c.resolve() for c in claims), name=name))
    used = {c for chapter in chapters for c in chapter.claims}
    # a claims file left behind by a renamed or deleted chapter binds nothing: named, never
    # dropped silently (the renamed chapter's numbers are then bound by nothing)
    unbound = tuple(sorted(p.name for p in claims_root.glob("*" + CLAIMS_SUFFIX)
                           if p.is_file() and p.resolve() not in used))
    return BookSpec(directory=directory, title=title, chapters=tuple(chapters), unlisted=unlisted,
                    book_file=book_file, unbound_claims=unbound)
