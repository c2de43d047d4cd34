"""The general credit patterns of the trained attribution classifier that was tried and NOT
shipped (issue 19, item 4; bench/bench_attribution_classifier.py measures it; docs/audit.md has the figures).

The rules of :mod:`claims.attribution` fit the sentences their authors imagined: 0.93 recall on
the development pages, about 0.5 on pages nobody tuned them on. The idea tried here: describe a
credit by a few general patterns — *a name-like span or a source noun in a credit relation* —
instead of a list of phrases, and let an L2 logistic regression weigh them on the labelled
sentences (Hastie, Tibshirani and Friedman, *The Elements of Statistical Learning*, 2nd ed.,
§4.4), to credit what the rules miss (rules OR p ≥ threshold).

Features (:data:`PATTERNS`, one binary feature each, :func:`sentence_features`): a source noun
(paper, blog post, study, team, authors …); a source noun or a name as the subject of a verb of
saying, finding or making (:data:`REPORTING`, a general class); ``by``/``from``/``following``/
``per``/``according to`` a name; a participle with ``in``/``by``/``on``/``from``; a possessive
and what follows it; ``based on``, ``inspired by``; citation keys, ``et al``, years, numbered and
footnote markers, quotations; the names (two capitalised words, acronyms, organisation words);
and the signs of no credit (the page itself, the first person, a pointer, thanks, a modal, a
question, an imperative). The rules' output is not a feature (they were tuned on the same pages).

Why it is not shipped: out of sample, the credits it adds on top of the rules were right only 30–50%
of the time (5-fold document cross-validation on 94 development documents; batch 8 before anyone
tuned on it: 4 of 11), so rules OR model lowered precision (batch 8: 0.891 → 0.789) for little
recall (0.500 → 0.549). :func:`model_names` (names in a credit relation) is kept with it.
"""

from __future__ import annotations

import re

_STARTERS = ("A|An|The|This|That|These|Those|It|Its|We|Our|I|You|Your|They|Their|He|She|As|If|In|On|At|For|To|"
             "By|From|With|When|While|Where|What|Which|Who|How|Why|Please|Also|But|And|Or|So|Then|Here|There|"
             "Note|See|Each|All|Some|Most|Many|One|No|Not|After|Before|Since|Because|Although|However|Thus|"
             "Finally|First|Second|Next|Now|Today|Recently|Overall|Moreover|Furthermore|Instead|Like|Unlike|"
             "Let|Let’s|Let's|Both|Such|Every|Any|Only|Even|Just|Yes|Using|Once|Given|Compared|Under|Over")
_CAP = r"(?:[A-Z][\w\-.]*[\w]|[A-Z])"
NAME = rf"(?:(?!(?:{_STARTERS})\b){_CAP}(?:\s+{_CAP}){{0,3}}(?:\s+(?:of|for)\s+{_CAP}(?:\s+{_CAP})?)?|[a-z]+[A-Z][\w\-]*|@[\w\-]+)"
"""A name-like span: up to four capitalised words (not a sentence starter such as ``As`` or
``Please``), joined by ``of``/``for`` to one or two more (``University of Minnesota``), a camel-case
name (``bitNet``), or a handle (``@jhuang265``)."""
SOURCE_NOUN = (r"(?:paper|papers|blog\s*post|blog|post|article|study|studies|authors|researchers|team|work|"
               r"report|survey|thesis|preprint|documentation|docs|book|talk|lecture|benchmark|analysis|"
               r"comparison|experiments?)")
REPORTING = (r"(?:say|said|says|find|finds|found|show|shows|showed|shown|reports|reported|propose|proposes|"
             r"proposed|introduce|introduces|introduced|recommend|recommends|recommended|argue|argues|argued|"
             r"claimed|suggest|suggests|suggested|noted|observe|observes|observed|define|defines|"
             r"defined|describe|describes|described|publish|publishes|published|launched|"
             r"released|trained|pioneered|demonstrate|demonstrates|demonstrated|"
             r"estimated|conclude|concludes|concluded|discover|discovers|discovered|explain|explains|explained|write|"
             r"writes|wrote|stated|warn|warns|warned|measured|benchmarked|tested|evaluated|compared|"
             r"achieved|reached|won|wins|confirmed|confirms|reveals|revealed|identified|proved|derived|developed|"
             r"created|designed|invented|coined|popularized|popularised)")
"""Verbs of saying, finding, making and winning: a general class, not a list tuned to pages; forms
that are mostly nouns after a name are left out (``a JUnit report``, ``release notes``, ``the
ROPE estimate``, ``its claims``, ``the launch``)."""
_PARTICIPLE = (r"(?:pioneered|introduced|proposed|described|presented|reported|shown|published|developed|released|"
               r"created|designed|inspired|adapted|taken|borrowed|based|built|derived|defined|suggested|outlined|"
               r"discussed|explained|demonstrated|invented|coined|launched|popularized|popularised)")
