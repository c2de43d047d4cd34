"""Claim rows: every prose sentence and every numeric table cell of a chapter, located and classified.

Rules (docs/audit.md "Claim rows"); all deterministic, no model:

**Blocks.** The chapter is read into the document model (:mod:`audit.document`): Markdown with
markdown-it-py, flattened pack text with the recovery heuristics of :mod:`audit.flattened`.
Only prose blocks (paragraphs, list items, blockquotes, footnotes) give sentence rows; headings
give the section path of the rows under them; code, math, HTML, images, front matter and link
reference definitions never give rows. Each numeric table cell gives a *table-value* row.

**Sentences.** :func:`sentence_spans` uses the sentencex segmenter (a maintained rule-based
library; chosen on the labelled set, see ``bench/bench_claims_quality.py``), then these guards
merge a boundary back: the piece before it ends in a known abbreviation (:data:`ABBREVIATIONS`:
e.g., i.e., et al., vs., cf., Fig., …) or an initial (``J.``, ``U.S.``); it is a bare list
marker (``1.``, ``(a)``); the next piece starts with a lower-case letter (``… which``; not a
name with a capital inside, ``vLLM``) or holds no letter or digit (a trailing emoji, also one sentencex put before the next
sentence); or the
boundary falls inside a protected span (a bold lead-in such as ``**Bold.** Text`` of a list
item, inline math, a URL, inline code or a role such as ``:citet:`key```: atomic, never split).
A segment is also cut before each bullet of a list flattened onto one line (``… in which: *
a … * b …``; a numbered one, ``Steps: 1. Install it. 2. Run it.``, loses its markers), after an all-capitals acronym or a lower-case one-letter variable and a full stop
before a capitalised word (``… checked ID. Retain …``, ``… in group j. The …``) or a URL, which sentencex takes for an
abbreviation; ``et al.``, ``Inc.``, ``Ltd.``, ``Corp.`` before a capitalised word end a sentence
(``… by Dettmers et al. The abstract …``), and a short title-case abbreviation keeps its number
(``Tab. 1``). Decimals, versions and ``.7`` never split (no space follows the dot).

**Rows.** Sentence rows are identified ``C-PPP-SS`` (prose block, sentence; 1-based, zero-padded
to 3 and 2 digits, wider when needed), e.g. ``C-003-02`` = ``paragraph 3, sentence 2``; their
``section`` is the heading path. Table-value rows are identified ``T-<t>-R<rr>-C<cc>`` (table
number in document order, body row, column; 1-based) and their text is the *table key* then
the cell: ``T-2 · MMR · Mean characters = 1,081`` (table label, row label = the row's first
cell, column header, joined by `` · ``). A claims file binds such a number with
``quote = "T-2 · MMR · Mean characters"`` (docs/verify.md).

**Quantity roles** (:func:`quantity_roles`): a number is not a result when it is a year in a
citation (``(2005)``, ``in 1998``), an identifier or index (after ``claim``, ``topic``,
``section``, ``step(s)``, ``figure``, ``table``, ``version``, … : :data:`IDENTIFIER_WORDS`),
a parameter setting (``k1 = 1.2``, ``--lr 3e-4``, ``top 100``, ``alpha of 0.5``, a number near
a training setting such as ``learning rate`` or ``batch size``: :data:`PARAMETER_PHRASES`), or
inside inline math; :func:`claims.kinds.refine_roles` then adds ``step``, ``identifier``,
``parameter`` and ``count`` for the shapes of real pages. The rest keep role ``value`` (or
``p-value``).

**Kinds**, first rule that fires wins:

1. ``measured result``: the sentence states the value of a measurement — it has a quantity of
   role ``value``/``p-value`` *and* a measurement cue: a metric or outcome word
   (:data:`METRIC_WORDS`: error, loss, recall, latency, rate, gain, mistakes …), a change verb
   (:data:`CHANGE_WORDS`: rose, fell, cut, outperformed, improved …), a comparison (more than,
   better, faster …), or a result-shaped number (a p-value, ``N of M``, a ratio, a multiplier,
   ``±``), or a cue of :func:`claims.kinds.measured_cue`; never a question, speculation or a
   plan (:func:`claims.kinds.not_measured`). Any verb may carry it;
2. ``attribution``: it cites a named source (a person-name citation, see *cited names*) or
   credits one (:func:`claims.attribution.credits`: citation roles, organisations, papers);
3. ``recommendation``: a modal of advice (:data:`RECOMMENDATION_CUES`: should, must, recommend…);
4. ``scope or limitation``: a negation/limit cue (:data:`SCOPE_CUES`: does not, cannot, only,
   outside, not measured…);
5. ``method or definition``: everything else.

Table-value rows have kind ``table value``. The kind names (:data:`KINDS`) are a public API.

**Cited names**, in order of appearance, de-duplicated: ``Name et al.``; ``Name and Name``
followed by a possessive (``’s``/``'s``) or a year (``(1998)`` / ``, 1998``), or preceded by
``by``/``after``/``following``/``from``/``per`` (``as defined by Järvelin and Kekäläinen``);
``Name (1998)``; a capitalised possessive ``Name’s`` that is not a contraction
(:data:`CONTRACTIONS`: Here's, Let's, What's …) and not the sentence's first word;
``(Name, 1998)``; and acronyms/camel-case names of at least 3 letters with two or more capitals
and no digits (``MMR``, ``xQuAD``, ``HyDE``, ``SciFact``), minus :data:`ACRONYM_STOPLIST` and
roman numerals. Only the person-name patterns make a sentence an *attribution*; an acronym
alone does not.
"""

from __future__ import annotations

import bisect
import math
import re
from dataclasses import dataclass, field, replace

from audit.document import Block, Document, Table, document_from_pack, read_markdown
from audit.flattened import read_flattened
from audit.pack import Pack
from engine.runs.errors import InputError
from claims.quantities import Quantity, find_quantities
from claims.attribution import (citation_marker_spans, credits, own_names, own_paper, page_title, possessive_credits,
                                self_reference, system_contribution, work_reports, works_named)
from claims.kinds import MEASURED, RESULT_ROLES, TABLE_VALUE, check_kinds, measured_cue, not_measured, refine_roles
from claims.roles import masked as mask_roles

KINDS = (MEASURED, "method or definition", "attribution", "scope or limitation",
         "recommendation", TABLE_VALUE)

