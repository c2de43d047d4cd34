"""A chapter's bibliography file (``--references FILE``): BibTeX or CSL-JSON entries as candidates.

* **BibTeX** (``.bib``), read with pybtex (the optional ``bibtex`` extra): each entry is one
  candidate; its identifier is the ``doi`` field (``doi:…``), else an arXiv ``eprint``
  (``archivePrefix = arXiv`` or ``eprinttype = arxiv``, or an ``eprint`` that is an arXiv id),
  else the ``url`` field, else none (a free-text citation, searched like one). Its description is
  "Authors (year). Title. Venue." from the entry's fields.
* **CSL-JSON** (``.json``: a list of items, or ``{"items": [...]}``; the format Zotero and pandoc
  write, https://citeproc-js.readthedocs.io/en/latest/csl-json/markup.html): ``id`` is the key;
  ``DOI``, then an arXiv id in ``URL``/``number``, then ``URL``; ``author`` (``family``/``given`` or
  ``literal``), ``issued.date-parts``, ``title``, ``container-title``.

Each entry's line is the line of its ``@type{key,`` (BibTeX) or of its ``"id"`` (CSL-JSON) in the
file. The chapter cites an entry by key: ``[@key]``, ``[see @key, p. 3]`` or ``@key``
(:mod:`sources.references`). A file that cannot be read is an :class:`InputError` naming the file
(and the line where the parser says).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from audit.candidates import CandidateSource
from engine.runs.errors import InputError
from engine.runs.jsonl import loads_json, read_text_file, require_regular_file

_ARXIV_ID = re.compile(r"(?:arxiv\.org/(?:abs|pdf)/|arxiv:\s*)?(\d{4}\.\d{4,5}(?:v\d+)?)", re.I)
SECTION = "bibliography file"


@dataclass(frozen=True)
class BibCandidate(CandidateSource):
    """A bibliography entry's candidate, with the entry's own ``title`` field: a DOI whose record
    has another title is a discrepancy even when the entry gives no year (its description is then
    no citation the pack's rules can parse)."""

    title: str = ""


@dataclass(frozen=True)
class BibEntry:
    key: str
    candidate: CandidateSource
    origin: str


def _description(authors: list[str], year: str, title: str, venue: str) -> str:
    names = ", ".join(authors[:3]) + (" et al." if len(authors) > 3 else "")
    parts = [f"{names} ({year})." if names and year else (f"{names}." if names else (f"({year})." if year else ""))]
    parts += [f"{title}." if title else "", f"{venue}." if venue else ""]
    return " ".join(p for p in parts if p).replace("..", ".")


def _identifier(doi: str, arxiv: str, url: str) -> str:
    if doi:
        doi = re.sub(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", "", doi.strip(), flags=re.I)
        return f"doi:{doi}"
    if arxiv:
        return f"arXiv:{arxiv}"
    return url.strip()


def _line_of(text: str, pattern: str) -> int:
    match = re.search(pattern, text)
    return text.count("\n", 0, match.start()) + 1 if match else 1


def read_bibliography(path: str | Path) -> list[BibEntry]:
    """The entries of a ``.bib`` or CSL-JSON file, in file order (``-``: standard input; gzip and
    a BOM read as every input, :mod:`engine.runs.opener`)."""
    from engine.runs.opener import resolve_input

    path = Path(path)
    source = resolve_input(path)
    require_regular_file(source)
    text = read_text_file(source)
    if path.suffix.lower() == ".json" or text.lstrip()[:1] in "[{":
        return _csl_json(text, path)
    return _bibtex(text, path)


def _bibtex(text: str, path: Path) -> list[BibEntry]:
    try:
        from pybtex.database import parse_string
        from pybtex.scanner import PybtexSyntaxError
    except ImportError:   # pragma: no cover - the optional extra is missing
        raise InputError("reading BibTeX needs pybtex: pip install 'chapter-audit[bibtex]'", path=str(path))
    try:
        database = parse_string(text, "bibtex")
    except PybtexSyntaxError as exc:
        raise InputError(f"not valid BibTeX: {exc.args[0] if exc.args else exc}", path=str(path),
                         line=getattr(exc, "lineno", None))
    except Exception as exc:   # pybtex raises its own errors for duplicate keys and the like
        raise InputError(f"not valid BibTeX: {exc}", path=str(path))
    out = []
    for key, entry in database.entries.items():
        fields = {k.lower(): str(v) for k, v in entry.fields.items()}
        authors = [" ".join(p for p in (" ".join(person.first_names), " ".join(person.last_names)) if p)
                   for person in entry.persons.get("author", [])]
        eprint = fields.get("eprint", "")
        archive = (fields.get("archiveprefix") or fields.get("eprinttype") or "").lower()
        arxiv = ""
        if eprint and (archive == "arxiv" or _ARXIV_ID.fullmatch(eprint.strip())):
            match = _ARXIV_ID.search(eprint)
            arxiv = match.group(1) if match else ""
        title = " ".join(fields.get("title", "").replace("{", "").replace("}", "").split())
        venue = fields.get("journal") or fields.get("booktitle") or fields.get("publisher") or ""
        identifier = _identifier(fields.get("doi", ""), arxiv, fields.get("url", ""))
        line = _line_of(text, rf"@\w+\s*\{{\s*{re.escape(key)}\s*,")
        candidate = BibCandidate(_description(authors, fields.get("year", ""), title, venue), identifier,
                                 line, f"@{key}", SECTION, title=title)
        out.append(BibEntry(key, candidate, f"{path.name} (BibTeX)"))
    return out


def _csl_json(text: str, path: Path) -> list[BibEntry]:
    data = loads_json(text, path=str(path))
    items = data.get("items") if isinstance(data, dict) else data
    if not isinstance(items, list):
        raise InputError("CSL-JSON must be a list of items (or an object with 'items')", path=str(path))
    out = []
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict) or not isinstance(item.get("id"), (str, int)):
            raise InputError(f"CSL-JSON item {number} has no 'id'", path=str(path),
                             line=_line_of(text, r'"id"') if number == 1 else None)
        key = str(item["id"])
        authors = []
        for person in item.get("author") or []:
            if isinstance(person, dict):
                name = person.get("literal") or " ".join(
                    str(p) for p in (person.get("given"), person.get("family")) if p)
                if name:
                    authors.append(str(name))
        issued = item.get("issued") or {}
        parts = issued.get("date-parts") if isinstance(issued, dict) else None
        year = str(parts[0][0]) if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0] else ""
        url = str(item.get("URL") or "")
        arxiv_match = _ARXIV_ID.search(url) if "arxiv" in url.lower() else None
        number_field = str(item.get("number") or "")
        if arxiv_match is None and "arxiv" in str(item.get("publisher", "")).lower():
            arxiv_match = _ARXIV_ID.search(number_field)
        identifier = _identifier(str(item.get("DOI") or ""), arxiv_match.group(1) if arxiv_match else "", url)
        container = item.get("container-title") or ""
        candidate = BibCandidate(
            _description(authors, year, str(item.get("title") or ""), str(container)), identifier,
            _line_of(text, rf'"id"\s*:\s*"?{re.escape(key)}"?'), f"@{key}", SECTION,
            title=" ".join(str(item.get("title") or "").split()))
        out.append(BibEntry(key, candidate, f"{path.name} (CSL-JSON)"))
    return out
