"""Title lines: a paragraph that is only a verbless phrase standing as a title is structure.

Label convention (h) (tests/data/corpus/manifest.json, decided 2026-12-02): "a line or paragraph
that is only a phrase without a verb, bold or not, standing as a title ('Search performance',
'Updates', 'Notes:', 'Why bfloat16?', 'Common patterns in errors:'), a lone link or link-list item
with no sentence, badges and an icon with a label are structure like a heading, not sentences; a
bold full sentence with its verb stays a sentence". :func:`title_line` is that test for one
paragraph's text; both readers (:mod:`audit.document`, :mod:`audit.flattened`) set such a paragraph
aside as ``markup`` (note ``title line``), reported by ``Document.not_claims()`` with its line, so
nothing is dropped.

The verb test (:func:`has_verb`) is a stated lexicon, no tagger: a finite form of a common verb
(:data:`audit.runin.FINITE_VERBS`, the irregular forms, the ``-s`` and ``-ed`` forms of
:data:`BASE_VERBS`), a contraction (``n't``, ``let's``), a base form opening the phrase (an
imperative: ``Install the library:``) or after a word that is no determiner or preposition (``…
methods mainly include:``), or a subject pronoun opening it. A phrase it misses keeps its verb as
far as this module can tell and is read as a title: the test is written to err towards a verb
(a title kept as a row is a non-prose row; a sentence set aside would be a lost claim, so a line
with a number after a colon, ``Baseline performance: 75.6% alignment``, a reported value, is never
a title).
"""

from __future__ import annotations

import re

from dataclasses import replace

from audit.blocks import Block
from audit.runin import FINITE_VERBS, SUBJECT_PRONOUNS

BASE_VERBS = frozenset("""
accept achieve add adopt advance allow apply argue ask assume avoid become begin benchmark bring build call cause
change check choose claim clone collect combine come compare compile complete compute configure consider contain contribute
continue control convert copy cost create cut decide define delete depend deploy describe design detect determine end
develop differ disable discuss do download drop enable encode encourage ensure estimate evaluate examine exceed
expect experiment explain explore export extend extract fail fall feel fetch fill find finish fit fix focus follow
force gain generate get give go grow guarantee happen handle help hold identify ignore implement import improve
include increase indicate install integrate introduce investigate involve join keep know lack launch lead learn
leave let lie like limit list load look lose lower maintain make manage match matter maximize mean measure meet
merge minimize miss move name need note notice observe obtain occur offer open optimize outperform overfit pass pay
perform pick place plan play point predict prefer prepare present prevent print produce prove provide publish
pull push put query raise rank reach read realize receive recognize recommend record reduce refer release rely
remain remember remove rename repeat replace report represent reproduce require rerun reset resolve respond rest
restart result retrieve return reuse reveal review rewrite rise run sample save say scale score search see seem
select send serve set share shift show shrink sit skip slow solve sort specify speed spend split stand start stay
stop store submit suggest supply support suppose switch take talk tell tend test think track train transfer
translate treat trigger try tune turn understand update upgrade upload use validate vary verify view wait walk
want watch win work write yield
""".split())
"""Base forms of common verbs of technical prose; their ``-s`` and ``-ed`` forms are finite
(:data:`VERB_FORMS`), except ``-s`` forms that are mostly plural nouns (:data:`_PLURAL_NOUNS`)."""

_IRREGULAR = frozenset("""
is are was were am has have had do does did can could will would shall should may might must
began brought built came chose fell felt found gave got grew held kept knew led left lay lost made meant met ran
rose said saw sat shrank spent stood took thought won wrote let's lets cannot
""".split())
_PLURAL_NOUNS = frozenset("""results runs works uses needs tests changes updates notes scores points sets costs leads
looks plans records lists samples queries ranks releases reports requests returns searches shifts shares stores
tracks views limits matches cuts""".split())
_DETERMINERS = frozenset("the a an both all each every this these those our your its their no one two three".split())
_PREPOSITIONS = frozenset("""about above across after against along among around at before behind below beneath
beside between beyond by during for from in inside into near of off on onto outside over past through to toward
towards under until upon via with within without what why how where when which who whose""".split())
_SUBJECTS = frozenset("""i we you they who which that people users models please then now first also just simply
next finally always never""".split())
"""Words after which a base form is a finite verb: a subject, or an adverb of an instruction
(``Please note the following points:``, ``Then load the model checkpoint:``)."""
_OBJECT_WORDS = frozenset("it them me us up out down these those".split())
_NOT_BEFORE_VERB = frozenset("""the a an this that these those our your its their his her my to of for with in on
by no any each every some how""".split())


