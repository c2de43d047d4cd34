"""Claim rows: every sentence of the chapter prose, located, classified, with its numbers and names.

Rules (docs/audit.md "Claim rows"); all deterministic, no model:

**Paragraphs.** Pack chapter text and plain ``.txt`` snapshots: one paragraph per non-blank
line (the pack convention: the seed's chapter text has one paragraph per line). Markdown
snapshots (``Pack.paragraph_rule == "block"``): blank-line separated blocks, their lines
joined with one space; a ``#`` heading line is a paragraph of its own.

**Sentences.** A sentence ends after ``.``, ``!`` or ``?`` (plus any closing quotes or
brackets) that is followed by whitespace, *unless* the next non-space character is a
lower-case letter, or the token ending in ``.`` is a known abbreviation
(:data:`ABBREVIATIONS`: e.g., i.e., et al., vs., cf., Fig., …) or an initial (``J.``,
``U.S.``). A period inside a number (``0.888889``, ``.7``) is never followed by whitespace, so
numbers never split; ``1,298`` has no period at all. The end of a paragraph ends a sentence.

**Rows.** Every sentence is a row (simplest and fully traceable: nothing is dropped by a
judgement call), identified ``C-PPP-SS`` (paragraph, sentence; 1-based, zero-padded to 3 and
2 digits, wider when needed), e.g. ``C-003-02`` = ``paragraph 3, sentence 2``.

**Kinds**, first rule that fires wins (cue lists below):

1. ``measured result``: the sentence has a quantity *and* a result verb (:data:`RESULT_VERBS`);
2. ``attribution``: it cites a named source (a person-name citation, see *cited names*);
3. ``recommendation``: a modal of advice (:data:`RECOMMENDATION_CUES`: should, must, recommend…);
4. ``scope or limitation``: a negation/limit cue (:data:`SCOPE_CUES`: does not, cannot, only,
   outside, not measured…);
5. ``method or definition``: everything else.

**Cited names**, in order of appearance, de-duplicated: ``Name et al.``; ``Name and Name``
followed by a possessive (``’s``/``'s``) or a year (``(1998)`` / ``, 1998``), or preceded by
``by``/``after``/``following``/``from``/``per`` (``as defined by Järvelin and Kekäläinen``); a capitalised
possessive ``Name’s`` (not sentence-initial stop words such as ``Today’s``); ``(Name, 1998)``;
and acronyms/camel-case names of at least 3 letters with two or more capitals and no digits
(``MMR``, ``xQuAD``, ``HyDE``, ``SciFact``), minus :data:`ACRONYM_STOPLIST` and roman numerals.
Only the person-name patterns make a sentence an *attribution*; an acronym alone does not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from audit.pack import Pack
from claims.quantities import Quantity, find_quantities

KINDS = ("measured result", "method or definition", "attribution", "scope or limitation",
         "recommendation")

ABBREVIATIONS = frozenset("""
e.g. i.e. al. et. vs. cf. fig. figs. eq. eqs. ref. refs. dr. mr. mrs. ms. prof. no. nos. sec. ch.
approx. resp. viz. pp. p. vol. st. jr. sr. inc. ltd. co. incl. ed. eds. ca. est. dept. univ.
""".split())

RESULT_VERBS = tuple("""
contains contained reaches reached reaching ranks ranked scores scored improved improves lowered
lowers reduced reduces rose rises fell falls increased increases decreased decreases gained gains
lost loses dropped drops returns returned achieves achieved yields yielded observed
averaged averages totals totalled totaled exceeds exceeded outperformed outperforms underperformed
equals equalled recorded survives survived excluded excludes produced produces found shows showed
lifts lifted covers covered gives gave misses missed
""".split())

RECOMMENDATION_CUES = ("should", "must", "recommend", "recommends", "recommended", "recommendation",
                       "ought to", "we suggest", "is advised", "are advised", "needs to", "need to")

SCOPE_CUES = ("does not", "do not", "did not", "is not", "are not", "was not", "were not", "has not",
              "have not", "had not", "will not", "would not", "could not", "cannot", "can not",
              "can't", "doesn't", "don't", "isn't", "aren't", "won't", "not measured", "not tested",
              "not yet", "no longer", "not necessarily", "only", "outside", "neither", "limited to",
              "beyond the scope", "unverified", "excerpt")

ACRONYM_STOPLIST = frozenset("""
LF CR CRLF CPU CPUs GPU GPUs URL URLs DOI ID IDs PDF HTML API APIs JSON CSV TSV UTF ASCII NFC NFD
OK AND OR NOT ALL NONE ONLY MUST NOTE TODO EXCERPT UNVERIFIED UNRUN MATCH MISMATCH WARNING FAQ
USA UK EU
""".split())
NAME_STOPLIST = frozenset("""
Today Tomorrow Yesterday Everyone Nobody Someone Anyone This That It Its Chapter Part Section
Figure Table Year Author Book Reader Model System Method Team World Project
""".split())

_RESULT = re.compile(r"\b(?:" + "|".join(RESULT_VERBS) + r")\b", re.I)
_RECOMMEND = re.compile(r"\b(?:" + "|".join(re.escape(c) for c in RECOMMENDATION_CUES) + r")\b", re.I)
_SCOPE = re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(c) for c in SCOPE_CUES) + r")(?![\w'])", re.I)

_NAME = r"[A-ZÀ-Þ][a-zß-ÿ][\w\-]*"  # capitalised word, Latin-1 letters included (Järvelin)
_ET_AL = re.compile(rf"\b({_NAME}(?:\s+(?:and|&)\s+{_NAME})?)\s+et\s+al\.?")
_PAIR = re.compile(rf"\b({_NAME})\s+(?:and|&)\s+({_NAME})(?=’s|'s|\s*\(\d{{4}}|,\s*\d{{4}})")
_BY_PAIR = re.compile(rf"\b(?:by|after|following|from|per)\s+({_NAME})\s+(?:and|&)\s+({_NAME})\b")
_POSSESSIVE = re.compile(rf"\b({_NAME})(?:’s|'s)(?!\w)")
_PAREN = re.compile(rf"\(({_NAME})(?:\s+et\s+al\.)?,?\s+\d{{4}}[a-z]?\)")
_ACRONYM = re.compile(r"(?<![\w\-])([a-z]?[A-Z][A-Za-z]*[A-Z][A-Za-z]*)(?![\w\-])")
_ROMAN = re.compile(r"^[IVXLCDM]+$")

_TERMINATOR = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s)")


@dataclass(frozen=True)
class ClaimRow:
    """One sentence of the chapter prose as an auditable row (field names are a public API)."""

    claim_id: str
    paragraph: int
    sentence: int
    text: str
    kind: str
    quantities: list[Quantity] = field(default_factory=list)
    cited_names: list[str] = field(default_factory=list)
    location: str = ""
    cue: str = ""  # why the kind was chosen (the cue that fired), for traceability

    def as_dict(self) -> dict:
        return {"claim_id": self.claim_id, "paragraph": self.paragraph, "sentence": self.sentence,
                "text": self.text, "kind": self.kind,
                "quantities": [q.as_dict() for q in self.quantities],
                "cited_names": list(self.cited_names), "location": self.location, "cue": self.cue}


def claim_id(paragraph: int, sentence: int) -> str:
    return f"C-{paragraph:03d}-{sentence:02d}"


def split_paragraphs(text: str, rule: str = "line") -> list[str]:
    """Paragraphs of chapter prose: ``"line"`` = each non-blank line; ``"block"`` = blank-line blocks.

    Under ``"block"`` (Markdown snapshots) an ATX heading line (``# Title``) ends the current
    block and is not a paragraph: a heading states no claim, and paragraph numbers count prose only.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if rule == "line":
        return [line.strip() for line in lines if line.strip()]
    if rule != "block":
        raise ValueError(f"unknown paragraph rule {rule!r}")
    paragraphs: list[str] = []
    current: list[str] = []
    for line in lines + [""]:
        stripped = line.strip()
        if stripped.startswith("#") or not stripped:
            if current:
                paragraphs.append(" ".join(current))
                current = []
            continue
        current.append(stripped)
    return paragraphs


def sentence_spans(paragraph: str) -> list[tuple[int, int]]:
    """``(start, end)`` of each sentence in a paragraph (see module docstring for the rule)."""
    spans: list[tuple[int, int]] = []
    start = 0
    length = len(paragraph)
    for match in _TERMINATOR.finditer(paragraph):
        end = match.end()
        rest = paragraph[end:].lstrip()
        if not rest:
            break
        if rest[0].islower():
            continue
        if paragraph[match.start()] == "." and _abbreviation_before(paragraph, match.start()):
            continue
        text = paragraph[start:end]
        if text.strip():
            lead = len(text) - len(text.lstrip())
            spans.append((start + lead, end))
        start = length - len(rest)
    text = paragraph[start:]
    if text.strip():
        lead = len(text) - len(text.lstrip())
        spans.append((start + lead, start + len(text.rstrip())))
    return spans


def _abbreviation_before(paragraph: str, dot: int) -> bool:
    begin = dot
    while begin > 0 and not paragraph[begin - 1].isspace():
        begin -= 1
    token = paragraph[begin:dot + 1].lstrip("([{\"'“‘")
    if token.lower() in ABBREVIATIONS:
        return True
    return bool(re.fullmatch(r"(?:[A-Z]\.)+", token))


def split_sentences(paragraph: str) -> list[str]:
    return [paragraph[s:e] for s, e in sentence_spans(paragraph)]


def cited_names(sentence: str) -> tuple[list[str], bool]:
    """``(names, has_person_citation)`` for one sentence (see module docstring)."""
    found: list[tuple[int, str]] = []
    covered: list[tuple[int, int]] = []
    person = False

    def add(start: int, end: int, name: str, is_person: bool) -> None:
        nonlocal person
        if any(s <= start < e or s < end <= e for s, e in covered):
            return
        covered.append((start, end))
        found.append((start, name))
        person = person or is_person

    for m in _ET_AL.finditer(sentence):
        add(m.start(), m.end(), f"{m.group(1)} et al.", True)
    for m in _PAIR.finditer(sentence):
        add(m.start(), m.end(), f"{m.group(1)} and {m.group(2)}", True)
    for m in _BY_PAIR.finditer(sentence):
        add(m.start(1), m.end(2), f"{m.group(1)} and {m.group(2)}", True)
    for m in _PAREN.finditer(sentence):
        add(m.start(1), m.end(1), m.group(1), True)
    for m in _POSSESSIVE.finditer(sentence):
        if m.group(1) not in NAME_STOPLIST:
            add(m.start(1), m.end(1), m.group(1), True)
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


def classify(sentence: str, quantities: list[Quantity], person_citation: bool) -> tuple[str, str]:
    """``(kind, cue)`` by the first firing rule (module docstring)."""
    if quantities:
        verb = _RESULT.search(sentence)
        if verb:
            return "measured result", f"result verb {verb.group(0)!r} + quantity {quantities[0].text!r}"
    if person_citation:
        return "attribution", "named-source citation"
    advice = _RECOMMEND.search(sentence)
    if advice:
        return "recommendation", f"cue {advice.group(0)!r}"
    scope = _SCOPE.search(sentence)
    if scope:
        return "scope or limitation", f"cue {scope.group(0)!r}"
    return "method or definition", "no result, citation, advice or limitation cue"


def extract_claims(source: Pack | str, paragraph_rule: str | None = None) -> list[ClaimRow]:
    """Claim rows for a pack's chapter text (or for prose given as a string, line rule)."""
    if isinstance(source, Pack):
        text, rule = source.chapter_text, paragraph_rule or source.paragraph_rule
    else:
        text, rule = source, paragraph_rule or "line"
    rows: list[ClaimRow] = []
    for p_index, paragraph in enumerate(split_paragraphs(text, rule), start=1):
        for s_index, sentence in enumerate(split_sentences(paragraph), start=1):
            quantities = find_quantities(sentence)
            names, person = cited_names(sentence)
            kind, cue = classify(sentence, quantities, person)
            rows.append(ClaimRow(claim_id=claim_id(p_index, s_index), paragraph=p_index,
                                 sentence=s_index, text=sentence, kind=kind, quantities=quantities,
                                 cited_names=names,
                                 location=f"paragraph {p_index}, sentence {s_index}", cue=cue))
    return rows
