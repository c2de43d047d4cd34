"""The document model: a chapter snapshot as typed blocks with source line spans.

A :class:`Document` is a list of :class:`Block` objects in source order. Every block has a
``kind`` (see :data:`BLOCK_KINDS`), a 1-based inclusive line span (``line`` … ``end_line``, in
the coordinates of the file the text came from), the heading path it sits under (``section``,
outermost heading first) and ``recovered`` (True when the structure was inferred by a stated
heuristic from flattened text rather than parsed from markup; see :mod:`audit.flattened`).

**Markdown** (:func:`read_markdown`) is parsed with markdown-it-py (CommonMark + GFM tables)
and the mdit-py-plugins front-matter, dollar-math and footnote plugins; no regular expression
decides the structure. TOML front matter (``+++`` … ``+++`` from line 1) is recognised before
parsing because the front-matter plugin knows only YAML's ``---``. Conventions:

* a paragraph, list item or blockquote paragraph holds *prose*: ``text`` is its inline text
  with markup removed (emphasis, strong, links keep their text; inline code keeps its content;
  inline images, inline HTML tags (the text between them stays; ``<br>`` is a space), comments
  and footnote references are dropped; inline math is kept as
  ``$…$`` and its span is listed in ``math_spans``);
* a list item's marker (``-``, ``1.``) is kept out of ``text`` and stored in ``marker``; a bold
  lead-in ending in ``.`` or ``:`` (``**Tokenise.** Lower-case …``) is recorded in ``lead_in``
  so that the sentence splitter keeps it with its sentence;
* a paragraph that holds only images is an ``image`` block (its alt texts), one that holds only
  raw HTML or only site-template shortcodes (``{{< figure … >}}``, ``{% include … %}``) is an
  ``html`` block, one that is a LaTeX display (``\\[ … \\]``, ``\\begin{x} … \\end{x}``) is ``math``;
* a fenced or indented code block is ``code`` with ``language`` (the fence's info word, ``''``
  when none); a paragraph or list item that holds only inline code is ``code`` with language
  ``inline``; a ``$$`` block is ``math``; footnote bodies are ``footnote`` blocks (prose);
* link reference definitions (``[label]: url``) are ``reference`` blocks;
* a table is a ``table`` block whose ``table`` is a :class:`Table` (header and body cells with
  inline markup removed; a group row such as ``| **MiniLM Models** | |`` stays an ordinary row);
  an HTML ``<table>`` in an HTML block is a ``table`` block too (:mod:`audit.htmltable`).

* before the parse, site markup is set aside line by line (:mod:`audit.sitemarkup`:
  admonitions, content tabs, MyST and Sphinx directives, labels, role-only lines, a lone
  bracket; each becomes a ``markup`` block, or ``code`` for a code directive) and a pipe table
  ends at its first line that is not a row (that line is prose); ``origin`` maps the parser's
  lines back to the file's;
* an ``html`` block keeps its prose: the text outside tags, comments and non-prose elements is
  read as Markdown when it holds three words or more (:func:`html_residue`); a paragraph of
  badges is ``image``; one of links only (a table of contents, a link list, breadcrumbs) is
  ``navigation``; inline code and roles (``:citet:`key```, kept as written) are ``atomic_spans``
  that the sentence splitter never cuts;
* a bold run-in label (``**Symptom.** Text``) stays with its sentence unless it reads as a sentence
  itself (:func:`reads_as_sentence`); a run of bold model-card fields keeps each field's label in
  its sentence (``**Variations** Llama 3 comes in …``, label convention (c)), and a field with
  only a value (``**Model developers** Meta``) is a ``markup`` field; a picture's caption (an
  HTML block's text after its picture, an italic run under an image, ``Fig. 1. …`` after an image,
  ``<div class="caption">``), a bold-titled note right under a table (``**Llama 3 family of
  models**. Token counts …``), fine print (a paragraph wholly in ``<sup>``/``<sub>``/``<small>``),
  a lone short emphasised line with no sentence end (``*35.85 seconds*``), a credit naming no
  source, a quotation's credit line and a short title right above a table are ``markup``; page chrome (``On this page``, ``Edit this page``, …)
  is ``navigation``; media fallback text is no prose; a footnote definition nothing refers to
  (or a label's second definition) keeps its text, which the footnote plugin would drop.

**Flattened plain text** (a web page flattened to one paragraph per line, the pack convention)
is read by :func:`audit.flattened.read_flattened`, which recovers glued headings, flattened
tables and formula lines.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Callable, Iterable

from audit.blocks import BLOCK_KINDS, PROSE_KINDS, Block, Document, SectionPath, Table
from audit.runin import reads_as_sentence
from audit.titles import finite_verb, plain_run_in, set_aside_titles

# ---------------------------------------------------------------------------------------------
# Markdown.

def _parser() -> Any:
    from markdown_it import MarkdownIt
    from mdit_py_plugins.dollarmath import dollarmath_plugin
    from mdit_py_plugins.footnote import footnote_plugin
    from mdit_py_plugins.front_matter import front_matter_plugin

    return (MarkdownIt("commonmark").enable("table").use(front_matter_plugin)
            .use(dollarmath_plugin, double_inline=True, allow_space=False).use(footnote_plugin))


_TAG = r"(?:\{\{[<%](?:(?![%>]\}\}).)*[%>]\}\}|\{%(?:(?!%\}).)*%\})"  # tempered: one way to match, linear time
_TEMPLATE = re.compile(rf"^{_TAG}(?:\s*{_TAG})*$", re.S)
_LATEX_DISPLAY = re.compile(r"^(?:\\\\?\[.*\\\\?\]|\\begin\{(\w+\*?)\}.*\\end\{\1\})$", re.S)
"""A LaTeX display: ``\\[ … \\]`` (``\\\\[ … \\\\]`` in mdBook, whose MathJax needs the backslash doubled),
``\\begin{x} … \\end{x}``."""


def _toml_front_matter(lines: list[str]) -> int:
    """Number of lines taken by a leading ``+++`` TOML front matter block (0 if none)."""
    if not lines or lines[0].strip() != "+++":
        return 0
    for index in range(1, len(lines)):
        if lines[index].strip() == "+++":
            return index + 1
    return 0


ROLE_TEXT = re.compile(r"(?::[\w:.-]+:|\{[\w:.-]+\})$")
"""A role marker written right before inline code: ``:citet:`key```, ``{cite:p}`key```."""
_BREAK_TAG = re.compile(r"^<br\s*/?>$", re.I)
_DISTILL_CITE = re.compile(r"^<d-cite\s+key\s*=\s*[\"']([^\"'<>]{1,300})[\"']", re.I)
"""A Distill citation tag (``<d-cite key="bahdanau2014"></d-cite>``, ICLR blog posts): read as the
citation role ``:cite:`bahdanau2014``` it means, so claims/ credit its key like d2l's (the page shows a
numbered marker in its place; a label drops the tag, the scorer drops the role)."""
_DISTILL_CITES = re.compile(r"<d-cite\s+key\s*=\s*[\"']([^\"'<>\n]{1,300})[\"'][^<>\n]*>(?:</d-cite\s*>)?", re.I)
_MEDIA_TAG = re.compile(r"^<(video|audio|object|noscript|canvas|iframe)\b", re.I)
"""Elements whose text is a fallback for browsers that cannot show them (``<video>Your browser
does not support the video tag.</video>``), never the page's prose."""
_ATTRIBUTES = re.compile(r"\{(?:[#.:][^{}]*|\w[\w-]*=[^{}]*)\}\s*$")
"""A trailing Pandoc / Quarto / kramdown attribute block: ``{#fig-recall width=80%}``,
``{#sec-results}``, ``{.smaller}``, ``{width=50%}``."""
_COMMENT_TAG = re.compile(r"^<!--.*-->$", re.S)