ABBREVIATIONS = frozenset("""
e.g. i.e. al. et. vs. cf. fig. figs. eq. eqs. ref. refs. dr. mr. mrs. ms. prof. no. nos. sec. ch.
approx. resp. viz. pp. p. vol. st. jr. sr. inc. ltd. co. incl. ed. eds. ca. est. dept. univ.
tab. tabs. corp. etc. c.f.
""".split())

METRIC_WORDS = tuple("""
error errors loss losses recall precision accuracy ndcg map mrr f1 auc bleu rouge perplexity latency
throughput speed speedup rate rates median mean average percentile gain gains reduction improvement
improvements mistakes hits misses coverage agreement correlation cost costs runtime
overhead peak score scores lift drop increase decrease difference margin hit-rate gap spread
frequency idf length
""".split())

CHANGE_WORDS = tuple("""
rose rises rise fell falls fall dropped drops drop cut cuts improved improves outperformed
outperforms outperforming underperformed beat beats gained lost increased increases decreased
decreases reduced reduces reduction doubled halved settled reached reaches reaching climbed jumped
declined grew shrank brings brought lowered lifts lifted turned better worse faster slower higher
lower more fewer less exceeds exceeded achieves achieved scored averaged averages totals totalled
found kept helped hurt took takes larger smaller greater bigger wider narrower
contains yields yielded returned returns produced recorded measured counted sits ranks places
""".split())

IDENTIFIER_WORDS = frozenset("""
claim claims topic topics query queries document doc id item items issue ticket case task tasks
line lines page pages chapter chapters section sections sec. step steps figure figures fig. table
tables equation eq. part appendix listing example exercise version v run question rank
""".split())

PARAMETER_WORDS = frozenset("top depth cutoff seed k alpha beta lambda weight batch epochs".split())
PARAMETER_PHRASES = ("learning rate", "warm up", "warm-up", "warmup", "batch size", "dropout", "temperature",
                     "weight decay", "sequence length", "max length", "maximum length", "epochs")
"""Training and method settings: a number within a few words of one is a parameter, and the
phrase is no metric cue ("a learning rate of 2e-5" states a setting, not a result)."""
_PARAMETER_PHRASE = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(p) for p in PARAMETER_PHRASES) + r")(?![\w-])",
                               re.I)

RECOMMENDATION_CUES = ("should", "must", "recommend", "recommends", "recommended", "recommendation",
                       "ought to", "we suggest", "is advised", "are advised", "needs to", "need to")

SCOPE_CUES = ("does not", "do not", "did not", "is not", "are not", "was not", "were not", "has not",
              "have not", "had not", "will not", "would not", "could not", "cannot", "can not",
              "can't", "doesn't", "don't", "isn't", "aren't", "won't", "not measured", "not tested",
              "not yet", "no longer", "not necessarily", "only", "outside", "neither", "limited to",
              "beyond the scope", "unverified", "excerpt", "none of")

ACRONYM_STOPLIST = frozenset("""
LF CR CRLF CPU CPUs GPU GPUs URL URLs DOI ID IDs PDF HTML API APIs JSON CSV TSV UTF ASCII NFC NFD
OK AND OR NOT ALL NONE ONLY MUST NOTE TODO EXCERPT UNVERIFIED UNRUN MATCH MISMATCH WARNING FAQ
USA UK EU GB MB KB TB
""".split())
NAME_STOPLIST = frozenset("""
Today Tomorrow Yesterday Everyone Nobody Someone Anyone This That It Its Chapter Part Section
Figure Table Year Author Book Reader Model System Method Team World Project
January February March April June July August September October November December
Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec
""".split())  # a month before a year dates a release ("Megablocks (Nov 2022)"), it names no author
CONTRACTIONS = frozenset("""
Here Let What That There It Who Where How He She Everyone Nobody Somebody Today When Why Which
Now Someone Everything Nothing Something Anyone Anything This
""".split())

_METRIC = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in METRIC_WORDS) + r")(?![\w-])", re.I)
_CHANGE = re.compile(r"(?<![\w-])(?:" + "|".join(CHANGE_WORDS) + r")(?![\w-])", re.I)
_N_OF_M = re.compile(r"\b\d[\d,]*\s+(?:out\s+)?of\s+(?:the\s+|all\s+)?\d")
_RECOMMEND = re.compile(r"\b(?:" + "|".join(re.escape(c) for c in RECOMMENDATION_CUES) + r")\b", re.I)
_SCOPE = re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(c) for c in SCOPE_CUES) + r")(?![\w'])", re.I)

_NAME = r"[A-ZÀ-Þ][a-zß-ÿ][\w\-]*"  # capitalised word, Latin-1 letters included (Järvelin)
_ET_AL = re.compile(rf"\b((?:(?:van|von|de|der|den|del|da|di|dos|le|la)\s+)*{_NAME}(?:\s+(?:and|&)\s+{_NAME})?)"
                    rf"\s+et\s+[aA]l\b\.?")  # "van der Maaten et al.", "et Al" as written in the wild
_PAIR = re.compile(rf"\b({_NAME})\s+(?:and|&)\s+({_NAME})(?=’s|'s|\s*\(\d{{4}}|,\s*\d{{4}})")
_BY_PAIR = re.compile(rf"\b(?:by|after|following|from|per)\s+({_NAME})\s+(?:and|&)\s+({_NAME})\b")
_POSSESSIVE = re.compile(rf"\b({_NAME})(?:’s|'s)(?!\w)")
_NAME_YEAR = re.compile(rf"\b({_NAME})\s+\(\d{{4}}[a-z]?\)")
_PAREN = re.compile(rf"\(({_NAME})(?:\s+et\s+al\.)?,?\s+\d{{4}}[a-z]?\)")
_ACRONYM = re.compile(r"(?<![\w\-])([a-z]?[A-Z][A-Za-z]*[A-Z][A-Za-z]*)(?![\w\-]|@\d)")  # "XY@10": a metric
_ROMAN = re.compile(r"^[IVXLCDM]+$")

_URL = re.compile(r"(?:https?://|www\.)\S+?(?=[.,;:!?)\]”\"']*(?:\s|$))")
_RELATIVE_PATH = re.compile(r"(?<!\S)(?:\.{1,2}|~)/[\w.@/-]*[\w/](?=[.,;:!?)\]”\"']*(?:\s|$))")
"""A relative path in prose (``./examples``, ``../tools``, ``~/bin``): atomic, as a URL is (a flattened
page has lost the inline code around it)."""
"""A URL without the punctuation that follows it (``… see https://x.org/a.b. Then …`` ends a
sentence after ``a.b``)."""
_LIST_MARKER = re.compile(r"^\(?(?:\d{1,3}|[a-zA-Z]|[ivxIVX]{1,4})[.)]$")