_ADVERB = r"(?:\w+ly\s+|also\s+|first\s+|just\s+|then\s+|later\s+)?"
_MONTH = r"(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)[a-z]*\.?"

PATTERNS: dict[str, str] = {
    # a source and a credit relation
    "source noun": rf"\b{SOURCE_NOUN}\b",
    "a source noun as subject": rf"\b(?i:the|that|their|a|an|his|her)\s+(?:[\w\-]+\s+){{0,2}}{SOURCE_NOUN}\s+"
                                rf"{_ADVERB}{REPORTING}\b",
    "the page as subject": rf"\b(?i:this|our)\s+(?:[\w\-]+\s+)?(?:post|paper|article|blog|guide|tutorial|page|"
                           rf"chapter|section|document|release|work|study)\s+{_ADVERB}{REPORTING}\b",
    "a source noun by or of a name": rf"\b{SOURCE_NOUN}\s+(?:by|from|of)\s+(?:the\s+)?{NAME}",
    "a name as subject of a reporting verb": rf"(?<![\w\-]){NAME}\s+{_ADVERB}(?:has\s+|have\s+|had\s+)?{REPORTING}\b",
    "… that/how": rf"(?<![\w\-]){NAME}\s+{_ADVERB}(?:has\s+|have\s+|had\s+)?{REPORTING}\s+(?:out\s+)?(?:that|how)\b",
    "a pronoun reports that": rf"\b(?:They|He|She|they|he|she)\s+{_ADVERB}{REPORTING}\s+(?:out\s+)?(?:that|how)\b",
    "by a name": rf"\bby\s+(?:the\s+)?{NAME}(?![\w\-]*(?:’s|'s)\s)",
    "a participle with in/by/on/from": rf"\b{_PARTICIPLE}\s+(?:(?:in|on)\s+(?:19|20)\d\d\s+)?(?:in|by|on|from|upon)\b",
    "… and a name": rf"\b{_PARTICIPLE}\s+(?:(?:in|on)\s+(?:19|20)\d\d\s+)?(?:in|by|on|from|upon)\s+(?:the\s+)?"
                    rf"(?:[a-z]+\s+)?{NAME}",
    "from a source": rf"\b(?i:from)\s+(?:the\s+)?(?:(?:research|original|following)\s+)?(?:{SOURCE_NOUN}\b|@\w+)",
    "following or per a name": rf"\b(?i:following|per)\s+(?:the\s+)?{NAME}",
    "according to": r"\b(?i:according)\s+to\b",
    "a name's": rf"(?<![\w\-]){NAME}(?:’s|'s)\s",
    "a name's contribution": rf"(?<![\w\-]){NAME}(?:’s|'s)\s+(?:[a-z\-]+\s+){{0,2}}(?:work|paper|method|study|"
                             rf"finding|results?|analysis|law|algorithm|approach|idea|technique|team|research|"
                             rf"benchmark|measurements|blog|post|article|documentation|claim)\b",
    "a name's product": rf"(?<![\w\-]){NAME}(?:’s|'s)\s+(?:[a-z\-]+\s+)?[A-Z]",
    "based on": r"\b(?i:based|built)\s+(?:on|upon)\b",
    "inspired or adapted": r"\b(?i:inspired|adapted|borrowed|taken)\s+(?:by|from)\b",
    "the original authors": r"\b(?i:the\s+(?:original\s+)?authors|original\s+(?:paper|work|implementation|study))\b",
    # citations
    "citation key": r"(?<![\w.])@[A-Za-z][\w:.\-]*?(?:19|20)\d\d|\[-?@|\{cite|:cite",
    "et al": r"\bet\.?\s+al\b|\band\s+al\.",
    "a name and a year": rf"{_CAP}[\w\-]*,?\s+\(?(?:19|20)\d\d[a-z]?\)?",
    "a year in parentheses": rf"\((?![^()]*{_MONTH}\s+\d)[^()]{{0,80}}(?:19|20)\d\d[a-z]?\)",
    "numbered marker": r"(?<![\w(])\[[1-9]\d{0,2}(?:\s*[,–-]\s*[1-9]\d{0,2})*\]",
    "footnote marker": r"\[\^[\w\-]+\]|[a-z][.,]?[¹²³⁴-⁹⁰]",
    "quoted": r"[“\"][^”\"]{3,120}[”\"]",
    # the names
    "two capitalised words": rf"(?<=[a-z,;:(]\s){_CAP}\s+{_CAP}",
    "acronym or camel case": r"\b[A-Z][A-Za-z]*[A-Z][\w\-]*\b",
    "organisation word": r"\b(?:University|Institute|Lab|Labs|Research|Inc|Corporation|Foundation|Consortium|"
                         r"Cooperative|Google|Meta|OpenAI|Microsoft|Facebook|Amazon|IBM|NVIDIA|Nvidia|Anthropic|"
                         r"DeepMind|Stanford|Berkeley|MIT)\b",
    # what is not a credit
    "gratitude": r"\b(?i:thank\s+(?:you|all|the|\w+\s+for)|thanks\s+(?:to\s+)?\S+\s+(?:\w+\s+){0,3}?for|grateful|"
                 r"acknowledge)",
    "causal thanks to": r"\b(?i:thanks)\s+to\s+(?:the|a|an|its|their|our)\b",
    "first person": r"\b(?:we|We|our|Our|I|my|My|us)\b",
    "we report": rf"\b(?:we|We|I)\s+{_ADVERB}{REPORTING}\b",
    "the page itself": r"\b(?i:this|our)\s+(?:post|paper|article|blog|guide|tutorial|page|chapter|section|document|"
                       r"repo|repository|readme|project|work|study)\b",
    "a pointer": r"^\W*(?i:see|read|check\s+out|refer\s+to|visit)\b|\b(?i:please\s+(?:read|refer|see|check|have\s+a\s+look)|"
                 r"have\s+a\s+look\s+at|to\s+learn\s+more|learn\s+more|for\s+more\s+(?:details?|information))\b",
    "an image credit": r"^\W*(?i:image|photo|figure|source|credit)s?\b",
    "a question": r"\?\s*[\"'”’)]*$",
    "a modal": r"\b(?:can|could|should|will|would|may|might|must)\b",
    "an imperative": r"^\W*(?:Use|Set|Run|Install|Add|Try|Make|Check|Download|Pass|Call|Create|Choose|Click|Go|Open|"
                     r"Note|Please)\b",
}
"""The general patterns (feature name → regular expression): a name-like span or a source noun, a
credit relation (subject of a reporting verb, ``by``, ``from``, a participle with a preposition,
``according to``, a possessive), citation shapes, and the signs of no credit (the page itself, the
first person, a pointer, thanks, a modal, a question). Each is one binary feature."""
FEATURES: tuple[str, ...] = tuple(PATTERNS)
_COMPILED = tuple(re.compile(PATTERNS[name]) for name in FEATURES)