def inline_text(children: Iterable[Any] | None, breaks: str = " ") -> tuple[str, tuple[tuple[int, int], ...]]:
    """Plain text of inline tokens (module docstring) and the spans of inline math in it."""
    text, math, _, _ = inline_text_spans(children, breaks)
    return text, math


def inline_text_spans(children: Iterable[Any] | None, breaks: str = " "
                      ) -> tuple[str, tuple[tuple[int, int], ...], tuple[tuple[int, int], ...], tuple[int, ...]]:
    """``(text, math spans, atomic spans, line starts)``: atomic spans are inline code and roles, which the
    sentence splitter never cuts; line starts are the offsets in ``text`` where the next source line
    begins (one per soft or hard line break: a sentence's file line, :meth:`Block.line_at`). A role (``:citet:`key```, ``{cite}`key```, ``:numref:`x```) is
    kept as written, backticks included; other inline code keeps its content. A ``<br>`` is
    ``breaks`` (a space in prose, a line break in table cells); an HTML comment is dropped."""
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    atomic: list[tuple[int, int]] = []
    line_starts: list[tuple[int, int]] = []
    length = 0
    children = list(children or ())
    trim = _d2l_brackets(children)
    skip: set[int] = set()  # tokens inside a media element (its fallback text)
    for index, child in enumerate(children):
        kind = child.type
        piece = ""
        if index in skip:
            kind = "skipped"
        if kind == "text":
            piece = child.content
            if index in trim:
                piece = piece[:-1] if trim[index] == "end" else piece[1:]
            piece = _WIKI_LINK.sub(lambda m: m.group(2) or m.group(1), piece)  # [[Page|alias]]: alias
            if index and children[index - 1].type in ("link_close", "image"):
                piece = _LINK_ATTRIBUTES.sub("", piece, count=1)  # [page](url){target="_blank"}
            if "{" in piece or "=" in piece or "%" in piece:
                piece = _INLINE_MARKUP.sub(lambda m: m.group(1) or m.group(2) or "", piece)
        elif kind == "code_inline":
            role = ROLE_TEXT.search(parts[-1]) if parts else None
            if role:
                head = parts[-1][:role.start()]
                length -= len(parts[-1]) - len(head)
                parts[-1] = head
                piece = f"{role.group(0)}`{child.content}`"
            else:
                piece = child.content
            atomic.append((length, length + len(piece)))
        elif kind == "html_inline":  # a tag: <br> is a break, any other tag or comment no text
            piece = breaks if _BREAK_TAG.match(child.content.strip()) else ""
            cite = _DISTILL_CITE.match(child.content)
            if cite:
                piece = f" :cite:`{cite.group(1).strip()}`"  # a space: a role glued to a word is no role
                atomic.append((length, length + len(piece)))
            opened = _MEDIA_TAG.match(child.content)
            if opened and not child.content.rstrip().endswith("/>"):  # <video>fallback</video>: no text
                media = opened.group(1).lower()
                close = next((j for j in range(index + 1, len(children)) if children[j].type == "html_inline"
                              and re.match(rf"</{media}\s*>", children[j].content, re.I)), None)
                if close is not None:
                    skip.update(range(index + 1, close))
        elif kind in ("softbreak", "hardbreak"):
            piece = " "
            line_starts.append((length + 1, length + 1))
        elif kind in ("math_inline", "math_inline_double"):
            piece = f"${child.content}$"
            spans.append((length, length + len(piece)))
        elif kind == "link_open" and index + 1 < len(children) and children[index + 1].type == "link_close":
            piece = str(child.attrs.get("href", ""))  # MyST [](target): the link's text is its target
        # emphasis/strong/link markers, images, footnote refs: no text
        parts.append(piece)
        length += len(piece)
    if breaks != " ":
        joined = "".join(parts)
        return "\n".join(" ".join(p.split()) for p in joined.split(breaks)).strip(), (), (), ()
    text, moved = _collapse("".join(parts), spans + atomic + line_starts)
    starts = tuple(start for start, _ in moved[len(spans) + len(atomic):])
    return text, moved[:len(spans)], moved[len(spans):len(spans) + len(atomic)], starts


_LINK_ATTRIBUTES = re.compile(r"^\{:?\s*(?:[.#][\w:-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[^\s{}]+))"
                              r"(?:\s+(?:[.#][\w:-]+|[\w-]+=(?:\"[^\"]*\"|'[^']*'|[^\s{}]+)))*\}")
"""Pandoc / kramdown / attr_list attributes right after a link or image: ``{target="_blank"}``,
``{:target="_blank"}``, ``{.external}``, ``{ width=50% }`` (no text of the page)."""
_INLINE_MARKUP = re.compile(
    r"\[([^\[\]]+)\]\{(?:[.#][\w:-]+|[\w-]+=)[^{}]*\}"    # Pandoc bracketed span [BM25]{.smallcaps}: its text
    r"|==(?=\S)([^=]*?\S)=="                               # Obsidian / Markdown-it highlight ==text==: its text
    r"|%%[^%]*%%"                                         # Obsidian comment %%…%%: nothing
    r"|\{\{#[^{}]*\}\}|\{\{i?hi?:[^{}]*\}\}")                # mdBook {{#include …}}, index markers {{hi:Term}}
"""Inline markup of site tools that is no text of the page (or only its inner text)."""
_WIKI_LINK = re.compile(r"!?\[\[([^\[\]|]+)(?:\|([^\[\]]+))?\]\]")
"""An Obsidian / wiki link ``[[Results]]`` or ``[[results|the results page]]``: its shown text."""


def _d2l_brackets(children: list[Any]) -> dict[int, str]:
    """d2l's ``[**linked to code**]`` marks: the text tokens whose final ``[`` ("end") or first
    ``]`` ("start") wrap a bold run are trimmed, so the brackets are no sentence text."""
    trim: dict[int, str] = {}
    for i, child in enumerate(children):
        if child.type != "strong_open" or i == 0 or children[i - 1].type != "text" \
                or not children[i - 1].content.endswith("["):
            continue
        close = next((j for j in range(i + 1, len(children)) if children[j].type == "strong_close"), None)
        if close is not None and close + 1 < len(children) and children[close + 1].type == "text" \
                and children[close + 1].content.startswith("]"):
            trim[i - 1], trim[close + 1] = "end", "start"
    return trim


def _collapse(text: str, spans: list[tuple[int, int]]) -> tuple[str, tuple[tuple[int, int], ...]]:
    """Trim and collapse whitespace runs to one space, moving the spans with the text."""
    out: list[str] = []
    mapping: list[int] = []  # new offset of each old offset
    for ch in text:
        mapping.append(len(out))
        if ch.isspace():
            if out and out[-1] != " ":
                out.append(" ")
        else:
            out.append(ch)
    mapping.append(len(out))
    collapsed = "".join(out)
    trimmed = collapsed.rstrip()
    lead = len(trimmed) - len(trimmed.lstrip())
    moved = tuple((mapping[s] - lead, min(mapping[e], len(trimmed)) - lead) for s, e in spans)
    return trimmed.lstrip(), moved