@dataclass(frozen=True)
class ClaimRow:
    """One prose sentence or numeric table cell as an auditable row (field names are a public API)."""

    claim_id: str
    paragraph: int
    sentence: int
    text: str
    kind: str
    quantities: list[Quantity] = field(default_factory=list)
    cited_names: list[str] = field(default_factory=list)
    location: str = ""
    cue: str = ""  # why the kind was chosen (the cue that fired), for traceability
    section: tuple[str, ...] = ()   # heading path, outermost first
    block: str = "paragraph"        # the document block kind the row comes from ("table" for values)
    line: int = 0                   # file line where the sentence starts, of a cell's table row (0 when unknown)
    table: str = ""                 # table-value rows: "T-2"
    row_label: str = ""             # table-value rows: the row's first cell
    column: str = ""                # table-value rows: the column header

    @property
    def section_path(self) -> str:
        """``"A › B"`` (the heading path), '' when the row sits before any heading."""
        return " › ".join(self.section)

    @property
    def where(self) -> str:
        """The location with the section path: ``section: A › B; paragraph 3, sentence 2``."""
        return f"section: {self.section_path}; {self.location}" if self.section else self.location

    def as_dict(self) -> dict:
        return {"claim_id": self.claim_id, "paragraph": self.paragraph, "sentence": self.sentence,
                "text": self.text, "kind": self.kind,
                "quantities": [q.as_dict() for q in self.quantities],
                "cited_names": list(self.cited_names), "location": self.location, "cue": self.cue,
                "section": list(self.section), "block": self.block, "line": self.line,
                "table": self.table, "row_label": self.row_label, "column": self.column}


def claim_id(paragraph: int, sentence: int) -> str:
    return f"C-{paragraph:03d}-{sentence:02d}"


def split_paragraphs(text: str, rule: str = "line") -> list[str]:
    """Prose paragraphs of chapter text: ``"line"`` = flattened text, ``"block"`` = Markdown.

    Kept for callers of earlier versions; the text of every prose block of the document model.
    """
    if rule not in ("line", "block"):
        raise ValueError(f"unknown paragraph rule {rule!r}")
    document = read_flattened(text) if rule == "line" else read_markdown(text)
    return [b.text for b in document.prose_blocks()]


# ---------------------------------------------------------------------------------------------
# Sentences.

def _segment(text: str) -> list[str]:
    import sentencex

    return list(sentencex.segment("en", text))


def sentence_spans(paragraph: str, protected: tuple[tuple[int, int], ...] = ()) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence in a paragraph (module docstring: sentencex + guards)."""
    pieces: list[tuple[int, int]] = []
    cursor = 0
    for piece in _segment(paragraph):
        stripped = piece.strip()
        if not stripped:
            continue
        start = paragraph.find(stripped, cursor)
        if start < 0:  # the segmenter changed the text: fall back to one sentence
            return _trimmed([(0, len(paragraph))], paragraph)
        for piece_start, piece_end in _inline_bullets(paragraph, start, start + len(stripped)):
            pieces.extend(_acronym_ends(paragraph, piece_start, piece_end))
        cursor = start + len(stripped)
    guarded = _disjoint(protected + tuple(m.span() for m in _URL.finditer(paragraph))
                        + tuple(m.span() for m in _RELATIVE_PATH.finditer(paragraph)))
    merged: list[tuple[int, int]] = []
    for start, end in _symbols_back(paragraph, pieces):
        if merged and _keep_together(paragraph, merged[-1], (start, end), guarded):
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    spans = [_without_bullet(paragraph, span) for span in _trimmed(merged, paragraph)]
    return _without_numbers(paragraph, spans) if _numbered_inline(paragraph) else spans


_LEADING_SYMBOLS = re.compile(r"(?:[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF\uFE0F\u200D]+\s*)+")
_LEADING_MARKER = re.compile(r"(?:\[(?:\^[\w\-]{1,40}|[1-9]\d{0,2}(?:\s*[,–-]\s*[1-9]\d{0,2})*)\]|[¹²³⁴-⁹⁰]+)+(?=\s|$)")
"""A footnote reference, a numbered reference or a superscript number right after a full stop."""


def _symbols_back(text: str, pieces: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Emoji that open a piece after a full stop close the sentence before it (``… weekend! 🚀
    Then …``: sentencex puts the emoji with the next sentence), and so does a citation marker
    glued to the full stop (``… tokenizers.[^2] Smith found …``, ``… before.² It …``: the marker
    cites the sentence it closes; ``… first. [12] showed that …`` keeps its subject)."""
    out: list[tuple[int, int]] = []
    for start, end in pieces:
        marker = _LEADING_MARKER.match(text, start, end)
        if out and marker and start > 0 and not text[start - 1].isspace():
            if marker.end() >= end:  # a lone marker closing the paragraph
                out[-1] = (out[-1][0], end)
                continue
            out[-1] = (out[-1][0], marker.end())
            start = marker.end()
        match = _LEADING_SYMBOLS.match(text, start, end)
        if out and match and match.end() < end:
            out[-1] = (out[-1][0], match.start() + len(match.group(0).rstrip()))
            start = match.end()
        out.append((start, end))
    return out


_BULLET_AFTER_COLON = re.compile(r":\s+[*•]\s+(?=\S)")
_INLINE_BULLET = re.compile(r"\s[*•]\s+(?=\S)")


