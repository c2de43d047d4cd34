"""Recover the structure of a web page flattened to plain text (one paragraph per line).

The pack's chapter text is a page whose HTML was flattened: every block became one line, so
headings, tables and formulas lost their markup and are glued to the prose around them. Each
non-blank line is read as a paragraph, then these stated heuristics recover what the
flattening lost; every block they produce is marked ``recovered`` and names its heuristic in
``note``. All are conservative: when a condition fails, the line stays one paragraph.

1. **Glued heading** (``glued-heading``). A line opens with a sentence-case heading glued to
   the first sentence of the section: words ``w0 … w(i−1)`` then a capitalised *sentence
   opener* ``wi`` (a word from :data:`SENTENCE_OPENERS` such as ``The``, ``Even``, ``Part``,
   written with a capital and otherwise lower case). Conditions: 2 ≤ i ≤ 12; ``w0`` is
   capitalised; ``w1 … w(i−1)`` are lower case (hyphens allowed) with no punctuation or digits;
   ``w(i−1)`` is not a function word (:data:`FUNCTION_WORDS`: a heading does not end in
   "the"); the rest from ``wi`` has at least 3 words. The first such ``wi`` splits the line into
   a level-2 heading and a paragraph. A Title Case heading of one to eight capitalised words
   (inner function words and a version such as ``v3`` allowed, no word ending in ``:``), or a
   lower-case one of one to four words (``quick start``), followed by a sentence opener
   (contractions count: ``We've``, ``Here's``, ``Let's``) is split the same way. Headings of
   other shapes (a section number, inner colons, names with digits, a repeated heading word as
   the seam: :func:`_shaped_heading`) and question headings (:func:`_question_heading`) too. A
   heading glued to a sentence that opens with a proper noun is not recovered (stated limitation).
2. **Flattened table** (``flattened-table``). A line opens with a header of column names —
   words without digits or punctuation — followed by a *row start*: a capitalised word or an
   acronym directly followed by a number. The header splits into columns at capitalised
   words (sentence-case column names: ``Selector | Unit cap | Content cap | Selection rule``);
   it needs 2–8 columns of at most 4 words. The rest splits into rows at each later row start.
   In a row, the first word is the row label; each middle column takes one number (with a
   following lower-case word or unit abbreviation as its unit, ``1,200 characters``,
   ``6.4 GB``: :data:`UNIT_ABBREVIATIONS`) or one word (``none``); the
   last column takes the remaining words, which start at the row's first capitalised word
   after the label (a number takes its unit word only when there are more middle words than
   middle columns). In the last row, the last cell ends where a new
   sentence starts (a capitalised sentence opener followed by at least 3 words ending in
   ``.``, ``!``, ``?`` or ``:``); that sentence and the rest of the line are a paragraph.
   A table needs two rows or more, and no column name after the first opens with a sentence
   opener: ``Model Architecture Llama 3 is an auto-regressive …`` (one "row") and ``Cyber Security
   We have evaluated Llama 3 …`` are a heading and a sentence, never a table. A row may start
   with a range or a number in scientific notation (``16–32``, ``1e-4``).
3. **Table header fragment** (``table-header``). A line of 2–12 words with no digits or
   punctuation that splits into 3–8 sentence-case column names as in rule 2, directly after a
   line ending in ``:``, is a table with a header and no rows (the page was cut there).
4. **Formula line** (``formula``). A line that opens with ``name = …`` (an identifier, ``=``,
   then an expression) holds one or more formulas up to the first sentence that starts with
   a capitalised sentence opener and runs at least 3 words to a ``.``/``!``/``?``; each
   ``name =`` starts a new formula line of the math block; the sentence and the rest of the
   line are a paragraph.

   A line whose text before its first sentence end, outside parentheses, holds three plain words
   in a row (``N = 40 tasks were evaluated.``) is a sentence, never a formula.
5. **Code and log lines** (``code``). A line, or the tail of a line after a sentence end or a
   colon, that opens like a shell command (``$ ``, ``pip install``, ``python -m``, ``git clone``,
   …), a Python statement (``import x``, ``from x import y``, ``>>> ``, ``def f(``, ``x = f(…)``,
   ``x = "…"``, a tuple assignment ``a, b = f(…)`` / ``a, b = 1, 2``), a shell line (``bash x``,
   ``cd dir``, ``export NAME=…``, ``./run``, ``tools/bin/eval -m map``), YAML settings (two or more
   ``snake_key: value``), trec_eval output (``map all 0.2886``), or a log line (an ISO time stamp, ``INFO``/``WARNING``/``ERROR``, ``Epoch 1/3``,
   ``[1/10]``) is a code block up to the next sentence (two words or more) that starts with a
   sentence opener; the
   prose before and after is a paragraph. A line of three or more short items joined by `` · ``
   or `` | `` with no sentence punctuation is ``navigation`` (a breadcrumb or tab bar).

   A call-out title glued to its first sentence (``Tip The fused run is cheap.``, a word of
   :data:`CALLOUT_WORDS` before a sentence opener) is ``markup`` and the sentence a paragraph; a
   line of one to six words with no digit, symbol or final punctuation, its first word
   capitalised (``Further reading``, also after a section number: ``11.3.1. Summary``), is a
   level-2 heading (``short-line``); one to three lower-case words (``pytorch mxnet``, tab
   labels) are ``markup``.

   A caption line (``Figure 1: …``, ``Table 2: …``, one sentence at most), a stock-photo credit
   (``Photo by … on Unsplash``), an admonition opener alone on its line (``??? "Output"``) or
   glued before its body (``!!! tip "Title" Body …``: the body is a paragraph), and an output
   banner (``##### MRR @10: 0.36 #####``, ``code``) are not prose; ``Note: …`` with its colon is
   a sentence as written. A line of six or more bare numbers making a third of its words and
   no sentence end is a table rule 2 could not split: ``markup`` (``number grid``). A
   ``name=value`` line with a worded aside (``Oversampling=2.0 (or more)``) is no formula.

6. **Pipe tables** (read as written): a line starting with ``|`` directly followed by a delimiter
   row opens a Markdown table running over the following ``|`` lines; it is parsed alone, so the
   first line under it that does not start with ``|`` is prose (a GFM parser would take it in).

   A paragraph (not a list item) opening with a run-in label whose bold was lost — one or two
   words and a full stop before a capital (``Representation. Keep all …``, a flattened
   ``**Representation.**``), or a verbless title of up to four words (eight with a subtitle's
   colon or dash: ``Red herring — the transformers version. A GitHub issue …``) —
   records it as its ``lead_in``, kept with the sentence it opens (:func:`flattened_lead_in`,
   label convention (c), :mod:`audit.runin`).

   Site markup and lists left in a line: a directive option (``:label: x``) is ``markup``; ``*
   item`` runs after a colon are list items; a caption glued after a sentence is ``markup``; a
   heading glued to a numbered item (``Train 1. RetroMAE …``) is split. Short lines after a line
   ending in ``:`` (a list without markers) and ``Let's …`` lines are prose, not headings; a
   line of names and cells (``model params train loss … gpt2 124M 3.11 …``) is a ``number
   grid``; emphasis left in prose (``__word__``) is removed.

7. **Marked-up lines** (not recovered, read as written): a line ``#`` … ``######`` + space is a
   heading of that level (unless rule 8 makes it a code comment); a line that opens with an HTML
   tag and ends with ``>`` is an ``html`` block; a line that opens with a list marker (``1.``,
   ``2)``, ``-``, ``*``, ``•``, ``–``, ``✓``, ``✅``, ``▪`` … + space) is a ``list_item`` whose marker is kept
   out of the text (in ``marker``); a footnote's back-link ``↩`` at a line's end is dropped from
   the text. A heading glued to the first item of a bulleted list (``todos • Investigate …``, one
   `` • `` in the line) is split; a heading with its permalink mark (``Evaluation¶ We …``,
   ``Installation# The …``) is split at the mark; a title alone on its line shaped as one (``Label:
   Title`` or ``Title (aside)``, an optional icon first, at most eight words, no sentence end, no
   digit outside the parentheses: an admonition's title) is a heading; a line with a relation and
   a math symbol or TeX command and no sentence end or three plain words (``L = −∑ y log p``) is
   ``math``.

8. **Whole lines read with their neighbours** (decided first, from the raw line with its
   indentation; a browser's copy or an HTML-to-text tool keeps a ``<pre>`` block's lines and
   indentation, and prose lines have none):

   * *Code lines* (``code``, note ``code line``; one block per line, so line numbers stay
     exact): a line of its own code shape (:data:`_STRONG_CODE`: a prompt, a command or keyword of
     a shell, Python, JavaScript, Rust, Go, C, R or SQL followed by code punctuation, a traceback
     line or exception, an option ``--x``, brackets only, a JSON key, a code-shaped assignment
     ``x = f(…)`` / ``seed=42``, a call, a decorator, a comment opener, a time stamp, a log level,
     a rule of ``=``/``#``/``*``, a dict or list literal, a progress bar, a path command), two YAML
     settings in a row, two log lines opening with the same ``key:`` and holding digits; then,
     after a code line: a line it continues (a backslash, an open bracket, a comma, an operator; a
     prose-shaped line only after a backslash), an indented line, a line of output (no sentence end, and
     a digit or symbol, a lower-case start, indentation, or ``key : value``), a ``#`` line, a short
     line between code lines (not a single word, a tab label; ending in ``:`` only before an
     indented line). A ``# comment`` line before a command is code; an indented line that is no
     sentence, no list item and not one bare word is code; a heading glued to the code under it
     (two to six Title Case words or a stock title, then code with no three plain words:
     ``Citation @article{key,``) is a heading and a code line. Never a prose-shaped line
     (:func:`_prose_shaped`: a capital first, four words, a sentence end, three plain words), a
     setting with a worded aside, or a line rule 5 splits (code glued to prose).
   * *Site chrome* (``markup``, note ``chrome``/``caption``; ``navigation``, note
     ``breadcrumb``/``contents``): a whole line of :data:`_CHROME_LINE` (``Edit this page``,
     ``Share``, ``5 min read``, bylines with ``·``, ``Last updated …``, ``Tags: …``, copyright and
     "built with" footers, a bare URL), a previous/next link with an arrow or guillemet, a
     breadcrumb (``›``/``»``, or ``>``/``/`` with three items), a caption or credit (``Fig. 2.``,
     ``Source:``, ``Image credit:``); a contents label (``Table of contents``, ``On this page``,
     ``Related posts``) and the run of entries under it (twelve words at most without a final
     ``.``/``:``/``;``/``,``, or any line whose text comes again below as the start of a line).
     A line that starts with a contents entry followed by a capitalised word is that heading
     glued to its first paragraph: it is split there (note ``contents-heading``).
   * *Column tables* (``table``, note ``column-table``): two lines or more laid out in columns
     (cells split by a tab or two to sixty spaces inside the line, as ``w3m -dump`` and inscriptis
     render a table and a browser copies one with tabs), each with the first line's number of
     cells or one fewer, none of them code; the first line is the header.

9. **Icons, figure labels, value labels, announced tables, printed records** (branch
   pack-nonprose): an icon opening a line or item (``⚠️``, ``🎛️``, :data:`_ICON`) is ``markup``
   (note ``icon``) and the rest is read on, a one-word question right after it (``⁉️ Why? …``) being
   a heading; an icon after a short verbless title (``Supported Models ❗️We use …``) splits that
   heading off; a figure's label alone (``Figure 4,``, ``Table 7, from Appendix C)``) or with a full
   stop (``Figure 1. Structure …``) is a ``caption``; a number and one or two unit words alone
   (``35.85 seconds``) is a ``value label``; a line of cells under a sentence ending in a colon
   (:func:`_table_after_colon`) is a ``number grid``; two printed records in a row opening with one
   word (``sample 1: …``, ``Input movie_id: 1962``, :data:`_RECORD_LINE`) are code lines; a bare
   slide number before a Title Case heading (``27 Comparing the Models So let's …``) belongs to the
   heading; a short line holding ``label: a …`` is an item's text, not a heading. The first line
   read as text is where the page's title lands: a Title Case title glued to the first paragraph
   (``LoRA Without Regret Recent research …``) is split off as a level-1 heading (note
   ``page-title``, :func:`_page_title`). A specification of three cells or more joined by `` | ``
   closing a line (a figure's settings under it) is a ``caption`` (:func:`_spec_tail`). A
   contents entry shaped as code (``tinystore.Index.search()``) that the page repeats below, or
   holding ``vs.``, keeps the contents run; an API heading (one dotted name or ``name()``) glued
   to a sentence is a heading (note ``api-heading``, :func:`_api_heading`), never a code line.
   From the batch-8 pages: a call with its ``# comment``, notebook magics (``!pip``, ``%pip``), a
   command with its options (``tsgen --seed=123`` and a final backslash), an install line after a stock heading
   (``Usage uv pip install …``), a literal ``![alt](path)`` (``image``), a disclosure label
   (``Click to show …``), an icon after a heading and its bullet, a one-line table of identifiers
   (:func:`_identifier_table`), a title whose first word the sentence repeats or with a spaced colon,
   a stock heading before a role (``Overview {cite:t}`x` plotted …``); a link of five words or more
   with an arrow is a sentence, not a previous/next link, and ends a contents run.

Lines are 1-based lines of the given text; :meth:`audit.document.Document.shifted` moves them
to file lines.
"""

from __future__ import annotations

import re

from audit.blocks import Block, Document, SectionPath, Table
from audit.pipetable import read_pipe_table
from audit.runin import FINITE_VERBS, reads_as_sentence
from audit.sitemarkup import CAPTION_LINE, CAPTION_START, PHOTO_CREDIT, is_navigation_line
from audit.titles import has_verb, plain_run_in, set_aside_titles
from audit.unwrap import join_wrapped_lines

SENTENCE_OPENERS = frozenset("""
the a an this that these those it its we our you your they their there here in on at for from
with when while if even but and so yet however each every all some most many no not only what
which how why one two three four five part after before afterwards as to by because although
though since unlike like both first second third next then finally once now today instead
according additionally based several note recall consider suppose such other also moreover
furthermore currently recently similarly given using despite unfortunately generally typically
usually another following
""".split())
FUNCTION_WORDS = frozenset("""
the a an of to in on at for from with by and or but as is are was were be that this these those
its their our your than then into onto over under per via
""".split())

_WORD = re.compile(r"\S+")
_PLAIN_WORD = re.compile(r"^[A-Za-z][a-z]*(?:-[a-z]+)*$")
_LOWER_WORD = re.compile(r"^[a-z]+(?:[-/][a-z]+)*$")
_CAPITAL_WORD = re.compile(r"^(?:[A-Z][a-z]+(?:-[a-z]+)*|[A-Z]{2,}[a-z]*|[a-z]?[A-Z][A-Za-z]*[A-Z][A-Za-z]*)$")
_HEADER_WORD = re.compile(r"^[A-Za-z][A-Za-z]*(?:[-/][A-Za-z]+)*$")
_NUMBER = re.compile(r"^[-+−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?%?$|^[-+−]?\.\d+%?$")
_FORMULA_START = re.compile(r"^[A-Za-z_][\w]*(?:\([^)]*\))?\s*=\s*\S")
_FORMULA_NAME = re.compile(r"(?<=\s)[A-Za-z_]\w*(?:\([^)]*\))?\s*=\s")
_END = re.compile(r"[.!?:][\"'”’)\]]*$")


