"""Attributions decided from evidence: a sentence that credits its claim to a source, and the
names it credits (docs/audit.md "How kinds are decided"; issue 19).

:func:`claims.extract.cited_names` finds person-name citations (``Name et al.``, ``Name and
Name (1998)``, ``(Name, 1998)``, possessives). :func:`credits` adds the other shapes of real
pages, each giving the credited names (possibly none when the sentence names no source, as in
"described in the following paper"):

* **citation roles** of Sphinx, MyST and d2l — ``:cite:`key```, ``:citet:``, ``:citep:``,
  ``{cite}`key```, ``{cite:p}``, ``{cite:t}`` and pandoc ``[@key]`` (:mod:`claims.roles`), one
  cited name per key: the key's first name part and its year (``Bridle.1990`` → ``Bridle 1990``,
  ``Peters.Neumann.ea.2018`` → ``Peters 2018``, ``kaplan2020scaling`` → ``kaplan 2020``);
* ``Name and al.`` / ``Name et al`` without a full stop (written in the wild) and
  ``Name et al (2022)``;
* a **credit verb with a source**: ``according to X``, ``as shown/demonstrated/reported/described
  in|by X``, ``X showed/reported/found/introduced/proposed``, ``reported on|in|by X``,
  ``proposed/introduced/described in|by X``, ``following (the) method/approach/setting X``,
  ``similar to X``; X is a capitalised name, an acronym or a quoted title, or a paper, blog post,
  study or work (``the following paper``, ``the QLoRA paper by Dettmers et al.``);
* **an organisation as the author** of a result or method: ``by X``, ``from X`` after a
  benchmark, paper, technique, method or study (``a technique from IBM Research``,
  ``an internal micro-benchmark by LMSYS``);
* ``the authors`` as the subject of a finding.

Not credits: the page's own work (``our paper``, ``as we show``), a pointer without a claim
(``see the paper for details``), and an image or logo credit (``Photo by X on Unsplash``,
``Image from X``, ``Source: X``): a logo credit names the image's author, never the product
shown, so it gives no cited name for the product and no attribution.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from claims.roles import citation_keys
from claims.roles import masked as mask_roles

_NAME = r"[A-Z][\w\-’']*(?:\s+[A-Z][\w\-’']*){0,3}"
_ACRONYM_OR_NAME = rf"(?:{_NAME}|[A-Za-z]+[A-Z][\w\-]*)"
_AND_AL = re.compile(r"\b(?P<name>[A-Z][\w\-]+)\s+(?:and|&)\s+al\.")
_ET_AL_LOOSE = re.compile(r"\b(?P<name>[A-Z][\w\-]+(?:\s+(?:and|&)\s+[A-Z][\w\-]+)?)\s+et\s+al\b(?!\.)")
_SOURCE_WORDS = r"(?:paper|papers|article|blog\s*post|blogpost|post|study|studies|work|report|survey|thesis|preprint|leaderboard)"
_QUOTED = r"[“\"](?P<title>[^”\"]{3,80})[”\"]"
_CREDIT_VERB = (r"(?i:shown|showed|demonstrated|reported|described|introduced|proposed|presented|"
                r"published|defined|detailed|suggested|established)")
_ACCORDING = re.compile(rf"\b(?i:according)\s+to\s+(?:the\s+)?(?P<src>{_ACRONYM_OR_NAME}|{_QUOTED})")
_AS_VERB = re.compile(rf"\b(?:(?i:as)\s+)?{_CREDIT_VERB}\s+(?:in|by|on)\s+(?P<src>(?i:(?:the|this|that|a|an|these)\s+)"
                      rf"(?:[\w\-’'“”\"]+\s+){{0,6}}?(?i:{_SOURCE_WORDS})\b|{_QUOTED}|{_ACRONYM_OR_NAME})")
_SUBJECT_VERB = re.compile(rf"\b(?P<src>{_NAME}|the\s+authors)\s+(?:showed|show|reported|report|found|find|"
                           rf"introduced|proposed|demonstrated|observed|concluded|argued|claimed)\b")
_FOLLOWING = re.compile(rf"\b(?i:following|after|based\s+on)\s+(?:the\s+|a\s+)?(?:\w+\s+){{0,2}}"
                        rf"(?:method|approach|setting|recipe|protocol|setup|procedure|paper)\s+"
                        rf"(?:(?:similar\s+to|of|from|by|in)\s+)?(?P<src>{_ACRONYM_OR_NAME}|[a-z][\w\-]*)")
_SIMILAR_TO = re.compile(rf"\bsimilar\s+to\s+(?P<src>[A-Z][\w\-]*[A-Z][\w\-]*)")
_ORG_AUTHOR = re.compile(rf"\b(?:benchmark|paper|technique|method|study|analysis|evaluation|experiment|"
                         rf"approach|work|blog\s*post)s?\s+(?:\w+\s+)?(?:by|from)\s+(?P<src>{_ACRONYM_OR_NAME})")
_SELF_REFERENCE = re.compile(r"\b(?:section|sections|figure|figures|fig\.|table|tables|chapter|appendix|"
                             r"equation|eq\.|above|below|notebook)\b", re.I)
_OWN_START = re.compile(r"^\W*(?:our|we)\b", re.I)
_BE_BEFORE = re.compile(r"\b(?:is|are|was|were|been)\s+$", re.I)
_IN_PAPER = re.compile(rf"\b(?:in|from)\s+(?:the\s+)(?:following\s+|original\s+|popular\s+|\d{{4}}\s+)*"
                       rf"(?:(?P<src>{_ACRONYM_OR_NAME}(?:\s+{_ACRONYM_OR_NAME})*)\s+)?paper\b")
_TITLE_AFTER = re.compile(rf"\s*,?\s*{_QUOTED}")
_AUTHORS = re.compile(r"\bthe\s+authors\b", re.I)
_OWN = re.compile(r"\b(?:our|we|us)\b", re.I)
_IMAGE_CREDIT = re.compile(r"\b(?:photo|image|picture|logo|icon|illustration|figure)s?\s+(?:by|from|courtesy\s+of)\b|"
                           r"^\s*source\s*:", re.I)
NOT_SOURCES = frozenset("""
The This That These Those A An It Its Our We Table Figure Section Chapter Appendix Here There In On
For When If As By From Using With
""".split())


@dataclass(frozen=True)
class Credit:
    """The names a sentence credits (in order of appearance) and the evidence that fired."""

    names: tuple[str, ...]
    cue: str


def _role_name(key: str) -> str:
    """The cited name of a citation key: its first name part and, when the key holds one, its
    year (``Bridle.1990`` → ``Bridle 1990``, ``Peters.Neumann.ea.2018`` → ``Peters 2018``,
    ``kaplan2020scaling`` → ``kaplan 2020``, ``gpt-paper`` → ``gpt-paper``)."""
    first = re.split(r"[.,;:_\s]", key, maxsplit=1)[0]
    match = re.match(r"[A-Za-z\-]+", first)
    name = (match.group(0) if match else first).strip("-") or first
    year = re.search(r"(?<!\d)(?:1[5-9]|20)\d\d(?!\d)", key)
    return f"{name} {year.group(0)}" if year else name


def _source_name(match: re.Match[str]) -> str | None:
    """The credited name of a match: a title, a capitalised name or acronym; None for a generic
    source ("the following paper")."""
    title = match.groupdict().get("title")
    if title:
        return title.strip()
    src = (match.groupdict().get("src") or "").strip()
    if not src or re.match(r"(?:the|this|that|a|an|these)\b", src, re.I):
        return None
    words = src.split()
    while words and words[0] in NOT_SOURCES:
        words.pop(0)
    name = " ".join(words)
    return name or None


def credits(sentence: str) -> Credit | None:
    """The credit a sentence gives to a source (module docstring), or None."""
    if _IMAGE_CREDIT.search(sentence):
        return None
    found: list[tuple[int, str]] = []
    cues: list[str] = []

    def add(match: re.Match[str], name: str | None, cue: str) -> None:
        cues.append(cue)
        if name and name not in (n for _, n in found):
            found.append((match.start(), name))

    for offset, key in citation_keys(sentence):  # claims/roles.py: roles and [@key]
        cues.append("citation role")
        name = _role_name(key)
        if name not in (n for _, n in found):
            found.append((offset, name))
    sentence = mask_roles(sentence)  # a role's target is no name for the rules below
    for m in _AND_AL.finditer(sentence):
        add(m, m.group("name"), "'and al.'")
    for m in _ET_AL_LOOSE.finditer(sentence):
        add(m, f"{m.group('name')} et al", "'et al'")
    for pattern, cue in ((_ACCORDING, "'according to'"), (_FOLLOWING, "'following' a method"),
                         (_SIMILAR_TO, "'similar to'"), (_ORG_AUTHOR, "a work by an organisation")):
        for m in pattern.finditer(sentence):
            add(m, _source_name(m), cue)
    for m in _AS_VERB.finditer(sentence):
        before = sentence[max(0, m.start() - 12):m.start()]
        if (_OWN.search(m.group(0)) or re.search(r"\bwe\s+$", before, re.I)
                or _SELF_REFERENCE.search(m.group("src"))
                or (_OWN_START.match(sentence) and _BE_BEFORE.search(sentence[max(0, m.start() - 20):m.start()]))):
            continue
        title = _TITLE_AFTER.match(sentence, m.end())
        add(m, title.group("title").strip() if title else _source_name(m), f"credit verb {m.group(0).split()[0]!r}")
    for m in _SUBJECT_VERB.finditer(sentence):
        src = m.group("src")
        if src.split()[0] in NOT_SOURCES and not src.lower().startswith("the authors"):
            continue
        add(m, None if src.lower().startswith("the authors") else src, "a source as the subject")
    for m in _IN_PAPER.finditer(sentence):
        if _OWN.search(sentence[max(0, m.start() - 30):m.end()]):  # bounded window
            continue
        add(m, _source_name(m), "a paper as the source")
    if not cues and _AUTHORS.search(sentence):
        cues.append("'the authors'")
    if not cues:
        return None
    return Credit(tuple(name for _, name in sorted(found)), cues[0])


CREDIT_NOUNS = frozenset("""
work works paper papers method methods study studies finding findings result results analysis analyses law
algorithm algorithms approach approaches theorem rule rules measure measures test tests index coefficient
experiment experiments dataset datasets data survey model models definition formula formulation argument
proof critique observation observations account theory framework procedure criterion principle
""".split())
"""Nouns of a credited contribution: ``Smith’s method`` credits Smith, ``Vespa’s support`` names a product."""


def possessive_credits(sentence: str, end: int) -> bool:
    """Whether the possessive ending at ``end`` (``Name’s``) credits a contribution: a word of
    :data:`CREDIT_NOUNS` within the next three words."""
    words = re.findall(r"[A-Za-z]+", sentence[end:end + 60])[:3]
    return any(w.lower() in CREDIT_NOUNS for w in words)
