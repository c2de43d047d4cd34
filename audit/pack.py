"""Chapter research packs: parse the ``== N. Title ==`` pack format into a typed record.

Format (docs/audit.md, "Pack format"): free text (the *preamble*), then sections, each opened
by a header line ``== N. Title ==`` (N a positive integer). Sections are recognised by
keywords in their title, never by their number, so renumbering or reordering does not
matter (first matching rule wins, in the order of :data:`SECTION_RULES`):

================  =====================================================
kind              title keywords (case-insensitive)
================  =====================================================
identity          ``identity``
chapter_text      ``chapter text`` / ``chapter prose``
references        ``reference``, ``bibliograph``
existing_evidence ``evidence``
objective         ``objective``, ``question``
associated        ``associated``
history           ``history``
method            ``how to investigate``, ``investigat``, ``method``
required_output   ``required output``, ``output``
================  =====================================================

A section whose title matches none of them is kept verbatim in ``unknown_sections``; nothing
is dropped. Two sections of the same kind, a header without a number or title, a chapter
text section with no prose, a missing chapter text section, or a stated fingerprint that is
not 64 hex digits is an :class:`engine.runs.errors.InputError` naming the file and line.

A file with no ``== … ==`` header at all is a plain chapter *snapshot* (Markdown or text):
its whole text is the chapter prose, except that a leading YAML front matter block
(``---`` on line 1 up to the next ``---`` or ``...`` line) is removed from a ``.md`` file;
the identity's ``chapter`` is the first ``# Heading`` when there is one.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

from audit.candidates import CandidateSource, candidate_lines
from engine.runs.errors import InputError
from engine.runs.jsonl import require_regular_file
from engine.runs.hashing import sha256_bytes

# Every line pattern is matched against the line with trailing whitespace removed
# (:func:`_match`) and ends in a greedy ``.*`` or a literal, never in a lazy ``.*?`` followed by
# ``\s*$``: that form retries the whole trailing space run at every position, quadratic on a
# line holding a long run of spaces (100,000 spaces took 33 s, over 180 s in the evidence list).
HEADER = re.compile(r"^==(?P<body>.*)==$")
NUMBERED = re.compile(r"^\s*(?P<number>\d+)(?:\s*[.)])?\s+(?P<title>\S.*)$")
KEY_VALUE = re.compile(r"^(?P<key>[A-Za-z][^:]{0,79}?):\s+(?P<value>\S.*)$")
LIST_ITEM = re.compile(r"^\s*(?:[-*+•]|\d+[.)])\s+(?P<text>\S.*)$")
URL = re.compile(r"https?://[^\s<>()\"']+")
HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")
EXCERPT_MARKER = re.compile(r"^\s*\[\s*(?:(?:\.\.\.|…)\s*)?end of excerpt\b.*\]$", re.IGNORECASE)
EXCERPT_STATEMENT = re.compile(r"\bEXCERPT\b|\bis an excerpt\b|\bend of excerpt\b")
REQUIRED_HEADING = re.compile(r"^##\s+(?P<number>\d+)\s*\.\s*(?P<rest>\S.*)$")
MARKDOWN_H1 = re.compile(r"^#\s+(?P<title>\S.*)$")


def _match(pattern: re.Pattern[str], line: str) -> re.Match[str] | None:
    """``pattern.match`` on the line without its trailing whitespace (linear time)."""
    return pattern.match(line.rstrip())


def _header(line: str) -> re.Match[str] | None:
    """A ``== N. Title ==`` section header; a line of ``=`` only (a Markdown or reStructuredText
    underline, ``=============``) is none."""
    match = _match(HEADER, line)
    return match if match is not None and match.group("body").strip("= \t") else None


def _h1_title(line: str) -> str | None:
    """A Markdown ATX level-1 heading's text without its closing ``#`` run."""
    match = _match(MARKDOWN_H1, line)
    if match is None:
        return None
    title = match.group("title")
    return title.rstrip().rstrip("#").rstrip() or title[0]