def _lead_in(children: list[Any] | None, content: str) -> int:
    """Length of a leading bold run that ends in ``.`` or ``:`` (or is followed by one:
    ``**Reproducing 1989 performance**. The …``), a run-in label kept with the sentence after it,
    else 0; a bold run that reads as a sentence (:func:`reads_as_sentence`: ``**With binary
    quantization, the vectors need 128 MB.** We benchmarked …``) is a sentence of its own."""
    children = [c for c in children or () if not (c.type == "text" and not c.content.strip())]
    if len(children) < 3 or children[0].type != "strong_open":
        return 0
    label = []
    after = ""
    for position, child in enumerate(children[1:], start=1):
        if child.type == "strong_close":
            following = children[position + 1] if position + 1 < len(children) else None
            after = following.content[:1] if following is not None and following.type == "text" else ""
            break
        label.append(child.content)
    text = " ".join("".join(label).split())
    if text and text[-1] not in ".:" and after in (".", ":"):
        text += after
    if not text or text[-1] not in ".:" or not content.startswith(text):
        return 0
    return 0 if text.endswith(".") and reads_as_sentence(text) else len(text)


def _item_lead(children: list[Any] | None, content: str) -> int:
    """Length of a list item's opening fragment of at most five words, ending in a full stop, holding
    a bold run and no verb, before the sentence that explains it (``- Your **DSPy program**. This may
    be a single module …``): a run-in label, kept with that sentence (label convention (c)); 0 else."""
    cut = re.match(r"^([^.!?]{1,60}\.)\s+[A-Z(\"“`]", content)
    if not cut or len(cut.group(1).split()) > 5 or reads_as_sentence(cut.group(1)):
        return 0
    length, bold = 0, False
    for child in children or ():  # the bold run opens before the fragment's full stop
        if child.type == "strong_open" and length < len(cut.group(1)):
            bold = True
        if child.type in ("text", "code_inline"):
            length += len(child.content)
    return len(cut.group(1)) if bold else 0


def _field_label(children: list[Any] | None, content: str) -> int:
    """Length of a leading bold run of at most five words with no punctuation at its end, followed by
    a space and a capital or a digit (a model card's or spec sheet's field: ``**Model developers**
    Meta``, ``**Variations** Llama 3 comes in …``), else 0; read as a field only where the
    paragraph before or after it is one too (a run of fields), and not for a title opening with an
    emoji (``**⚖️ Speed and performance** Slightly slower, …`` is one sentence). A run ending in ``.`` or ``:`` is a
    run-in label kept with its sentence instead (:func:`_lead_in`)."""
    items = [c for c in children or () if not (c.type == "text" and not c.content.strip())]
    if len(items) < 4 or items[0].type != "strong_open" or items[1].type != "text" or items[2].type != "strong_close":
        return 0
    label = " ".join(items[1].content.split())
    after = items[3]
    if (not label[:1].isalpha() or len(label.split()) > 5 or label[-1] in ".:!?,;" or after.type != "text"
            or not re.match(r"^\s+[A-Z0-9]", after.content) or not content.startswith(label)):
        return 0
    return len(label)


_FINE_PRINT_OPEN = re.compile(r"^<(sup|sub|small)\b[^>]*>$", re.I)


def _fine_print(children: list[Any] | None) -> bool:
    """A paragraph wholly inside ``<sup>`` / ``<sub>`` / ``<small>`` (``<sup>Preliminary measured
    performance, subject to change.</sup>`` under a chart): the page's fine print, like a caption
    no claim of the text (label conventions: captions are not sentences)."""
    items = _meaningful(children)
    if len(items) < 3 or items[0].type != "html_inline" or items[-1].type != "html_inline":
        return False
    opened = _FINE_PRINT_OPEN.match(items[0].content.strip())
    return bool(opened) and re.fullmatch(rf"</{opened.group(1)}\s*>", items[-1].content.strip(), re.I) is not None


def _after_table(block: "Block") -> bool:
    """The block before is a table (Markdown, or an HTML block that ends with ``</table>``)."""
    return block.kind == "table" or (block.kind == "html" and block.text.rstrip().lower().endswith("</table>"))


def _titled_caption(children: list[Any] | None) -> bool:
    """A paragraph opening with a bold title closed by a full stop outside the bold
    (``**Llama 3 family of models**. Token counts refer to …``): right under a table, the
    table's caption and notes (a model card's shape), not prose of the text."""
    items = _meaningful(children)
    return (len(items) >= 4 and items[0].type == "strong_open" and items[1].type == "text"
            and items[2].type == "strong_close" and items[3].type == "text" and items[3].content.startswith("."))


def _emphasis_line(children: list[Any] | None) -> bool:
    """A paragraph that is one short emphasised run with no sentence end (``*35.85 seconds*``
    under a slide, ``*Figure courtesy of the authors*``): a note on the material above, no
    sentence (at most six words; ``*This is the key result.*`` ends like a sentence and stays prose)."""
    items = _meaningful(children)
    if [c.type for c in items] != ["em_open", "text", "em_close"]:
        return False
    text = items[1].content.strip()
    return 0 < len(text.split()) <= 6 and not text.endswith((".", "!", "?", ":"))


_DECORATION = re.compile(r"^(?:(?::[a-z][a-z0-9]*(?:[_+-][a-z0-9]+)*:(?!`)(?:\{[^{}]*\})?"
                         r"|[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D]+)\s*)+")
"""Icon and emoji shortcodes or emoji opening a paragraph (MkDocs Material ``:material-check:{ .lg
.middle }``, ``:octicons-x-16:``, GitHub ``:warning:``, ``🚀``); before a bold title alone they make
it no sentence (a role, ``:cite:`x```, is followed by a backtick and is no shortcode)."""
_LOOSE_IMAGE = re.compile(r"^\s*!\[[^\[\]]*\]\([^()\n]*\)\s*$")
"""An image whose target holds spaces (``![Routing](../assets/MOE Routing.png)``): CommonMark reads it
as text, a browser of the site shows the picture."""
_TASK_MARKER = re.compile(r"^\[[ xX]\]\s+")
"""A GitHub task list item's checkbox, ``- [x] Done.``."""


def _cut_front(cut: int, content: str, spans: tuple, atomic: tuple, marks: tuple) -> tuple[str, tuple, tuple, tuple]:
    """``content`` without its first ``cut`` characters, every span and line mark moved with it."""
    return (content[cut:], tuple((a - cut, b - cut) for a, b in spans if a >= cut),
            tuple((a - cut, b - cut) for a, b in atomic if a >= cut),
            tuple((a - cut, line) for a, line in marks if a >= cut))


def _decoration_length(content: str) -> int:
    """Length of the icon shortcodes opening ``content`` (:data:`_DECORATION`), 0 if none."""
    match = _DECORATION.match(content)
    return match.end() if match and match.end() < len(content) else 0


def _undecorated(children: list[Any] | None) -> list[Any]:
    """The inline tokens without a leading text token that is only icon shortcodes
    (:data:`_DECORATION`), so that ``:material-clock-fast:{ .lg } __Set up in 5 minutes__`` reads as
    the bold title it is."""
    items = list(children or ())
    while items and items[0].type == "text" and (not items[0].content.strip() or (
            _DECORATION.match(items[0].content) and _DECORATION.match(items[0].content).end() == len(items[0].content))):
        items = items[1:]
    return items