def _inline_bullets(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A segment cut before each bullet of a list flattened onto one line (``… in which: * a low
    recall … * a low precision …``, ``Features: • fast • small``): a ``*`` or ``•`` between spaces
    after a colon opens the list, and each later one starts an item (a lone ``a * b`` is
    arithmetic, never cut)."""
    opening = _BULLET_AFTER_COLON.search(text, start, end)
    if opening is None:
        return [(start, end)]
    cuts = [opening.start() + 1] + [m.start() + 1 for m in _INLINE_BULLET.finditer(text, opening.end(), end)]
    bounds = [start] + cuts + [end]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if text[a:b].strip(" *•")]


_INLINE_NUMBER = re.compile(r"(?:^|(?<=[:.!?]))\s*(\d{1,2})[.)]\s+(?=[A-Z\"“(])")


def _numbered_inline(text: str) -> bool:
    """A numbered list flattened onto one line (``Steps: 1. Install it. 2. Run it.``): markers 1
    and 2, each after a colon or a sentence end."""
    numbers = [m.group(1) for m in _INLINE_NUMBER.finditer(text)]
    return "1" in numbers and "2" in numbers[numbers.index("1") + 1:]


def _without_numbers(text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The markers of an inline numbered list kept out of its sentences: ``Steps: 1.`` →
    ``Steps:``, ``2. Run it.`` → ``Run it.``."""
    out = []
    for start, end in spans:
        piece = text[start:end]
        lead = re.match(r"\d{1,2}[.)]\s+", piece)
        if lead:
            start += lead.end()
        tail = re.search(r"(?<=[:.!?])\s+\d{1,2}[.)]$", text[start:end])
        if tail:
            end = start + tail.start()
        if end > start:
            out.append((start, end))
    return out


def _without_bullet(text: str, span: tuple[int, int]) -> tuple[int, int]:
    """A sentence that an inline bullet opens starts after the bullet."""
    match = re.match(r"[*•]\s+", text[span[0]:span[1]])
    return (span[0] + match.end(), span[1]) if match else span


_ACRONYM_END = re.compile(r"(?:(?<![\w.])(?:[A-Z]{2,}s?|[a-z])|(?:https?://|www\.)\S+?)\.(?=\s+[A-Z][a-z])")


_INITIALS_END = re.compile(r"(?<![\w.])(?:[A-Z]\.)+(?=\s+(?:The|This|These|They|We|It|In|If|When|Our|However)\b)")
"""Initials or a one-letter name before a capitalised function word (``… than B. The lower …``):
a sentence end, which sentencex reads as an initial (the guard :data:`_FUNCTION_WORD_START`)."""
_INDEX_END = re.compile(r"(?<=[.!?])(?:\\index\{[^{}]*\})+(?=\s+\S)")
"""A LaTeX / bookdown index entry glued to a full stop (``… misspellings.\\index{misspellings} You …``):
it closes the sentence before it, as a footnote marker does."""
_PLAIN_END = re.compile(r"(?<!\S)(?![(\[]?[A-Z][a-z]{0,3}\.)\S*[a-z0-9%)\]](?:\.\.\.|…|[.!?])(?=\s+(?:[\"“(]?[A-Z]|[a-z]\w*(?:[._]\w+)+\s|[a-z]+[A-Z]))")
"""A full stop after a word, a number or a bracket before a capitalised word (``… in memory. The
index …``; not after a short title-case word, ``Dr.``, ``Mt.``, left to sentencex): the plain
sentence end, which sentencex misses after some bracketed or abbreviated runs earlier in the
paragraph (``… Eq. (2) Smith et al. (2020) in memory. The …``); the guards below merge it back
after an abbreviation (``approx. The``)."""
_CLOSED_END = re.compile(r"(?:(?<=\.)[)\]]+|(?<=[.!?])[”’\"'][)\]”’\"']*)(?=\s+\S)")
"""A sentence end inside a closing bracket or quote before the next sentence (``… (or several, if
they are used concurrently.) If a collection …``), which sentencex keeps in one sentence; inside a
bracket only a full stop ends one (``(Step 1 completed!) We release …`` is an aside)."""


def _acronym_ends(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """A segment cut after an acronym, a one-letter variable or a URL that ends a sentence (``…
    checked ID. Retain …``, ``… in group j. The …``, ``… at https://x.org/a.b. Then …``), which
    sentencex reads as an abbreviation, an initial or part of the URL, and after a full stop
    closed by a bracket or quote (:data:`_CLOSED_END`) unless it ends an abbreviation (``(e.g.)``);
    the abbreviation guard below still merges ``U.S.`` and ``p.``."""
    cuts = [m.end() for m in _ACRONYM_END.finditer(text, start, end)]
    cuts += [m.end() for m in _INITIALS_END.finditer(text, start, end)]
    cuts += [m.end() for m in _PLAIN_END.finditer(text, start, end)]
    cuts += [m.end() for m in _INDEX_END.finditer(text, start, end)]
    for match in _CLOSED_END.finditer(text, start, end):
        word = text[:match.start()].split()[-1] if text[:match.start()].split() else ""
        if not _abbreviation(word):  # "(BERT, T5, etc.) Smith …": the bracket closes, the sentence goes on
            cuts.append(match.end())
    spans, cursor = [], start
    for cut in sorted(set(cuts)):
        spans.append((cursor, cut))
        cursor = cut
    spans.append((cursor, end))
    return [s for s in spans if text[s[0]:s[1]].strip()]


def _trimmed(spans: list[tuple[int, int]], text: str) -> list[tuple[int, int]]:
    out = []
    for start, end in spans:
        piece = text[start:end]
        lead = len(piece) - len(piece.lstrip())
        out.append((start + lead, start + len(piece.rstrip())))
    return [s for s in out if s[1] > s[0]]


def _disjoint(spans: tuple[tuple[int, int], ...]) -> tuple[list[int], list[int]]:
    """Protected spans merged into sorted disjoint intervals: (starts, ends), for bisection."""
    starts: list[int] = []
    ends: list[int] = []
    for start, end in sorted(spans):
        if ends and start <= ends[-1]:
            ends[-1] = max(ends[-1], end)
        else:
            starts.append(start)
            ends.append(end)
    return starts, ends


def _inside(spans: tuple[list[int], list[int]], position: int) -> bool:
    """``position`` lies strictly inside one of the disjoint spans (logarithmic time)."""
    starts, ends = spans
    index = bisect.bisect_left(starts, position) - 1
    return index >= 0 and starts[index] < position < ends[index]


def _keep_together(text: str, before: tuple[int, int], after: tuple[int, int],
                   protected: tuple[list[int], list[int]]) -> bool:
    previous = text[before[0]:before[1]].strip()
    following = text[after[0]:after[1]].lstrip()
    boundary = before[1]
    if _inside(protected, boundary):
        return True
    if _LIST_MARKER.match(previous):
        return True
    if re.match(r"[*•]\s", following):
        return False  # a bullet of a list flattened onto one line (_inline_bullets)
    if _CITATION_ROLE_START.match(following) and re.fullmatch(r"\S+`[\s.,;]*", following):
        return True  # "… memorization. :cite:`Robins`": a citation after the period cites the sentence before
    if re.match(r"(?:[—–]|--)\s", following):
        return True  # a dash opens no sentence: “… bottleneck.” — A. Engineer (a quotation's credit)
    if re.search(r"[A-Za-z0-9)\]\"'”’]$", previous) and not _SENTENCE_END.search(previous):
        return True  # no sentence end before the cut: "… (see Table | 2) …", "… Ref. [12] | Dr. …" (sentencex)
    glued = after[0] == boundary and not text[after[0]:after[0] + 1].isspace()
    if glued or following[:1] in ("/", "=", "+", "^", "×"):
        return True  # no space at the cut, or an operator after it: "all 8!/3! = 6720 …" is one sentence
    if not any(c.isalnum() for c in following):  # a trailing emoji or symbol ("… world! 🚀")
        return True
    last = previous.split()[-1] if previous.split() else ""
    if following[:1].islower() and not _INNER_CAPITAL_START.match(following) and not (
            _CODE_NAME_START.match(following) and not _abbreviation(last) and len(last.strip("([.")) > 1):
        return True  # "… which" continues; "vLLM is …", "iPhone …", "bitnet.cpp achieves …" start a sentence
    if _INITIALS.fullmatch(last.lstrip("([")) and _FUNCTION_WORD_START.match(following):
        return False  # "… than B. The lower …", "… in the U.S. Some …": initials do not precede "The"
    if last.endswith(".") and _abbreviation(last):
        # "Dettmers et al. The abstract …", "Google Inc. The team …": these abbreviations end
        # the sentence before a capitalised word ("et al. (2023)", "et al. showed" continue it)
        return not (last.lower().lstrip("([") in SENTENCE_FINAL_ABBREVIATIONS and following[:1].isupper())
    if (following[:1].isdigit() or re.match(r"[A-Z]\d*(?:[.,;:)]|$)", following)) and re.fullmatch(
            r"[(\[]?[A-Z][a-z]{1,3}\.", last):
        return True  # "Tab. 1", "Thm. 2", "App. B.": a short title-case abbreviation before its number or letter
    return False


_CITATION_ROLE_START = re.compile(r":(?:cite|citet|citep|cite:[pt]):`|\{cite(?::[pt])?\}`")
"""A citation role opening the piece after a cut (a Distill ``<d-cite>`` after the period, read as
``:cite:`key``` by audit/document.py): it belongs to the sentence before, like a ``[12]`` marker."""
_SENTENCE_END = re.compile(r"[.!?…:;][\"'”’)\]*_]*(?:\[\^?[\w-]{1,40}\]|\[\d{1,3}(?:[,–-]\s*\d{1,3})*\]|[¹²³⁰-⁹])*$")
"""A piece that ends a sentence: its last punctuation, then closing quotes or brackets and citation
markers (``… drift.[^2]``, ``… before.²``, ``… (as run twice.)``)."""
SENTENCE_FINAL_ABBREVIATIONS = frozenset("al. inc. ltd. co. corp. jr. sr. etc.".split())
"""Abbreviations that often end a sentence: a boundary after one stands before a capitalised word."""


_CODE_NAME_START = re.compile(r"[a-z][a-z0-9]*(?:[._][a-z0-9]+)+(?=[\s,:;]|$)|[a-z][a-z0-9]*(?:-[a-z0-9]+)+(?<=\d)(?=[\s,:;]|$)"
                              r"|[a-z][a-z0-9]*(?:-[a-z0-9]+)*-[a-z]*\d[a-z0-9]*(?=[\s,:;]|$)")
"""A lower-case file, module or model name opening a sentence (``bitnet.cpp achieves …``,
``eps_min is …``, ``static-retrieval-mrl-en-v1 is …``): a name as written, not the continuation of
the sentence before (``… e.g. numpy.array`` still continues: an abbreviation stands before it)."""
_INITIALS = re.compile(r"(?:[A-Z]\.)+")
_FUNCTION_WORD_START = re.compile(
    r"(?:The|This|These|That|Those|There|Then|Thus|They|We|It|Its|In|On|For|If|When|While|Our|Here|However"
    r"|Moreover|Also|But|Each|All|Both|Such|Some|Many|Most|What|Why|How|Which|You|Note|See|Finally|First"
    r"|Second|Next)\b")
"""A capitalised function word: a sentence starts with it, a name after an initial does not (``J. The``
is no name; ``J. A. Smith``, ``J. R. R. Tolkien`` are: ``A`` and ``I`` are not in the list)."""
_INNER_CAPITAL_START = re.compile(r"[a-z]+[A-Z][\w\-]*(?![\w:])")
"""A word that starts in lower case with a capital inside (``vLLM``, ``iPhone``, ``mT5``) is a
name, so it may start a sentence (not an ``arXiv:`` identifier of a reference entry)."""


def _abbreviation(token: str) -> bool:
    token = token.lstrip("([{\"'“‘")
    return token.lower() in ABBREVIATIONS or bool(re.fullmatch(r"(?:[A-Z]\.)+", token))


def split_sentences(paragraph: str) -> list[str]:
    return [paragraph[s:e] for s, e in sentence_spans(paragraph)]


# ---------------------------------------------------------------------------------------------
# Names, quantity roles, kinds.

def cited_names(sentence: str) -> tuple[list[str], bool]:
    """``(names, has_person_citation)`` for one sentence (see module docstring)."""
    sentence = mask_roles(sentence)  # claims/roles.py: a role's target (`Bridle.1990`) is no person
    found: list[tuple[int, str]] = []
    covered: set[int] = set()  # character positions inside an earlier name (spans never overlap)
    person = False
    first_word = re.match(r"\W*(\w+)", sentence)
    first_start = first_word.start(1) if first_word else -1

    def add(start: int, end: int, name: str, is_person: bool) -> None:
        nonlocal person
        if start in covered or end - 1 in covered:  # its start or its end inside an earlier name
            return
        covered.update(range(start, end))
        found.append((start, name))
        person = person or is_person

    for m in _ET_AL.finditer(sentence):
        add(m.start(), m.end(), f"{m.group(1)} et al.", True)
    for m in _PAIR.finditer(sentence):
        add(m.start(), m.end(), f"{m.group(1)} and {m.group(2)}", True)
    for m in _BY_PAIR.finditer(sentence):
        if not (m.group(1).endswith("ing") or m.group(2).endswith("ing")):  # "by Inhibiting and Amplifying"
            add(m.start(1), m.end(2), f"{m.group(1)} and {m.group(2)}", True)
    for m in _PAREN.finditer(sentence):
        if m.group(1) not in NAME_STOPLIST:
            add(m.start(1), m.end(1), m.group(1), True)
    for m in _NAME_YEAR.finditer(sentence):
        if m.group(1) not in NAME_STOPLIST and m.start(1) != first_start:
            add(m.start(1), m.end(1), m.group(1), True)
    for m in _POSSESSIVE.finditer(sentence):
        word = m.group(1)
        if word not in NAME_STOPLIST and word not in CONTRACTIONS and m.start(1) != first_start:
            add(m.start(1), m.end(1), word, possessive_credits(sentence, m.end()))
    for m in _ACRONYM.finditer(sentence):
        word = m.group(1)
        capitals = sum(1 for c in word if c.isupper())
        if (len(word) >= 3 and capitals >= 2 and word not in ACRONYM_STOPLIST
                and not _ROMAN.match(word)):
            add(m.start(1), m.end(1), word, False)
    names: list[str] = []
    for _, name in sorted(found):
        if name not in names:
            names.append(name)
    return names, person


_WORDS_BEFORE = re.compile(r"[\w.\-]+")
_OPEN_PAREN_BEFORE = re.compile(r"\(\s*(?:[^()]*,\s*)?$")
_NAME_BEFORE = re.compile(r"(?:et al\.|[A-Z][a-z]+),?\s*$")
_ASSIGNMENT_BEFORE = re.compile(r"(?:^|[\s(])(?:[A-Za-z_][\w]*|[α-ω])\s*=\s*$")
_FLAG_BEFORE = re.compile(r"--[\w-]+[\s=]$")
_PARAMETER_OF_BEFORE = re.compile(r"\b(?:" + "|".join(sorted(PARAMETER_WORDS)) + r")\s+(?:of|at)\s+$", re.I)


def quantity_roles(sentence: str, quantities: list[Quantity],
                   math_spans: tuple[tuple[int, int], ...] = ()) -> list[Quantity]:
    """The quantities with ``role`` refined from the words around them (module docstring)."""
    out = []
    phrases = [m.span() for m in _PARAMETER_PHRASE.finditer(sentence)]  # once: linear in the sentence
    markers = citation_marker_spans(sentence)  # claims/attribution.py: "[12]", "[^2]" cite, they count nothing
    for q in quantities:
        start, end = q.span
        before = sentence[max(0, start - 60):start]  # the context rules look at most this far back
        words = _WORDS_BEFORE.findall(before[-40:].lower())
        previous = words[-1] if words else ""
        role = q.role
        if any(s <= start < e for s, e in math_spans):
            role = "math"
        elif any(s <= start < e for s, e in markers):
            role = "identifier"
        elif q.role == "p-value":
            pass
        elif (q.decimals == 0 and q.unit is None and not q.is_percent and q.denominator is None
              and q.upper is None and 1900 <= q.value <= 2099 and "," not in q.text
              and (_OPEN_PAREN_BEFORE.search(before) or previous in ("in", "since", "until")
                   or _NAME_BEFORE.search(before))):
            role = "year"
        elif previous in IDENTIFIER_WORDS or previous.rstrip(".") in IDENTIFIER_WORDS:
            role = "identifier"
        elif _near_parameter_phrase(sentence, start, end, phrases):
            role = "parameter"
        elif (_ASSIGNMENT_BEFORE.search(before) or _FLAG_BEFORE.search(before)
              or previous in PARAMETER_WORDS or _PARAMETER_OF_BEFORE.search(before)):
            role = "parameter"
        out.append(replace(q, role=role) if role != q.role else q)
    return out


def _near_parameter_phrase(sentence: str, start: int, end: int,
                           phrases: list[tuple[int, int]] | None = None) -> bool:
    """A parameter phrase ends at most 4 words before the number or starts right after it."""
    if phrases is None:
        phrases = [m.span() for m in _PARAMETER_PHRASE.finditer(sentence)]
    for p_start, p_end in phrases:
        if p_end <= start and start - p_end <= 200 and len(sentence[p_end:start].split()) <= 4:
            return True
        if p_start >= end and p_start - end <= 3 and not sentence[end:p_start].strip(" -"):
            return True
    return False


def classify(sentence: str, quantities: list[Quantity], person_citation: bool) -> tuple[str, str]:
    """``(kind, cue)`` by the first firing rule (module docstring)."""
    sentence = mask_roles(sentence)  # claims/roles.py: role targets are references, not cue words
    results = [q for q in quantities if q.role in RESULT_ROLES]
    if results and not not_measured(sentence):
        cue = _measurement_cue(sentence, results) or measured_cue(sentence, results)
        if cue:
            return MEASURED, f"{cue} + quantity {results[0].text!r}"
    if person_citation:
        return "attribution", "named-source citation"
    advice = _RECOMMEND.search(sentence)
    if advice:
        return "recommendation", f"cue {advice.group(0)!r}"
    scope = _SCOPE.search(sentence)
    if scope:
        return "scope or limitation", f"cue {scope.group(0)!r}"
    return "method or definition", "no result, citation, advice or limitation cue"


def _measurement_cue(sentence: str, results: list[Quantity]) -> str:
    shaped = next((q for q in results if q.is_p_value or q.denominator is not None or q.is_multiplier
                   or q.plus_minus), None)
    if shaped is not None:
        return f"result-shaped number {shaped.text!r}"
    if _N_OF_M.search(sentence):
        return "count 'N of M'"
    metric = _METRIC.search(_PARAMETER_PHRASE.sub(" ", sentence))
    if metric:
        return f"metric word {metric.group(0)!r}"
    change = _CHANGE.search(sentence)
    if change:
        return f"change word {change.group(0)!r}"
    return ""


# ---------------------------------------------------------------------------------------------
# Rows.

def extract_claims(source: Pack | Document | str, paragraph_rule: str | None = None, *,
                   path: str | None = None, kinds: str = "rules") -> list[ClaimRow]:
    """Claim rows for a pack, a document, or chapter text given as a string (line rule by default;
    ``path`` names the text's file in errors; ``kinds="model"``: claims/kinds_model.py decides
    the measured kind)."""
    if isinstance(source, Pack):
        document = document_from_pack(source) if paragraph_rule is None else (
            read_flattened(source.chapter_text) if paragraph_rule == "line"
            else read_markdown(source.chapter_text)).shifted(source.chapter_text_line - 1)
    elif isinstance(source, Document):
        document = source
    else:
        rule = paragraph_rule or "line"
        if rule not in ("line", "block"):
            raise ValueError(f"unknown paragraph rule {rule!r}")
        document = read_flattened(source, path) if rule == "line" else read_markdown(source, path)
    return claims_from_document(document, kinds=kinds)


def claims_from_document(document: Document, kinds: str = "rules") -> list[ClaimRow]:
    """Sentence rows of every prose block, then (in place) table-value rows of every table.

    A number too large for a float (``1e309``, a 400-digit integer) is bad input: an
    :class:`InputError` naming the file and line, never a row whose value is infinite.
    """
    rows: list[ClaimRow] = []
    paragraph = 0
    table_number = 0
    for block in document.blocks:
        if block.is_prose:
            paragraph += 1
            new = _sentence_rows(block, paragraph)
        elif block.kind == "table" and block.table is not None:
            table_number += 1
            new = table_value_rows(block.table, table_number)
        else:
            continue
        for row in new:
            _require_finite(row, block, document.path)
        rows.extend(new)
    rows = _credit_named_works(rows)
    if check_kinds(kinds) == "model":  # the trained classifier decides the measured kind (loaded only then)
        from claims.kinds_model import relabel

        rows = relabel(rows, classify)
    return rows


def _credit_named_works(rows: list[ClaimRow]) -> list[ClaimRow]:
    """A work the page names (``the Chinchilla paper``, ``DrQA (Chen et al., 2017)``) credits the
    later sentences it is the subject of (``Chinchilla reveals …``; claims/attribution.py
    ``works_named``, ``work_reports``): their kind is decided again with the credit. So is a
    sentence where a named system other than the page's own contributes (``Gridnet v2 introduced
    …``; ``system_contribution``, the page's own from its title and first-person voice, ``own_names``)."""
    texts = [r.text for r in rows if r.kind != TABLE_VALUE]
    works = works_named(texts)
    own = own_names(texts, page_title([r.section for r in rows if r.kind != TABLE_VALUE]), works)
    paper = own_paper(texts)
    out = []
    for row in rows:
        if (own or paper) and (row.kind == "attribution" or "; credited to" in row.cue) \
                and not cited_names(row.text)[1] and self_reference(row.text, own, paper):
            # the page's own work credited to itself (convention (d)): decided again without the credit
            kind, cue = classify(mask_roles(row.text), row.quantities, False)
            out.append(replace(row, kind=kind, cue=cue))
            continue
        work = (work_reports(row.text, works) or system_contribution(row.text, own)
                if row.kind not in (TABLE_VALUE, "attribution") else None)
        if work is None or "credited to" in row.cue:
            out.append(row)
            continue
        kind, cue = classify(mask_roles(row.text), row.quantities, True)
        names = row.cited_names + ([work] if work not in row.cited_names else [])
        if kind == MEASURED:
            cue += f"; credited to {', '.join(names)}"
        out.append(replace(row, kind=kind, cue=cue, cited_names=names))
    return out


_MARKER_CUES = ("numbered reference", "citation role")


def _credit_names(names: list[str], person: bool, credited: tuple[str, ...], cue: str) -> list[str]:
    """The cited names of a credited sentence: the names :func:`cited_names` finds, then the credit's.
    When the credit is only a numbered marker or a citation role and no person is named, the marker
    or key is the cited name (label convention (a)), with any capitalised name the sentence credits: an
    acronym the sentence merely mentions
    (``10% better than BM25 [1]``, ``DPR :cite:`x```) is a compared system, not the source."""
    if cue in _MARKER_CUES and not person and credited:
        names = [n for n in names if not _ACRONYM.fullmatch(n)]  # "Moore revised … [2]" keeps Moore
    return names + [n for n in credited if n not in names]


def _require_finite(row: ClaimRow, block: Block, path: str | None) -> None:
    for q in row.quantities:
        values = (q.value, q.upper, q.numerator, q.denominator)
        if any(isinstance(v, float) and not math.isfinite(v) for v in values if v is not None):
            line = row.line or block.line
            shown = q.text if len(q.text) <= 40 else q.text[:20] + "…" + q.text[-10:]
            raise InputError(f"number {shown!r} is too large for a float; write it as a finite value",
                             path=path or "<text>", line=line)


def _lead_in(block: Block) -> tuple[tuple[int, int], ...]:
    """A bold lead-in (``**Tokenise.** Lower-case …``) is kept with the sentence it opens."""
    return ((0, block.lead_in + 1),) if block.lead_in else ()


_BACKTICKS = re.compile(r"(`+)[^`\n]*?\1")


def _sentence_rows(block: Block, paragraph: int) -> list[ClaimRow]:
    rows = []
    # never split inside code, nor right after it: "a block starts with `!!!`, followed by …"
    code = block.atomic_spans + tuple(m.span() for m in _BACKTICKS.finditer(block.text))
    protected = block.math_spans + _lead_in(block) + tuple((start, end + 1) for start, end in code)
    for index, (start, end) in enumerate(sentence_spans(block.text, protected), start=1):
        sentence = block.text[start:end]
        math = tuple((max(s - start, 0), min(e - start, len(sentence))) for s, e in block.math_spans
                     if s < end and e > start)
        words = mask_roles(sentence)  # a role's target (`Smith.accuracy.2020`) is no cue word
        quantities = refine_roles(words, quantity_roles(words, find_quantities(sentence), math))
        names, person = cited_names(sentence)
        credit = credits(sentence)  # claims/attribution.py: roles, organisations, papers
        if credit is not None:
            names = _credit_names(names, person, credit.names, credit.cue)
        kind, cue = classify(words, quantities, person or credit is not None)
        if kind == MEASURED and (person or credit is not None):
            cue += f"; credited to {', '.join(names) or 'a source'}"
        label = "paragraph" if block.kind == "paragraph" else block.kind.replace("_", " ")
        location = f"paragraph {paragraph}, sentence {index}"
        if label != "paragraph":
            location += f" ({label})"
        rows.append(ClaimRow(claim_id=claim_id(paragraph, index), paragraph=paragraph, sentence=index,
                             text=sentence, kind=kind, quantities=quantities, cited_names=names,
                             location=location, cue=cue, section=block.section, block=block.kind,
                             line=block.line_at(start)))
    return rows


def is_name_cell(cell: str) -> bool:
    """A cell with no number, or whose numbers all belong to names (``e5-base-v2``,
    ``text-embedding-3-small``, ``nDCG@10``, ``GPT-4``): each number directly follows a letter or
    digit, or a ``-``, ``@``, ``_``, ``/``, ``+`` or ``.`` that follows one. Such a cell is a name,
    never a value (``5GB``, ``3 [2, 4]`` and ``Llama 3 8B`` hold values)."""
    for q in find_quantities(cell):
        before = cell[:q.span[0]]
        glued = before[-1:].isalnum() or (before[-1:] in ("-", "@", "_", "/", "+", ".")
                                          and before[-2:-1].isalnum())
        if not glued:
            return False
    return True


def label_columns(table: Table) -> int:
    """How many leading columns hold row labels: those whose body cells are all names or text
    (no value), at least the first; the last column is never one."""
    width = len(table.header)
    count = 1
    while count < width - 1 and all(is_name_cell(row[count]) for row in table.rows if count < len(row)):
        count += 1
    return count


def _sub_header(table: Table, first_value: int) -> tuple[str, ...] | None:
    """Column names from a two-level header: the first body row is a second header row when it
    holds no number and names at least two value columns; a header cell left empty repeats the
    group name to its left (``| Model | BEIR | | MTEB | |`` over ``| | nDCG | Recall | … |``)."""
    if len(table.rows) < 2:
        return None
    first = table.rows[0]
    named = [c for c in range(first_value, len(first)) if first[c].strip()]
    if len(named) < 2 or any(find_quantities(cell) for cell in first if not is_name_cell(cell)):
        return None
    if not any(not is_name_cell(cell) for row in table.rows[1:] for cell in row[first_value:]):
        return None
    columns, group = [], ""
    for c, top in enumerate(table.header):
        top = " ".join(top.split())
        if c >= first_value:
            group = top or group
        sub = " ".join(first[c].split()) if c < len(first) else ""
        parent = group if c >= first_value else top
        columns.append(f"{parent} › {sub}" if parent and sub and parent != sub else (sub or parent))
    return tuple(columns)


def _row_labels(table: Table, width: int = 1) -> list[str]:
    """Each body row's label: its first cell; when first cells repeat in the table and there are
    several label columns, every label cell joined with `` / `` (an empty first cell repeats the
    one above: ``NQ / BM25``); a label that still repeats is qualified by the group row above it
    (``MiniLM Models › Base``; a group row has only its first cell), or else by its row number
    (``Base (row 4)``), so every table key is unique."""
    firsts = [" ".join(row[0].split()) if row else "" for row in table.rows]
    if width > 1 and len(set(firsts)) < len(firsts):
        joined, carried = [], ""
        for row in table.rows:
            cells = [" ".join(cell.split()) for cell in row[:width]]
            if cells and not cells[0] and any(cells[1:]):
                cells[0] = carried
            elif cells:
                carried = cells[0]
            joined.append(" / ".join(cell for cell in cells if cell))
        firsts = joined
    groups: list[str] = []
    group = ""
    for row, first in zip(table.rows, firsts):
        if first and row and row[0].strip() and all(not cell.strip() for cell in row[1:]):
            group = first
        groups.append(group)
    labels = []
    for index, first in enumerate(firsts):
        if firsts.count(first) > 1:
            qualified = f"{groups[index]} › {first}" if groups[index] else first
            same = [i for i, f in enumerate(firsts) if f == first
                    and (f"{groups[i]} › {f}" if groups[i] else f) == qualified]
            labels.append(qualified if len(same) == 1 else f"{first} (row {index + 1})")
        else:
            labels.append(first)
    return labels


def table_value_rows(table: Table, number: int) -> list[ClaimRow]:
    """One ``table value`` row per value cell: beyond the label columns (:func:`label_columns`),
    holding a quantity that is not part of a name (:func:`is_name_cell`). The row label joins the
    label cells; a two-level header names a column ``Group › Name`` (:func:`_sub_header`)."""
    label = f"T-{number}"
    rows = []
    width = label_columns(table)
    header = _sub_header(table, width)
    skip = 1 if header is not None else 0
    header = header or tuple(" ".join(h.split()) for h in table.header)
    labels = _row_labels(table, width)
    for r, cells in enumerate(table.rows, start=1):
        if r <= skip:
            continue
        row_label = labels[r - 1]
        for c, cell in enumerate(cells[width:], start=width + 1):
            cell = " ".join(cell.split())
            if is_name_cell(cell):
                continue
            column = header[c - 1] if c - 1 < len(header) else f"column {c}"
            key = f"{label} · {row_label} · {column}"
            text = f"{key} = {cell}"
            offset = len(key) + 3
            quantities = [replace(q, span=(q.span[0] + offset, q.span[1] + offset))
                          for q in find_quantities(cell)]
            rows.append(ClaimRow(
                claim_id=f"{label}-R{r:02d}-C{c:02d}", paragraph=0, sentence=0, text=text, kind=TABLE_VALUE,
                quantities=quantities, cited_names=[],
                location=f"table {label} (line {table.line}), row {row_label!r}, column {column!r}",
                cue="numeric table cell", section=table.section, block="table", line=table_row_line(table, r),
                table=label, row_label=row_label, column=column))
    return rows


def table_row_line(table: Table, row: int) -> int:
    """The file line of body row ``row`` (1-based) of a table written one row a line (a pipe
    table: header, delimiter, then the rows, ``end_line`` = ``line`` + 1 + the row count); the
    table's first line when its rows do not map onto its lines one to one (a table recovered
    from one flattened line, an HTML table)."""
    if len(table.row_lines) == len(table.rows) and 0 < row <= len(table.row_lines):
        return table.row_lines[row - 1]  # a grid table: each row's first content line
    if not table.recovered and table.end_line - table.line == len(table.rows) + 1:
        return table.line + 1 + row
    return table.line


def structure_summary(document: Document) -> str:
    """What a document holds, e.g. ``2 headings, 1 code block`` (for plain messages)."""
    counts: dict[str, int] = {}
    for block in document.blocks:
        counts[block.kind] = counts.get(block.kind, 0) + 1
    names = {"list_item": "list item", "front_matter": "front matter block", "code": "code block",
             "math": "math block", "html": "HTML block", "reference": "link reference",
             "markup": "site markup line", "navigation": "navigation line"}
    parts = []
    for kind, n in counts.items():
        name = names.get(kind, kind)
        parts.append(f"{n} {name}{'' if n == 1 else 's'}")
    return ", ".join(parts) if parts else "nothing"


def claims_for_pack(pack: Pack, kinds: str = "rules") -> tuple[Document, list[ClaimRow], str]:
    """The document, its claim rows and a plain note ('' when there is prose).

    A chapter text with neither prose nor table numbers is an :class:`InputError` naming the file
    and what it holds ("holds no prose to audit: 2 headings, 1 code block"); one with table numbers
    but no prose gives its table-value rows and a note saying there is no prose.
    """
    document = document_from_pack(pack)
    rows = claims_from_document(document, kinds=kinds)
    if not document.structure_only():
        return document, rows, ""
    if not rows:
        raise InputError(f"chapter text holds no prose to audit (only {structure_summary(document)})",
                         path=pack.source_path, line=pack.chapter_text_line)
    return document, rows, (f"{pack.source_path}: the chapter text holds no prose, only "
                            f"{structure_summary(document)}; the rows are table values")