PACK_SUFFIXES = (".txt", ".md", ".pack")

SECTION_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("identity", re.compile(r"\bidentity\b", re.I)),
    ("chapter_text", re.compile(r"\bchapter\s+(?:text|prose)\b", re.I)),
    ("references", re.compile(r"referenc|bibliograph", re.I)),
    ("existing_evidence", re.compile(r"\bevidence\b", re.I)),
    ("objective", re.compile(r"objective|question", re.I)),
    ("associated", re.compile(r"\bassociated\b", re.I)),
    ("history", re.compile(r"\bhistory\b", re.I)),
    ("method", re.compile(r"how to investigate|investigat|\bmethod", re.I)),
    ("required_output", re.compile(r"required output|\boutput\b", re.I)),
)

IDENTITY_KEYS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("fingerprint", re.compile(r"fingerprint", re.I)),
    ("chapter_number", re.compile(r"^chapter\s*(?:number|no\.?|#)$", re.I)),
    ("chapter_url", re.compile(r"^chapter\s+url$", re.I)),
    ("research_pack_url", re.compile(r"^research\s+pack(?:\s+url)?$", re.I)),
    ("stable_id", re.compile(r"^stable\s*id$", re.I)),
    ("book", re.compile(r"^book(?:\s+title)?$", re.I)),
    ("chapter", re.compile(r"^chapter(?:\s+title)?$", re.I)),
)


@dataclass(frozen=True)
class Identity:
    """The pack's ``Key: value`` identity lines; unknown keys are kept in ``identity_extra``."""

    book: str | None = None
    chapter: str | None = None
    chapter_number: str | None = None
    stable_id: str | None = None
    chapter_url: str | None = None
    research_pack_url: str | None = None
    fingerprint: str | None = None  # lower-case hex sha256 of the normalised *whole* chapter


@dataclass(frozen=True)
class AssociatedItem:
    """One associated resource: ``- Label: URL`` plus indented continuation lines as ``note``."""

    label: str
    url: str | None
    note: str
    line: int


@dataclass(frozen=True)
class RequiredHeading:
    """A ``## N. Title — description`` line of the required-output section."""

    number: int
    title: str
    description: str
    line: int


@dataclass(frozen=True)
class Section:
    number: int
    title: str
    text: str  # raw body lines (not stripped), so body line k is file line ``line + k``
    line: int  # line of the ``== N. Title ==`` header
    kind: str  # a SECTION_RULES kind or "unknown"


@dataclass
class Pack:
    """A parsed research pack (or a plain chapter snapshot: ``sections`` empty)."""

    source_path: str
    source_sha256: str
    identity: Identity
    identity_extra: "OrderedDict[str, str]"
    identity_notes: str
    preamble: str
    chapter_text: str
    chapter_text_line: int  # file line of the first line of ``chapter_text``
    is_excerpt: bool
    snapshot_url: str | None
    references: str
    reference_items: list[str]
    existing_evidence: str
    candidate_sources: list[CandidateSource]
    objective: str
    questions: list[str]
    unresolved_gaps: list[str]
    associated_material: list[AssociatedItem]
    associated_text: str
    history: str
    method: str
    required_output: str
    required_headings: list[RequiredHeading]
    unknown_sections: "OrderedDict[str, str]"
    sections: list[tuple[int, str, str]]
    is_snapshot: bool = False  # True for a plain Markdown/text chapter (no pack sections)
    paragraph_rule: str = "line"  # "line" (one paragraph per line) or "block" (blank-line blocks)
    section_records: list[Section] = field(default_factory=list)


