"""Hard-wrapped lines of flattened text joined back into their paragraphs.

Flattened text is read one paragraph per line (audit/flattened.py), which is how an HTML page
flattens. Text copied from a PDF, a terminal, an e-mail or ``pdftotext`` is instead hard-wrapped
at a fixed width: one sentence runs over two or three lines, and read line by line it would be
split into fragments ("The run" / "reached an MRR@10 of 0.187 …" / "0.857.").

Convention: a paragraph line B continues the paragraph line A right above it (no blank line
between) when A is a full line of wrapped text (six words or more, and at least 70% of the
text's wrap width, estimated as the 80th percentile of its paragraph lines' lengths: a page read
one paragraph per line has long lines, so its short lines, labels and list entries, are never
full), A does not end a sentence (its last character is none of ``. ! ? : ;`` and no
closing quote or bracket after one) and B opens with a lower-case letter, or with a number
while A ends in a lower-case word ("… recall at 1000 was" / "0.857."; a line that opens like a
numbered item, "3. The …", after such a line was wrapped there too). In a text that is
hard-wrapped throughout (:func:`hard_wrapped`: most of its full lines end inside a sentence), B
may open with any word ("… on the MS" / "MARCO passage collection …"). A line that ends a
sentence, a heading, a list item, a table, code or any block another rule recovered is never
joined: a one-paragraph-per-line page keeps its lines exactly. The joined block keeps each
line's file line in ``line_marks`` (a sentence's row reports the line it starts on), and a word
hyphenated at the wrap keeps its hyphen (``state-of-the-`` + ``art``) with no space added.
"""

from __future__ import annotations

import re
from dataclasses import replace

from audit.blocks import Block

_ENDS_SENTENCE = re.compile(r"[.!?:;][\"'”’)\]]*$")
_LOWER_WORD_END = re.compile(r"\b[a-z][a-z0-9'’-]*,?$")
_OPEN_END = re.compile(r"(?:[A-Za-z0-9%-]|[A-Za-z0-9],|`_{0,2},?)$")
"""How a wrapped line ends inside a sentence: a word, a number or a hyphen, maybe a comma after it,
or a reStructuredText role or link (``… see :ref:`setup```, ``… `netperf <https://…>`_``) (a line
of JSON, ``"key": "value",``, or of code ends otherwise)."""


_ROLE_START = re.compile(r"^:[\w.-]+(?::[\w.-]+)*:`")
"""A reStructuredText / Sphinx role opening a line (``:ref:`x```, ``:py:func:`f```): a word of the
sentence, wrapped onto the next line like a lower-case one."""


def wrap_width(blocks: list[Block]) -> int:
    """The text's wrap width: the 80th percentile of its one-line paragraph lengths (0 if none)."""
    lengths = sorted(len(b.text) for b in blocks if b.kind == "paragraph" and b.line == b.end_line)
    return lengths[(len(lengths) * 4) // 5] if lengths else 0


def hard_wrapped(blocks: list[Block], width: int) -> bool:
    """Whether the text is wrapped throughout: of its full paragraph lines (six words or more, at
    least 70% of ``width``), three or more and more than half end inside a sentence."""
    full = [b.text for b in blocks if b.kind == "paragraph" and b.line == b.end_line
            and len(b.text.split()) >= 6 and len(b.text) >= 0.7 * width]
    open_ended = sum(1 for text in full if _OPEN_END.search(text))
    return open_ended >= 3 and open_ended > len(full) / 2


def continues(previous: Block, block: Block, width: int, wrapped: bool = False) -> bool:
    """Whether ``block`` is the next wrapped line of the paragraph ``previous`` (module docstring)."""
    numbered = block.kind == "list_item" and bool(re.fullmatch(r"\d+[.)]", block.marker)) and not block.recovered
    if previous.kind != "paragraph" or previous.recovered or not (
            numbered or (block.kind == "paragraph" and not block.recovered)):
        return False
    if block.line != previous.end_line + 1 or _ENDS_SENTENCE.search(previous.text) or not block.text:
        return False
    last_line = previous.text[previous.line_marks[-1][0]:] if previous.line_marks else previous.text
    if len(last_line.split()) < 6 or len(last_line) < 0.7 * width:
        return False
    first = block.text[0]
    if _ROLE_START.match(block.text):
        first = "r"  # ":ref:`test_hardware`. For more …" under "… configuration, see": a role the wrap put first
    if wrapped:
        return bool(_OPEN_END.search(previous.text)) and (first.isalnum() or first == "(")
    if numbered or first.isdigit():  # "… recall at 1000 was" / "0.857." or "was" / "3. The next …"
        return bool(_LOWER_WORD_END.search(previous.text))
    return first.islower()


def join_wrapped_lines(blocks: list[Block]) -> list[Block]:
    """``blocks`` with each run of wrapped paragraph lines joined into one paragraph block."""
    width = wrap_width(blocks)
    wrapped = hard_wrapped(blocks, width)
    out: list[Block] = []
    for block in blocks:
        if out and continues(out[-1], block, width, wrapped):
            out[-1] = _joined(out[-1], block)
        else:
            out.append(block)
    return out


def _joined(first: Block, second: Block) -> Block:
    if second.kind == "list_item":  # "3. The …" read as a numbered item was the wrapped line "3. The …"
        second = replace(second, kind="paragraph", marker="", text=f"{second.marker} {second.text}",
                         math_spans=_moved(second.math_spans, len(second.marker) + 1),
                         atomic_spans=_moved(second.atomic_spans, len(second.marker) + 1),
                         line_marks=tuple((a + len(second.marker) + 1, n) for a, n in second.line_marks))
    glue = "" if first.text.endswith("-") else " "
    offset = len(first.text) + len(glue)

    marks = (first.line_marks + ((offset, second.line),)
             + tuple((a + offset, line) for a, line in second.line_marks))
    return replace(first, text=first.text + glue + second.text, end_line=second.end_line,
                   math_spans=first.math_spans + _moved(second.math_spans, offset),
                   atomic_spans=first.atomic_spans + _moved(second.atomic_spans, offset), line_marks=marks)


def _moved(spans: tuple[tuple[int, int], ...], offset: int) -> tuple[tuple[int, int], ...]:
    return tuple((a + offset, b + offset) for a, b in spans)
