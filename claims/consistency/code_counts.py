"""Counts in prose against the chapter's code, where the code states the count literally. Check
kind ``code-count`` (issue 22: the reviewer's arithmetic).

**What the code states** (fenced code blocks of the page, any language, read line by line — no
code is run): a loop bound ``for epoch in range(5)`` / ``range(0, 5)`` (5 *epochs*: the loop
variable's name); a list or tuple literal on one line ``datasets = ["nq", "fiqa", "scifact"]``
(3 *datasets*: the variable's name); a count constant ``num_layers = 12``, ``n_folds = 5``,
``NUM_EPOCHS = 10``, ``layer_count = 12`` (the noun after ``num_``/``n_`` or before ``_count``).
A noun whose code states two different counts is ambiguous and checks nothing.

**What the prose states**: a whole number (digits or one to twelve in words) followed directly by
a noun (``five epochs``, ``3 datasets``, ``12 layers``), singular and plural folded (``-s``,
``-es``, ``-ies``), the noun at least four letters. A number after *top*, *@*, *of the*, or one
that is part of a range, a ratio or a decimal is not a count; nor one after *between*, *each*,
*every*, *per*, *any*, *than*; nor *one*, *two* or *1*, which prose uses for relations and
examples ("one stock from another", "between two buckets") far more than for counts.

**Which code**: only the code blocks next to the sentence (the last one before it and the first
one after it); a count stated farther away belongs to another example and is not compared
(a page's ``num_tosses = 100`` early on says nothing of "10,000 tosses" three examples later). A
number with thousands separators is read whole (``10,000``); a rate (``60 queries/s``, ``5 steps
per second``) is not a count.

**Tolerance**: none — counts are exact. A prose count of a noun the code counts passes when equal
and fails otherwise; a noun the code does not count is not checked (no check is emitted).
"""

from __future__ import annotations

import re
from typing import Any, Sequence

from claims.consistency.model import Check, make_check

KIND = "code-count"
FENCE = re.compile(r"^(?P<fence>```+|~~~+)[^\n]*\n(?P<body>.*?)^(?P=fence)\s*$", re.M | re.S)
WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9,
         "ten": 10, "eleven": 11, "twelve": 12}
LOOP = re.compile(r"^\s*for\s+(?P<var>[A-Za-z_]\w*)\s+in\s+range\(\s*(?:0\s*,\s*)?(?P<n>\d+)\s*\)\s*:")
LITERAL = re.compile(r"^\s*(?P<var>[A-Za-z_]\w*)\s*=\s*(?P<open>[\[(])(?P<items>[^\[\]()]*)(?P<close>[\])])\s*(?:#.*)?$")
CONSTANT = re.compile(r"^\s*(?P<var>(?:num|n)_(?P<a>[A-Za-z]\w*)|(?P<b>[A-Za-z]\w*?)_count|NUM_(?P<c>[A-Z]\w*))"
                      r"\s*=\s*(?P<n>\d+)\s*(?:#.*)?$", re.I)
PROSE = re.compile(rf"(?<![\w.@/,-])(?P<n>\d{{1,3}}(?:,\d{{3}})+(?![\d,])|\d+|{'|'.join(WORDS)})\s+"
                   rf"(?P<noun>[A-Za-z][a-z]{{3,}})\b", re.I)
RATE = re.compile(r"\s*/|\s+(?:per|a|an|each|every)\s+(?:second|minute|hour|day|step|query|sec)\b", re.I)
NOT_A_COUNT = re.compile(r"(?:\btop|@|\bof the|\bfrom|\bto|\bversion|\bv|\bchapter|\bsection|\bstep|\bfigure|\btable|"
                         r"\bbetween|\beach|\bevery|\bper|\bany|\bthan)\s*$", re.I)
RELATIONAL = ("one", "two", "1")   # "one stock from another", "between two buckets": relations, not counts


def fold(noun: str) -> str:
    """A noun's singular, lower-cased: ``epochs`` → ``epoch``, ``queries`` → ``query``, ``boxes`` → ``box``."""
    word = noun.lower().strip("_")
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("ses", "xes", "ches", "shes")):
        return word[:-2]
    if word.endswith("s") and not word.endswith("ss"):
        return word[:-1]
    return word