def _read(path: Path) -> tuple[str, str]:
    """The pack's text and the sha256 of its bytes as stored (the file, or stdin's content).

    Read through the one opener (:mod:`engine.runs.opener`): ``-`` is standard input, a gzip
    file is decompressed (by its magic bytes), and a leading UTF-8 byte-order mark is removed
    with one warning, so that it never becomes part of the first line, a section header or the
    fingerprint (the fingerprint is of the text without the BOM: the BOM is an encoding mark,
    not text; docs/audit.md "Fingerprints"). ``source_sha256`` stays the hash of the bytes as
    stored, as every manifest hashes its inputs.
    """
    from engine.runs.hashing import sha256_file
    from engine.runs.jsonl import read_text_file
    from engine.runs.opener import resolve_input

    resolved = resolve_input(path)
    require_regular_file(resolved)  # a FIFO would block, a directory would fail obscurely
    text = read_text_file(resolved)
    return text.replace("\r\n", "\n").replace("\r", "\n"), sha256_file(resolved)


def _suffix(path: Path) -> str:
    """The suffix that says what the text is: ``.md`` for ``x.md`` and ``x.md.gz``."""
    suffixes = [s.lower() for s in path.suffixes]
    if suffixes and suffixes[-1] == ".gz":
        suffixes = suffixes[:-1]
    return suffixes[-1] if suffixes else ""


def load_pack(path: str | Path) -> Pack:
    """Parse a research pack (``== N. Title ==`` sections) or a plain chapter snapshot.

    ``-`` reads standard input (named ``-`` in messages; read as text, not Markdown, since it
    has no suffix); ``.gz`` packs are decompressed (see :func:`_read`)."""
    path = Path(path)
    text, digest = _read(path)
    return parse_pack(text, source_path=str(path), source_sha256=digest,
                      markdown=_suffix(path) == ".md")