def _forms(verb: str) -> tuple[str, str]:
    if verb.endswith(("s", "sh", "ch", "x", "o", "z")):
        third = verb + "es"
    elif verb.endswith("y") and verb[-2] not in "aeiou":
        third = verb[:-1] + "ies"
    else:
        third = verb + "s"
    if verb.endswith("e"):
        past = verb + "d"
    elif verb.endswith("y") and verb[-2] not in "aeiou":
        past = verb[:-1] + "ied"
    else:
        past = verb + "ed"
    return third, past


VERB_FORMS = frozenset(FINITE_VERBS | _IRREGULAR | {f for v in BASE_VERBS for f in _forms(v)} - _PLURAL_NOUNS)
"""Finite verb forms the test knows (the base forms count only in the positions :func:`has_verb` names)."""

_TOKEN = re.compile(r"[A-Za-z][A-Za-z'-]*")


def has_verb(text: str) -> bool:
    """Whether ``text`` holds a finite verb as far as the stated lexicon tells (module docstring)."""
    text = text.replace("’", "'")
    words = [w.lower() for w in _TOKEN.findall(text)]
    for i, word in enumerate(words):
        if word in VERB_FORMS and i > 0 and words[i - 1].endswith("ing") and word.endswith("ed"):
            continue  # "Getting started": a participle after a gerund, a title
        if word in VERB_FORMS or word.endswith("n't"):
            return True
        if word in _PLURAL_NOUNS and i > 0 and i + 1 < len(words) and words[i + 1] in _DETERMINERS:
            return True  # "The config file lists both models:" (a noun would not take a determiner after it)
        if word in _PLURAL_NOUNS and i == len(words) - 1 and i >= 2 and words[i - 2] in _DETERMINERS:
            return True  # "The query returns:": the subject, then its verb (erring towards a verb)
        after = words[i + 1] if i + 1 < len(words) else ""
        if i == 0 and after in ("the", "a", "an", "your", "our", "this", "these", "its", "each") and not (
                word.endswith("ing") or word in _PREPOSITIONS):
            return True  # "Quantize the model by running …:": an imperative, whatever its verb
        if word in BASE_VERBS and i == 0:
            if after in _DETERMINERS or after in _OBJECT_WORDS or re.match(r"\d", text.split()[1] if len(text.split()) > 1 else ""):
                return True  # an imperative with its object ("Install the library:", "Sample 3 questions");
            continue  # "Search performance", "Result:" are titles
        before = words[i - 1]
        if (word in BASE_VERBS and before not in _NOT_BEFORE_VERB and after != "of"
                and (before.endswith(("s", "ly")) or before in _SUBJECTS or re.search(
                    r"(?:^|\W)" + re.escape(before) + r"\s*[,;]\s+" + re.escape(word) + r"\b", text, re.I))):
            return True  # after its subject ("… methods mainly include:", "…, watch the video:"); "Quick start" has none
    return len(words) >= 2 and words[0] in SUBJECT_PRONOUNS


def finite_verb(text: str) -> bool:
    """Whether ``text`` holds an inflected verb form of :data:`VERB_FORMS` (no base form: an
    imperative title such as ``Read the full paper`` has none)."""
    return any(w in VERB_FORMS or w.endswith("n't") for w in (t.lower() for t in _TOKEN.findall(text.replace("’", "'"))))


_LEADING_ICONS = re.compile(r"^(?:(?::[a-z][\w+-]*:(?:\{[^{}]*\})?|[\U0001F000-\U0001FAFF\u2600-\u27BF\u2B00-\u2BFF]"
                            r"[\uFE0E\uFE0F\u200D\U0001F3FB-\U0001F3FF]*)\s*)+")
"""Icons opening a line: an emoji, an icon shortcode (``:material-clock-fast:``, ``:tada:``), with its
attribute list (``{ .lg .middle }``)."""
_LEAD_WORDS = frozenset("and or but nor so".split())
"""Words that open the rest of a sentence (``And several natural language inference tasks:``), not a title."""
_VALUE_AFTER_COLON = re.compile(r":\s.*\d")


