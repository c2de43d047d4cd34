"""A Markdown chapter's own references as candidate sources, cited by position (issue 22, item 3).

Read with markdown-it-py (CommonMark, GFM tables, footnotes from mdit-py-plugins), outside code:

* **Reference list**: every paragraph or list item under a heading named References,
  Bibliography, Works cited, Sources, Citations, Notes, Footnotes or Further reading (until the
  next heading of the same or a higher level) is **one entry** → one candidate
  (:func:`audit.candidates.parse_candidate` of the entry's text with its link targets written
  after their link text: the first identifier with a metadata API wins, the others are noted).
  An entry that starts with ``[n]`` or is the n-th item of an ordered list has the key ``n``.
* **Footnotes**: every footnote definition ``[^label]: …`` is one entry (key ``^label``).
* **Inline links** in prose (``[text](URL)``, ``<URL>``) and bare identifiers in prose text (URLs,
  ``doi:``, bare DOIs, ``arXiv:`` ids): each distinct identifier (``kind:identifier`` as
  :func:`sources.leads.identify_lead` reads it) is one candidate, unless a reference-list entry
  or a footnote already names it (then that entry is the record). Images are not references.
* **Raw HTML blocks** (a ``<br />`` or ``<a name=…>`` line makes CommonMark read the Markdown after
  it as HTML): their link targets and bare identifiers are candidates too, cited by no sentence.
* **BibTeX / CSL-JSON entries** (:mod:`sources.bibfile`): a key cited as ``[@key]`` or ``@key``.

**Citations are positions, never word overlap.** A sentence cites a candidate when it *holds* the
link, the bare identifier, the footnote marker ``[^label]``, a numeric marker ``[n]`` of a
reference entry, or a ``[@key]``. The sentence is found by offset: the inline text of the block is
rebuilt as the document model shows it (link text kept, URLs and footnote markers dropped), the
claim rows of that block are located in it in order, and a marker belongs to the last sentence
that starts at or before it (so ``points.[^1]`` cites the sentence it follows). When the rows
cannot be located in the rebuilt text, the block's first row is used and the citation says so
(``how = "block"``).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any, Sequence

from audit.candidates import CandidateSource, find_identifiers, parse_candidate

REFERENCE_HEADINGS = re.compile(
    r"^\s*(?:\d+[.)]?\s*)?(references?|bibliography|works cited|sources|citations|notes|footnotes|"
    r"further reading|literature|reading list)\s*:?\s*$", re.I)
_NUMERIC_MARKER = re.compile(r"\[(\d{1,3})\]")
_ENTRY_NUMBER = re.compile(r"^\s*\[(\d{1,3})\]")
CITE_KEY = re.compile(r"(?<![\w@.])@([A-Za-z][\w:.#$%&+?<>~/-]*[\w])")
SECTION = "chapter references"


@dataclass(frozen=True)
class Citation:
    """One sentence citing one candidate (``index`` into :attr:`ChapterReferences.candidates`)."""

    claim_id: str
    index: int
    line: int
    marker: str          # what the sentence holds: "link 'Karpukhin et al.'", "footnote [^1]", "[3]", "@key"
    how: str = "position"   # position | block (the rows could not be located in the block's text)


@dataclass
class ChapterReferences:
    candidates: list[CandidateSource] = field(default_factory=list)
    citations: list[Citation] = field(default_factory=list)
    origins: list[str] = field(default_factory=list)       # per candidate: "reference [3]", "link", ...
    prose_identifiers: list[str] = field(default_factory=list)   # every identifier linked in prose, in order
    entry_lines: set[tuple[int, str]] = field(default_factory=set)   # (line, block kind) of entries (not claims)

    def add(self, candidate: CandidateSource, origin: str) -> int:
        self.candidates.append(candidate)
        self.origins.append(origin)
        return len(self.candidates) - 1


def _parser():
    from markdown_it import MarkdownIt
    from mdit_py_plugins.footnote import footnote_plugin

    return MarkdownIt("commonmark").use(footnote_plugin).enable("table")


def _key(identifier: str) -> str:
    from sources.leads import identify_lead

    found = identify_lead(identifier)
    return f"{found.kind}:{found.identifier}"


@dataclass
class _Inline:
    """An inline token's text as the document model shows it, with the markers it holds."""

    line: int
    text: str
    markers: list[tuple[int, str, str, str]]   # (offset, kind, value, label): link/bare/footnote/number/key
    entry_text: str                             # the text with link targets written after their link text