def parse_pack(text: str, *, source_path: str = "<text>", source_sha256: str | None = None,
               markdown: bool = False) -> Pack:
    """Parse pack text (LF line ends); see the module docstring for the format."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if source_sha256 is None:
        source_sha256 = sha256_bytes(text.encode("utf-8"))
    lines = text.split("\n")
    headers = [(i, m) for i, line in enumerate(lines) if (m := _header(line))]
    if not headers:
        return _snapshot(text, source_path, source_sha256, markdown)

    sections: list[Section] = []
    for index, (i, match) in enumerate(headers):
        body = match.group("body").strip()
        numbered = _match(NUMBERED, body)
        if not numbered:
            raise InputError(f"section header {lines[i].strip()!r} needs a number and a title "
                             "(== N. Title ==)", path=source_path, line=i + 1)
        end = headers[index + 1][0] if index + 1 < len(headers) else len(lines)
        title = numbered.group("title")
        kind = next((k for k, rule in SECTION_RULES if rule.search(title)), "unknown")
        sections.append(Section(int(numbered.group("number")), title,
                                "\n".join(lines[i + 1:end]), i + 1, kind))

    by_kind: dict[str, Section] = {}
    unknown: OrderedDict[str, str] = OrderedDict()
    for section in sections:
        if section.kind == "unknown":
            if section.title in unknown:
                raise InputError(f"section title {section.title!r} appears twice", path=source_path,
                                 line=section.line)
            unknown[section.title] = section.text.strip()
            continue
        if section.kind in by_kind:
            raise InputError(f"second {section.kind.replace('_', ' ')} section {section.title!r} "
                             f"(first at line {by_kind[section.kind].line})",
                             path=source_path, line=section.line)
        by_kind[section.kind] = section

    chapter = by_kind.get("chapter_text")
    if chapter is None:
        raise InputError("pack has no chapter text section (== N. Chapter text ==)", path=source_path)
    prose, excerpt_marker, first_line = _chapter_prose(lines, chapter)
    if not prose.strip():
        raise InputError("chapter text section holds no prose", path=source_path, line=chapter.line)

    preamble = "\n".join(lines[:headers[0][0]]).strip()
    identity, extra, notes = _identity(by_kind.get("identity"), source_path)
    statements = "\n".join([preamble, notes])
    snapshot = next((u for line in statements.split("\n") if "snapshot" in line.lower()
                     for u in _urls(line)), None)

    evidence = by_kind.get("existing_evidence")
    objective, questions, gaps = _objective(by_kind.get("objective"))
    associated, associated_text = _associated(by_kind.get("associated"))
    required = by_kind.get("required_output")
    references = _text(by_kind.get("references"))
    return Pack(
        source_path=source_path,
        source_sha256=source_sha256,
        identity=identity,
        identity_extra=extra,
        identity_notes=notes,
        preamble=preamble,
        chapter_text=prose,
        chapter_text_line=first_line,
        is_excerpt=excerpt_marker or bool(EXCERPT_STATEMENT.search(statements)),
        snapshot_url=snapshot,
        references=references,
        reference_items=[m.group("text") for line in references.split("\n")
                         if (m := _match(LIST_ITEM, line))],
        existing_evidence=_text(evidence),
        candidate_sources=_candidates(by_kind.get("references"), evidence),
        objective=objective,
        questions=questions,
        unresolved_gaps=gaps,
        associated_material=associated,
        associated_text=associated_text,
        history=_text(by_kind.get("history")),
        method=_text(by_kind.get("method")),
        required_output=_text(required),
        required_headings=_required_headings(required),
        unknown_sections=unknown,
        sections=[(s.number, s.title, s.text.strip()) for s in sections],
        section_records=sections,
    )


def _text(section: Section | None) -> str:
    return section.text.strip() if section is not None else ""


def _urls(line: str) -> list[str]:
    return [u.rstrip(".,;:") for u in URL.findall(line)]


def _section_lines(section: Section) -> list[tuple[int, str]]:
    """``(file line, text)`` for each line of a section body (header excluded)."""
    body = section.text.split("\n")
    return [(section.line + offset, line) for offset, line in enumerate(body, start=1)]


def _chapter_prose(lines: list[str], section: Section) -> tuple[str, bool, int]:
    """The section's prose without end-of-excerpt marker lines; (prose, had_marker, first line)."""
    start = section.line  # index of the first body line (0-based) == header line number (1-based)
    end = start
    while end < len(lines) and not _header(lines[end]):
        end += 1
    kept: list[tuple[int, str]] = []
    marker = False
    for index in range(start, end):
        line = lines[index]
        if _match(EXCERPT_MARKER, line):
            marker = True
            continue
        kept.append((index + 1, line))
    while kept and not kept[0][1].strip():
        kept.pop(0)
    while kept and not kept[-1][1].strip():
        kept.pop()
    first = kept[0][0] if kept else section.line
    return "\n".join(line for _, line in kept), marker, first


def _identity(section: Section | None, path: str) -> tuple[Identity, OrderedDict[str, str], str]:
    values: dict[str, str] = {}
    extra: OrderedDict[str, str] = OrderedDict()
    notes: list[str] = []
    if section is None:
        return Identity(), extra, ""
    for number, line in _section_lines(section):
        match = _match(KEY_VALUE, line)
        if not match:
            if line.strip():
                notes.append(line.strip())
            continue
        key, value = match.group("key").strip(), match.group("value")
        bare = re.sub(r"\s*\(.*?\)\s*", " ", key).strip()
        name = next((n for n, rule in IDENTITY_KEYS if rule.search(bare)), None)
        if name is None or name in values:
            extra[key] = value
            continue
        if name == "fingerprint":
            if not HEX64.match(value):
                raise InputError(f"fingerprint {value!r} is not a 64-digit hex sha256", path=path,
                                 line=number)
            value = value.lower()
        values[name] = value
    return Identity(**values), extra, "\n".join(notes)


def _candidates(*sections: Section | None) -> list[CandidateSource]:
    """Every lead line of the references and evidence sections, in file order
    (rules in :mod:`audit.candidates`)."""
    found = [c for section in sections if section is not None
             for c in candidate_lines(_section_lines(section), section.kind)]
    return sorted(found, key=lambda c: c.line)