def title_line(text: str, longest: int = 14) -> bool:
    """A paragraph of one line that is only a verbless phrase of at most ``longest`` words standing
    as a title (``Notable runs:``, ``Updates``, ``Why bfloat16?``, ``Possible Output (from the last
    line):``): no final full stop, comma or semicolon, no sentence end inside, no verb
    (:func:`has_verb`) and no number after a colon (a reported value)."""
    text = _LEADING_ICONS.sub("", text.strip())  # ":material-clock-fast: Quick start": an icon with its label
    if not text or "\n" in text or len(text.split()) > longest or not re.search(r"[A-Za-z]{2}", text):
        return False
    if re.search(r"[.!,;…][\"')\]”’]*$", text) or re.search(r"[.!?]\s+\S", text) or _VALUE_AFTER_COLON.search(text):
        return False
    if "," in re.sub(r"\([^()]*\)", "", text):  # "Contact person: N. Thakur, n@x.org": an appositive, a clause
        return False
    if re.search(r"[→←»]", text) or re.search(r"\w:\s+[a-z]", text):  # a link "… →"; "Corpus encoding: a sparse encoder"
        return False
    last = re.sub(r"\W+$", "", text.split()[-1].lower())
    if last in _LEAD_WORDS or last in ("which", "that", "who", "whom", "whose", "where", "how", "the", "a", "an", "of",
                                       "in", "on", "for", "to", "with", "by", "from", "as", "at"):
        return False  # "Name two cases in which:": a sentence leading into a list, no title
    first = text.split()[0].lower()
    if re.match(r"\[\d{1,3}\]\s", text):  # "[2] RL Course by Jane Doe - Lecture 9: …": a reference entry
        return False
    if first in _LEAD_WORDS:
        return False  # "And several natural language inference tasks:": the rest of a sentence
    if "=" in text or "_" in text:  # "Binary Quantization with always_ram=True": a setting, read as written
        return False
    if re.fullmatch(r"[A-Za-z][\w'’-]*:", text):
        return True  # "Benchmarks:", "Updates:": one word and a colon is no sentence, whatever its form
    return not has_verb(_without_asides(text))


def _without_asides(text: str) -> str:
    """The text with its parenthesised asides removed (``Reference env (the stack these notes
    assume):`` → ``Reference env :``): a verb inside an aside does not make the phrase around it a
    sentence; an aside that holds a number keeps its verb (``Under 2 minutes on 8 GPUs (the tiny.c
    GPT-2 replication needed 40 minutes)`` states a result: a line, not a title); a text that is all
    aside is kept as it is."""
    bare = re.sub(r"\s*\([^()\d]*\)", " ", text)
    return bare if re.search(r"[A-Za-z]{2}", bare) else text


_DATED = re.compile(r"^\[?(?:\d{1,2}/\d{1,2}/\d{4}|\d{4}[/-]\d{1,2}[/-]\d{1,2})\]?:?\s+(?=\S)")
"""A date opening a news or changelog item (``01/15/2026 BitNet CPU Inference Optimization``): the item is
a dated title when the rest is one."""
_ATTRIBUTE_LIST = re.compile(r"^\{:[^{}]{0,80}\}$")
LABELLED_URL = re.compile(r"^(?:[A-Z][\w .'’/()-]{0,30}:\s+)?<?(?:https?://|www\.)\S+?>?$")
"""A line that is a URL, with a short label before it (``Paper: https://arxiv.org/abs/…``, a bare
fork link in a list): a lone link (label convention (h)), navigation."""
_BRACKETED = re.compile(r"^(?:\([^()]{1,80}\)|\[[^\[\]]{1,80}\])$")
_FORMULA_RELATION = re.compile(r"[=≤≥≈∝→↦⇒]")
_FORMULA_OPERATOR = re.compile(r"[×∑∏‖√∫∂∈∀∃·−⊙⊗]|\\[a-zA-Z]+")
_THREE_WORDS = re.compile(r"(?:^|\s)[A-Za-z][a-z]+(?:\s+[a-z][a-z]+){2}(?=[\s.,;:!?]|$)")