def read_flattened(text: str, path: str | None = None) -> Document:
    """Blocks of flattened plain text (module docstring); lines are 1-based lines of ``text``."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    blocks: list[Block] = []
    sections = SectionPath()
    previous = ""  # the previous line, raw (rule 3 needs its final ":")
    list_run = False  # after a line ending in ":", while the lines stay short: a list lost its markers
    pipe_tables = _pipe_tables(lines)
    following_lines = [""] * len(lines)
    upcoming = ""
    for index in range(len(lines) - 1, -1, -1):
        following_lines[index] = upcoming
        if lines[index].strip():
            upcoming = lines[index].strip()
    code_lines = _code_lines(lines)
    underlines = section_underlines(lines)
    chrome_lines = _chrome_lines(lines, code_lines)
    code_lines -= {i for i, note in chrome_lines.items() if note == "contents"}  # "tinystore.Index.search()" listed
    column_tables = {start: end for start, end in _column_tables(lines, code_lines).items()
                     if not any(i in code_lines for i in range(start, end))}
    column_end = 0
    list_lines: set[int] = set()  # lines of a list that lost its markers: entries, never title lines
    title_seen = False  # the first line read as text (not chrome, code or a table): where a page's title is
    listed = sorted({" ".join(lines[i].split()) for i, note in chrome_lines.items() if note == "contents"
                     and not _CONTENTS_LABEL.match(" ".join(lines[i].split()))}, key=len, reverse=True)
    listed_set = set(listed)
    for i in list(code_lines):  # "tinystore.Index.search() The search method …": a listed heading and its text
        text = " ".join(lines[i].split())
        if any(text.startswith(e + " ") and re.match(r"\s+[\"'“(]?[A-Z0-9]", text[len(e):])
               and _prose_shaped(text[len(e):].strip()) for e in listed):
            code_lines.discard(i)
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line or number <= column_end:
            continue
        in_list, list_run = list_run, _introduces_list(line) or (list_run and len(line.split()) <= 15)
        if in_list:
            list_lines.add(number)
        if number - 1 in column_tables and number not in pipe_tables:
            column_end = column_tables[number - 1]
            rows = [tuple(c for c in re.split(r"\t+|\s{2,}", r.strip()) if c) for r in lines[number - 1:column_end]]
            header, body = rows[0], tuple((r + ("",) * len(rows[0]))[:len(rows[0])] for r in rows[1:])
            caption = blocks[-1].text if blocks and blocks[-1].kind in ("paragraph", "heading") else ""
            table = Table(number, column_end, sections.current, caption, header, body, recovered=True,
                          row_lines=tuple(range(number + 1, column_end + 1)))  # one row a line
            blocks.append(Block("table", " | ".join(header), number, column_end, sections.current, recovered=True,
                                table=table, note="column-table"))
            previous = lines[column_end - 1]
            continue
        if number in underlines and number - 2 not in underlines and not _ADORNMENT.match(line):
            # "Request/Response Rate (TCP_RR)" over "=====": a section's title
            text = " ".join(line.split())
            blocks.append(Block("heading", text, number, number, sections.enter(2, text), recovered=True, level=2,
                                note="underlined"))
            previous = line
            continue
        if number - 1 in underlines:  # "============" under "Introduction": a section title's adornment
            blocks.append(Block("markup", line, number, number, sections.current, recovered=True, note="underline"))
            previous = line
            continue
        if number - 1 in code_lines and number not in pipe_tables:  # one code block per line: lines stay exact
            note = "banner" if re.match(r"^(?:#{7,}|={7,}|\*{7,})(?:\s|$)", line) else "code line"
            seam = _heading_before_code(line, comment=True)
            if seam is not None:  # "Citation @article{key," : a heading glued to the code under it
                heading = line[:seam].strip()
                blocks.append(Block("heading", heading, number, number, sections.enter(2, heading), recovered=True,
                                    level=2, note="glued-heading"))
                raw = line[seam:]
            blocks.append(Block("code", raw.rstrip(), number, number, sections.current, recovered=True, note=note))
            previous = line
            continue
        if number - 1 in chrome_lines and number not in pipe_tables:
            note = chrome_lines[number - 1]
            blocks.append(Block("navigation" if note in ("contents", "breadcrumb") else "markup", line, number, number,
                                sections.current, recovered=True, note=note))
            previous = line
            continue
        if number in pipe_tables:
            table = pipe_tables[number]
            if table is not None:
                caption = blocks[-1].text if blocks and blocks[-1].kind in ("paragraph", "heading") else ""
                table = Table(table.line, table.end_line, sections.current, caption, table.header, table.rows)
                blocks.append(Block("table", " | ".join(table.header), table.line, table.end_line,
                                    sections.current, table=table))
            previous = line
            continue
        spec = _spec_tail(line)
        if spec is not None:  # "… subject to change. TensorRT-LLM v0.7a | Falcon-180B | 1xH200 TP1 | INT4 AWQ"
            tail_block = Block("markup", line[spec:].strip(), number, number, sections.current, recovered=True,
                               note="caption")
            line = line[:spec].strip()
            if not line:
                blocks.append(tail_block)
                previous = tail_block.text
                continue
        else:
            tail_block = None
        if not title_seen:
            title_seen = True
            words = [(m.start(), m.group(0)) for m in _WORD.finditer(line)]
            seam = _page_title(words) if not any(b.kind in ("paragraph", "heading", "list_item") for b in blocks) else None
            recovered = None if seam is None else _recover(line, number, previous, following_lines[number - 1], in_list)
            if seam is not None and len(recovered) == 1 and recovered[0].kind == "paragraph":
                heading = line[:words[seam][0]].strip()  # the page's title glued to its first paragraph
                blocks.append(Block("heading", heading, number, number, sections.enter(1, heading), recovered=True,
                                    level=1, note="page-title"))
                line = line[words[seam][0]:]
        if " ".join(line.split()) in listed_set:  # "2. How does BERT Work?": a heading the contents list named
            text = " ".join(line.split())
            blocks.append(Block("heading", text, number, number, sections.enter(2, text), recovered=True, level=2,
                                note="contents-heading"))
            previous = line
            continue
        entry = next((e for e in listed if line.startswith(e + " ") and len(line[len(e):].split()) >= 2
                      and re.match(r"\s+[\"'“(]?[A-Z0-9]", line[len(e):])), None)
        recovered = (_recover(line, number, previous, following_lines[number - 1], in_list) if entry is None else
                     [Block("heading", entry, number, number, recovered=True, level=2, note="contents-heading")]
                     + _recover(line[len(entry):].strip(), number, entry))
        for block in recovered:
            if block.kind == "heading":
                level = block.level or 2
                block = Block("heading", block.text, number, number, sections.enter(level, block.text),
                              recovered=block.recovered, level=level, note=block.note)
            elif block.kind == "table" and block.table is not None:
                caption = blocks[-1].text if blocks and blocks[-1].kind in ("paragraph", "heading") else ""
                table = Table(number, number, sections.current, caption, block.table.header,
                              block.table.rows, recovered=True)
                block = Block("table", block.text, number, number, sections.current, recovered=True,
                              table=table, note=block.note)
            else:
                text = _unemphasised(block.text) if block.kind in ("paragraph", "list_item") else block.text
                block = Block(block.kind, text, number, number, sections.current,
                              recovered=block.recovered, note=block.note, marker=block.marker,
                              lead_in=flattened_lead_in(block.text) if block.kind == "paragraph" else
                              (_item_lead_in(block.text) or plain_run_in(block.text)) if block.kind == "list_item" else 0)
            blocks.append(block)
        if tail_block is not None:
            blocks.append(tail_block)
        previous = line
    return Document(set_aside_titles(join_wrapped_lines(blocks), frozenset(list_lines)), path, "flattened")  # hard-wrapped text (audit/unwrap.py)


_API_NAME = re.compile(r"^(?:[A-Za-z_][\w]*\.)+[A-Za-z_]\w*(?:\(\))?(?=\s+[\"'“(]?[A-Z])|^[A-Za-z_]\w*\(\)(?=\s+[\"'“(]?[A-Z])")


def _api_heading(line: str) -> int | None:
    """Offset of the sentence after an API heading glued to it (``tinystore.Index.search() The
    search method returns …``, ``encode() Encodes …``): one dotted name or call with empty
    parentheses, then a sentence (a capital first, four words, a sentence end, three plain words);
    read so, the sentence is kept, never taken into a code line."""
    name = _API_NAME.match(line)
    if name is None or not _prose_shaped(line[name.end():].strip()):
        return None
    return name.end()


def _spec_tail(line: str) -> int | None:
    """Offset of a caption's specification closing the line (``… subject to change. TensorRT-LLM
    v0.7a | Falcon-180B | 1xH200 TP1 | INT4 AWQ | BS: (in order) 256, 128``): three cells or more
    joined by `` | ``, each of at most six words, after a sentence end or from the line start, no
    cell ending a sentence and no three plain words in a row (the settings of a figure printed
    under it, not a sentence naming alternatives)."""
    if line.count(" | ") < 2 or line.startswith("|"):
        return None
    first = line.index(" | ")
    end = max((m.end() for m in re.finditer(r"[.!?](?=\s)", line[:first])), default=0)
    cells = [c.strip() for c in line[end:].split(" | ")]
    if len(cells) < 3 or not all(c and len(c.split()) <= 6 for c in cells):
        return None
    if any(re.search(r"[A-Za-z][.!?]$", c) for c in cells) or _PROSE_RUN.search(" " + line[end:] + " "):
        return None  # "We compare A | B | C setups across runs." is a sentence
    return end


_LEAD_IN = re.compile(r"^([A-Z][a-z]+(?:[- ][a-z]+)?\.) (?=[A-Z])")
"""A flattened bold lead-in (``Representation. Keep all …``): one or two words and a full stop
opening the line, kept with the sentence it opens, as ``**Bold.** Text`` is in Markdown."""
_TITLE_LEAD = re.compile(r"^([A-Z0-9][^.!?]{0,80}?\.) (?=[A-Z\"“(])")


def flattened_lead_in(text: str) -> int:
    """Length of a run-in label opening a flattened line (its bold was lost), else 0: one or two
    words and a full stop (:data:`_LEAD_IN`), or a verbless title closed by a full stop before a
    capital — at most four words, or at most eight with a subtitle's colon or dash — (``Symptom.``, ``Reproducing 1989 performance.``, ``Designing AI
    Systems: Composition Frameworks and Strategies.``: :func:`audit.runin.reads_as_sentence`), with
    a sentence of three or more words after it; kept with that sentence (label convention (c))."""
    lead = _LEAD_IN.match(text)
    if lead:
        return len(lead.group(1))
    title = _TITLE_LEAD.match(text)
    if title is None:
        return 0
    label = title.group(1)
    titled = len(label.split()) <= 4 or re.search(r"\w: |\s[—–-]\s", _ROLE_TEXT.sub("", label))
    if len(label.split()) > 8 or not titled or reads_as_sentence(label) or len(text[title.end():].split()) < 3:
        return 0
    return len(label)


_ROLE_TEXT = re.compile(r":[\w-]+:`[^`]*`")
_ITEM_LEAD_DETERMINERS = frozenset("your a an the our my their its one some".split())


def _item_lead_in(text: str) -> int:
    """Length of a run-in label opening a flattened list item (``Your DSPy program. This may be
    …``, a flattened ``- Your **DSPy program**. This …``), else 0: a noun phrase of at most five
    words opening with a determiner or possessive, with no verb (:func:`audit.titles.has_verb`),
    closed by a full stop before a capital, and a sentence of three words or more after it. A bare
    imperative item (``Tokenise. Lower-case the text.``) opens with no determiner: two sentences."""
    title = _TITLE_LEAD.match(text)
    if title is None:
        return 0
    label = title.group(1)
    words = label.split()
    if (len(words) > 5 or words[0].lower() not in _ITEM_LEAD_DETERMINERS or has_verb(label)
            or len(text[title.end():].split()) < 3):
        return 0
    return len(label)


def _recover(line: str, number: int, previous: str, following: str = "", in_list: bool = False) -> list[Block]:
    """The blocks of one flattened line (line numbers and sections are filled in by the caller);
    ``following`` is the next non-blank line, ``in_list`` says the line follows a line ending in
    ``:`` through short lines (a list whose markers the flattening dropped)."""
    atx = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
    if atx and atx.group(1) == "##" and re.match(r"^(?:\[\d+\]\s|#\s|\d+\s{2,}|<\w+>)", atx.group(2)):
        return [Block("code", line, number, number, recovered=True, note="code line")]  # knitr's "## [1] 0.81"
    if atx:
        return [Block("heading", atx.group(2), number, number, level=len(atx.group(1)))]
    if re.match(r"^<[A-Za-z!/][^>]*>", line) and line.endswith(">"):
        return [Block("html", line, number, number)]
    blocks: list[Block] = []
    position = 0
    option, caption = _INLINE_MARKUP.search(line), _GLUED_CAPTION.search(line)
    while True:  # site markup glued inside the line, leftmost first (a loop over one cursor: a line may hold thousands)
        if option and (not caption or option.start() <= caption.start()):
            # ":label: residualDef" left in the line by a flattened MyST/Sphinx directive
            before, marked, position = line[position:option.start()].strip(), option.group(0).strip(), option.end()
            note = ("attribute list" if marked.startswith("{") else "directive fence" if marked[:1] in "`~:"
                    and not re.match(r":\w", marked) else "directive option")
        elif caption:  # "… in tens of milliseconds. Figure 1: ColBERT's late interaction, …": a figure's caption
            before = line[position:caption.start()].strip()
            end = _CAPTION_END.search(line, caption.end())
            stop = end.end() if end else len(line)
            if option and option.start() < stop:
                stop = option.start()  # the caption ends where a directive option starts
            marked, position = line[caption.start():stop].strip(), stop
            note = "caption"
        else:
            rest = line[position:].strip()
            return blocks + (_recover_line(rest, number, previous, following, in_list) if rest else [])
        if before:
            blocks += _recover_line(before, number, previous)
        blocks.append(Block("markup", marked, number, number, recovered=True, note=note))
        previous = marked
        if option and option.start() < position:
            option = _INLINE_MARKUP.search(line, position)
        if caption and caption.start() < position:
            caption = _GLUED_CAPTION.search(line, position)
        if not line[position:].strip():
            return blocks


_CAPTION_END = re.compile(r"[.!?](?=\s+[A-Z])")
_TITLE_FRAGMENT = re.compile(r"^(?:[^\w\s(\[]{1,2}\s+)?[A-Z][^.!?;:\d]{0,60}?(?::\s+[A-Z][^.!?;:\d]{0,60}|\s\([^()]{1,20}\))$")
"""A title alone on its line, shaped as one: ``Label: Title`` or ``Title (aside)`` after an optional
icon (``The real value: Looking at your data``, ``📋 Output (baseline v1)``; an admonition's or a
card's title): no sentence end, no digit outside the parentheses, at most eight words."""
_HEADING_BEFORE_BULLET = re.compile(r"^([^.!?:;•]{1,80}?[\w)*?\U0001F000-\U0001FAFF\u2600-\u27BF\uFE0F]:?)\s•\s(\S.*)$")
"""A heading of one line glued to the first item of the bulleted list under it (``todos •
Investigate …``, ``Reproduction Log* • Results reproduced by …``, ``What's New: • 01/15/2026 …``)."""
_HEADERLINK = re.compile(r"^([^\s¶#][^¶#.!:;]{0,100}?[\w?)])[¶#](?=\s|$)")
"""A heading and its permalink mark glued after its last word (``Notes¶``, ``Installation#``)."""
_MATH_LINE = re.compile(r"^(?=.*(?:[=≤≥≈∝]|\\[a-zA-Z]+\{))(?=.*(?:[∑∏‖√∫∂∈∀∃·×−]|\\[a-zA-Z]+))[^.!?]*$")
"""A formula left by a math renderer (``L = −∑ y log p``, ``\\mathrm{nDCG}@k = \\frac{…}{…}``): a relation
or a TeX command, a math symbol, no sentence end."""


def _recover_line(line: str, number: int, previous: str, following: str = "", in_list: bool = False,
                  after_icon: bool = False, nested: bool = False) -> list[Block]:
    """:func:`_recover` for a line without glued directive options or captions; ``after_icon``: the
    line followed an icon (``⁉️ Why? Although …``), so a one-word question opening it is a heading;
    ``nested``: the rest of a line a seam rule already split (no seam rule splits it again, so a line
    of thousands of glued titles and icons is read without recursion)."""
    if line.rstrip("\ufe0e").endswith("↩"):  # a footnote's back-link is the page's link, not its text
        line = line.rstrip("\ufe0e")[:-1].rstrip()
    item = re.match(r"^(\d{1,3}[.)]|[-*•–—✓✔✅▪◦‣►])\s+(\S.*)$", line)
    if item:
        icon = _ICON.match(item.group(2))
        if icon and item.group(2)[icon.end():].strip():  # "• 📈 High accuracy …": the item's icon
            return [Block("markup", icon.group(0).strip(), number, number, recovered=True, note="icon"),
                    Block("list_item", item.group(2)[icon.end():].strip(), number, number, marker=item.group(1))]
        return [Block("list_item", item.group(2), number, number, marker=item.group(1))]
    api = None if nested else _api_heading(line)
    if api is not None:  # "tinystore.Index.search() The search method returns keys.": an API heading
        return ([Block("heading", line[:api].strip(), number, number, recovered=True, level=2, note="api-heading")]
                + _recover_line(line[api:].strip(), number, line[:api].strip(), nested=True))
    icon = None if nested else _ICON.match(line)
    if icon and line[icon.end():].strip():  # "⚠️ Testing …", "🎛️ Sample size It can be …": an icon
        rest = line[icon.end():].strip()
        return ([Block("markup", icon.group(0).strip(), number, number, recovered=True, note="icon")]
                + _recover_line(rest, number, previous, following, in_list, after_icon=True, nested=True))
    seam = None if nested else _ICON_SEAM.match(line)
    if seam and not reads_as_sentence(seam.group(1)):  # "Supported Models ❗️We use …": an icon opens the section
        return ([Block("heading", seam.group(1), number, number, recovered=True, level=2, note="icon-heading"),
                 Block("markup", seam.group(2), number, number, recovered=True, note="icon")]
                + _recover_line(line[seam.end():].strip(), number, seam.group(1), nested=True))
    if _RST_MARKUP.match(line):  # ".. _design:", ".. note::", "..": reStructuredText source left in the page
        return [Block("markup", line, number, number, recovered=True, note="rst")]
    if _RST_TARGET.match(line):  # "_Greenlets: https://github.com/… ..": a link target, navigation
        return [Block("navigation", line, number, number, recovered=True, note="rst target")]
    rule = None if nested else re.match(r"^([=~^\"'`#*+-])\1{3,}\s+(?=[A-Z])", line)
    if rule:  # "====== Design A brief …": a title's over- or underline glued before it
        return ([Block("markup", rule.group(0).strip(), number, number, recovered=True, note="rst")]
                + _recover_line(line[rule.end():], number, previous, following, in_list))
    if re.fullmatch(r"!\[[^\]]{0,200}\]\([^)]{0,300}\)", line):  # "![Routing](../a b.png)": an image the page failed to draw
        return [Block("image", line, number, number, recovered=True, note="image markup")]
    if _DISCLOSURE.match(line):  # "Click to show dataset setup code.": a <details> summary's label
        return [Block("markup", line, number, number, recovered=True, note="chrome")]
    if (_FIGURE_LABEL.match(line) or CAPTION_LINE.match(line) or _ROMAN_CAPTION.match(line)
            or CAPTION_START.match(line)):  # "Figure 4,", "Figure 1. …": a <figcaption> is one line, every sentence of it
        return [Block("markup", line, number, number, recovered=True, note="caption")]
    if (_MARK_LABEL.match(line) and not any(w.lower() in FINITE_VERBS for w in line.split())
            and (re.search(r"[\"“]", line) or len(line.split()) <= 3) and not _is_opener(line.split()[0])
            and line.split()[0].lower() not in _PRONOUN_OPENERS):
        return [Block("markup", line, number, number, recovered=True, note="figure label")]  # (b) "tiger shark" ×
    if _VALUE_LABEL.match(line):  # "35.85 seconds" under a slide: a figure's value label
        return [Block("markup", line, number, number, recovered=True, note="value label")]
    glued_item = _HEADING_BEFORE_BULLET.match(line)
    if glued_item and line.count(" • ") == 1:  # "todos • Investigate and add FSDP": a heading glued to an item
        heading = Block("heading", glued_item.group(1), number, number, recovered=True, level=2, note="glued-heading")
        item_text = glued_item.group(2)
        icon = _ICON.match(item_text)
        if icon and item_text[icon.end():].strip():  # "News 🗞️ • 🧑‍🍳 [2025/05/26] …": the item's icon
            return [heading, Block("markup", icon.group(0).strip(), number, number, recovered=True, note="icon"),
                    Block("list_item", item_text[icon.end():].strip(), number, number, recovered=True, marker="•",
                          note="glued-heading")]
        return [heading, Block("list_item", item_text, number, number, recovered=True, marker="•",
                               note="glued-heading")]
    headerlink = None if nested else _HEADERLINK.match(line)
    if headerlink:  # "Evaluation¶ We evaluate …": a heading with its permalink mark (Sphinx ¶, Furo #)
        rest = line[headerlink.end():].strip()
        return ([Block("heading", headerlink.group(1), number, number, recovered=True, level=2, note="headerlink")]
                + (_recover_line(rest, number, headerlink.group(1), nested=True) if rest else []))
    if _MATH_LINE.match(line) and not _PROSE_RUN.search(line):
        return [Block("math", line, number, number, recovered=True, note="formula")]
    numbered = _NUMBERED_AFTER_HEADING.match(line)
    if numbered:  # "Train 1. RetroMAE Pre-train We pre-train …": a heading glued to a numbered item
        return [Block("heading", numbered.group(1), number, number, recovered=True, level=2, note="glued-heading"),
                Block("list_item", line[numbered.end():], number, number, recovered=True, marker=numbered.group(2),
                      note="glued-heading")]
    inline_items = _INLINE_ITEMS.search(line)
    if inline_items:  # "… in which: * a low recall … * a low precision …": a list glued to its lead
        head = line[:inline_items.start() + 1].strip()
        items = [i.strip() for i in re.split(r"\s[*•]\s", " " + line[inline_items.start() + 1:]) if i.strip()]
        return _recover_line(head, number, previous) + [
            Block("list_item", item, number, number, recovered=True, marker="*", note="inline-list") for item in items]
    words = [(m.start(), m.group(0)) for m in _WORD.finditer(line)]
    fragment = _header_fragment(words, previous)
    if fragment is not None:
        table = Table(number, number, (), previous, fragment, (), recovered=True)
        return [Block("table", " | ".join(fragment), number, number, recovered=True, table=table,
                      note="table-header")]
    code = _code(line, words)
    if code is not None:
        return code
    table = _flattened_table(line, words, previous)
    if table is not None:
        return table
    if _number_grid(line, words) or _table_after_colon(line, words, previous) or _identifier_table(line, words):
        return [Block("markup", line, number, number, recovered=True, note="number grid")]
    stop = next((i for i, (_, w) in enumerate(words) if re.search(r"[A-Za-z)\]][.!?]$", w)), len(words))
    grid_end = next((i for i in range(8, min(stop + 1, len(words), 200)) if _is_opener(words[i][1])
                     and _number_grid(line[:words[i][0]].strip(), words[:i]) and _sentence_follows(words, i)), None)
    if grid_end is not None:  # "Model nDCG@10 … Fused 0.491 0.903 The fused run gains …": a table, then prose
        return [Block("markup", line[:words[grid_end][0]].strip(), number, number, recovered=True, note="number grid"),
                Block("paragraph", line[words[grid_end][0]:], number, number, recovered=True, note="number grid")]
    if is_navigation_line(line):
        return [Block("navigation", line, number, number)]
    if re.match(r"^(?:#{7,}|={7,}|\*{7,})(?:\s|$)", line):  # "##### MRR @10: 0.36 #####": an output banner
        return [Block("code", line, number, number, recovered=True, note="banner")]
    if _LONE_ADMONITION.match(line):  # ??? "Output", !!! note: an opener on its own line
        return [Block("markup", line.strip(), number, number, recovered=True, note="admonition")]
    marker = _ADMONITION_OPENER.match(line)
    if marker and len(line[marker.end():].split()) >= 3:  # !!! tip "Title" glued to its body
        return [Block("markup", marker.group(0).strip(), number, number, recovered=True, note="admonition"),
                Block("paragraph", line[marker.end():], number, number, recovered=True, note="admonition")]
    if CAPTION_LINE.match(line) or PHOTO_CREDIT.match(line):  # Figure 1: …, Photo by … on Unsplash
        return [Block("markup", line, number, number, recovered=True,
                      note="caption" if CAPTION_LINE.match(line) else "credit")]
    if len(words) == 1 and line.rstrip(":").lower() in CALLOUT_WORDS and line[:1].isupper():
        return [Block("markup", line, number, number, recovered=True, note="callout-title")]  # "Note" over its body
    callout = _callout_title(words)
    if callout is not None:
        return [Block("markup", line[:words[callout][0]].strip(), number, number, recovered=True,
                      note="callout-title"),
                Block("paragraph", line[words[callout][0]:], number, number, recovered=True, note="callout-title")]
    short = (_short_heading(line, words) or ("heading" if _title_line(line, words) else "")
             or ("heading" if _TITLE_FRAGMENT.match(line) and len(words) <= 8 else ""))
    if short == "heading" and (in_list or words[0][1].lower().replace("’", "'") in _PRONOUN_OPENERS):
        short = ""  # an item of a list that lost its markers ("Dataset", "Loss Function"), "Let's examine …"
    if short:
        return [Block(short, line, number, number, recovered=True, level=2 if short == "heading" else 0,
                      note="short-line")]
    formula = _formula(line, words)
    if formula is not None:
        return formula
    question = _question_heading(line, words, shortest=0 if after_icon else 1)
    if question is not None:  # "What is MTEB? The Massive Text Embedding Benchmark (MTEB) was …"
        return [Block("heading", line[:words[question][0]].strip(), number, number, recovered=True, level=2,
                      note="question-heading"),
                Block("paragraph", line[words[question][0]:], number, number, recovered=True, note="question-heading")]
    split = _glued_heading(words)
    if split is not None:
        heading = line[:words[split][0]].strip()
        rest = line[words[split][0]:]
        return [Block("heading", heading, number, number, recovered=True, level=2, note="glued-heading"),
                Block("paragraph", rest, number, number, recovered=True, note="glued-heading")]
    return [Block("paragraph", line, number, number)]


_DIRECTIVE_OPTION = re.compile(
    r"(?:^|(?<=\s)):(?:label|class|name|width|height|align|alt|scale|target|figwidth|figclass|linenos|"
    r"emphasize-lines|lineno-start|dedent|tags|icon|open|number-lines|nowrap|maxdepth|numbered|glob|hidden|"
    r"titlesonly|selected|sync|margin|color|class-header|class-body|class-title|class-card|link|link-type):"
    r"[ \t]+[^\s`]+(?=\s|$)")
"""A MyST / Sphinx directive option (``:label: residualDef``, ``:class: seealso``) left in a
flattened line by a directive whose fences the flattening dropped: markup, never prose."""
_INLINE_MARKUP = re.compile(_DIRECTIVE_OPTION.pattern + r"|(?:^|(?<=\s))\{:[^{}\n]{0,80}\}(?=\s|$)"
                            r"|(?:^|(?<=\s))(?:`{3,}|~{3,}|:{3,})(?:[ \t]*\{[^{}\n]{0,80}\})?(?=\s|$)")
"""A directive option, a kramdown attribute list (``{:.image-caption}``) or a fence of a MyST
directive or Pandoc div (``:::{note}``, ```` ```{tab-item} ````, ``::: {.callout}``, a closing
``:::``) inside a line."""
_RST_MARKUP = re.compile(r"^\.\.(?:$|\s+(?:_[\w .-]+:(?:\s+\S+)?|[\w-]+::(?:\s.*)?|\[[\w#*]+\]\s.*|\|[\w -]+\|\s.*)$)")
"""A reStructuredText explicit markup line (``.. _design:``, ``.. note::``, ``.. [1] …``, a bare ``..``)."""
_RST_TARGET = re.compile(r"^(?:(?:\.\.\s+)?_[\w .-]{1,40}:\s+(?:https?://|www\.)\S+\s*)+(?:\.\.)?$")
"""reStructuredText link targets (``.. _Greenlets: https://…``), one or several on a line."""
_NUMBERED_AFTER_HEADING = re.compile(r"^([A-Z][a-z]+(?:[- ][A-Za-z][a-z]+){0,2}) (\d{1,2}[.)]) (?=[A-Z])")
"""A heading of one to three words glued to a numbered item (``Train 1. RetroMAE Pre-train …``)."""
_INLINE_ITEMS = re.compile(r":\s[*•]\s\S(?=.*\s[*•]\s\S)")
"""Two or more ``* item`` glued after a colon (a list written into one flattened line)."""
_GLUED_CAPTION = re.compile(r"(?<=[.!?])\s+(?=(?:Figure|Fig\.|Table)\s+\d+(?:\.\d+)*\s*:\s+\S"
                            r"|(?:Source|Image source|Image credit|Credits?|Photo credit):\s+\S(?:[^.!?]|\.\d){0,150}$)")
"""A caption (``Figure 1: …``) glued after a sentence: a figure flattened into the paragraph; also a
credit closing the line (``… for the model to complete. Source: Figure 2.1 from the GPT-3 paper``)."""
_ICON = re.compile(r"^(?:[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2049\u203C\u2139\u2300-\u23FF]"
                   r"[\uFE0E\uFE0F\u200D\U0001F3FB-\U0001F3FF]*)+\s*")
"""An icon opening a flattened line or item (``⚠️``, ``🎛️``, ``⁉️``, ``📈``: emoji and pictographs, with
their variation selectors and joiners): a README's decoration before a heading or a sentence,
never part of the sentence; the text after it is read on (``✅``, ``✓`` and ``▪`` are bullets)."""
_ICON_SEAM = re.compile(r"^([A-Z][^.!?:;\d\U0001F000-\U0001FAFF\u2600-\u27BF]{0,60}?[\w)])\s*"
                        r"((?:[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\u2049\u203C][\uFE0E\uFE0F\u200D]*)+)"
                        r"\s*(?=[A-Z\"“(])")
"""A short title, then an icon, then a capitalised word (``Supported Models ❗️We use …``, ``MTEB 🐋
Massive: …``): a heading glued to its section, the icon opening the section's first sentence; the
title has no sentence end, digit or verb (:func:`audit.runin.reads_as_sentence`)."""
_FIGURE_LABEL = re.compile(r"^(?:Figure|Fig\.|Table|Tab\.)\s+(?:\d+(?:\.\d+)*[a-z]?|[IVXLC]{1,6})"
                           r"(?:\s*[,)]|\s*$)(?:\s+[^\s.!?]+){0,4}\)?$")
"""A figure's label left alone on a line by its caption (``Figure 4,``, ``Table 7, from Appendix C)``:
the citation after it was an element the page drew): at most five words after the number, no
sentence end."""
_DISCLOSURE = re.compile(r"^(?:Click|Tap)\s+(?:here\s+)?to\s+(?:show|expand|view|see|hide|reveal|open|toggle|collapse)\b"
                         r"[^.!?]{0,80}[.!?]?$")
"""The label of a disclosure widget (a ``<details>`` summary, ``Click to show dataset setup code.``)."""
_MARK_LABEL = re.compile(r"^(?:\([a-z0-9]{1,2}\)\s*|[+•-]\s*)?[\"“]?[^.!?\"“”]{1,40}[\"”]?\s*[✓✗×✔✘❌✅☑]$")
"""A figure panel's label ending in a check or cross mark (``(b) "tiger shark" ×``, ``+ "goblet" ✓``):
at most a panel letter, a short label (quoted, or two words at most) and the mark, no sentence end, no
verb, no opener or pronoun first (``The run passed ✓`` is a sentence)."""
_ROMAN_CAPTION = re.compile(r"^(?:Figure|Fig\.|Table|Tab\.)\s+[IVXLC]{1,6}\s*[.:]\s+\S(?:(?![.!?]\s+[A-Z]).)*$")
"""A caption numbered in Roman (``Table I: Comparison between …``), however long: one label and one
sentence at most; the table the flattening glued after it is part of the same line."""
_VALUE_LABEL = re.compile(r"^[~≈]?\d[\d,]*(?:\.\d+)?\s?(?:%|x|×)?(?:\s+[a-z]+){1,2}$")
"""A value label under a figure or slide alone on its line (``35.85 seconds``): a number and one or
two lower-case unit words, no verb, no sentence end; a list item (``• 1024 dimensional
embeddings``) is read as an item, and a sentence (``35 runs finished before noon.``) has its end."""
_PRONOUN_OPENERS = frozenset("let's lets we you they it i he she there here".split())
"""First words that make a short unpunctuated line a sentence, not a heading (``Let's examine
the error distribution``)."""


def _table_after_colon(line: str, words: list[tuple[int, str]], previous: str) -> bool:
    """A table flattened into one line under the sentence that announces it (``… the recommended
    rank for SFT and RL as:`` + ``Task Type Dataset Size Recommended Rank SFT Post-training scale 256
    RL Any size 1-32``): the line above is a sentence of four words or more ending in a colon; this
    one has eight words or more, two numbers or more, no sentence end, no ``label:``, no finite verb
    or subject pronoun (:func:`audit.runin.reads_as_sentence` on its first five words), at most one
    function word in eight, and three words in five capitalised or holding a digit (a list item that
    lost its marker, ``Llama 3 8B trained on 15T tokens with 8k context``, has its lower-case words)."""
    if not _introduces_list(previous) or len(words) < 8 or re.search(r"[.!?;]$", line):
        return False
    texts = [w for _, w in words]
    if any(re.search(r"[A-Za-z)][.!?:;]$", w) for w in texts) or "=" in line:
        return False
    numbers = sum(1 for w in texts if re.match(r"^[±~]?[-+]?\d", w))
    marked = sum(1 for w in texts if w[:1].isupper() or re.search(r"\d", w) or w[:1] in "±~")
    function = sum(1 for w in texts if w.lower() in FUNCTION_WORDS or w.lower() in _GLUE_WORDS)
    return (numbers >= 2 and 8 * function <= len(texts) and 5 * marked >= 3 * len(texts)
            and not any(w.lower() in FINITE_VERBS for w in texts) and not reads_as_sentence(" ".join(texts[:5])))


def _identifier_table(line: str, words: list[tuple[int, str]]) -> bool:
    """A table of names and file identifiers flattened into one line (``Path Source BPE Code
    de_bpe_code_24K Target BPE Code en_bpe_code_24K Source Dictionary de_dict``): eight words or more,
    two ``snake_case`` identifiers or more, no sentence end, no finite verb, at most one function
    word in ten, and three words in five capitalised, identifiers or holding a digit."""
    texts = [w for _, w in words]
    if len(texts) < 8 or re.search(r"[.!?:;]$", line) or any(re.search(r"[A-Za-z)][.!?:;]$", w) for w in texts):
        return False
    identifiers = sum(1 for w in texts if re.fullmatch(r"[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+", w))
    marked = sum(1 for w in texts if w[:1].isupper() or "_" in w or re.search(r"\d", w))
    function = sum(1 for w in texts if w.lower() in FUNCTION_WORDS or w.lower() in _GLUE_WORDS)
    return (identifiers >= 2 and 10 * function <= len(texts) and 5 * marked >= 3 * len(texts)
            and not any(w.lower() in FINITE_VERBS for w in texts))


def _introduces_list(line: str) -> bool:
    """A sentence of four words or more ending in a word and a colon (``TEI implements many
    features such as:``) introduces a list; a label (``Table of contents:``, ``References:``: its
    items are navigation) or a role (``:end_tab:``) does not."""
    return len(line.split()) >= 4 and bool(re.search(r"(?:^|\s)[A-Za-z][\w-]*:$", line))


def _question_heading(line: str, words: list[tuple[int, str]], shortest: int = 1) -> int | None:
    """Index of the sentence after a question heading glued to it (``What is MTEB? The Massive …``,
    ``Why align your LLM judge first? Before running …``): the line opens with a question of two
    to ten words with no bare number (``Is 80% accuracy good?`` asks about a result: prose), and a
    capitalised word right after it opens three words or more that end a sentence. A question
    alone on its line (``Can you guess what your friend said??``) and a question followed by a
    lower-case continuation (``Want a new dataset? feel free …``) stay prose."""
    end = next((i for i, (_, w) in enumerate(words) if w.endswith("?")), None)
    if end is None or not shortest <= end <= 9 or end + 3 >= len(words) or not words[0][1][:1].isupper():
        return None
    if words[0][1].lower().replace("’", "'").split("'")[0] in _PRONOUN_OPENERS | {"we've", "i've"}:
        return None  # "We've briefly mentioned p-values already, but what are they? …" is prose
    if any(re.search(r"[.!:;]$", w) or re.match(r"^[$€£]?\d", w) for _, w in words[:end + 1]):
        return None
    nxt = words[end + 1][1]
    if not re.match(r"^[A-Z][a-z'’]*,?$", nxt) or not any(_END.search(w) for _, w in words[end + 3:]):
        return None
    return end + 1


def _unemphasised(text: str) -> str:
    """Markdown emphasis left in flattened prose removed (``A __residual__ is``, ``(i.e. _in-sample_
    error)``, ``**fast**``): word-bounded pairs only, so ``vocab_size``, ``2 * 3``, ``__init__.py`` and
    ``__main__`` stay."""
    text = re.sub(r"(?<![\w*])\*\*(?=\S)([^*]{1,200}?)(?<=\S)\*\*(?![\w*]|[.(]\w)", r"\1", text)
    text = re.sub(r"(?<![\w_])__([A-Za-z][\w' -]{0,80}?[A-Za-z0-9])__(?![\w_]|[.(]\w)",
                  lambda m: m.group(0) if m.group(1) in _DUNDERS else m.group(1), text)
    return re.sub(r"(?<![\w_\\{])_([A-Za-z][A-Za-z' -]{0,80}?[A-Za-z])_(?![\w_{]|[.(]\w)", r"\1", text)


_DUNDERS = frozenset("""init main name file call repr str dict class doc all version len getitem setitem
enter exit iter next eq hash new del slots module path builtins future post_init""".split())
"""Python's special names (``__init__``, ``__main__``): code, not emphasis, when left in prose."""


CALLOUT_WORDS = frozenset("""
note tip hint important warning caution attention danger error info abstract summary tldr todo
success check done question help faq failure fail missing bug example quote cite seealso
""".split())
"""Titles of admonitions and call-outs (MkDocs Material, MyST, Sphinx, GitHub ``[!NOTE]``)."""


_LONE_ADMONITION = re.compile(r'^\s*(?:!!!|\?\?\?\+?)\s+(?:[\w-]+|(?:[\w-]+\s+)?"[^"]*")\s*$')
_ADMONITION_OPENER = re.compile(r'^(?:!!!|\?\?\?\+?)\s*[A-Za-z][\w-]*(?:\s+[\w-]+)*?(?:\s+"[^"]*")?\s+')
"""A MkDocs/Material admonition opener (``!!! tip "The real value"``) left on a flattened line
before the admonition's body: markup, the body is prose."""


def _callout_title(words: list[tuple[int, str]]) -> int | None:
    """Index of the sentence after a call-out title glued to it (``Tip The fused run is …``)."""
    if len(words) < 4:
        return None
    if words[0][1].endswith(":"):  # "Note: For the passage, …" is a sentence as written
        return None
    first = words[0][1].strip("[]!:")
    if first.lower() not in CALLOUT_WORDS or not first[:1].isupper():
        return None
    tail = words[1:]
    follows = (bool(re.fullmatch(r"[A-Z][a-z]+", words[1][1])) and len(tail) >= 3
               and any(_END.search(w) for _, w in tail[2:]))
    return 1 if follows else None


_SECTION_NUMBER = re.compile(r"^(?:\d+\.)+\d*\s+|^\d+\s+(?=[A-Z])")


_HEADING_ASIDE = re.compile(r"\s\((?:v\d+(?:\.\d+)*|[A-Za-z][\w .-]{0,20})\)$")


def _short_heading(line: str, words: list[tuple[int, str]]) -> str:
    """``heading`` for a line of 1–6 words (after an optional section number such as ``11.3.``)
    without digits, symbols or final punctuation, its first word capitalised: a heading flattened
    onto its own line (``Further reading``, ``11.3.1. Summary``); ``markup`` for one to three such
    lower-case words (tab labels: ``pytorch mxnet``); else ''."""
    text = _SECTION_NUMBER.sub("", line, count=1)
    aside = _HEADING_ASIDE.search(text) if text.endswith(")") else None
    if aside and text[:aside.start()].strip():  # "ColBERT (v2)" (a search, not a lazy match: linear time)
        text = text[:aside.start()].rstrip()
    count = len(text.split())
    if not 1 <= count <= 6 or re.search(r"[\d.!?:;,)\]\"'”’]$", text) or re.search(r"\d|[=(){}<>|/\\@#$%&*]", text):
        return ""
    if count >= 3 and text.split()[-1].lower() in FUNCTION_WORDS | {"is", "are", "be", "as", "where", "which"}:
        return ""  # "The loss is defined as" above a formula: a sentence the display math interrupts
    if re.search(r"\w: (?:a|an|the|its|their|our|one|two|each|every|all)\s", text):
        return ""  # "Query encoding: a tokenizer for queries": a label and its value, an item's text
    if text[:1].isupper():
        return "heading"
    return "markup" if count <= 3 and text == line and re.fullmatch(r"[a-z][a-z\s-]*", text) else ""


_TITLE_CONNECTIVES = FUNCTION_WORDS | frozenset("using via vs without within".split())


def _title_line(line: str, words: list[tuple[int, str]]) -> bool:
    """A Title Case line of up to 16 words alone on its line, a title and its subtitle joined by a
    colon, with no final punctuation and no sentence end (``Predicting Queries from Passages: T5
    Inference with TensorFlow``): a heading (without the colon, ``SParse Lexical AnD Expansion
    Model for First Stage Ranking`` or a byline, it stays prose).
    Every word is capitalised, a name (``ROCm``, ``T5``) or a connective (``from``, ``using``), and
    three or more are capitalised."""
    if (not 2 <= len(words) <= 16 or re.search(r"[.!?,;:]$", line) or re.search(r"[A-Za-z)][.!?](?:\s|$)", line)
            or not re.search(r"\w: \S", line) or line.startswith("[")):
        return False  # "[2] RL Course by …: …" is a reference
    capitalised = 0
    for _, word in words:
        if word.lower() in _TITLE_CONNECTIVES:
            continue
        if not _NAME_TOKEN.match(word):
            return False
        capitalised += 1
    return capitalised >= 3


def _is_opener(word: str) -> bool:
    """A capitalised sentence opener, also contracted (``We've``, ``Here's``, ``Let's``)."""
    match = re.fullmatch(r"([A-Z][a-z]*)(?:['’](?:s|ve|re|ll|d))?,?", word)
    return bool(match) and (match.group(1).lower() in SENTENCE_OPENERS or match.group(1) == "Let")


def _sentence_follows(words: list[tuple[int, str]], index: int) -> bool:
    """``words[index]`` is a capitalised opener starting ≥ 3 words that end a sentence."""
    if not _is_opener(words[index][1]):
        return False
    tail = words[index:]
    return len(tail) >= 3 and any(_END.search(w) for _, w in tail[2:])


def _glued_heading(words: list[tuple[int, str]]) -> int | None:
    title = _title_case_heading(words)
    if title is not None:
        return title
    simple = _sentence_case_heading(words)
    if simple is not None:
        return simple
    shaped = _shaped_heading(words)
    if shaped is not None:
        return shaped
    return _stock_heading(words)


STOCK_HEADINGS = frozenset("""
installation install usage overview introduction background motivation summary conclusion
conclusions requirements prerequisites features examples results benchmark benchmarks performance
evaluation citation citing license licence acknowledgements acknowledgments contributing
limitations discussion abstract setup quickstart updates news changelog notes references datasets
models approach methods methodology experiments architecture implementation roadmap tests
troubleshooting faq
quick-start getting-started related-work future-work known-issues further-reading next-steps
""".split())
"""Section titles that documentation and papers use again and again (``Installation``,
``Benchmark``, ``Related work``): glued to a capitalised word that opens a sentence, they are the
heading, even when the sentence opens with a name (``Installation ColBERT requires …``)."""


def _stock_heading(words: list[tuple[int, str]]) -> int | None:
    """Index of the sentence after a stock section title of one or two words (after an optional
    section number) glued to it: the next word is capitalised, not lower case after it
    (``Results Table 2 shows …`` is still a seam; ``Results improved.`` has none), and three words
    or more from it end a sentence."""
    texts = [w for _, w in words]
    first = 1 if texts and _HEADING_NUMBER.match(texts[0]) else 0
    for size in (2, 1):
        i = first + size
        if i + 2 >= len(texts) or not texts[first][:1].isupper():
            continue
        title = "-".join(t.lower() for t in texts[first:i])
        role = bool(re.match(r"^(?:\{[\w:+-]+\}|:[\w:+-]+:)`", texts[i]))  # "Overview {cite:t}`Lucas1980` plotted …"
        if title in STOCK_HEADINGS and (texts[i][:1].isupper() or role) and _ends_sentence(texts, i):
            return i
    return None


def _sentence_case_heading(words: list[tuple[int, str]]) -> int | None:
    if len(words) < 5 or not re.fullmatch(r"[A-Z][a-z]+(?:-[a-z]+)*", words[0][1]):
        return None
    for i in range(1, min(13, len(words) - 2)):
        word = words[i][1]
        if i >= 2 and _is_opener(word):
            last = words[i - 1][1]
            if last.lower() in FUNCTION_WORDS or not _sentence_follows(words, i):
                return None
            return i
        if not _LOWER_WORD.match(word):
            return None
    return None


_HEADING_NUMBER = re.compile(r"^(?:\d+\.)+\d*$|^\d+(?:\.\d+)+$")
"""A section number opening a heading (``2.1``, ``11.3.1.``)."""
_SENTENCE_END_WORD = re.compile(r"[.!?;][\"'”’)\]]*$")
_NAME_TOKEN = re.compile(r"^[(\[]?(?:[A-Z0-9][\w.+/*&'’-]*|[a-z]+[A-Z0-9][\w.+/*&-]*|--?[a-z][\w-]*|[&+/–—-]|w/|vs\.?)"
                         r"[)\]:,]?\*?$")
"""A word a Title Case heading holds: capitalised, an acronym or a name with digits (``BM25``,
``SPLADE_v2``, ``DPR-Multi``), a camel-case name (``nanoGPT``, ``uniCOIL``), an option
(``--compile``), ``&``, ``w/``, a
parenthesised one (``(NQ)``, ``(Version 3)``), a version (``v2:``); a colon may close an inner word."""
_PRONOUN_START = frozenset("he she i".split())


def _fold(word: str) -> str:
    """A word as compared for repetition: lower case, letters and digits only, a plural ``s`` off."""
    folded = re.sub(r"[^0-9a-z]", "", word.lower())
    return folded[:-1] if len(folded) > 3 and folded.endswith("s") else folded


def _shaped_heading(words: list[tuple[int, str]]) -> int | None:
    """Index of the sentence after a heading of any common shape glued to it, when something
    marks the seam (the rule behind :func:`_title_case_heading` and the sentence-case rule,
    widened to the headings of real pages: ``Pyserini: BM25 Baseline for MS MARCO Passage Ranking
    This guide …``, ``2.1 Large amounts of training data A massive …``, ``Support datasets v4 With
    the new …``, ``Binary Quantization Binary quantization refers …``).

    The heading ``w0 … w(i−1)``: at most 14 words (after an optional section number ``2.1``), no
    word ending a sentence (``.``, ``!``, ``?``, ``;``), the last one no function word, no
    possessive, no dash and not ending in ``,`` or ``:`` (a label and a colon before an opener,
    ``C-MTEB: We create …``, is a sentence as written); either Title Case (every word capitalised, a name
    or a short function word, inner colons allowed), or opening with a capitalised word that is no
    sentence opener or pronoun (a line opening with ``We`` or ``The`` is a sentence), or a
    lower-case heading of one to four words. The seam: ``wi`` is a capitalised sentence opener
    (also with a comma: ``However,``), or ``wi`` repeats a word of the heading (``Performance
    Performance is …``, ``… with Huggingface Transformers and Ray Huggingface Transformers
    recently added …``; ``wi wi+1`` written as one word: ``MSMARCO Models MS MARCO is``) with a
    lower-case word among the next two, the heading Title Case, the repeated word the heading's
    first or last (or two of its words in a row: ``Neural Turing Machines Alan Turing in 1936 …``
    has no seam) and the repetition starting at ``wi`` (``Natural Questions
    Models Google's Natural Questions dataset …`` has no seam: the sentence opens with a proper
    noun, a stated limitation); or the heading's last word carries a footnote mark (``Reproduction
    Log* Results reproduced by …``). Either way at least three words from ``wi`` end a sentence
    (after a Title Case heading, six words with three lower-case ones may run to the line end)."""
    texts = [w for _, w in words]
    first = 1 if _HEADING_NUMBER.match(texts[0]) and len(texts) > 1 and texts[1][:1].isupper() else 0
    # a slide's or section's bare number (``27 Comparing the Models So let's …``): a Title Case heading only
    bare = not first and len(texts) > 2 and bool(re.fullmatch(r"\d{1,3}", texts[0])) and bool(_TITLE_WORD.match(texts[1]))
    first = 1 if bare else first
    if len(texts) - first < 4 or not re.search(r"[A-Za-z]{2}", texts[first]):
        return None  # "(&) Also, referred to …": a footnote mark, no heading
    lead = texts[first]
    lower_case = bool(_LOWER_WORD.match(lead))
    title = True
    for i in range(first + 1, min(first + 15, len(texts) - 2)):
        previous = texts[i - 1]
        if _SENTENCE_END_WORD.search(previous) and not (i - 1 == first - 1):
            return None  # a sentence ended: the line opens with prose
        title = title and (bool(_NAME_TOKEN.match(previous)) or previous.lower() in FUNCTION_WORDS)
        heading = texts[first:i]
        if sum(1 for w in heading if _CELL_NUMBER.match(w.strip("(),"))) >= 2:
            return None  # numbers in a row are table cells, no heading
        if lower_case and not all(_LOWER_WORD.match(w) or _NAME_WITH_NUMBER.match(w) for w in heading):
            return None
        if lower_case and len(heading) > 4:
            return None
        if not (title or lower_case or (lead[:1].isupper() and lead.lower().rstrip(",:") not in SENTENCE_OPENERS
                                         and lead.lower() not in _PRONOUN_START)):
            return None
        if previous.endswith(":") and _is_opener(texts[i]):
            return None  # "C-MTEB: We create …": a label and its sentence
        if sum(w.count("(") - w.count(")") for w in texts[first:i]) > 0:
            continue  # "SWAG (Situations With Adversarial …": the seam is never inside parentheses
        if (previous.lower() in FUNCTION_WORDS or re.search(r"[,:]$|['’]s$|^[–—-]+$", previous)
                or not texts[i][:1].isupper()):
            continue
        if bare and not (title and i - first >= 2):
            continue
        if _sentence_follows(words, i) or (title and _is_opener(texts[i]) and _runs_to_line_end(texts, i)):
            return i
        if title and re.search(r"[^*]\*$", previous) and (_ends_sentence(texts, i) or _runs_to_line_end(texts, i)):
            return i  # "Reproduction Log* Results reproduced by …": a heading with a footnote mark
        if title and _repeats_heading(texts, first, i) and _ends_sentence(texts, i):
            return i
    return None


_TITLE_SMALL_WORDS = frozenset("a an the of to in on at for from with by and or vs via over under into per as".split())


def _page_title(words: list[tuple[int, str]]) -> int | None:
    """Index of the first sentence after the page's title glued to it, on the first line of the
    chapter text (where a flattened page puts its ``<h1>``: ``LoRA Without Regret Recent research
    from …``, ``Pyserini: Reproducing DPR Results Dense passage retriever …``, ``FlagEmbedding Map
    any text …``): the title is a run of Title Case words (capitalised, names, acronyms, ``&`` and
    the small words of titles), two or more, or one name with an inner capital, digit or dot; the
    sentence opens at the capitalised word right before the first lower-case word a title does not
    hold (or at a possessive name, ``Natural Questions Models Google's Natural Questions dataset
    …``, or where the title is repeated: ``SWE-agent EnIGMA SWE-agent EnIGMA (Enhanced …) adds …``),
    and runs three words or more to a sentence end. A title opening with a sentence opener or
    a pronoun (``The Massive Text Embedding Benchmark is …``) is a sentence, and a title of two or
    three words needs a colon, ``&`` or a small word of titles (``LoRA Without Regret``): ``Meta AI
    Research released …`` opens with a name."""
    texts = [w for _, w in words]
    if len(texts) < 5 or _is_opener(texts[0]) or texts[0].lower() in _PRONOUN_START:
        return None
    if re.fullmatch(r"[A-Z][a-z]+(?:ed|ing)", texts[0]) and texts[1] in _TITLE_SMALL_WORDS:
        return None  # "Inspired by Brad Okafor I tried …": a participle opening a sentence, no title
    for i in range(2, min(16, len(texts) - 3)):  # "AlpacaEval : An … Models AlpacaEval 2.0 with …": its first word again
        if texts[i] == texts[0] and _NAME_TOKEN.match(texts[0]) and any(_END.search(w) for w in texts[i + 2:]):
            if (all(_NAME_TOKEN.match(w) or w.lower() in _TITLE_SMALL_WORDS or w == ":" for w in texts[:i])
                    and not any(re.search(r"['’]s$", w) for w in texts[:i])):  # a possessive opens the sentence
                return i
            break
    for size in range(1, 7):  # "Agent Kit Agent Kit (Accessible …) adds …": the title, then the sentence repeating it
        if (2 * size < len(texts) - 2 and texts[:size] == texts[size:2 * size]
                and all(_NAME_TOKEN.match(w) for w in texts[:size]) and any(_END.search(w) for w in texts[2 * size:])):
            return size
    for i, word in enumerate(texts[:16]):
        if word == ":" and i > 0:
            continue  # "TinyEval : An Automatic Evaluator …": a spaced colon inside the title
        if _SENTENCE_END_WORD.search(word) or (word.endswith(":") and i > 0 and not _NAME_TOKEN.match(word)):
            return None
        if i >= 3 and re.fullmatch(r"[A-Z][\w-]*['’]s", word):  # "… Models Google's Natural Questions dataset"
            title = texts[:i]
            if (all(_NAME_TOKEN.match(w) or w.lower() in _TITLE_SMALL_WORDS for w in title)
                    and title[-1].lower() not in _TITLE_SMALL_WORDS and any(_END.search(w) for w in texts[i + 2:])):
                return i
            return None
        if re.fullmatch(r"[a-z][a-z'’-]*,?", word) and word.rstrip(",") not in _TITLE_SMALL_WORDS:
            seam = i - 1
            if seam < 1 or not re.fullmatch(r"[A-Z][a-z]*|[A-Z][A-Za-z0-9-]*", texts[seam]):
                return None
            title = texts[:seam]
            if not all(_NAME_TOKEN.match(w) or w.lower() in _TITLE_SMALL_WORDS or w == ":" for w in title):
                return None
            if title[-1].lower() in _TITLE_SMALL_WORDS or re.search(r"[,–—-]$", title[-1]):
                return None
            if len(title) == 1 and not (re.search(r"[a-z][A-Z]|\d|\.\w", title[0]) and re.search(r"[A-Za-z]{2}", title[0])):
                return None  # "Making LLMs even more …": one plain word is no title
            if sum(w.count("(") - w.count(")") for w in title) != 0:
                return None
            titled = (len(title) == 1 or len(title) >= 4 or any(w in (":", "&") or w.endswith(":") for w in title)
                      or any(w.lower() in _TITLE_SMALL_WORDS | {"without", "vs."} for w in title))
            if not titled or any(re.search(r"['’]s$", w) for w in title):
                return None  # "Meta AI Research released …", "Carbonell and Goldstein's MMR work …": a sentence
            if (re.fullmatch(r"[A-Z][a-z]+", title[-1]) and re.fullmatch(r"[a-z]+(?:ed|[^s]s)", texts[seam + 1])
                    and not _is_opener(texts[seam])):
                return None  # "Researchers from Carnegie Mellon demonstrated …": a name runs across the seam
            return seam if any(_END.search(w) for w in texts[seam + 2:]) else None
        if not (_NAME_TOKEN.match(word) or word.lower() in _TITLE_SMALL_WORDS):
            return None
    return None


def _repeats_heading(texts: list[str], first: int, index: int) -> bool:
    """``texts[index]`` (or it joined to the next word) repeats a word of the heading
    ``texts[first:index]``, the repetition starts there, and a lower-case word follows within two."""
    heading = texts[first:index]
    ends = {_fold(p) for w in (heading[0], heading[-1]) for p in [w, *w.split("-")] if _fold(p)}
    pairs = {(_fold(a), _fold(b)) for a, b in zip(heading, heading[1:])}
    word = _fold(texts[index])
    following = _fold(texts[index + 1]) if index + 1 < len(texts) else ""
    joined = _fold(texts[index] + texts[index + 1]) if index + 1 < len(texts) else ""
    # the heading's first or last word, or two of its words in a row (``… Huggingface Transformers
    # and Ray Huggingface Transformers recently …``); one inner word repeated is no seam
    # (``Neural Turing Machines Alan Turing in 1936 …``: the sentence opens with a name)
    if not word or not (word in ends or joined in ends or (word, following) in pairs):
        return False
    if any(_fold(heading[j]) == word and j > 0 and _fold(heading[j - 1]) == _fold(heading[-1])
           for j in range(len(heading))):
        return False  # "Natural Questions Models Google's Natural Questions": it started a word earlier
    window = 5 if (word, following) in pairs else 3  # "Byte Pair Encoding Byte Pair Encoding (BPE) is used"
    return any(_LOWER_WORD.match(w) for w in texts[index + 1:index + window])


def _runs_to_line_end(texts: list[str], index: int) -> bool:
    """From ``texts[index]`` a sentence runs to the end of the line without its full stop (``Pile
    Ngram Generation The relevant scripts can be found in scripts/clean_data``): six words or more,
    three of them lower case."""
    tail = texts[index:]
    return len(tail) >= 6 and sum(1 for w in tail if _LOWER_WORD.match(w)) >= 3


def _ends_sentence(texts: list[str], index: int) -> bool:
    return len(texts) - index >= 3 and any(_END.search(w) for w in texts[index + 2:])


_TITLE_WORD = re.compile(r"^(?:v\d+(?:\.\d+)*|[A-Z][a-z]+(?:-[A-Za-z]+)*|[A-Z]{2,}[a-z]*|[a-z]?[A-Z][A-Za-z]*[A-Z][A-Za-z]*|[A-Z]|&)$")


_GRID_NUMBER = re.compile(r"^(?:±|[-+−]|\+/-)?\d(?:[\d.,]*\d)?(?:%|x)?$")


def _number_grid(line: str, words: list[tuple[int, str]]) -> bool:
    """A table flattened into one line whose columns the table rule cannot recover (``Dataset
    Method Top-20 (orig) … NQ DPR 79.4 79.5 86.0 …``): six or more bare numbers making at least
    a third of the words, and no sentence end anywhere (a sentence full of numbers ends in a full
    stop). Set aside as markup, not read as prose. Also a table of names and cells (below)."""
    if _unit_grid(words) or _mark_grid(line, words) or _long_cells(line, words):
        return True
    plain = re.sub(r"\b(?:et al|e\.g|i\.e|etc|vs|cf|approx|fig|eq|no|avg|max|min|std)\.", "", line,
                   flags=re.I)  # abbreviations end no sentence
    if re.search(r"[.!?]$", plain.rstrip()) or re.search(r"[A-Za-z\)][.!?](?:\s|$)", plain):
        return False
    numbers = sum(1 for _, w in words if _GRID_NUMBER.match(w))
    if numbers >= 6 and 3 * numbers >= len(words):
        return True
    # a table of names and measured cells (``model params train loss val loss gpt2 124M 3.11 …``,
    # ``Approach MRR@10 (NQ dev set small) nq-distilbert-base-v1 72.36 Other models DPR 58.96``):
    # eight words or more, two cells or more that are numbers (glued units: ``124M``,
    # ``143.05GB$543``), a fifth of the words numbers or names with digits, and at most one
    # function word in ten (a sentence left without its full stop has its "the", "with", "and")
    cells = sum(1 for _, w in words if _CELL_NUMBER.match(w))
    digits = sum(1 for _, w in words if re.search(r"\d", w))
    function = sum(1 for _, w in words if w.lower() in FUNCTION_WORDS or w.lower() in _GLUE_WORDS)
    # and no "label:" (``Sequence length: 8, 16, 32``, ``Average input tokens: 202, …`` are prose)
    # and no "=" (``marginal = 0.7 / r - 0.3 * redundancy`` is a formula)
    return (len(words) >= 8 and cells >= 2 and 5 * digits >= len(words) and 10 * function <= len(words)
            and "=" not in line and not any(w.endswith(":") for _, w in words))


_UNIT_VALUE = re.compile(r"^[~≈<>]?[-+−]?\d[\d,]*(?:\.\d+)?[%×x]?$")


def _unit_grid(words: list[tuple[int, str]]) -> bool:
    """A table flattened into one line whose cells are values with a unit, the unit repeated down
    the columns (``… B=128 Lq=32 0.88 ms 0.18 ms 0.31 ms …``, ``Dense ~40 TFLOPs/s OOM … Limited by
    HBM bandwidth. Tiled ~110 TFLOPs/s …``): six values or more followed by one same unit word four
    times or more, and at most one function word in eight. A remark cell may end in a full stop,
    so sentence ends do not rule it out; a sentence listing timings has its ``the``, ``and``,
    ``from``, ``to``."""
    if len(words) < 10:
        return False
    texts = [w for _, w in words]
    units = [texts[i + 1] for i in range(len(texts) - 1)
             if _UNIT_VALUE.match(texts[i]) and re.fullmatch(r"[A-Za-z][A-Za-z/]{0,10}\.?", texts[i + 1])]
    if len(units) < 6:
        return False
    common = max((units.count(u.rstrip(".")) for u in set(u.rstrip(".") for u in units)), default=0)
    function = sum(1 for w in texts if w.lower() in FUNCTION_WORDS or w.lower() in _GLUE_WORDS)
    return common >= 4 and 8 * function <= len(texts)


def _long_cells(line: str, words: list[tuple[int, str]]) -> bool:
    """A table flattened into one long line of cells (a leaderboard: ``Model Validation perplexity
    Test perplexity … Mogrifier LSTM + dynamic eval (Melis et al., 2019) 44.9 44.8 24M …``): thirty
    words or more, five of them numbers, and no sentence end anywhere, not even at the line's end
    (a paragraph of that length always ends one)."""
    if len(words) < 30 or re.search(r"[.!?:;][\"'”’)\]]*$", line) or re.search(r"[a-z%)\]][.!?]\s+[A-Z\"“]", line):
        return False
    return sum(1 for _, w in words if _CELL_NUMBER.match(w.strip("()[],;"))) >= 5


_MARK_CELLS = frozenset("yes no ✓ ✗ ✔ ✘ ❌ ✅ ☑ – — - n/a y n partial".split())


def _mark_grid(line: str, words: list[tuple[int, str]]) -> bool:
    """A feature table flattened into one line (``Feature FAISS Milvus Weaviate GPU support Yes Yes
    No Metadata filtering No Yes Yes …``): four cells or more of ``Yes``/``No``/✓/✗ making a sixth of
    the words or more, no sentence punctuation, at most one function word in eight."""
    texts = [w for _, w in words]
    marks = sum(1 for w in texts if w.lower() in _MARK_CELLS)
    function = sum(1 for w in texts if w.lower() in FUNCTION_WORDS or w.lower() in _GLUE_WORDS)
    return (len(texts) >= 10 and marks >= 4 and 6 * marks >= len(texts) and 8 * function <= len(texts)
            and not re.search(r"[.!?,;:](?:\s|$)", line))


_CELL_NUMBER = re.compile(r"^[$€£]?[-+−~]?\d[\d,]*(?:\.\d+)?(?:%|x|[KMBT]|[KMGT]i?B|ms|s)?(?:\$[\d,.]+)?$")
_GLUE_WORDS = frozenset("and or with not it we you they has have had can will".split())


_NAME_WITH_NUMBER = re.compile(r"^[A-Za-z]+-?\d+[A-Za-z]?$")


def _title_case_heading(words: list[tuple[int, str]]) -> int | None:
    """Index of the sentence after a Title Case heading of one to eight words (or a lower-case one
    of one to four: ``quick start If you peek …``, ``reproducing GPT-2 This will run …``) glued to it
    (``A Toy Network Let us use …``, ``Experiments Next we use 2 GPUs.``, ``Pyserini: Reproducing
    DPR Results Dense passage …`` is left alone: its sentence opens with no opener word): every
    word before is capitalised (an inner ``of``/``and``/``for``/… may be lower-case), the word
    before the opener is no function word, and the opener starts a sentence (three words or more
    ending in a full stop)."""
    if len(words) >= 4 and _LOWER_WORD.match(words[0][1]):  # a lower-case heading: "quick start"
        for i in range(1, min(5, len(words) - 2)):
            if _sentence_follows(words, i):
                return None if words[i - 1][1].lower() in FUNCTION_WORDS else i
            if not (_LOWER_WORD.match(words[i][1]) or _NAME_WITH_NUMBER.match(words[i][1])):
                return None
        return None
    if len(words) < 4 or not _TITLE_WORD.match(words[0][1]):
        return None
    for i in range(1, min(9, len(words) - 2)):
        word = words[i][1]
        if _sentence_follows(words, i):
            last = words[i - 1][1]
            return None if last.lower() in FUNCTION_WORDS else i
        if not (_TITLE_WORD.match(word) or (word in FUNCTION_WORDS and i + 1 < len(words))):
            return None
    return None


def _columns(header: list[str]) -> list[str] | None:
    """Split header words into sentence-case column names at capitalised words."""
    columns: list[list[str]] = []
    for word in header:
        if not _HEADER_WORD.match(word):
            return None
        if word[0].isupper():
            columns.append([word])
        elif columns and word.islower():
            columns[-1].append(word)
        else:
            return None
    if not 2 <= len(columns) <= 8 or any(len(c) > 4 for c in columns):
        return None
    if any(w.lower() in _JOINING_WORDS for c in columns for w in c[1:]) or any(
            len(c) > 1 and c[-1].lower() in FUNCTION_WORDS for c in columns):
        return None  # "Compared to Google and Microsoft 3 times …" is a sentence naming companies
    return [" ".join(c) for c in columns]


_JOINING_WORDS = frozenset("and or with to than versus vs".split())


def _header_fragment(words: list[tuple[int, str]], previous: str) -> tuple[str, ...] | None:
    if not previous.rstrip().endswith(":") or not 2 <= len(words) <= 12:
        return None
    columns = _columns([w for _, w in words])
    if columns is None or len(columns) < 3:
        return None
    return tuple(columns)


def _row_start(words: list[tuple[int, str]], index: int) -> bool:
    return (index + 1 < len(words) and bool(_CAPITAL_WORD.match(words[index][1]))
            and bool(_NUMBER.match(words[index + 1][1].rstrip(",;")) or _RANGE_CELL.match(words[index + 1][1])))


_RANGE_CELL = re.compile(r"^\d+(?:\.\d+)?[–-]\d+(?:\.\d+)?%?$|^\d+(?:\.\d+)?e[-+]?\d+$")
"""A cell that is a range (``16–32``) or a number in scientific notation (``1e-4``)."""


def _flattened_table(line: str, words: list[tuple[int, str]], previous: str) -> list[Block] | None:
    first_row = next((i for i in range(len(words)) if _row_start(words, i)), None)
    if first_row is None or first_row < 2:
        return None
    columns = _columns([w for _, w in words[:first_row]])
    if columns is None or any(_is_opener(c.split()[0]) for c in columns[1:]):
        return None  # "Cyber Security We have evaluated Llama 3 …": a heading and a sentence, no header
    starts = [first_row]
    for i in range(first_row + 2, len(words)):
        if _row_start(words, i) and i > starts[-1] + len(columns) - 1:
            starts.append(i)
    if len(starts) < 2:
        return None  # "Model Architecture Llama 3 is an auto-regressive …": one "row" is a sentence
    rows: list[tuple[str, ...]] = []
    tail_start: int | None = None
    for r, start in enumerate(starts):
        end = starts[r + 1] if r + 1 < len(starts) else len(words)
        cells, rest = _row_cells(words[start:end], len(columns))
        if r + 1 == len(starts) and rest is not None:
            tail_start = start + rest
            cells = _row_cells(words[start:tail_start], len(columns))[0]
        rows.append(cells)
    header = tuple(columns)
    table = Table(0, 0, (), previous, header, tuple(rows), recovered=True)
    blocks = [Block("table", " | ".join(header), 0, 0, recovered=True, table=table, note="flattened-table")]
    if tail_start is not None:
        blocks.append(Block("paragraph", line[words[tail_start][0]:], 0, 0, recovered=True,
                            note="flattened-table"))
    return blocks


UNIT_ABBREVIATIONS = frozenset("B KB MB GB TB KiB MiB GiB TiB ms s min h Hz kHz MHz GHz W kW".split())


def _unit_word(word: str) -> bool:
    """A unit written after a number in a cell (``GB``, ``ms``, or any lower-case word)."""
    return word in UNIT_ABBREVIATIONS


def _row_cells(words: list[tuple[int, str]], width: int) -> tuple[tuple[str, ...], int | None]:
    """Cells of one flattened row, and (last row) the offset where trailing prose starts."""
    texts = [w for _, w in words]
    cells = [texts[0]]
    position = 1
    middle_end = next((i for i in range(1, len(texts)) if texts[i][0].isupper() and not _unit_word(texts[i])),
                      len(texts))
    spare = (middle_end - 1) - (width - 2)  # extra middle words: numbers take their unit word
    for _ in range(width - 2):
        if position >= len(texts):
            break
        cell = texts[position]
        position += 1
        if (spare > 0 and _NUMBER.match(cell) and position < middle_end
                and (_LOWER_WORD.match(texts[position]) or _unit_word(texts[position]))):
            cell += " " + texts[position]
            position += 1
            spare -= 1
        cells.append(cell)
    rest: int | None = None
    for i in range(position + 1, len(words)):
        if _sentence_follows(words, i):
            rest = i
            break
    last_words = texts[position:rest] if rest is not None else texts[position:]
    if width >= 2:
        cells.append(" ".join(last_words))
    cells = (cells + [""] * width)[:width]
    return tuple(cells), rest


_PROSE_RUN = re.compile(r"(?:^|\s)[A-Za-z][a-z]+(?:\s+[a-z][a-z]+){2}[\s.,;!?]")


def _formula(line: str, words: list[tuple[int, str]]) -> list[Block] | None:
    if not _FORMULA_START.match(line):
        return None
    rest = next((i for i in range(1, len(words)) if _sentence_follows(words, i)), None)
    head = line[:words[rest][0]] if rest is not None else line
    flat = re.split(r"[.!?](?:\s|$)", head, maxsplit=1)[0] + " "
    if re.search(r"\s\((?:or|and|at)\s[a-z ]+\)", flat):  # "Oversampling=2.0 (or more)": a hedge in words
        return None
    while True:  # text inside parentheses may hold words: cosine(candidate, each selected unit)
        inner = re.sub(r"\([^()]*\)", " ", flat)
        if inner == flat:
            break
        flat = inner
    if _PROSE_RUN.search(flat.split("=", 1)[1] if "=" in flat else flat):
        return None  # "N = 40 tasks were evaluated." is a sentence
    rest = next((i for i in range(1, len(words)) if _sentence_follows(words, i)), None)
    end = words[rest][0] if rest is not None else len(line)
    formula = line[:end].strip()
    starts = [0] + [m.start() for m in _FORMULA_NAME.finditer(formula) if m.start() > 0]
    parts = [formula[a:b].strip() for a, b in zip(starts, starts[1:] + [len(formula)])]
    blocks = [Block("math", "\n".join(parts), 0, 0, recovered=True, note="formula")]
    if rest is not None:
        blocks.append(Block("paragraph", line[end:], 0, 0, recovered=True, note="formula"))
    return blocks


_CODE_START = re.compile(
    r"(?:\$ |>>> |pip3? install |python3? (?:-m |-c |\S+\.py)|git clone |curl |wget |docker |conda |npm |"
    r"uv (?:pip|run) |import [A-Za-z_][\w.]*|from [A-Za-z_][\w.]* import |def [A-Za-z_]\w*\(|class [A-Z]\w*[(:]|"
    r"[A-Za-z_][\w.]*(?:\[[^\]]*\])?\s*=\s*(?:[A-Za-z_][\w.]*\(|[\"'\[{])|"
    r"[a-z_]\w*(?:\s*,\s*[a-z_]\w*)+\s*=\s*(?:[\w.]+\(|-?\d[\d.]*\s*,)|"
    r"(?:bash|sh|cd|tar|mkdir|source) [\w./$~-]|export [A-Z_][A-Z0-9_]*=|(?:more|cat|ls) [/~.]|\./[\w.-]+|"
    r"[\w.-]+(?:/[\w.-]+)+ -{1,2}[A-Za-z]|[a-z][\w.@]*\s+all\s+\d+\.\d+(?=\s+[a-z][\w.@]*\s+all\s|\s*$)|"
    r"[a-z]+_[\w-]*:\s+(?:\[|\"|\d)(?=.*\s[a-z]+_[\w-]*:\s)|"
    r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d|(?:INFO|WARNING|ERROR|DEBUG)(?::|\s+[-\[\d])|Epoch \d+/\d+|\[\d+/\d+\]|"
    r"[a-z][\w.-]*_[\w.-]*\s+-{1,2}[A-Za-z][\w-]*\s+\S+\s+-{1,2}[A-Za-z])")
_CODE_AFTER = re.compile(r"(?:^|(?<=[.:!?])\s+)(?=" + _CODE_START.pattern + ")")


def _prose_follows(words: list[tuple[int, str]], index: int) -> bool:
    """After code, a capitalised sentence opener starting two or more words that end a sentence
    (``Then stop.``): shorter than the three words the other rules need, so that no sentence is
    taken into the code."""
    if not _is_opener(words[index][1]):
        return False
    tail = words[index:]
    return len(tail) >= 2 and any(_END.search(w) for _, w in tail[1:])


def _open_string(code: str) -> bool:
    """The code so far leaves a string literal open (``doc_text = 'The presence … was. The only
    …``): the sentences inside the quotes are the string's, not prose after the code."""
    return code.count("'") % 2 == 1 or code.count('"') % 2 == 1


def _code(line: str, words: list[tuple[int, str]]) -> list[Block] | None:
    """Code or log text at the start of the line or glued after a sentence end or a colon."""
    start = next((m.end() for m in _CODE_AFTER.finditer(line)), None)
    if start is None:
        return None
    blocks: list[Block] = []
    if line[:start].strip():
        blocks.append(Block("paragraph", line[:start].strip(), 0, 0, recovered=True, note="code"))
    rest = next((i for i, (offset, _) in enumerate(words) if offset > start and _prose_follows(words, i)
                 and re.search(r"[.!?:;)\]}'\"]$|\S$", line[:offset].rstrip())
                 and not re.search(r"[=(,\[{]$", line[:offset].rstrip())
                 and not _open_string(line[start:offset])), None)
    end = words[rest][0] if rest is not None else len(line)
    blocks.append(Block("code", line[start:end].strip(), 0, 0, recovered=True, note="code"))
    if rest is not None:
        blocks.append(Block("paragraph", line[end:], 0, 0, recovered=True, note="code"))
    return blocks


_DELIMITER_ROW = re.compile(r"^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$")


def _is_delimiter(line: str) -> bool:
    """A table delimiter row (matched on the stripped line: linear time on long space runs)."""
    return "-" in line and bool(_DELIMITER_ROW.match(line.strip()))


def _pipe_tables(lines: list[str]) -> dict[int, Table | None]:
    """Pipe tables written into flattened text: a line starting with ``|`` directly followed by a
    delimiter row opens a table, and it runs over the following lines that start with ``|`` (a
    further header + delimiter pair starts another table). Each table is parsed alone with the
    Markdown reader, so a prose line under it stays a paragraph. Maps each table line (1-based)
    to its table on its first line and to None on the others."""
    out: dict[int, Table | None] = {}
    index = 0
    while index < len(lines):
        if not (lines[index].lstrip().startswith("|") and index + 1 < len(lines)
                and _is_delimiter(lines[index + 1])):
            index += 1
            continue
        end = index + 2
        while end < len(lines) and lines[end].lstrip().startswith("|") and not (
                end + 1 < len(lines) and _is_delimiter(lines[end + 1])):
            end += 1
        table = read_pipe_table(lines[index:end])
        if table is not None:
            out[index + 1] = Table(index + 1, end, (), "", table[0], table[1])
            for number in range(index + 2, end + 1):
                out[number] = None
        index = end
    return out


# ---------------------------------------------------------------------------------------------
# Whole lines read with their neighbours (rule 8): code lines, site chrome, tables of contents,
# column tables. Decided before the one-line rules, from the raw line (indentation kept).

_CHROME_LINE = re.compile(
    r"^(?:Edit (?:this|on) (?:page|GitHub|GitLab)|Edit page|Edit this (?:article|post|doc)|View (?:page )?source|"
    r"View on GitHub|Improve this (?:page|doc|article)|Suggest (?:an )?edits?|Report an issue|"
    r"Open in (?:Colab|Studio Lab|Kaggle|SageMaker Studio Lab)|Download (?:notebook|PDF|\.ipynb|\.md)|"
    r"Share|Share (?:on|this|via) \w+(?: \w+)?|Copy(?: link| code| to clipboard| page)?|Copied!?|Tweet|Print|"
    r"Previous|Next|Prev|Older posts?|Newer posts?|Back to (?:top|blog|articles|posts|docs|home)|"
    r"Skip to (?:main )?content|Table of contents|Contents|On this page|In this (?:article|post|page|guide)|"
    r"Was this (?:page|article|post) helpful\??|Yes No|Thanks for (?:your )?feedback!?|"
    r"Subscribe(?: to (?:our|the) \w+(?: \w+)?)?|Sign up|Sign in|Log in|"
    r"Join (?:our|the) (?:Discord|Slack|community|newsletter|forum)(?: \w+)?|"
    r"Related (?:posts|articles|reading|pages)|Read more|Read next|Recommended(?: posts| articles)?|"
    r"(?:Tags?|Categories|Category|Filed under|Topics):\s.{1,120}|"
    r"Last (?:updated|modified|edited|reviewed)(?: on)?:? \S.{0,40}|"
    r"(?:Posted|Published)(?: on| by| in)? [\w ,.'’-]{1,60}|"
    r"By [A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*){0,3}(?:,? (?:and )?[A-Z][\w.'’-]*(?: [A-Z][\w.'’-]*){0,3})* · .{1,60}|"
    r"By the [\w .-]{1,40} team(?: · .{1,40})?|"
    r"\d{1,3}[ -]min(?:ute)?s? read|Reading time:? \d{1,3} min(?:ute)?s?|"
    r"(?:©|Copyright ©|\(c\) \d{4}|Copyright \d{4}).{0,120}|All rights reserved\.?|"
    r"(?:Built|Made) with .{1,80}|Powered by .{1,60}|Theme by .{1,60}|(?:https?://|www\.)\S+|"
    r"(?:Discussions?|Comments?):? .{0,80}\(\d[\d,]* points?, \d[\d,]* comments?\).{0,200})$")
"""A line of site chrome (``Edit this page``, ``Share``, ``5 min read``, ``© 2024 Acme Inc. All
rights reserved.``, ``By Jane Doe · March 4, 2024``, a bare URL: an embed's link): the whole line, so that ``Share of queries
rose …``, ``Previous work …``, ``Copyright law …`` and ``By default, …`` stay prose."""
_ARROW_LINK = re.compile(r"^(?:[«←‹]\s*\S.{0,60}|.{0,60}\S\s*[»→›])$")
"""A previous/next link (``« Previous: Indexing``, ``Next: Evaluation »``, ``← Back to blog``)."""
_BREADCRUMB = re.compile(r"^[^.!?]{1,40}(?:\s+[›»>/]\s+[^.!?]{1,40}){1,6}$")
"""A breadcrumb (``Home › Docs › Quantization``; with ``>`` or ``/``: three items or more)."""
_CONTENTS_LABEL = re.compile(r"^(?:Table of contents|Contents|On this page|In this (?:article|post|page|guide)|"
                             r"Related (?:posts|articles|reading|pages)|Read next|Recommended(?: posts| articles)?"
                             r"|More (?:posts|articles|from [\w .-]{1,40}))$", re.I)
"""A line that opens a run of links: a table of contents, related posts."""
_CREDIT_LINE = re.compile(r"^(?:Fig\.\s*\d+(?:\.\d+)*[.:]|(?:Figure|Table)\s+[IVXLC]{1,6}[.:]|(?:Image|Photo|Figure) (?:credit|source)s?:|Source:)\s+\S.{0,160}$"
                          r"|^[—–]\s*[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*){0,4}\s+\(@\w{1,30}\)"
                          r"(?:\s+[A-Z][a-z]{2,8}\.?\s+\d{1,2},\s+\d{4})?$")
"""A caption or credit alone on its line (``Fig. 2. Recall at each depth.``, ``Source: MTEB
leaderboard, June 2024.``, ``Table I: …``), beside ``Figure 1: …`` and ``Table 1: …``
(:data:`CAPTION_LINE`); an embedded post's credit (``— Jane Doe (@janedoe) January 13, 2021``, the
last line a quoted tweet shows)."""

_STRONG_CODE = re.compile(
    r"^(?:\$ |>>> |\.\.\. |#!|Traceback \(most recent call last\):|File \"[^\"]+\", line \d+|"
    r"[A-Z]\w*(?:Error|Exception|Warning|Interrupt|Exit)(?::|$)|"
    r"(?:pip3?|python3?|git|curl|wget|docker|conda|npm|npx|yarn|pnpm|uv|cargo|go|make|cmake|java|javac|mvn|"
    r"gradle|bash|sh|zsh|cd|ls|cat|cp|mv|rm|mkdir|tar|unzip|gzip|gunzip|export|source|sudo|apt|apt-get|brew|"
    r"kubectl|helm|ssh|scp|rsync|chmod|echo|head|tail|grep|sed|awk|paste|sort|wc|md5sum|sha256sum|nvidia-smi|"
    r"torchrun|accelerate|deepspeed|huggingface-cli|nohup|time|for|while|do|done|fi|then|if|else|elif|"
    r"import|from|def|class|return|yield|raise|assert|try|except|finally|with|async|await|lambda|print|"
    r"const|let|var|function|fn|func|pub|use|impl|struct|enum|package|public|private|static|void|int|"
    r"#include|#define|WHERE|ORDER BY|GROUP BY|LIMIT|JOIN)"
    r"(?=[\s(:;{\[]|$)(?=.*(?:[=(){}\[\];:<>/\\$\"`|@]|(?<![A-Za-z])'|'(?![a-z])|\s-{1,2}\w|^\S+(?:\s+\S+){0,2}\s*$))|"
    r"(?:SELECT|INSERT INTO|UPDATE|DELETE FROM|CREATE (?:TABLE|INDEX))\s.*\b(?:FROM|WHERE|VALUES|SET|ON)\b|"
    r"-{1,2}[A-Za-z][\w-]*(?:[= ]\S|\s*\\?$)|"
    r"(?:\.{1,2}/|~/)?[\w.-]+(?:/[\w.-]+)+(?=\s+-{1,2}[A-Za-z]|\s.*\\$|$)|"
    r"[\]\[{}()<>,;:.]+$|"
    r"\"[^\"]{1,60}\"\s*:\s|'[^']{1,60}'\s*:\s|"
    r"[A-Za-z_][\w.\[\]\"']*(?:[-+*/]?=|:=)[^\s=]\S*$|"
    r"[A-Za-z_][\w.\[\]\"']*(?:\s*,\s*[A-Za-z_]\w*)*\s*(?:[-+*/]?=|:=)\s*(?:[\w.]+\(|[\"'\[{]|-?\d[\d.e+-]*$|"
    r"True$|False$|None$|await\s|new\s|lambda\b)|"
    r"[A-Za-z_][\w.$]*(?:\.[A-Za-z_]\w*)*\([^()]*(?:\([^()]*\)[^()]*)*\)[;,]?$|"
    r"[A-Za-z_][\w.$]*\s*<-\s*\S|[A-Za-z_][\w.$]*\((?:[^()]*,)?$|[A-Za-z_]\w*::[\w.$]+(?:\(|\s*<-|;?$)|"
    r"[A-Za-z_][\w.]*(?:\.[A-Za-z_]\w*)+\(.*$|"
    r"@[A-Za-z_][\w.]*(?:\(|$)|@\w+\{[\w:.-]*,|"
    r"(?://|--|/\*|\*/)\s|"
    r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d|\[\d+/\d+\]|(?:INFO|WARNING|ERROR|DEBUG|WARN)[\s:\]-]|"
    r"[#=*~_-]{7,}(?:\s.*[#=*~_-]{7,})?$|\*{3,}\s.{1,60}\s\*{3,}$|"
    r"\{(?=.*[\"':,]).*\},?$|\[(?=.*[\"',]).*\],?$|\d{1,3}%\|"
    r"|(?:FROM|RUN|CMD|COPY|ADD|WORKDIR|ENV|EXPOSE|ENTRYPOINT|ARG|USER|VOLUME)\s+[\w\[\"'./$-]"
    r"|\d+/\d+\s+\[[=>.\s-]{5,}\]|@@ -\d+(?:,\d+)? \+\d+|\[(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\]\s"
    r"|[\w.:-]+(?:,[\w.:-]*){2,}$"
    r"|(?!.*\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b)[a-z][\w.-]*(?:\s+\S+)*?(?:\s+-{1,2}[A-Za-z][\w-]*(?:[= ](?!-)\S+)?){2,}(?:\s+\S+)*$"
    r"|(?=.*(?:[=(]|->))(?!.*\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b)[\w*&()\[\]>.\s-]+(?:=|->).*;$"
    r"|[A-Za-z_][\w.]*(?:\(.*\))?\s*(?:\|>|%>%)(?:\s|$)"
    r"|[a-z_]\w*:\s*[{\[][\"'\w]"
    r"|[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)+\s*=\s*[A-Za-z_][\w.]*$)")
"""A line that is code by its own shape: a prompt (``$ ``, ``>>> ``), a command or keyword of a
shell, Python, JavaScript, Rust, Go, C or SQL at the line start followed by code punctuation
(``for i in range(3):``, ``SELECT doc_id, score FROM results``; ``For example:`` is capitalised,
no keyword), a traceback line or an exception (``RuntimeError: …``), an option (``--model x``), a
line of brackets only (``])``, ``}``), a JSON key (``"model": …``), an assignment (``x = …``,
``seed=42``; not one followed by three plain words: ``N = 40 tasks were evaluated``), a call
(``print(vectors.shape)``, ``model.to(device)``), a decorator, a comment opener, a time stamp
or a log level; a Dockerfile instruction (``COPY requirements.txt .``), a Keras progress line
(``1250/1250 [=====] - 45s``), a diff hunk (``@@ -10,7 +10,7 @@``), a bracketed log level (``[INFO]
…``), a CSV row without spaces (``q1,d17,0.91``), a command with two options or more
(``memtier_benchmark -s $HOST --ratio 0:1 -t 60``), a C statement (``p->field = 1;``), an R pipe
(``seattle_csv |> glimpse()``), a key over a literal (``image: {"count": int}``), a tuple unpacked
from a name (``B, A = model``)."""
_YAML_KEY = re.compile(r"^[a-z_][\w.-]*:(?:\s*$|\s+(?:[\[{\"'|>]|-?\d[\w.+-]*$|true$|false$|null$|None$|~$|"
                       r"[\w./@:-]+(?:\s+#.*)?$))")
"""A YAML setting (``max_length: 256``, ``name: mini-v2``, ``model:``): a lower-case key, a colon and
one token; ``note: the …`` with words after it is no setting."""
_OUTPUT_LINE = re.compile(
    r"^(?:[^\w\s]*[\u2500-\u257F]{2}.*|.*[\u2500-\u257F].*[\u2500-\u257F].*|"  # box-drawing tables and trees
    r"\+[-=+]{3,}\+|-{2,}(?:\+-{2,})+|"  # ASCII grid rules, psql's header rule
    r"\(\d+ rows?\)|\d+ rows? in set\b.*|Elapsed: \d.*|Query id: [\w-]+|Ok\.|"  # SQL clients' result lines
    r"(?:In|Out)\s?\[\d*\]:.*|"  # notebook prompts
    r"test [\w:]+\s+\.\.\.\s+(?:bench:|ok\b|FAILED\b|ignored\b).*|Running \d+(?:\.\d+)?[smh] test @ \S+|"  # cargo bench, wrk
    r"[!%]{1,2}(?:pip|conda|apt-get|apt|wget|git|curl|python|time|timeit|matplotlib|load_ext|env|cd|ls|sh|bash)\b.*|"  # notebook magics
    r"[A-Za-z_][\w.]*\([^()]*(?:\([^()]*\)[^()]*)*\)[;,]?\s+#\s.*|"  # a call and its comment
    r"[a-z][\w.-]*(?:\s+-{1,2}[A-Za-z][\w-]*(?:=(?:\"[^\"]*\"|'[^']*'|\S+))?)+(?:\s+[<>|]+\s+\S+)?(?:\s+\\)?|"  # a command and its options
    r"\[\d+\](?:\s+(?:[-+]?\d[\d.eE+-]*|\"[^\"]*\"|TRUE|FALSE|NA|NaN|Inf))+|"  # an R console's output
    r"\[\[?[A-Za-z_][\w.-]*\]\]?|"  # a TOML table header, [tool.search]
    r"[\w.-]+/|"  # a directory alone, the root of a tree
    r"Collecting [\w.\[\],=<>!~-]+|(?:Downloading|Using cached) \S+(?:\s\(.*\))?|"  # an installer's lines
    r"Successfully (?:installed|built|uninstalled) \S.*|Requirement already satisfied: \S.*|"
    r"Installing collected packages: \S.*|Building wheels? for \S.*)$")
"""A line a program printed or a query, by its own shape: box-drawing tables and directory trees
(``│ alpha │ 12 │``, ``├── src/``), ASCII grid rules (``+-----+-----+``, psql's ``----+----``), SQL
clients' result lines (``(1 row)``, ``1 row in set. Elapsed: 0.002 sec.``), notebook prompts
(``In [1]:``, ``Out[2]:``), Rust's test harness (``test spawn_many ... bench: 7,320,737 ns/iter``) and
wrk's first line (``Running 10s test @ http://127.0.0.1:3000``), an R console's ``[1] 0.5 0.7`` (a reference ``[1] A. Author, …`` has
words), a TOML table header, a directory alone (``project/``), an installer's output (``Collecting
x``, ``Successfully installed x-1.0``)."""
_SHORT_COMMAND = re.compile(
    r"(?P<command>^(?:time\s+)?(?:pip3?|python3?|git|curl|wget|docker|conda|npm|npx|yarn|pnpm|uv|cargo|cmake|javac|mvn|gradle|"
    r"bash|zsh|cd|ls|mkdir|tar|unzip|gunzip|sudo|apt-get|brew|kubectl|ssh|scp|rsync|chmod|nvidia-smi|torchrun|"
    r"deepspeed|huggingface-cli|nohup)(?:\s+[\w./:@=+~-]+){0,4}$)"
    r"|^.*\d{1,3}%\|[\u2580-\u259F#=> -]*\|.*$"
    r"|^(?:select|insert into|update|delete from|with)\s.*\b(?:from|values|set|as)\b.*[;(*=].*$")
"""A command alone on its line with a few arguments and no other words (``python train.py``,
``time python run.py``, ``git pull``: commands only, never an English verb such as *make* or
*accelerate*; no sentence end, no two plain words in a row at its end: ``cd into the folder``), a progress bar anywhere in a line (``Indexing: 100%|█████| 1000/1000``), a query in
lower case (``select count(*) from hits where …;``)."""
_SQL_CLAUSE = re.compile(r"^(?:SELECT|FROM|WHERE|GROUP BY|ORDER BY|HAVING|LIMIT|OFFSET|(?:LEFT |RIGHT |INNER |OUTER |"
                         r"CROSS )?JOIN|UNION(?: ALL)?|WITH|INSERT INTO|VALUES|UPDATE|SET|DELETE FROM|CREATE (?:TABLE|"
                         r"INDEX|VIEW|MATERIALIZED VIEW|DATABASE)|ALTER TABLE|DROP TABLE|ENGINE|PARTITION BY|PRIMARY KEY|"
                         r"SETTINGS|FORMAT|EXPLAIN|AND|OR|ON|AS)(?=\s|$|\()(?!.*[a-z]{2,}\s+[a-z]{2,}\s+[a-z]{2,}\s+[a-z]{2,})")
"""A clause of SQL written in capitals at a line's start (``FROM events``, ``GROUP BY name``): code
when a neighbour line is SQL or code too, or when it holds code punctuation; a sentence never
opens with a capitalised keyword followed by four plain words."""
_RECORD_LINE = re.compile(r"^([A-Za-z]\w{0,20})\s+(?:\d+|[a-z]+_[a-z_]+|[a-z]+\d+):\s+\S")
"""A line a program printed: a word, then a key that is a number or a ``snake_case`` name, a colon and
a value (``sample 1: why was …``, ``Input movie_id: 1962``); two in a row opening with the same word
are code output (rule 8)."""
_SAMPLE_LINE = re.compile(r"^[A-Z][\w]{0,15}(?: [A-Z0-9]\w{0,3})?:\s+\S")
"""A record's key (``Input:``, ``Labels:``, ``Sentence A:``) opening a printed example."""
_SPACED_STOP = re.compile(r"\s[.,;!?](?=\s|$)")
"""A full stop or comma standing alone between spaces (``the store .``): text tokenised for a model,
an example printed in a ``<pre>``, never prose as a page sets it."""
_PLACEHOLDER = re.compile(r"\[(?:MASK|CLS|SEP|UNK|PAD)\d*\]|<(?:mask|s|/s|pad|unk)>")
_WORDED_ASIDE = re.compile(r"\s\((?:or|and|at|e\.g\.|i\.e\.|about|roughly)\s[a-z ]+\)$")
"""``Oversampling=2.0 (or more)``: a setting written as a list item of prose, with a worded aside."""
_CODE_END = re.compile(r"(?:[\\,({\[=]|\b(?:and|or|&&|\|\|))$")
"""A code line that continues on the next line (``\\``, an open bracket, a comma, an operator)."""


def _bracket_depth(text: str) -> int:
    return sum(text.count(o) - text.count(c) for o, c in ("()", "[]", "{}"))


def _prose_shaped(line: str) -> bool:
    """A line a sentence writes: a capital or a digit first, four words or more, a sentence end last
    (``.``, ``!``, ``?``, ``:``; or, in a line of twelve words or more, a sentence end inside before a
    capital: ``… leaving 15% to run in serial. This seems … is influenced by`` above a list), a run of
    three plain lower-case words."""
    words = line.split()
    ends = bool(re.search(r"[.!?:][\"'”’)]*$", line)) or (  # or a sentence inside a line a list cut short
        len(words) >= 12 and bool(re.search(r"[a-z%][.!?]\s+[A-Z]", line)))
    return (len(words) >= 4 and bool(re.match(r"^[\"'“(]?[A-Z0-9]", line)) and ends
            and bool(re.search(r"(?:^|\s)[A-Za-z][a-z'’]+\s+[a-z][a-z'’-]+\s+[a-z][a-z'’-]+(?:\s|[.,;:!?]|$)", line)))


def _glued_prose(line: str) -> bool:
    """The line holds prose glued before or after its code (``model = f(x) The model loads in 2
    seconds.``): rule 5 splits it, so it is not taken whole."""
    blocks = _code(line, [(m.start(), m.group(0)) for m in _WORD.finditer(line)])
    return blocks is not None and any(b.kind == "paragraph" for b in blocks)


_CODE_FIRST_TOKEN = re.compile(
    r"^(?:[@$>{\[(\"'#./~-]|(?:pip3?|python3?|git|curl|wget|docker|conda|npm|npx|yarn|pnpm|cargo|uv|uvx|pipx|poetry|bash|sh|make|cmake|"
    r"java|kubectl|helm|brew|apt|apt-get|sudo|torchrun|accelerate|deepspeed|huggingface-cli|nvidia-smi)\s|"
    r"[\w.]*[=(.:][\w\"'(\[])")
"""The first token of code glued after a heading: a symbol, a command (``pip``, ``git``, ``docker`` …),
or a token holding code punctuation (``model.to(``, ``x=1``); ``from Passages …`` and ``with
always_ram=True`` open with English words."""


def _heading_before_code(line: str, comment: bool = False) -> int | None:
    """Offset of the code after a heading glued to it (``Citation @article{key,``, ``Quick Install pip
    install tinystore``): two to six Title Case words (or one stock section title,
    :data:`STOCK_HEADINGS`), the first no sentence opener, then text that is code by its own shape
    and no sentence; with ``comment`` (the line is known to stand above code) also a ``# comment``
    (``Random Forest # Set global knitr chunk options``: a chapter's title glued to its setup chunk)."""
    words = [(m.start(), m.group(0)) for m in _WORD.finditer(line[:200])]
    for i in range(1, min(7, len(words))):
        head = [w for _, w in words[:i]]
        if not all(_TITLE_WORD.match(w) or w.lower() in FUNCTION_WORDS for w in head) or _is_opener(head[0]):
            return None
        if i == 1 and head[0].lower() not in STOCK_HEADINGS:
            continue
        rest = line[words[i][0]:]
        install = re.match(r"(?:uvx?\s+|pipx\s+|poetry\s+)?(?:pip3?|conda|npm|yarn|pnpm|cargo|apt(?:-get)?|brew)\s+"
                           r"(?:install|add)\s+\S", rest)  # "Usage uv pip install …": an install line
        if comment and rest.startswith("# ") and not re.search(r"[.!?]$", rest) and head[-1].lower() not in FUNCTION_WORDS:
            return words[i][0]
        if (_STRONG_CODE.match(rest) and _CODE_FIRST_TOKEN.match(rest) and not _prose_shaped(rest)
                and not _CHROME_LINE.match(rest) and (install or not _PROSE_RUN.search(rest))
                and not rest[:1].isupper() and head[-1].lower() not in FUNCTION_WORDS):
            return words[i][0]
    return None


def _next_code_shaped(lines: list[str], index: int, strong: list[bool], indented_only: bool = False) -> bool:
    """The next non-blank line after ``index`` is code by its shape or indented (only indented for
    a line ending in ``:``: ``Sanity check:`` before ``$ md5sum …`` introduces the command)."""
    for j in range(index + 1, len(lines)):
        if lines[j].strip():
            return (strong[j] and not indented_only) or lines[j][:1].isspace()
    return False


_JSON_STRING_VALUE = re.compile(r'^"[^"]{1,60}"\s*:\s*"(.*)",?$')


_JSON_INNER_STRING = re.compile(r'"[^"]{1,60}"\s*:\s*"([^"]*)"')


def _prose_value(line: str) -> bool:
    """A JSON line whose string value is prose (``"status": "Single prespecified exploratory reranker
    … no population claim.",``: seed 003, a chapter written as a JSON record), or an object on one
    line holding such a value (``"statistics": {"seed": 129300, …, "tests": "No significance tests
    … Every subset is exploratory …"},``): its text is read, so that its sentences are kept."""
    value = _JSON_STRING_VALUE.match(line)
    if value is not None and _prose_shaped(value.group(1)):
        return True
    return (re.match(r'^"[^"]{1,60}"\s*:\s*[{\[]', line) is not None
            and any(_prose_shaped(inner.group(1)) for inner in _JSON_INNER_STRING.finditer(line)))


_FENCE_LINE = re.compile(r"^\s*(`{3,}|~{3,})\s*(\{?[\w.+-]*\}?[^`]*)$")
_CELL_OPTION = re.compile(r"^#\|\s*[\w.-]+\s*:")
"""A Quarto / knitr cell option (``#| echo: false``, ``#| fig-cap: "Polar plot"``): code, never a heading."""


def _fenced_lines(lines: list[str]) -> set[int]:
    """0-based indexes of the lines from a fence line (````` ```python `````, ``~~~``) to the next
    fence line of the same character and at least its length, both included: a page that shows a
    Markdown or Quarto source in its code block shows its fences as text, and a pack pasted from
    Markdown without blank lines keeps them; either way every line between is code. An opener
    with no closer is left to the other rules (a lone ````` ``` ````` line proves nothing)."""
    out: set[int] = set()
    index = 0
    while index < len(lines):
        opener = _FENCE_LINE.match(lines[index])
        if opener is None:
            index += 1
            continue
        marker = opener.group(1)
        close = next((j for j in range(index + 1, len(lines)) if re.match(
            r"^\s*" + re.escape(marker[0]) + "{" + str(len(marker)) + r",}\s*$", lines[j])), None)
        if close is None:
            index += 1
            continue
        out.update(range(index, close + 1))
        index = close + 1
    return out


_ADORNMENT = re.compile(r"^([=\-~*^#+`:'\"_.])\1{2,}$")


def section_underlines(lines: list[str]) -> set[int]:
    """0-based indexes of reStructuredText (and Setext) section adornments: a line of one punctuation
    character repeated, right under a title line (text, no blank line between) at most as long as it,
    with an overline of the same character above the title or a blank line (or nothing) above it,
    and a blank line (or nothing) below and above the whole, as reStructuredText requires
    (``Introduction`` / ``============``; ``*****`` / ``CNI Benchmark`` / ``*****``); a program's
    banner (``=====`` / ``MLPerf Results Summary`` / ``=====`` between its output lines) has none. Such a line
    marks the title above it as a heading; it is no code banner, and the code it would start does
    not run on into the section's text."""
    out: set[int] = set()
    for i in range(1, len(lines)):
        mark = _ADORNMENT.match(lines[i].strip())
        title = lines[i - 1].strip()
        if (mark is None or not title or _ADORNMENT.match(title) or lines[i - 1][:1].isspace()
                or len(title) > len(lines[i].strip()) or not re.search(r"[A-Za-z]{2}", title)):
            continue
        above = lines[i - 2].strip() if i >= 2 else ""
        below = lines[i + 1].strip() if i + 1 < len(lines) else ""
        overline = bool(above) and bool(_ADORNMENT.match(above)) and above[0] == mark.group(1)
        outside = lines[i - 3].strip() if overline and i >= 3 else ""
        if not below and not outside and (not above or overline):
            out.add(i)
            if overline:
                out.add(i - 2)
    return out


def _indented_prose(lines: list[str], strong: list[bool]) -> set[int]:
    """0-based indexes of indented runs that are wrapped prose, not a ``<pre>``'s lines: a run of
    lines with one indentation, not under a code line, each but the last of four words or more, none
    with code punctuation, the first opening with a capital (or bold) and holding three plain
    lower-case words in a row, the run ending a sentence (a reStructuredText definition's body: ``Throughput`` over ``  Maximum
    transfer rate via a single TCP connection …``)."""
    out: set[int] = set()
    i = 0
    while i < len(lines):
        line = lines[i]
        indent = len(line) - len(line.lstrip())
        if not (indent and line.strip()):
            i += 1
            continue
        end = i
        while end + 1 < len(lines) and lines[end + 1].strip() and len(lines[end + 1]) - len(lines[end + 1].lstrip()) == indent:
            end += 1
        run = [lines[j].strip() for j in range(i, end + 1)]
        before = _neighbour(lines, i, -1)
        joined = " ".join(run)
        if ((before is None or not strong[before]) and re.match(r"(?:\*\*)?[A-Z]", run[0])
                and _prose_shaped(re.sub(r"^\*\*", "", joined))
                and re.search(r"\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b", run[0])
                and all(len(r.split()) >= 4 for r in run[:-1])  # a wrap's last line may be short
                and not any(re.search(r"[=;{}()\[\]<>$\\|#@]", r) for r in run)):
            out.update(range(i, end + 1))
        i = end + 1
    return out


_WORDED_KEYWORD_LINE = re.compile(r"^(?:for|while|if|with|from|then|do|use|time|export|source|print|return)\s"
                                  r"(?=(?:\S+\s+){6})(?=.*\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b)"
                                  r"[A-Za-z0-9 ,'’%.-]+[:,.]?$")
"""A wrapped line of prose that opens with a word code also opens with (``while running the
benchmark, normalized to a 50Gbit throughput:``): seven words or more, three plain lower-case words
in a row, letters, digits and commas only; ``for doc in docs:`` and ``with open(p) as f:`` stay code."""


def _neighbour(lines: list[str], index: int, step: int) -> int | None:
    """The index of the nearest non-blank line before (``step`` -1) or after (+1) ``index``."""
    j = index + step
    while 0 <= j < len(lines):
        if lines[j].strip():
            return j
        j += step
    return None


def _code_lines(raw: list[str]) -> set[int]:
    """0-based indexes of the lines that are code (rule 8): a line of its own code shape
    (:data:`_STRONG_CODE`, two or more YAML settings in a row: :data:`_YAML_KEY`), and with its
    neighbours: a line after a code line that continues it (``\\``, an open bracket, a comma),
    an indented line (the flattening keeps a ``<pre>``'s indentation; prose lines have none)
    after a code line, a line of output under a command (no sentence end, not prose-shaped), a
    ``# comment`` line before or after code. Never a line that is prose-shaped
    (:func:`_prose_shaped`) unless a continuation or open bracket holds it in the code."""
    lines = [r.rstrip() for r in raw]
    strong = [bool(line.strip()) and bool(_STRONG_CODE.match(line.strip())) and not _prose_shaped(line.strip())
              and _api_heading(line.strip()) is None
              and not _prose_value(line.strip())
              and not _CHROME_LINE.match(line.strip()) and not _WORDED_ASIDE.search(line)
              and not _WORDED_KEYWORD_LINE.match(line.strip())
              and not _glued_prose(line.strip()) for line in lines]
    for i, line in enumerate(lines):
        if not strong[i] and line.strip() and _heading_before_code(line.strip()) is not None:
            strong[i] = True
    for i in range(len(lines) - 1):  # "Random Forest # Set global options" above "knitr::opts_chunk$set("
        if (not strong[i] and strong[i + 1] and " # " in lines[i]
                and _heading_before_code(lines[i].strip(), comment=True) is not None):
            strong[i] = True
    for i, line in enumerate(lines):  # a program's output or a query by its own shape (rule 8)
        text = line.strip()
        short = _SHORT_COMMAND.match(text)
        command = short is not None and (short.lastgroup != "command" or (
            not re.search(r"[A-Za-z][.!?]$", text) and not any(
                w in FUNCTION_WORDS or w in _GLUE_WORDS or w in ("into", "your", "my") for w in text.split()[1:])))
        # "cd into the folder" is prose
        if text and not strong[i] and (_OUTPUT_LINE.match(text) or command) and not _prose_shaped(text):
            strong[i] = True
        elif text and not strong[i] and re.match(r"^\s+- [a-z_][\w.-]*:(?:\s|$)", line):
            strong[i] = True  # "  - name: mini": an entry of a YAML list (a prose list item has no key)
    sql = [bool(_SQL_CLAUSE.match(line.strip())) for line in lines]
    for i, is_sql in enumerate(sql):  # "SELECT name, count(*)" / "FROM events" / "GROUP BY name": a query's lines
        neighbour = any(sql[j] or strong[j] for j in (i - 1, i + 1) if 0 <= j < len(lines) and lines[j].strip())
        if is_sql and not strong[i] and (neighbour or re.search(r"[(),;*=]", lines[i])):
            strong[i] = True
    yaml = [bool(_YAML_KEY.match(line.strip())) for line in lines]
    for i, line in enumerate(lines):  # "models:" above "  - name: mini": a YAML key opening its block
        nxt = next((j for j in range(i + 1, len(lines)) if lines[j].strip()), None)
        if (yaml[i] and line.strip().endswith(":") and nxt is not None and lines[nxt][:1].isspace()
                and strong[nxt]):
            strong[i] = True
    for i in range(len(lines) - 1):  # "eval: split train. loss 2.5e-3 …" twice: a log's lines
        prefix = re.match(r"^([a-z_][\w-]*:)\s", lines[i].strip())
        if (prefix and re.search(r"\d", lines[i]) and lines[i + 1].strip().startswith(prefix.group(1))
                and re.search(r"\d", lines[i + 1])):
            strong[i] = strong[i + 1] = True
    for i in range(len(lines) - 1):  # "sample 1: why was …" / "sample 2: …", "Input movie_id: 1962": printed records
        keys = [_RECORD_LINE.match(lines[j].strip()) for j in (i, i + 1)]
        if all(keys) and keys[0].group(1) == keys[1].group(1) and not any(
                re.search(r"[.!?]$", lines[j].strip()) for j in (i, i + 1)):
            strong[i] = strong[i + 1] = True
    for i in range(len(lines) - 2):  # "Using Long Clipping Sequence: 'GTCT…'" three times: a program's log
        keys = [re.match(r"^([A-Z][\w ]{2,40}?):\s+\S", lines[j].strip()) for j in range(i, i + 3)]
        if (all(keys) and len({k.group(1) for k in keys}) == 1 and not has_verb(keys[0].group(1))
                and keys[0].group(1).split()[-1].lower() not in FUNCTION_WORDS  # "Install it with: pip …" leads code
                and not any(re.search(r"[.!?]$", lines[j].strip()) for j in range(i, i + 3))):
            for j in range(i, i + 3):
                strong[j] = True
            if i > 0 and re.match(r"^[A-Z][\w ]{2,40}?:\s+[^\s.]\S*$", lines[i - 1].strip()):
                strong[i - 1] = True  # "Loading index: refs/genome.idx" over the run: the log's first line
    for i in range(len(lines) - 3):  # "Input: g, c, b" / "Output: g, c, b" / "Input: …": records
        keys = [re.match(r"^([A-Z]?[a-z_]\w{0,20}):\s+(\S.{0,60})$", lines[j].strip()) for j in range(i, i + 4)]
        if (all(keys) and keys[0].group(1) == keys[2].group(1) and keys[1].group(1) == keys[3].group(1)
                and not any(re.search(r"[.!?]$", k.group(2)) for k in keys)):
            for j in range(i, i + 4):
                strong[j] = True
    shapes = [re.sub(r"\d+(?:\.\d+)?", "0", " ".join(line.split())) if 0 < len(line.split()) <= 30 and (
        not _prose_shaped(line.strip()) or _SPACED_STOP.search(line)) else "" for line in lines]
    where: dict[str, list[int]] = {}
    repeated: set[int] = set()
    for i, shape in enumerate(shapes):
        if shape:
            where.setdefault(shape, []).append(i)
    for places in where.values():  # "Hello, World! I am process 3 of 8 …" over and over: a program's output
        if len(places) >= 3 and len({" ".join(lines[i].split()) for i in places}) >= 2:  # its numbers vary
            for k, i in enumerate(places):
                if any(abs(i - j) <= 6 for j in places[max(0, k - 1):k] + places[k + 1:k + 2]):
                    repeated.add(i)
    sample = [bool(_SAMPLE_LINE.match(line.strip()) and (_SPACED_STOP.search(line) or _PLACEHOLDER.search(line)))
              for line in lines]
    for i, is_sample in enumerate(sample):  # "Input: the man went to the [MASK1] . he …": a tokenised example
        if is_sample:
            strong[i] = True
            for j in (i - 1, i + 1):  # "Label: IsNext" beside it: the same record
                if 0 <= j < len(lines) and _SAMPLE_LINE.match(lines[j].strip()) and not _prose_shaped(lines[j].strip()):
                    strong[j] = True
    wrapped = _indented_prose(lines, strong)
    underlines = section_underlines(lines)
    for i in underlines:
        strong[i] = False
    for i, line in enumerate(lines):  # an indented line that is no sentence and no list item: a <pre>'s line
        if i in wrapped:
            continue
        if (line[:1].isspace() and line.strip() and not _prose_shaped(line.strip()) and not _prose_value(line.strip())
                and (len(line.split()) >= 2 or not line.strip().isalpha())  # "  x" alone: a tab label (markup)
                and not re.match(r"^\s*(?:\d{1,3}[.)]|[-*•–—✓✔✅▪◦‣►])\s", line) and not _CHROME_LINE.match(line.strip())):
            strong[i] = True
    for i, is_yaml in enumerate(yaml):
        if is_yaml and ((i > 0 and yaml[i - 1]) or (i + 1 < len(yaml) and yaml[i + 1])):
            strong[i] = True
    for i in _fenced_lines(lines):  # "```{python}" … "```": the page shows a source file's fences in its code
        strong[i] = True
    for i, line in enumerate(lines):
        if _CELL_OPTION.match(line.strip()):
            strong[i] = True  # "#| echo: false": a Quarto / knitr cell option, a comment of the cell's code
    code: set[int] = set()
    depth = 0
    previous: int | None = None
    for i, line in enumerate(lines):
        text = line.strip()
        if not text:
            continue
        if i in underlines or i in wrapped:
            previous = i  # a title's underline or a definition's wrapped text: no code, and the code ends
            continue
        sentence = _prose_shaped(text) or _prose_value(text)
        after = previous is not None and previous in code
        held = after and (depth > 0 or _CODE_END.search(lines[previous].strip()) is not None)
        if held and sentence and not lines[previous].endswith("\\"):
            held = False  # a sentence after an unclosed "fn main() {": the excerpt of code ended
        is_code = strong[i] or held
        if not is_code and after and not sentence:
            indented = line[:1].isspace()
            output = not re.search(r"[.!?:]$", text) and not _CONTENTS_LABEL.match(text) and (
                bool(re.search(r"[\d/=_<>{}\[\]$\\|@#]", text)) or text[:1].islower() or indented
                or bool(re.match(r"^[^:]{1,40}?\s*:\s*\S+$", text)))  # "Scenario : Offline", a report's line
            if output and not indented and re.fullmatch(r"[a-z][a-z ,'’]+", text) and len(text.split()) >= 4:
                output = False  # "and for pipelined reads we used": words only, a sentence the code interrupts
            is_code = indented or output or text.startswith("#")
        if not is_code and text.startswith("# ") and i + 1 < len(lines) and lines[i + 1].strip() and strong[i + 1]:
            is_code = True  # "# download the archive" above a command: a comment, no heading
        if (not is_code and after and not sentence and 2 <= len(text.split()) <= 12
                and not re.search(r"[A-Za-z]:\s", text[:40])  # "Install it with: pip install x": a lead and its command
                and not re.search(r"\b[a-z]{2,} [a-z]{2,} [a-z]{2,}\b", text)  # "and for pipelined reads we used": a lead
                and _next_code_shaped(lines, i, strong, indented_only=text.endswith(":"))):
            is_code = True  # "MLPerf Results Summary" between two "=====" rules: a line inside the code
        if is_code:
            code.add(i)
            depth = max(0, depth + _bracket_depth(text)) if (depth > 0 or after or strong[i]) else max(0, _bracket_depth(text))
        else:
            depth = 0
        previous = i
    for i, line in enumerate(lines):  # "---" over "title: …" and under "jupyter: python3": YAML front matter in code
        if line.strip() == "---":
            near = [j for j in (_neighbour(lines, i, -1), _neighbour(lines, i, 1)) if j is not None]
            if any(j in code for j in near):
                code.add(i)
    for i in sorted(repeated):  # output under a command: the run of repeated lines right after a code line
        before = [j for j in range(i - 1, max(-1, i - 4), -1) if lines[j].strip()][:2]
        if any(j in code for j in before):  # (one line of the run may differ: "… all the serial 'work' …")
            code.add(i)
    return code


def _chrome_lines(raw: list[str], code: set[int]) -> dict[int, str]:
    """0-based indexes of site chrome lines and the note each gets (rule 8): a chrome line
    (:data:`_CHROME_LINE`), a previous/next link (:data:`_ARROW_LINK`), a breadcrumb
    (:data:`_BREADCRUMB`), a caption or credit (:data:`_CREDIT_LINE`), and the run of short lines
    under a contents label (:data:`_CONTENTS_LABEL`: ``Table of contents``, ``On this page``,
    ``Related posts``): lines of at most twelve words not ending in ``.``, ``:`` or ``;``, up to the
    first line that does (or is longer, or code)."""
    out: dict[int, str] = {}
    run = False
    for i, line in enumerate(raw):
        text = " ".join(line.split())
        if not text or (i in code and not (run and len(text.split()) <= 12 and _repeated_below(raw, i, text))):
            run = False if i in code else run  # a code-shaped entry the page repeats below is an entry
            continue
        if _CONTENTS_LABEL.match(text):
            out[i] = "contents"
            run = True
            continue
        plain = re.sub(r"\b(?:vs|e\.g|i\.e|etc|cf|approx|no)\.", "", text)  # "Benchmarks vs. FAISS" ends no sentence
        if run and ((len(text.split()) <= 12 and not re.search(r"[.:;,→»]$", text)  # a link with an arrow is no entry
                     and not re.search(r"[a-z][.!?]\s", plain)) or _repeated_below(raw, i, text)):
            out[i] = "contents"
            continue
        run = False
        if _CHROME_LINE.match(text):
            out[i] = "chrome"
        elif (len(text.split()) <= 8 and _ARROW_LINK.match(text) and not re.search(r"[=<>]\s*\d", text)
              and (len(re.findall(r"[A-Za-z0-9]\S*", text)) <= 4
                   or re.match(r"^\W*(?:Next|Previous|Prev|Older|Newer|Back|Continue|Read more)\b", text))):
            # "Next →", "← Older post"; "📄 Benchmarking the memory layer on long conversations →" is a sentence
            out[i] = "chrome"
        elif _BREADCRUMB.match(text) and (" › " in text or " » " in text or len(re.findall(r"\s[>/]\s", text)) >= 2):
            out[i] = "breadcrumb"
        elif _CREDIT_LINE.match(text):
            out[i] = "caption"
    return out


def _repeated_below(raw: list[str], index: int, text: str) -> bool:
    """A contents entry of any length: the text comes again further down as a line or as the
    start of one (the heading it links to, glued to its first paragraph)."""
    return any(" ".join(r.split()).startswith(text) for r in raw[index + 1:] if r.strip())


_COLUMN_GAP = re.compile(r"\S(?:\t| {2,})(?=\S)")
_WIDE_GAP = re.compile(r" {61}")
"""A gap between columns is a tab or two to sixty spaces: a run of thousands is no layout."""


def _sentence_cell(cell: str) -> bool:
    """A cell that reads as a sentence: four words or more ending in ``.``, ``!`` or ``?``. In a row
    one cell short of the header (``Note<TAB>the times are averaged over 3 runs.``) it is prose
    under the table, not a row (issue: a line after a table that does not look like a row is prose)."""
    return len(cell.split()) >= 4 and cell.rstrip().endswith((".", "!", "?"))


def _column_tables(raw: list[str], code: set[int]) -> dict[int, int]:
    """Runs of two or more lines laid out in columns (cells split by a tab or by two spaces or more
    inside the line, as ``w3m -dump`` or inscriptis render a table, tab-separated as a browser
    copies one), each with two or more cells and the same number of cells as the first (a body row
    may hold one cell fewer): start index → end index (exclusive)."""
    def cells(line: str) -> list[str]:
        return [c for c in re.split(r"\t+|\s{2,}", line.strip()) if c]
    out: dict[int, int] = {}
    i = 0
    while i < len(raw):
        width = len(cells(raw[i])) if raw[i].strip() else 0
        if width < 2 or not _COLUMN_GAP.search(raw[i]) or _WIDE_GAP.search(raw[i]):
            i += 1
            continue
        end = i + 1
        while (end < len(raw) and _COLUMN_GAP.search(raw[end]) and not _WIDE_GAP.search(raw[end])
               and width - 1 <= len(cells(raw[end])) <= width
               and not (len(cells(raw[end])) < width and _sentence_cell(cells(raw[end])[-1]))):
            end += 1
        if end - i >= 2:
            out[i] = end
            i = end
        else:
            i += 1
    return out