def _objective(section: Section | None) -> tuple[str, list[str], list[str]]:
    """Objective = prose before the first list item; items under a label naming "gap" are gaps."""
    if section is None:
        return "", [], []
    objective: list[str] = []
    questions: list[str] = []
    gaps: list[str] = []
    in_gaps = False
    seen_item = False
    for _, line in _section_lines(section):
        item = _match(LIST_ITEM, line)
        if item:
            seen_item = True
            (gaps if in_gaps else questions).append(item.group("text"))
        elif line.strip():
            if re.search(r"\bgaps?\b", line, re.I):
                in_gaps = True
            elif re.search(r"question", line, re.I) and line.rstrip().endswith(":"):
                in_gaps = False
            elif not seen_item:
                objective.append(line.strip())
    return " ".join(objective), questions, gaps


def _associated(section: Section | None) -> tuple[list[AssociatedItem], str]:
    if section is None:
        return [], ""
    items: list[AssociatedItem] = []
    current: dict | None = None
    for number, line in _section_lines(section):
        item = _match(LIST_ITEM, line) if not line.startswith((" ", "\t")) else None
        if item:
            if current:
                items.append(AssociatedItem(**current))
            body = item.group("text")
            urls = _urls(body)
            label = body.split(":", 1)[0].strip() if re.match(r"^[^:]+:\s", body) else body
            current = {"label": label, "url": urls[0] if urls else None, "note": "", "line": number}
        elif current is not None and line.startswith((" ", "\t")) and line.strip():
            current["note"] = (current["note"] + " " + line.strip()).strip()
            if current["url"] is None and _urls(line):
                current["url"] = _urls(line)[0]
        elif current is not None and not line.strip():
            continue
        elif current is not None:
            items.append(AssociatedItem(**current))
            current = None
    if current:
        items.append(AssociatedItem(**current))
    return items, section.text.strip()


def _required_headings(section: Section | None) -> list[RequiredHeading]:
    if section is None:
        return []
    headings = []
    for number, line in _section_lines(section):
        match = _match(REQUIRED_HEADING, line)
        if match:
            title, _, description = _split_title(match.group("rest"))
            headings.append(RequiredHeading(int(match.group("number")), title, description, number))
    return headings


def _split_title(rest: str) -> tuple[str, str, str]:
    parts = re.split(r"\s+[—–]\s+|\s+-{1,2}\s+", rest, maxsplit=1)
    if len(parts) == 2:
        return parts[0].strip(), "—", parts[1].strip()
    return rest.strip(), "", ""


def _snapshot(text: str, path: str, digest: str, markdown: bool) -> Pack:
    body = text
    if markdown:
        body = strip_front_matter(text)
    if not body.strip():
        raise InputError("chapter snapshot holds no prose", path=path)
    title = None
    if markdown:
        title = next((t for line in body.split("\n") if (t := _h1_title(line)) is not None), None)
    removed = text.count("\n", 0, len(text) - len(body))  # lines taken by front matter
    leading = len(body) - len(body.lstrip("\n"))
    first_line = removed + leading + 1
    stripped = body.strip("\n")
    return Pack(
        source_path=path, source_sha256=digest, identity=Identity(chapter=title),
        identity_extra=OrderedDict(), identity_notes="", preamble="", chapter_text=stripped,
        chapter_text_line=first_line, is_excerpt=False, snapshot_url=None, references="",
        reference_items=[], existing_evidence="", candidate_sources=[], objective="",
        questions=[], unresolved_gaps=[], associated_material=[], associated_text="", history="",
        method="", required_output="", required_headings=[], unknown_sections=OrderedDict(),
        sections=[], is_snapshot=True, paragraph_rule="block" if markdown else "line",
    )


def strip_front_matter(text: str) -> str:
    """Remove a leading YAML front matter block (``---`` … ``---``/``...``); else return text."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        return text
    for index in range(1, len(lines)):
        if lines[index].strip() in ("---", "..."):
            return "\n".join(lines[index + 1:])
    return text