def bracketed_aside(text: str) -> bool:
    """A line wholly in parentheses or brackets, at most eight words, with no finite verb
    (``(Timestamp: 00:06:24)``, a link's text left in its brackets ``[reproducible log]``): an aside
    of the page (a time stamp, a link), not a sentence."""
    text = text.strip()
    return (bool(_BRACKETED.match(text)) and len(text.split()) <= 8 and not finite_verb(text)
            and not re.search(r"\bet al\b|\b(?:19|20)\d\d\b", text))  # "(Image source: Doe et al., 2020)" credits


def formula_line(text: str) -> bool:
    """A line that is a formula or a shape signature (``(Nq, Lq, d) × (B, Ld, d) → (Nq, B).``): a
    relation or an arrow and a math operator, no three plain words in a row, no sentence end but
    a final full stop."""
    text = text.strip()
    body = text[:-1] if text.endswith(".") else text
    tex = len(re.findall(r"\\[a-zA-Z]+", body)) >= 2 and not re.search(r"(?:^|\s)[A-Za-z][a-z]+\s+[a-z]{2,}(?=\s|$)", body)
    # "\min \sum|y_i - (A\cdot x_i + B)|^2": TeX left as text ("Choosing A, B, E, \alpha, \beta to minimize" is prose)
    return ((bool(_FORMULA_RELATION.search(body)) and bool(_FORMULA_OPERATOR.search(body)) or tex)
            and not re.search(r"[.!?]\s", body) and not _THREE_WORDS.search(body))


_PLAIN_LEAD = re.compile(r"^([A-Z][a-z]+(?:[ -][a-z]+){1,3}\.) (?=[A-Z])")


def plain_run_in(text: str) -> int:
    """Length of a plain run-in label opening a list item (``Hot runs. This is the second and third
    run …``, ``Cold runs. This is …``: two to four words, no verb, a full stop before the sentence it
    names), else 0; kept with that sentence as a bold one is (label convention (c)). One word
    (``Tokenise. Lower-case the text.``) is an instruction, a sentence of its own."""
    lead = _PLAIN_LEAD.match(text)
    if lead is None or has_verb(lead.group(1)) or len(text[lead.end():].split()) < 3:
        return 0
    return len(lead.group(1))


def _dated_title(rest: str) -> bool:
    """The title of a dated news item (``BitNet a4.8: 4-bit Activations for 1-bit LLMs``, ``1-bit AI
    Infra: Part 1.1, Fast and Lossless …``): at most sixteen words, no sentence end, no finite verb."""
    rest = rest.strip()
    return (0 < len(rest.split()) <= 16 and not re.search(r"[.!?](?:\s|$)", rest) and not finite_verb(rest)
            and not re.match(r"(?:we|i|you|they)\b", rest, re.I))


_NAME = r"[A-Z][\w'’-]+(?:\s[A-Z]\.)*(?:\s(?:(?:de|van|von|der)\s)?[A-Z][\w'’-]+)+"
_AUTHORS = re.compile(
    r"^(?:\[\d{1,3}\]\s*)?(?:[A-Z][\w'’-]+,\s[A-Z][\w.'’-]*(?:\s[A-Z][\w.'’-]*)*(?:,\s(?:and\s)?[A-Z][\w.'’-]*(?:\s[A-Z][\w.'’-]*)*)*"
    rf"|{_NAME}(?:(?:,|,?\s+and)\s+{_NAME})*(?:,?\s+et\s+al)?)\.\s+(?=\S)")
"""The authors opening a reference entry: ``Agarwal, Rishabh, Max Schwarzer, …, and Marc G.
Bellemare.``, ``Rodrigo Nogueira and Jimmy Lin.``, ``[3] Lin, J. et al.``."""
_QUOTED_TITLE = re.compile(r'^(?:\[\d{1,3}\]\s*)?["“][^"“”]{3,200}["”]\s*')
_QUOTED = re.compile(r'["“][^"“”]*["”]')
_VENUE = re.compile(r"\b(?:1[89]|20)\d\d\b|\barXiv\b|\bAccessed\b|\bProceedings\b|\bpp\.\s*\d|\bdoi\b|https?://", re.I)