def _only(children: list[Any] | None, kinds: set[str]) -> bool:
    meaningful = _meaningful(children)
    return bool(meaningful) and all(c.type in kinds for c in meaningful)


_BIBTEX = re.compile(r"^\s*@[A-Za-z]+\s*\{\s*[\w:.-]+\s*,")
"""A BibTeX entry written as text (``@article{smith2020,``): code, no sentence."""
_LEGACY_ALERT_TITLES = frozenset("note warning tip important caution info danger attention hint".split())


def _legacy_alert(children: list[Any] | None, content: str) -> int:
    """Length (with the line break after it) of a quote's opening bold title on a line of its own,
    ``> **Note**`` / ``> **Warning**`` (the callout READMEs wrote before GitHub's ``[!NOTE]``), else 0."""
    items = [c for c in children or () if not (c.type == "text" and not c.content.strip())]
    if (len(items) < 5 or items[0].type != "strong_open" or items[1].type != "text" or items[2].type != "strong_close"
            or items[3].type not in ("softbreak", "hardbreak")):
        return 0
    title = items[1].content.strip()
    if title.rstrip(":").lower() not in _LEGACY_ALERT_TITLES or not content.startswith(title):
        return 0
    return len(title) + 1


_ALERT = re.compile(r"\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*", re.I)
_SEPARATOR = re.compile(r"^[\s·•|/»>›,;:\-–—()\[\]]*$")
_LINK_LABEL = re.compile(r"^[\s·•|,;]*[A-Z][\w'’-]*(?: [\w'’-]+){0,2}:\s*$")
"""A short label before a link in a link line (``Paper: [arXiv](…) · Code: [GitHub](…)``)."""
_IMG_TAG = re.compile(r"^<img\b[^>]*>$", re.I)


def _pictured(children: list[Any] | None) -> bool:
    """The paragraph opens with an image (``![plot](p.png)`` then text on the next line)."""
    items = _meaningful(children)
    return bool(items) and items[0].type == "image"


def _emphasis_caption(children: list[Any] | None, content: str, blocks: list[Block]) -> bool:
    """A picture's caption written in emphasis: a paragraph of one or more images followed only by
    an emphasised run (``![plot](p.png)`` + ``*Throughput of each system.*``), or a paragraph that
    is only an italic run of at most 90 words right under an image block (a blog export's
    caption; a bold paragraph there is prose); such a run is no claim of the text."""
    whole = _meaningful(_without_attributes(children))
    items = whole
    while items and items[0].type == "image":
        items = items[1:]
    pictured = len(items) < len(whole)
    if not (pictured or (blocks and blocks[-1].kind == "image")) or len(content.split()) > (120 if pictured else 90):
        return False
    opener = ("em_open", "strong_open") if pictured else ("em_open",)  # a bold paragraph alone is prose
    return (len(items) >= 3 and items[0].type in opener
            and items[-1].type == {"em_open": "em_close", "strong_open": "strong_close"}[items[0].type]
            and all(c.type != items[0].type for c in items[1:-1]))


_FOOTNOTE_DEFINITION = re.compile(r"^ {0,3}\[\^([^\]\s]+)\]:", re.M)


def _renamed_duplicate_footnotes(text: str) -> str:
    """A second definition of a footnote label (``[^1]:`` twice) renamed ``[^1~2]:``, so that its
    text is read (CommonMark keeps the first definition only); the first keeps its references."""
    seen: dict[str, int] = {}

    def rename(match: re.Match[str]) -> str:
        label = match.group(1)
        seen[label] = seen.get(label, 0) + 1
        return match.group(0) if seen[label] == 1 else match.group(0).replace(f"[^{label}]", f"[^{label}~{seen[label]}]", 1)

    return _FOOTNOTE_DEFINITION.sub(rename, text) if "[^" in text else text


def _unreferenced_footnotes(text: str) -> list[str]:
    """Labels of footnote definitions (``[^2]: See the appendix.``) that no ``[^2]`` refers to; the
    footnote plugin would drop their text, a sentence lost."""
    labels = _FOOTNOTE_DEFINITION.findall(text)
    if not labels:
        return []
    used = set(re.findall(r"\[\^([^\]\s]+)\](?!:)", text))
    return [label for label in dict.fromkeys(labels) if label not in used]


def _strip_attributes(text: str) -> str:
    """``text`` without a trailing attribute block (:data:`_ATTRIBUTES`), right-stripped."""
    if "{" not in text:
        return text
    match = _ATTRIBUTES.search(text)
    return text[:match.start()].rstrip() if match else text


def _without_attributes(children: list[Any] | None) -> list[Any]:
    """The inline tokens without text that is only an attribute block (``![x](p.png){#fig-x}``)."""
    return [c for c in children or () if not (c.type == "text" and c.content.strip()
                                               and not _strip_attributes(c.content).strip())]


def _meaningful(children: list[Any] | None) -> list[Any]:
    return [c for c in children or () if not (c.type == "text" and not c.content.strip())
            and c.type not in ("softbreak", "hardbreak")]


def _badges(children: list[Any] | None) -> bool:
    """Only images, image links and ``<img>`` tags (a row of badges): ``[![build](b.svg)](ci)``."""
    items = _meaningful(children)
    pictures = [c for c in items if c.type == "image" or (c.type == "html_inline" and _IMG_TAG.match(c.content))]
    return bool(pictures) and all(c.type in ("image", "link_open", "link_close") or c in pictures for c in items)


def _navigation(children: list[Any] | None) -> bool:
    """Only links (Markdown or ``<a href>``) and separators between them (a table-of-contents
    entry, a link list, breadcrumbs; a label of one to three words with a colon may precede a link:
    ``Paper: [arXiv](…) | Code: [GitHub](…)``); other tags around them are ignored."""
    depth, links = 0, 0
    for child in _meaningful(children):
        if child.type == "link_open" or (child.type == "html_inline" and re.match(r"<a\s", child.content, re.I)):
            depth += 1
            links += 1
        elif child.type == "link_close" or (child.type == "html_inline" and re.match(r"</a\s*>", child.content, re.I)):
            depth -= 1
        elif child.type == "html_inline":
            continue
        elif depth == 0 and not (child.type == "text" and (_SEPARATOR.match(child.content)
                                                            or _LINK_LABEL.match(child.content))):
            return False
    return links > 0


def _linked_sentence(children: list[Any] | None, content: str) -> bool:
    """A paragraph that is one link whose text is a sentence (``["Artificial intelligence advances
    by inventing games …" - Professor Ben Recht](…)``: six words or more with a finite verb,
    :func:`audit.titles.finite_verb`): a quoted or linked claim, prose; a link of a title (``[Paper](…)``,
    ``[Read the full paper](…)``) stays navigation (label convention (h))."""
    items = _meaningful(children)
    return (len(content.split()) >= 6 and sum(c.type == "link_open" for c in items) == 1
            and items[0].type == "link_open" and items[-1].type == "link_close" and finite_verb(content))


def _linked_reference(containers: list[str], content: str) -> bool:
    """A footnote whose text is one link of four words or more (``[^1]: [A. Shakir and S. Lee,
    "2D Matryoshka sentence embeddings"](url)``) is a reference, read as prose, not a link list."""
    return bool(containers) and containers[-1] == "footnote" and len(content.split()) >= 4