def code_blocks(text: str) -> list[tuple[int, int]]:
    """(first, last) line numbers in ``text`` of every fenced code block, fences included."""
    return [(text.count("\n", 0, b.start()) + 1, text.count("\n", 0, b.end()) + 1) for b in FENCE.finditer(text)]


def neighbour_blocks(blocks: list[tuple[int, int]], line: int) -> set[int]:
    """Indexes of the code blocks next to ``line``: the last one before it and the first one after it."""
    before = [i for i, (_, last) in enumerate(blocks) if last < line]
    after = [i for i, (first, _) in enumerate(blocks) if first > line]
    return set(before[-1:] + after[:1])


def code_counts(text: str) -> dict[str, set[tuple[int, str, int]]]:
    """Folded noun → {(count, the code line, its line number in ``text``)} from the fenced code."""
    out: dict[str, set[tuple[int, str, int]]] = {}
    for block in FENCE.finditer(text):
        start = text.count("\n", 0, block.start("body")) + 1
        for offset, line in enumerate(block.group("body").split("\n")):
            found = None
            m = LOOP.match(line)
            if m and m.group("var") not in ("_", "i", "j", "k", "n", "idx", "index"):
                found = (m.group("var"), int(m.group("n")))
            m = m or None
            if found is None and (lit := LITERAL.match(line)):
                items = [i for i in re.split(r",(?=(?:[^\"']*[\"'][^\"']*[\"'])*[^\"']*$)", lit.group("items"))
                         if i.strip()]
                if items and lit.group("open") + lit.group("close") in ("[]", "()"):
                    found = (lit.group("var"), len(items))
            if found is None and (const := CONSTANT.match(line)):
                noun = const.group("a") or const.group("b") or const.group("c")
                found = (noun, int(const.group("n")))
            if found is not None:
                noun = fold(found[0].split("_")[-1])
                if len(noun) >= 4:
                    out.setdefault(noun, set()).add((found[1], line.strip(), start + offset))
    return out


def check_code_counts(text: str, claims: Sequence[Any], offset: int = 0) -> list[Check]:
    """One check per prose count of a noun that the page's code counts (module docstring)."""
    counts = code_counts(text)
    if not counts:
        return []
    blocks = code_blocks(text)
    checks: list[Check] = []
    for claim in claims:
        sentence = str(getattr(claim, "text", ""))
        if "|" in sentence or getattr(claim, "block", "paragraph") in ("table", "code"):
            continue
        for m in PROSE.finditer(sentence):
            noun = fold(m.group("noun"))
            if noun not in counts or NOT_A_COUNT.search(sentence[:m.start()]) or m.group("n").lower() in RELATIONAL:
                continue
            after = sentence[m.end("n"):m.end("n") + 1]
            if after in (".", "/", ":") or RATE.match(sentence, m.end()):
                continue
            line = getattr(claim, "line", None) or None
            near = neighbour_blocks(blocks, line - offset) if line else set(range(len(blocks)))
            stated_near = {(c, code, ln) for c, code, ln in counts[noun]
                           if any(blocks[i][0] <= ln <= blocks[i][1] for i in near)}
            if not stated_near:
                continue
            stated = WORDS.get(m.group("n").lower()) or int(m.group("n").replace(",", ""))
            values = {c for c, _, _ in stated_near}
            where = "; ".join(f"line {ln + offset}: {code}" for _, code, ln in sorted(stated_near, key=lambda x: x[2]))
            cid = f"{getattr(claim, 'claim_id', '?')}:{m.start()}"
            if len(values) != 1:
                checks.append(make_check(KIND, cid, None, f"{claim.claim_id} says “{m.group(0)}” but the code counts "
                                         f"{noun} {len(values)} ways ({where}): ambiguous", line))
                continue
            (code,) = values
            checks.append(make_check(KIND, cid, stated == code,
                                     f"{claim.claim_id} says “{m.group(0)}”; the chapter's code states {code} "
                                     f"({where}) — counts are exact", line))
    return checks