def sentence_features(sentence: str) -> list[str]:
    """The names of the patterns that occur in ``sentence`` (:data:`PATTERNS`), in their order."""
    return [name for name, pattern in zip(FEATURES, _COMPILED) if pattern.search(sentence)]


_NAME_IN_RELATION = tuple(re.compile(p) for p in (
    rf"\bby\s+(?:the\s+)?(?P<name>{NAME})",
    rf"(?<![\w\-])(?P<name>{NAME})\s+{_ADVERB}(?:has\s+|have\s+|had\s+)?{REPORTING}\b",
    rf"\b(?i:according)\s+to\s+(?:the\s+)?(?P<name>{NAME})",
    rf"\b(?i:from|following|per)\s+(?:the\s+)?(?P<name>{NAME})",
    rf"\b{_PARTICIPLE}\s+(?:(?:in|on)\s+(?:19|20)\d\d\s+)?(?:in|by|on|from|upon)\s+(?:the\s+)?(?:[a-z]+\s+)?(?P<name>{NAME})",
    rf"(?<![\w\-])(?P<name>{NAME})(?:’s|'s)\s",
    rf"\b{SOURCE_NOUN}\s+(?:by|from|of)\s+(?:the\s+)?(?P<name>{NAME})",
))
"""Where a credited name stands (module docstring): after ``by``, before a reporting verb, after
``according to`` / ``from`` / ``following`` / ``per``, after a participle and its preposition, as a
possessive, after a source noun and ``by``/``from``/``of``."""
_CITATION_KEY = re.compile(r"(?<![\w.])@(?P<key>[^\W\d_][\w:.\-]*)")
_NOT_NAMES = frozenset("""Figure Fig Table Section Chapter Appendix Equation Eq GitHub Twitter Reddit Hugging HuggingFace
README Python PyTorch NumPy""".split())
"""Things a credit relation points at that name no source (a page's own figure, a platform, a language)."""


def model_names(sentence: str) -> list[str]:
    """The name-like spans of ``sentence`` in a credit relation (:data:`_NAME_IN_RELATION`) and the
    name part of its bare citation keys (``@kohavi1995`` → ``kohavi 1995``), in order of position."""
    found: list[tuple[int, str]] = []
    for pattern in _NAME_IN_RELATION:
        for m in pattern.finditer(sentence):
            name = m.group("name").strip(" .")
            if name.startswith("@"):
                continue  # a key or a handle: below
            if name.split()[0] not in _NOT_NAMES:
                found.append((m.start("name"), name))
    for m in _CITATION_KEY.finditer(sentence):
        key = re.match(r"(?P<name>[^\W\d_][^\W\d_\-]*(?:-[^\W\d_]+)*?)(?P<year>(?:19|20)\d\d)?(?=[^\w\-]|$|[a-z])",
                       m.group("key"))
        if key:
            found.append((m.start(), " ".join(p for p in (key.group("name"), key.group("year")) if p)))
    names: list[str] = []
    for _, name in sorted(found):
        if name not in names and not any(name != n and name in n for n in names):
            names.append(name)
    return [n for n in names if not any(n != o and n in o for o in names)]