def _enumerating_list(tokens: list[Any], index: int, blocks: list[Block]) -> bool:
    """The list opened at ``tokens[index]`` enumerates what the text says, so that an item made of one
    link is a sentence of it (the corpus labels read ``- [Binary quantization (BQ)](#bq)`` under
    "Weaviate offers four quantization techniques:" as a sentence): the paragraph right before it is
    a lead-in of four words or more ending in a colon (not "Table of contents:"), or some item of the
    list opens with prose. A list of links alone under a heading or a label ("Further reading",
    "Table of contents:") is navigation."""
    before = blocks[-1] if blocks else None
    if (before is not None and before.kind in ("paragraph", "list_item") and before.text.rstrip().endswith(":")
            and len(before.text.split()) >= 4 and not re.search(r"\bcontents\b", before.text, re.I)):
        return True
    depth, items, linked = 0, 0, 0
    for i in range(index, len(tokens)):
        kind = tokens[i].type
        if kind in ("bullet_list_open", "ordered_list_open"):
            depth += 1
        elif kind in ("bullet_list_close", "ordered_list_close"):
            depth -= 1
            if depth == 0:
                break
        elif kind == "list_item_open" and depth == 1:
            items += 1
            if (i + 2 < len(tokens) and tokens[i + 1].type == "paragraph_open"
                    and _navigation(tokens[i + 2].children)):
                linked += 1
    return linked < items


def _linked_item(containers: list[str], children: list[Any] | None, content: str) -> bool:
    """A list item that is one link of two words or more (``- [Read the full paper](…)``, ``- [Binary
    quantization (BQ)](#bq)``): the corpus labels read such an item as a sentence of the list, where a
    one-word link (``- [Falcon](…)``), a line of several links and the items of a list of links only
    that enumerates nothing (:func:`_enumerating_list`: a table of contents, further reading) are
    navigation."""
    if not containers or containers[-1] != "list_item" or len(content.split()) < 2:
        return False
    items = _meaningful(children)
    return (sum(c.type == "link_open" for c in items) == 1 and items[0].type == "link_open"
            and items[-1].type == "link_close")


def _bold_label(children: list[Any] | None, content: str) -> bool:
    """A paragraph that is only bold text of at most eight words not ending a sentence: a label
    standing in for a heading (``**References:**``), not a claim."""
    items = _meaningful(children)
    return (len(items) >= 3 and items[0].type == "strong_open" and items[-1].type == "strong_close"
            and all(c.type in ("strong_open", "strong_close", "text") for c in items)
            and len(content.split()) <= 8 and not content.rstrip().endswith((".", "!", "?"))
            and ":" not in content.rstrip().rstrip(":"))  # "Baseline: 75.6% alignment" is a claim


def _roles_only(content: str, atomic: tuple[tuple[int, int], ...]) -> bool:
    """Only roles and separators (``{ref}`What is MyST? <what_is_myst>```, ``:doc:`intro```): a
    list of cross-references, navigation rather than a sentence."""
    roles = [(s, e) for s, e in atomic if ROLE_TEXT.match(content[s:]) or content[s:e].startswith(("{", ":"))]
    if not roles:
        return False
    rest = content
    for s, e in sorted(roles, reverse=True):
        rest = rest[:s] + rest[e:]
    return bool(_SEPARATOR.match(rest))


_HTML_SKIP = re.compile(r"<!--.*?(?:-->|$)|<(div|p|span)\b[^>]*\bclass=[\"'][^\"']*\bcaption\b[^>]*>.*?(?:</\1\s*>|$)"
                        r"|<(script|style|pre|code|table|summary|figcaption|svg|math|button|select|h[1-6]|nav"
                        r"|video|audio|object|noscript|canvas|iframe)\b"
                        r".*?(?:</\2\s*>|$)|<[A-Za-z/!?][^>]*(?:>|$)", re.S | re.I)
_WORDS = re.compile(r"[A-Za-z][a-z]+")
_HTML_ANCHOR = re.compile(r"<a\b[^>]*>.*?</a\s*>", re.S | re.I)
_INLINE_TAG = re.compile(r"</?(?:strong|b|em|i|a|span|mark|u|s|small|kbd|abbr)\b[^>]*>", re.I)


def _residue_parts(html: str, residue: str) -> list[str]:
    """The residue cut where a line of the HTML opens with a tag and the line above kept text (two
    ``<TabItem …>Text.</TabItem>`` lines are two paragraphs, not one); each part keeps every line
    (the others blank), so that line numbers stay the file's."""
    source, lines = html.split("\n"), residue.split("\n")
    starts = [0] + [i for i in range(1, len(lines)) if lines[i].strip() and lines[i - 1].strip()
                    and i < len(source) and source[i].lstrip().startswith("<")]
    if len(starts) == 1:
        return [residue]
    bounds = starts + [len(lines)]
    return ["\n".join(line if a <= i < b else "" for i, line in enumerate(lines)) for a, b in zip(bounds, bounds[1:])]


def html_residue(html: str) -> str:
    """An HTML block's text outside tags, comments and non-prose elements (``<pre>``, ``<table>``, headings
    ``<h2>…</h2>`` and ``<nav>``,
    ``<summary>``, ``<script>``, a ``<div class="caption">``, …), each replaced by spaces so that its lines keep their numbers;
    '' when fewer than three words are left outside URLs (a ``<div>label</div>`` or a
    ``Source: <a href=…>https://…</a>`` credit is no sentence)."""
    # an inline formatting tag joins the text it wraps as a browser renders it
    # (``<strong>Label</strong>: text`` reads "Label: text", no space before the colon)
    residue = _INLINE_TAG.sub(lambda m: "\n" * m.group(0).count("\n"), html)
    if "<d-cite" in residue:  # a Distill citation reads as its role, as in a paragraph (_DISTILL_CITE)
        residue = _DISTILL_CITES.sub(lambda m: f" :cite:`{m.group(1).strip()}`", residue)
    residue = _HTML_SKIP.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), residue)
    residue = "\n".join(line.strip() for line in residue.split("\n"))
    return residue if len(_WORDS.findall(re.sub(r"\S*://\S*", " ", residue))) >= 3 else ""


_MEDIA_END = re.compile(r"<img\b[^>]*>|</(?:picture|video|svg|figure)\s*>|<(?:video|source)\b[^>]*/>", re.I)


def _html_caption(html: str, residue: str, previous: Block | None = None) -> tuple[str, int] | None:
    """``(text, line offset)`` when an HTML block's only text follows its picture (``<img>``,
    ``<picture>``, ``<video>``, ``<svg>``) and is one short paragraph (at most 60 words): the
    picture's caption, reported as not a claim; so is a block of one italic run right under a
    picture (``<p align="center"><em>Throughput per batch</em></p>``); None otherwise (the text
    is read as prose)."""
    ends = [m.end() for m in _MEDIA_END.finditer(html)]
    if residue and not ends and previous is not None and previous.kind in ("image", "html") \
            and re.fullmatch(r"\s*(?:<(?:p|div|center)\b[^>]*>\s*)*<(em|i|small)>[^<]*</\1>\s*(?:</(?:p|div|center)>\s*)*",
                             html, re.I):  # <p align="center"><em>Throughput per batch size</em></p> under a picture
        ends = [0]
    if not residue or not ends or html_residue(html[:ends[-1]]):
        return None
    lines = [line for line in residue.split("\n")]
    filled = [i for i, line in enumerate(lines) if line.strip()]
    text = " ".join(" ".join(lines[i].split()) for i in filled)
    if filled[-1] - filled[0] + 1 != len(filled) or len(text.split()) > 60:
        return None
    return text, filled[0]