def _read_inline(token: Any, line: int) -> _Inline:
    text, entry, markers = [], [], []
    length = 0
    link: list[Any] = []     # stack: [href, start offset, label parts]
    for child in token.children or []:
        kind = child.type
        if kind in ("text", "code_inline"):
            content = child.content
            if kind == "text" and not link:
                for start, _end, value, _api in find_identifiers(content):
                    markers.append((length + start, "bare", value, value))
                for m in _NUMERIC_MARKER.finditer(content):
                    markers.append((length + m.start(), "number", m.group(1), m.group(0)))
                for m in CITE_KEY.finditer(content):
                    markers.append((length + m.start(), "key", m.group(1), "@" + m.group(1)))
            text.append(content)
            entry.append(content)
            length += len(content)
            if link:
                link[-1][2].append(content)
        elif kind in ("softbreak", "hardbreak"):
            text.append(" ")
            entry.append(" ")
            length += 1
        elif kind == "link_open":
            link.append([child.attrs.get("href", ""), length, []])
        elif kind == "link_close" and link:
            href, start, label = link.pop()
            if href and not href.startswith("#"):
                markers.append((start, "link", str(href), "".join(label).strip()))
                entry.append(f" ({href})")
        elif kind == "footnote_ref":
            label = str((child.meta or {}).get("label", ""))
            markers.append((length, "footnote", label, f"[^{label}]"))
        elif kind == "image":
            continue
    markers.sort(key=lambda m: m[0])
    return _Inline(line, "".join(text), markers, "".join(entry))


def _collapse(text: str) -> str:
    """Whitespace runs → one space, leading space dropped (a trailing one kept)."""
    return re.sub(r"\s+", " ", text).lstrip()


def _sentence_starts(block_text: str, rows: Sequence[Any]) -> list[tuple[int, Any]] | None:
    """(offset in the collapsed text, row) of each claim row of the block, in order; None when a
    row cannot be found (the document model showed the block differently)."""
    normal = _collapse(block_text)
    out, cursor = [], 0
    for row in rows:
        probe = _collapse(str(row.text)).strip()[:40]
        found = normal.find(probe, cursor) if probe else -1
        if found < 0:
            return None
        out.append((found, row))
        cursor = found + len(probe)
    return out


def chapter_references(text: str, claims: Sequence[Any], first_line: int = 1,
                       keyed: dict[str, int] | None = None) -> ChapterReferences:
    """Candidates and position citations of a Markdown chapter (module docstring).

    ``first_line`` is the file line of the text's first line (claim rows carry file lines);
    ``keyed`` maps BibTeX / CSL-JSON keys to indices of candidates already in ``result`` (used by
    :func:`sources.bibfile.add_bibliography`): pass ``None`` here and add them afterwards.
    """
    result = ChapterReferences()
    tokens = _parser().parse(text)
    prose_rows = sorted((int(getattr(row, "line", 0) or 0), index, row) for index, row in enumerate(claims)
                        if getattr(row, "block", "paragraph") != "table")
    row_lines = [line for line, _, _ in prose_rows]

    def rows_of(first: int, last: int) -> list[Any]:
        """The rows of the paragraph on file lines ``first``…``last`` (a row's line is the line
        its sentence starts on), in the rows' order."""
        found = prose_rows[bisect.bisect_left(row_lines, first):bisect.bisect_right(row_lines, last)]
        return [row for _, _, row in sorted(found, key=lambda item: item[1])]

    by_identifier: dict[str, int] = {}
    by_number: dict[str, int] = {}
    by_footnote: dict[str, int] = {}
    pending: list[tuple[_Inline, list[Any]]] = []   # prose inlines, resolved once every entry is known
    html_blocks: list[tuple[int, str]] = []
    ref_level: int | None = None
    footnote_label: str | None = None
    ordinal: list[int] = []
    entry_seen = False
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open":
            level = int(tok.tag[1:])
            title = tokens[i + 1].content if i + 1 < len(tokens) else ""
            if ref_level is not None and level <= ref_level:
                ref_level = None
            if REFERENCE_HEADINGS.match(title):
                ref_level = level
            i += 3
            continue
        if tok.type == "html_block" and tok.map is not None and ref_level is None:
            html_blocks.append((tok.map[0] + first_line, tok.content))
        if tok.type == "footnote_open":
            footnote_label = str((tok.meta or {}).get("label", ""))
            entry_seen = False
        elif tok.type == "footnote_close":
            footnote_label = None
        elif tok.type == "ordered_list_open":
            ordinal.append(int(tok.attrs.get("start", 1) or 1) - 1)
        elif tok.type == "bullet_list_open":
            ordinal.append(-10**6)
        elif tok.type in ("ordered_list_close", "bullet_list_close") and ordinal:
            ordinal.pop()
        elif tok.type == "list_item_open" and ordinal:
            ordinal[-1] += 1
            entry_seen = False
        elif tok.type == "inline" and tok.map is not None:
            line = tok.map[0] + first_line
            inline = _read_inline(tok, line)
            if footnote_label is not None:
                if not entry_seen:
                    index = result.add(parse_candidate(inline.entry_text, line, SECTION),
                                       f"footnote [^{footnote_label}]")
                    by_footnote[footnote_label] = index
                    _index_identifiers(result, index, inline, by_identifier)
                    entry_seen = True
            elif ref_level is not None and tokens[i - 1].type == "paragraph_open":
                number = _ENTRY_NUMBER.match(inline.text)
                list_number = ordinal[-1] if ordinal and ordinal[-1] > 0 else None
                if ordinal and entry_seen:
                    pass        # a second paragraph of the same list item
                elif inline.text.strip():
                    body = _ENTRY_NUMBER.sub("", inline.entry_text, count=1).strip()
                    key = number.group(1) if number else (str(list_number) if list_number else None)
                    index = result.add(parse_candidate(body, line, SECTION),
                                       f"reference [{key}]" if key else "reference entry")
                    if key:
                        by_number.setdefault(key, index)
                    _index_identifiers(result, index, inline, by_identifier)
                    entry_seen = bool(ordinal)
            else:
                pending.append((inline, rows_of(line, tok.map[1] - 1 + first_line)))
        i += 1
    for inline, rows in pending:
        for offset, kind, value, label in inline.markers:
            if kind not in ("link", "bare"):
                continue
            if not _looks_like_reference(value):
                continue
            result.prose_identifiers.append(value)
            key = _key(value)
            if key not in by_identifier:
                by_identifier[key] = result.add(
                    CandidateSource(f"linked in the chapter as ‘{label}’" if label and label != value
                                    else "linked in the chapter", value, inline.line, value, SECTION),
                    "link")
    for line, content in html_blocks:   # raw HTML (a <br />, an <a name>) swallows the Markdown after it
        for value in _html_identifiers(content):
            result.prose_identifiers.append(value)
            key = _key(value)
            if key not in by_identifier:
                by_identifier[key] = result.add(
                    CandidateSource("linked in the chapter inside a raw HTML block (no sentence cites it by "
                                    "position)", value, line, value, SECTION), "link")
    for inline, rows in pending:
        if not rows:
            continue
        starts = _sentence_starts(inline.text, rows)
        for offset, kind, value, label in inline.markers:
            index = None
            if kind in ("link", "bare") and _looks_like_reference(value):
                index = by_identifier.get(_key(value))
                marker = f"link ‘{label}’" if kind == "link" else f"identifier {value}"
            elif kind == "footnote":
                index = by_footnote.get(value)
                marker = f"footnote {label}"
            elif kind == "number":
                index = by_number.get(value)
                marker = f"reference marker {label}"
            elif kind == "key" and keyed is not None:
                index = keyed.get(value)
                marker = f"citation key {label}"
            if index is None:
                continue
            if starts is None:
                row, how = rows[0], "block"
            else:
                at = len(_collapse(inline.text[:offset]))
                row = next((r for start, r in reversed(starts) if start <= at), starts[0][1])
                how = "position"
            result.citations.append(Citation(row.claim_id, index, inline.line, marker, how))
    return result