def reference_entry(text: str) -> bool:
    """A bibliography entry, one sentence by label convention (i) however many full stops it holds
    (``Courtland, Rachel. "Gordon Moore: …" IEEE Spectrum. 30 Mar. 2015.``, ``"Moore's Law."
    Wikipedia article. Accessed Oct. 1, 2020.``, ``Rodrigo Nogueira and Jimmy Lin. From doc2query to
    docTTTTTquery.``): authors (:data:`_AUTHORS`) or a quoted title first, then, quoted titles
    aside, no finite verb among its lower-case words (a venue's or title's capitalised words and
    ``Accessed`` are no predicate), at most forty words; an entry opened by a quoted title also names a
    year, a venue, an access date or a link (:data:`_VENUE`)."""
    text = text.strip()
    if len(text.split()) > 40 or not re.search(r"[.!?][\"'”’)]*\s+\S", text):
        return False  # an entry of one segment is split into nothing anyway
    authors = _AUTHORS.match(text)
    quoted = _QUOTED_TITLE.match(text)
    if authors is None and (quoted is None or not _VENUE.search(text)):
        return False
    rest = _QUOTED.sub(" ", text[(authors or quoted).end():])
    lower = " ".join(w for w in rest.split() if not w[:1].isupper())  # "Search Review", "Accessed": a title's, a date's words
    return not finite_verb(lower) and not re.search(r"\b(?:is|are|was|were|we|our|this|it)\b", rest, re.I)


def set_aside_titles(blocks: list[Block], list_lines: frozenset[int] = frozenset()) -> list[Block]:
    """Lines of structure among the prose blocks (label convention (h)): a one-line paragraph that
    is a :func:`title_line` as ``markup`` (note ``title line``), a :func:`bracketed_aside` as
    ``markup`` (note ``aside``), a :func:`formula_line` as ``math``, a paragraph or list item that is
    a :data:`LABELLED_URL` as ``navigation``; a :func:`reference_entry` kept whole (an atomic span
    over its text, so the splitter makes it one row); the other blocks as they are. ``list_lines``: lines
    of a flattened list that lost its markers (the short lines under a line ending in ``:``), whose
    items are a list's entries, never titles."""
    out: list[Block] = []
    for index, b in enumerate(blocks):
        one_line = "\n" not in b.text and (b.line == b.end_line or len(b.text.split()) <= 14)  # (an image under it)
        nxt = blocks[index + 1] if index + 1 < len(blocks) else None
        run = (nxt is not None and nxt.kind == "paragraph" and nxt.line in list_lines) or (
            bool(out) and out[-1].kind == "paragraph" and out[-1].line in list_lines)
        if (b.kind == "paragraph" and b.line in list_lines and not LABELLED_URL.match(b.text.strip())
                and not b.text.rstrip().endswith(":")  # "Updates:" under "… other benchmarks:" opens its own run
                and not (out and out[-1].kind == "list_item")  # after marked items a bare line is no item
                and run):  # a list has two items or more ("BibTeX" over its code is a tab's label)
            out.append(b)  # under "The server offers three features:": an item of a list that lost its markers
            continue
        if b.kind in ("paragraph", "list_item") and one_line and LABELLED_URL.match(b.text.strip()):
            b = replace(b, kind="navigation", note="link", lead_in=0)
        elif b.kind == "paragraph" and one_line and _ATTRIBUTE_LIST.match(b.text.strip()):
            b = replace(b, kind="markup", note="attribute list", lead_in=0)  # "{: .language-bash}" under a fence
        elif b.kind == "list_item" and one_line and _DATED.match(b.text) and _dated_title(b.text[_DATED.match(b.text).end():]):
            b = replace(b, kind="markup", note="title line", lead_in=0)  # "01/15/2026 BitNet CPU Inference Optimization"
        elif b.kind == "paragraph" and one_line and title_line(b.text):
            b = replace(b, kind="markup", note="title line", lead_in=0)
        elif b.kind == "paragraph" and one_line and bracketed_aside(b.text):
            b = replace(b, kind="markup", note="aside", lead_in=0)
        elif b.kind == "paragraph" and one_line and formula_line(b.text):
            b = replace(b, kind="math", note="formula", lead_in=0)
        elif b.kind in ("list_item", "footnote") and reference_entry(b.text):  # an entry of a list (convention (i))
            b = replace(b, atomic_spans=b.atomic_spans + ((0, len(b.text)),))  # one sentence, never split
        out.append(b)
    return out