def read_markdown(text: str, path: str | None = None, *, line_paragraphs: bool = False,
                  _nested: bool = False) -> Document:
    """Parse Markdown into a :class:`Document` (lines are 1-based lines of ``text``); with
    ``line_paragraphs`` every line outside code and tables is a paragraph of its own (a flattened
    page with Markdown tables or fences, :func:`document_from_pack`)."""
    from audit.sitemarkup import (CAPTION_LINE, CAPTION_START, PHOTO_CREDIT, QUOTE_CREDIT, is_chrome_line,
                                  is_navigation_line, prepare_markdown)

    text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")
    blocks: list[Block] = []
    toml_lines = _toml_front_matter(lines)
    if toml_lines:
        blocks.append(Block("front_matter", "\n".join(lines[1:toml_lines - 1]), 1, toml_lines))
        text = "\n" * toml_lines + "\n".join(lines[toml_lines:])
    text, grid_tables = _set_aside_grid_tables(text)
    prepared, origin, markup = prepare_markdown(text, line_paragraphs)
    written = len(origin)  # parser lines past this one are the synthetic footnote references below
    prepared = _renamed_duplicate_footnotes(prepared)
    unreferenced = _unreferenced_footnotes(prepared)
    if unreferenced:  # the footnote plugin drops a definition nothing refers to: refer to it, unseen
        prepared += "\n\n" + "".join(f"[^{label}]" for label in unreferenced)
        origin = origin + [origin[-1] if origin else 1] * 2
    env: dict[str, Any] = {}
    tokens = _parser().parse(prepared, env)

    def file_line(line: int) -> int:
        return origin[min(max(line, 1), len(origin)) - 1] if origin else line

    path_tracker = SectionPath()
    containers: list[str] = []  # open list items / blockquotes / footnotes, innermost last
    markers: list[str] = []
    list_depth = 0
    toc_lists: list[bool] = []  # open lists, innermost last: whether a link alone in an item is navigation
    previous_text = ""  # caption candidate: text of the last paragraph or heading
    index = 0
    while index < len(tokens):
        token = tokens[index]
        kind = token.type
        span = (file_line(token.map[0] + 1), file_line(token.map[1])) if token.map else None
        if kind == "front_matter":
            blocks.append(Block("front_matter", token.content, span[0], span[1]))
        elif kind == "heading_open":
            title, _ = inline_text(tokens[index + 1].children)
            title = _strip_attributes(title) or title  # ## Results {#sec-results}
            level = int(token.tag[1])
            section = path_tracker.enter(level, title)
            blocks.append(Block("heading", title, span[0], span[1], section, level=level))
            previous_text = title
            index += 2
        elif kind in ("bullet_list_open", "ordered_list_open"):
            list_depth += 1
            toc_lists.append(not (bool(toc_lists) and not toc_lists[-1]) and not _enumerating_list(tokens, index, blocks))
        elif kind in ("bullet_list_close", "ordered_list_close"):
            list_depth -= 1
            toc_lists.pop()
        elif kind == "list_item_open":
            containers.append("list_item")
            markers.append(f"{token.info}{token.markup}" if token.info else token.markup)
        elif kind == "list_item_close":
            containers.pop()
            markers.pop()
        elif kind == "blockquote_open":
            containers.append("blockquote")
        elif kind == "blockquote_close":
            containers.pop()
        elif kind == "footnote_open":
            containers.append("footnote")
        elif kind == "footnote_close":
            containers.pop()
        elif kind == "paragraph_open" and token.map and token.map[0] >= written:
            index += 2  # the synthetic references to unreferenced footnotes: no block
        elif kind == "paragraph_open":
            inline = tokens[index + 1]
            content, spans, atomic, starts = inline_text_spans(inline.children)
            # the k-th line break opens the paragraph's (k + 1)-th line of the prepared text
            marks = tuple((offset, file_line(inline.map[0] + 2 + k)) for k, offset in enumerate(starts)
                          ) if inline.map else ()
            if span is None:  # footnote paragraphs carry their map; an inline one (^[…]) has none
                span = ((file_line(inline.map[0] + 1), file_line(inline.map[1])) if inline.map
                        else (_line_holding(prepared, inline.content, file_line),) * 2)
            # an icon shortcode before the text stays as written (the corpus labels keep :tada: as they
            # keep 🎉); a task list item's checkbox is no text: - [x] Done.
            task = _TASK_MARKER.match(content) if containers and containers[-1] == "list_item" else None
            if task and task.end() < len(content):
                content, spans, atomic, marks = _cut_front(task.end(), content, spans, atomic, marks)
            undecorated = _undecorated(inline.children)
            if (_only(_without_attributes(inline.children), {"image"}) or _badges(inline.children)
                    or _LOOSE_IMAGE.match(inline.content)):  # ![x](../a b.png): a picture CommonMark cannot parse
                alts = "; ".join(c.content for c in inline.children if c.type == "image")
                blocks.append(Block("image", alts or inline.content.strip(), span[0], span[1], path_tracker.current))
            elif _TEMPLATE.match(inline.content.strip()):  # {{< figure … >}}, {% include … %}
                blocks.append(Block("html", inline.content.strip(), span[0], span[1], path_tracker.current,
                                    note="template"))
            elif _LATEX_DISPLAY.match(inline.content.strip()):  # \[ … \] or \begin{…} … \end{…}
                blocks.append(Block("math", inline.content.strip(), span[0], span[1], path_tracker.current))
            elif _BIBTEX.match(inline.content):  # @article{key, title={…}, …} not fenced: a bibliography entry
                blocks.append(Block("code", inline.content, span[0], span[1], path_tracker.current, language="bibtex"))
            elif _only(inline.children, {"math_inline", "math_inline_double"}):  # $\ell_q = …$ alone: a formula
                blocks.append(Block("math", content, span[0], span[1], path_tracker.current))
            elif _only(inline.children, {"code_inline"}):  # a paragraph that is only inline code
                blocks.append(Block("code", content, span[0], span[1], path_tracker.current,
                                    language="inline"))
            elif _only(inline.children, {"html_inline"}):
                blocks.append(Block("html", inline.content, span[0], span[1], path_tracker.current))
            elif not content:  # only tags and a media element's fallback text
                blocks.append(Block("html", inline.content, span[0], span[1], path_tracker.current))
            elif ((_navigation(inline.children) and not _linked_reference(containers, content)
                   and not _linked_sentence(inline.children, content)
                   and not (tokens[index - 1].type == "list_item_open" and _linked_item(containers, inline.children, content)
                            and not (toc_lists and toc_lists[-1])))
                  or is_navigation_line(content) or is_chrome_line(content) or _roles_only(content, atomic)
                  or re.fullmatch(r"<?\w+://\S+>?", content)):  # a bare URL is a link, no sentence
                blocks.append(Block("navigation", content, span[0], span[1], path_tracker.current))
            elif (index + 3 < len(tokens) and tokens[index + 3].type == "table_open" and len(content.split()) <= 5
                  and not content.endswith((".", "!", "?", ":")) and not containers):  # "Raw results" over a table
                blocks.append(Block("markup", content, span[0], span[1], path_tracker.current, note="table title"))
                previous_text = content
            elif _bold_label(undecorated, content[_decoration_length(content):]):  # **References:**, **Quick links**
                blocks.append(Block("markup", content, span[0], span[1], path_tracker.current,
                                    note="bold label"))
            elif (_emphasis_caption(inline.children, content, blocks)  # ![x](p.png) *Throughput per …*
                  or (_pictured(inline.children) and (CAPTION_START.match(content) or PHOTO_CREDIT.match(content)))
                  or QUOTE_CREDIT.match(content)):  # — William Faulkner
                blocks.append(Block("markup", content, span[0], span[1], path_tracker.current, note="caption"))
                previous_text = content
            elif _fine_print(inline.children):  # <sup>Preliminary measured performance, subject to change.</sup>
                blocks.append(Block("markup", content, span[0], span[1], path_tracker.current, note="fine print"))
            elif blocks and _after_table(blocks[-1]) and _titled_caption(inline.children):
                # **Llama 3 family of models**. Token counts refer to … (right under a table)
                blocks.append(Block("markup", content, span[0], span[1], path_tracker.current, note="caption"))
                previous_text = content
            elif CAPTION_LINE.match(content) or PHOTO_CREDIT.match(content):  # Figure 1: …, Photo by …
                blocks.append(Block("markup", content, span[0], span[1], path_tracker.current,
                                    note="caption" if CAPTION_LINE.match(content) else "credit"))
                previous_text = content
            elif _emphasis_line(inline.children):  # *35.85 seconds*: a slide's or figure's note
                blocks.append(Block("markup", content, span[0], span[1], path_tracker.current,
                                    note="emphasis line"))
            elif content:
                container = containers[-1] if containers else "paragraph"
                alert = _ALERT.match(content) if container == "blockquote" else None
                if alert:  # a GitHub alert's marker, > [!NOTE]: markup, the rest is prose
                    blocks.append(Block("markup", alert.group(0).strip(), span[0], span[0], path_tracker.current,
                                        note="alert"))
                    content, spans, atomic, marks = _cut_front(alert.end(), content, spans, atomic, marks)
                legacy = _legacy_alert(inline.children, content) if container == "blockquote" and not alert else 0
                if legacy:  # > **Note** on a line of its own (GitHub's callout before [!NOTE]): its title
                    blocks.append(Block("markup", content[:legacy].strip(), span[0], span[0], path_tracker.current,
                                        note="alert"))
                    content, spans, atomic, marks = _cut_front(legacy, content, spans, atomic, marks)
                field = _field_label(inline.children, content) if not containers else 0
                neighbours = [tokens[i + 1] for i in (index - 3, index + 3)
                              if 0 <= i < len(tokens) - 1 and tokens[i].type == "paragraph_open"]
                if field and not any(_field_label(t.children, inline_text(t.children)[0]) for t in neighbours):
                    field = 0  # one bold run-in title alone ("**Realistic scenarios** We …") stays in its sentence
                if field:  # **Model developers** Meta: a model card's field with a value, no sentence
                    rest = content[field:].lstrip()
                    if len(re.findall(r"[A-Za-z][\w'’-]*", rest)) < 4 or not re.search(r"\b[a-z]{2,}\b", rest):
                        blocks.append(Block("markup", content, span[0], span[1], path_tracker.current, note="field"))
                        content = ""
                    # a field followed by a sentence (**Variations** Llama 3 comes in …) keeps its
                    # label, as a bold run-in label does (label convention (c))
                if content:
                    blocks.append(Block(container, content, span[0], span[1], path_tracker.current,
                                        level=list_depth if container == "list_item" else 0,
                                        marker=markers[-1] if container == "list_item" else "",
                                        math_spans=spans,
                                        lead_in=_lead_in(inline.children, content) or (
                                            (_item_lead(inline.children, content) or plain_run_in(content))
                                            if container == "list_item" else 0),
                                        atomic_spans=atomic, line_marks=marks))
                    previous_text = content
            index += 2
        elif kind == "hr":  # a thematic break (----, ***): a rule, no text
            blocks.append(Block("markup", token.markup, span[0], span[1], path_tracker.current, note="rule"))
        elif kind in ("fence", "code_block"):
            language = token.info.strip().split()[0] if token.info.strip() else ""
            blocks.append(Block("code", token.content, span[0], span[1], path_tracker.current,
                                language=language))
        elif kind in ("math_block", "math_block_label"):
            blocks.append(Block("math", token.content.strip(), span[0], span[1], path_tracker.current))
        elif kind == "html_block":
            blocks.append(Block("html", token.content.strip(), span[0], span[1], path_tracker.current))
            residue = html_residue(token.content)
            caption = _html_caption(token.content, residue, blocks[-2] if len(blocks) > 1 else None)
            if caption is not None:  # <p><picture>…</picture><br>Throughput per request.</p>
                text, offset = caption
                blocks.append(Block("markup", text, span[0] + offset, span[0] + offset, path_tracker.current,
                                    note="caption"))
            elif residue and CAPTION_START.match(residue.strip()):  # <div style=…>Figure 1. Examples of …</div>
                first = next(i for i, line in enumerate(residue.split("\n")) if line.strip())
                blocks.append(Block("markup", " ".join(residue.split()), span[0] + first, span[1], path_tracker.current,
                                    note="caption"))
            elif residue and len(_HTML_ANCHOR.findall(token.content)) > 1 and not html_residue(
                    _HTML_ANCHOR.sub(" ", token.content)):
                # <p align="center"><a …>Learn more</a> · <a …>Join Discord</a></p>: links only
                blocks.append(Block("navigation", " ".join(residue.split()), span[0], span[1], path_tracker.current))
            elif residue and not _nested:  # prose inside <div>/<p>, after </details> or a comment
                for part in _residue_parts(token.content, residue):
                    inner = read_markdown(part, path, _nested=True).shifted(span[0] - 1)
                    blocks.extend(replace(b, section=path_tracker.current + b.section) for b in inner.blocks
                                  if b.kind != "html")
            if "<table" in token.content.lower():  # an HTML table: a table block too (audit.htmltable)
                blocks.extend(_html_tables(token.content, span[0], path_tracker.current, previous_text))
                previous_text = ""
        elif kind == "table_open":
            index, table = _table(tokens, index, span, path_tracker.current, previous_text)
            blocks.append(Block("table", " | ".join(table.header), table.line, table.end_line,
                                table.section, table=table))
            previous_text = ""
        index += 1
    for label, ref in (env.get("references") or {}).items():
        ref_map = ref.get("map")
        if ref_map:
            first = file_line(ref_map[0] + 1)
            blocks.append(Block("reference", f"[{label}]: {ref.get('href', '')}", first,
                                file_line(ref_map[1]), _section_at(blocks, first)))
    for grid in grid_tables:
        blocks.append(_grid_table_block(grid, blocks))
    for item in markup:
        blocks.append(Block(item.kind, item.text, item.line, item.end_line, _section_at(blocks, item.line),
                            language=item.note if item.kind == "code" else "", note=item.note))
    blocks.sort(key=lambda b: (b.line, b.end_line))
    return Document(set_aside_titles(blocks), path, "markdown")  # label convention (h): audit/titles.py


