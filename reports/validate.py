"""Structure check of a rendered report with markdown-it-py.

A report is valid when (1) its level-2 headings are exactly the seven required ones, in order;
(2) every table's source rows have as many cells as its header row (markdown-it itself pads or
drops cells silently, so the check counts unescaped pipes in the table's own source lines);
(3) it contains no raw HTML (blocks or inline): chapter and source text is always escaped;
(4) it is inert: no image at all, and no link other than an ``https:`` one or a link to an anchor
of the report itself (``#c-004-01``, which must exist). The only raw HTML allowed is the anchor the
renderer writes before a row id, ``<a id="c-004-01"></a>`` (id ``[a-z0-9-]+``, nothing else).

Source lines are split the way markdown-it splits them (only at LF, CR LF and CR), never with
:meth:`str.splitlines`, which also breaks at U+001C–U+001E, VT, FF, NEL and U+2028/9 and would
shift every later line number against the parser's token map.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt

REQUIRED_HEADINGS = (
    "1. Context and provenance",
    "2. Claim audit",
    "3. Source ledger",
    "4. Findings",
    "5. Upgrade proposal",
    "6. Experiment opportunities",
    "7. Review checklist",
)

_PIPE = re.compile(r"(?<!\\)\|")
_ANCHOR_OPEN = re.compile(r'^<a id="([a-z0-9][a-z0-9-]*)">$')
_ANCHOR_CLOSE = "</a>"


def _parser() -> MarkdownIt:
    return MarkdownIt("commonmark").enable("table")


def count_cells(line: str) -> int:
    """Cells of one pipe-table source line (leading/trailing pipe optional, ``\\|`` escaped)."""
    stripped = line.strip()
    if stripped.startswith("|"):
        stripped = stripped[1:]
    if stripped.endswith("|") and not stripped.endswith("\\|"):
        stripped = stripped[:-1]
    return len(_PIPE.split(stripped))


def source_lines(markdown: str) -> list[str]:
    """Lines as markdown-it counts them (its token ``map``): CR LF and CR become LF first."""
    return markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def table_shapes(markdown: str, tokens: list | None = None) -> list[tuple[int, list[int]]]:
    """For each table: (header cell count, [cell count of every other source row]).

    ``tokens`` lets a caller that has already parsed ``markdown`` pass the token stream in.
    """
    lines = source_lines(markdown)
    shapes = []
    for token in tokens if tokens is not None else _parser().parse(markdown):
        if token.type == "table_open" and token.map:
            start, end = token.map
            rows = [count_cells(line) for line in lines[start:end] if line.strip()]
            if rows:
                shapes.append((rows[0], rows[1:]))
    return shapes


def validation_problems(markdown: str) -> list[str]:
    """Every structural problem found; an empty list means the report is valid."""
    problems = []
    tokens = _parser().parse(markdown)
    headings = [tokens[i + 1].content for i, tok in enumerate(tokens)
                if tok.type == "heading_open" and tok.tag == "h2"]
    if tuple(headings) != REQUIRED_HEADINGS:
        problems.append(f"level-2 headings are {headings}, expected {list(REQUIRED_HEADINGS)}")
    for index, (header, rows) in enumerate(table_shapes(markdown, tokens), start=1):
        for row_number, cells in enumerate(rows, start=1):
            if cells != header:
                problems.append(f"table {index}: row {row_number} has {cells} cells, header has {header}")
    anchors = set()
    internal: list[tuple[str, object]] = []
    for tok in tokens:
        if tok.type == "html_block":
            problems.append(f"raw HTML block at line {tok.map[0] + 1 if tok.map else '?'}")
        children = (tok.children or []) if tok.type == "inline" else []
        where = tok.map[0] + 1 if tok.map else "?"
        for i, child in enumerate(children):
            if child.type == "html_inline":
                opened = _ANCHOR_OPEN.match(child.content)
                closes = i + 1 < len(children) and children[i + 1].type == "html_inline" \
                    and children[i + 1].content == _ANCHOR_CLOSE
                if opened and closes:
                    anchors.add(opened.group(1))
                elif child.content == _ANCHOR_CLOSE and i > 0 and _ANCHOR_OPEN.match(children[i - 1].content):
                    pass
                else:
                    problems.append(f"raw inline HTML at line {where}")
            if child.type == "image":
                problems.append(f"image at line {where} (a report never loads anything)")
            elif child.type == "link_open":
                href = str(child.attrs.get("href", ""))
                if href.startswith("#"):
                    internal.append((href[1:], where))
                elif not href.lower().startswith("https:"):
                    problems.append(f"non-https link at line {where}")
    for target, where in internal:
        if target not in anchors:
            problems.append(f"link to a missing anchor #{target} at line {where}")
    return problems
