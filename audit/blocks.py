"""Types of the document model (:mod:`audit.document`): blocks, tables, the document, section paths.

Kept apart from the readers so that :mod:`audit.document` (Markdown) and :mod:`audit.flattened`
(flattened plain text) both build these without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

BLOCK_KINDS = ("heading", "paragraph", "list_item", "blockquote", "table", "code", "math", "html",
               "image", "footnote", "front_matter", "reference", "markup", "navigation")
"""``markup``: a site generator's structure line (an admonition or tab marker, a directive fence or
option, a label, a role-only line, a lone bracket: :mod:`audit.sitemarkup`); ``navigation``: a
line or list item made only of links (a table of contents, a link list, a breadcrumb)."""
PROSE_KINDS = frozenset({"paragraph", "list_item", "blockquote", "footnote"})
"""Blocks whose text gives sentence claim rows; every other kind never does."""


@dataclass(frozen=True)
class Table:
    """A table: header cells, body rows (each padded/cut to the header's length), its caption.

    ``caption`` is the text of the paragraph or heading just before the table ('' if none);
    cell texts have inline markup (bold, emphasis, code, links) removed; '' is an empty cell.
    """

    line: int
    end_line: int
    section: tuple[str, ...]
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    recovered: bool = False
    row_lines: tuple[int, ...] = ()  # each body row's first line, when the rows span several lines (a grid table)


@dataclass(frozen=True)
class Block:
    """One block of the document (see the module docstring for each kind's conventions)."""

    kind: str
    text: str
    line: int
    end_line: int
    section: tuple[str, ...] = ()
    recovered: bool = False
    level: int = 0                 # heading level (1–6); list nesting depth for list items
    language: str = ""             # code blocks: the fence info word
    marker: str = ""               # list items: "-", "*", "1." …
    table: Table | None = None
    math_spans: tuple[tuple[int, int], ...] = ()  # inline $…$ spans in ``text``
    note: str = ""                 # recovered blocks: the heuristic that fired
    lead_in: int = 0               # length of a bold lead-in ending in "." or ":" (``**Bold.** Text``)
    atomic_spans: tuple[tuple[int, int], ...] = ()  # inline code and roles in ``text``: never split
    line_marks: tuple[tuple[int, int], ...] = ()    # (offset in ``text``, file line) where a source line starts

    def line_at(self, offset: int) -> int:
        """The file line holding ``text[offset]``: the block's first line, or the last line start at
        or before ``offset`` (a sentence of a hard-wrapped paragraph reports its own line)."""
        line = self.line
        for start, mark in self.line_marks:
            if start > offset:
                break
            line = mark
        return line

    @property
    def is_prose(self) -> bool:
        return self.kind in PROSE_KINDS


@dataclass(frozen=True)
class Document:
    """A parsed snapshot: its blocks in source order, plus where it came from."""

    blocks: list[Block]
    path: str | None = None
    source_format: str = "markdown"   # "markdown" | "flattened"

    def tables(self) -> list[Table]:
        return [b.table for b in self.blocks if b.kind == "table" and b.table is not None]

    def prose_blocks(self) -> list[Block]:
        return [b for b in self.blocks if b.is_prose]

    def code_blocks(self) -> list[Block]:
        return [b for b in self.blocks if b.kind == "code"]

    def not_claims(self) -> list[Block]:
        """Blocks deliberately not read as claims, each with its line: every block that is neither
        prose nor a table (a heading, code, math, HTML, an image, markup, navigation, …)."""
        return [b for b in self.blocks if not b.is_prose and b.kind != "table"]

    def not_claim_lines(self) -> list[tuple[int, str]]:
        """``(line, label)`` of each block read as not a claim, e.g. ``(13, 'markup (admonition):
        !!! note "Title"')``: the kind, the rule that set it aside, the first 80 characters of its
        first line (``chapter-audit claims FILE --not-claims``)."""
        out = []
        for b in self.not_claims():
            first = (b.text.strip().split("\n") or [""])[0]
            first = first if len(first) <= 80 else first[:79] + "…"
            note = f" ({b.note})" if b.note else (f" ({b.language})" if b.language else "")
            out.append((b.line, f"{b.kind.replace('_', ' ')}{note}: {first}"))
        return out

    def headings(self) -> list[Block]:
        return [b for b in self.blocks if b.kind == "heading"]

    def structure_only(self) -> bool:
        """True when the document has no prose block (empty, or only headings/code/tables …)."""
        return not self.prose_blocks()

    def shifted(self, offset: int) -> "Document":
        """The same document with every line number moved by ``offset`` (file coordinates)."""
        if offset == 0:
            return self
        blocks = []
        for b in self.blocks:
            table = (replace(b.table, line=b.table.line + offset, end_line=b.table.end_line + offset)
                     if b.table is not None else None)
            marks = tuple((start, line + offset) for start, line in b.line_marks)
            blocks.append(replace(b, line=b.line + offset, end_line=b.end_line + offset, table=table,
                                  line_marks=marks))
        return Document(blocks, self.path, self.source_format)


class SectionPath:
    """Tracks the heading path: a heading of level L replaces levels ≥ L."""

    def __init__(self) -> None:
        self._stack: list[tuple[int, str]] = []

    def enter(self, level: int, title: str) -> tuple[str, ...]:
        while self._stack and self._stack[-1][0] >= level:
            self._stack.pop()
        self._stack.append((level, title))
        return self.current

    @property
    def current(self) -> tuple[str, ...]:
        return tuple(title for _, title in self._stack)