def _line_holding(prepared: str, content: str, file_line: Callable[[int], int]) -> int:
    """The file line of the first line of ``prepared`` holding ``content``'s opening (an inline
    footnote ``^[…]``, which the parser gives no line map), else 1."""
    head = content.split("\n", 1)[0][:60]
    at = prepared.find(head) if head else -1
    return file_line(prepared.count("\n", 0, at) + 1) if at >= 0 else 1


def _section_at(blocks: list[Block], line: int) -> tuple[str, ...]:
    section: tuple[str, ...] = ()
    for block in blocks:
        if block.kind == "heading" and block.line <= line:
            section = block.section
    return section


def _table(tokens: list[Any], index: int, span: tuple[int, int] | None, section: tuple[str, ...],
           caption: str) -> tuple[int, Table]:
    """Read ``table_open`` … ``table_close``; returns the index of ``table_close`` and the table."""
    from audit.pipetable import table_tokens

    from audit.cellmarks import mark_children

    index, header, rows = table_tokens(tokens, index,
                                       lambda children: inline_text(mark_children(children), breaks="\n")[0])
    width = len(header)
    body = tuple(tuple((row + [""] * width)[:width]) for row in rows)
    line, end_line = span if span else (1, 1)
    return index, Table(line, end_line, section, caption, tuple(header), body)