_HTML_TARGET = re.compile(r"""(?:\]\(|href\s*=\s*["'])(https?://[^\s"')]+(?:\([^\s"')]*\)[^\s"')]*)*)""")


def _html_identifiers(content: str) -> list[str]:
    """Link targets (``](URL)``, ``href="URL"``) and bare identifiers in a raw HTML block, in order."""
    found: dict[str, None] = {}
    for m in _HTML_TARGET.finditer(content):
        found.setdefault(m.group(1), None)
    for _s, _e, value, _api in find_identifiers(_HTML_TARGET.sub(" ", content)):
        if "{{" not in value:
            found.setdefault(value, None)
    return [v for v in found if _looks_like_reference(v)]


def _looks_like_reference(value: str) -> bool:
    """A link target that names a work: http(s) URL, DOI or arXiv id (not a mailto: or a relative path)."""
    lowered = value.lower()
    return lowered.startswith(("http://", "https://", "doi:", "arxiv:")) or bool(re.match(r"^10\.\d{4,9}/", value))


def _index_identifiers(result: ChapterReferences, index: int, inline: _Inline, by_identifier: dict[str, int]) -> None:
    """Every identifier an entry names points at the entry (prose links to it cite the entry)."""
    for _offset, kind, value, _label in inline.markers:
        if kind in ("link", "bare") and _looks_like_reference(value):
            by_identifier.setdefault(_key(value), index)
    for _s, _e, value, _api in find_identifiers(inline.entry_text):
        by_identifier.setdefault(_key(value), index)


def citation_links(refs: ChapterReferences, records: Sequence[Any], offset: int = 0) -> list[Any]:
    """:class:`sources.link.ClaimLink` of kind ``cites`` for each citation (``records[offset + i]``
    is the record of candidate ``i``); one link per (claim, record), the first marker kept."""
    from sources.link import ClaimLink

    links, seen = [], set()
    for c in refs.citations:
        record = records[offset + c.index]
        key = (c.claim_id, record.kind, record.identifier)
        if key in seen:
            continue
        seen.add(key)
        reason = f"cites it: {c.marker} at line {c.line}" + (
            " (the sentence could not be located in its block: its first sentence is used)" if c.how == "block" else "")
        links.append(ClaimLink(claim_id=c.claim_id, source=record.identifier, source_kind=record.kind,
                               source_status=record.status, kind="cites", reason=reason))
    return links