def table_cell_text(text: str) -> str:
    """A cell's source text with inline markup removed, as a pipe-table cell's
    (:func:`inline_text` with line breaks; table cell marks, :mod:`audit.cellmarks`)."""
    from audit.cellmarks import mark_children

    tokens = _parser().parseInline(text)
    return inline_text(mark_children(tokens[0].children if tokens else []), breaks="\n")[0]


def _set_aside_grid_tables(text: str) -> tuple[str, list[Any]]:
    """``text`` with the lines of its grid tables (:mod:`audit.gridtable`) blanked (so that line
    numbers stay and the parser reads none of them as prose), and the tables found."""
    from audit.gridtable import find_grid_tables, find_simple_tables

    lines = text.split("\n")
    tables = find_grid_tables(lines, table_cell_text)
    taken = {n for t in tables for n in range(t.first_line, t.last_line + 1)}
    tables += [t for t in find_simple_tables(lines, table_cell_text)
               if not taken & set(range(t.first_line, t.last_line + 1))]
    for table in tables:
        for number in range(table.first_line, table.last_line + 1):
            lines[number - 1] = ""
    return ("\n".join(lines) if tables else text), tables


def _grid_table_block(grid: Any, blocks: list[Block]) -> Block:
    """The ``table`` block of a grid table; its caption is the text of the last paragraph or heading
    before it (the pipe-table convention), its section the heading path at its first line."""
    before = [b for b in blocks if b.line < grid.first_line and b.kind in ("paragraph", "heading")]
    caption = max(before, key=lambda b: b.line).text if before else ""
    section = _section_at(blocks, grid.first_line)
    table = Table(grid.first_line, grid.last_line, section, caption, grid.header, grid.rows,
                  row_lines=grid.row_lines)
    return Block("table", " | ".join(table.header), table.line, table.end_line, section, table=table)


def _html_tables(html: str, first: int, section: tuple[str, ...], caption: str) -> list[Block]:
    """The ``table`` blocks of an HTML block's well-formed ``<table>`` elements (:mod:`audit.htmltable`),
    in file lines (``first`` is the block's first line); a table's caption is its ``<caption>``, else
    (the first table only) the paragraph or heading before the block. The HTML block stays, so its
    prose around the tables is read as before."""
    from audit.htmltable import read_html_tables

    blocks = []
    for number, t in enumerate(read_html_tables(html)):
        table = Table(first + t.first_line - 1, first + t.last_line - 1, section,
                      t.caption or (caption if number == 0 else ""), t.header, t.rows)
        blocks.append(Block("table", " | ".join(table.header), table.line, table.end_line, section, table=table))
    return blocks


# ---------------------------------------------------------------------------------------------
# From a pack.

def looks_like_markdown(text: str) -> bool:
    """Whether pack chapter text carries Markdown structure (else it is flattened plain text).

    Markdown if the text opens with front matter, or any line is a code fence (```/~~~) or a
    ``$$`` math line, or it has ATX headings (``#`` … ``######`` + space) or a table delimiter row
    (``|---|``) *and* blank lines between its blocks. A flattened page (one paragraph per line, no
    blank lines) with a stray ``## …`` line or pipe tables stays flattened text (whose reader
    reads pipe tables, :func:`audit.flattened.read_flattened`).
    """
    lines = text.split("\n")
    if lines and lines[0].strip() in ("---", "+++"):
        return True
    strong = re.compile(r"^\s{0,3}(?:```|~~~|\$\$)")
    if any(strong.match(line) for line in lines):
        return True
    heading = re.compile(r"^\s{0,3}#{1,6}\s")
    delimiter = re.compile(r"^\|?\s*:?-{3,}:?\s*\|")  # on the stripped line: linear on space runs
    return _blank_between(text) and any(heading.match(line) or ("-" in line and delimiter.match(line.strip()))
                                        for line in lines)


def _blank_between(text: str) -> bool:
    """Some blank line separates two blocks (Markdown); a flattened page has none."""
    return any(not line.strip() for line in text.strip().split("\n"))


def document_from_pack(pack: Any) -> Document:
    """The document model of a loaded pack's chapter text, in the pack file's line numbers.

    A Markdown snapshot (``paragraph_rule == "block"``) or chapter text that
    :func:`looks_like_markdown` is parsed as Markdown; other text is flattened plain text,
    one paragraph per line (:func:`audit.flattened.read_flattened`, which reads pipe tables too, so
    a line under a table is prose: seed 000). Flattened text with code fences but no blank line
    between blocks is parsed as Markdown with each line a paragraph of its own
    (``line_paragraphs``) when it opens with front matter or holds ``$$`` math; when its only
    Markdown sign is fence lines (:func:`_fences_only`) it is flattened text.
    """
    from audit.flattened import read_flattened

    text = pack.chapter_text
    offset = pack.chapter_text_line - 1
    if getattr(pack, "paragraph_rule", "line") == "block":
        return read_markdown(text, pack.source_path).shifted(offset)
    if looks_like_markdown(text) and (_blank_between(text) or not _fences_only(text)):
        return read_markdown(text, pack.source_path, line_paragraphs=not _blank_between(text)).shifted(offset)
    return read_flattened(text, pack.source_path).shifted(offset)


def _fences_only(text: str) -> bool:
    """Text with no blank line whose only Markdown sign is a code-fence line (no front matter, no
    ``$$``): a flattened page that shows a source file in its code (a Quarto page showing
    ```` ```{python} ```` cells), whose prose and unfenced code the flattened reader reads, and which
    holds the fenced lines as code (:func:`audit.flattened._fenced_lines`)."""
    lines = text.split("\n")
    return not (lines and lines[0].strip() in ("---", "+++")) and not any(
        re.match(r"^\s{0,3}\$\$", line) for line in lines)


def describe_block(block: Block) -> str:
    """A short provenance label, e.g. ``code (python), lines 12–18``."""
    span = f"line {block.line}" if block.line == block.end_line else f"lines {block.line}–{block.end_line}"
    label = block.kind.replace("_", " ")
    if block.kind == "code":
        label += f" ({block.language})" if block.language else " (no language)"
    return f"{label}, {span}"


__all__ = ["BLOCK_KINDS", "PROSE_KINDS", "Block", "Document", "SectionPath", "Table",
           "describe_block", "document_from_pack", "inline_text", "table_cell_text", "looks_like_markdown",
           "read_markdown"]
