"""The trained attribution classifier: does this sentence credit its claim to a source? (issue 19, item 4).

The rules of :mod:`claims.attribution` fit the sentences their authors imagined: on development
pages they reach 0.93 recall, on pages nobody tuned them on about 0.5 (docs/audit.md). This model
adds what they miss. It runs with the trained measured-result classifier (``kinds="model"``,
``chapter-audit claims --kinds model``, ``report --kinds model``), after it: a sentence the rules
credit stays credited (their precision holds on unseen pages), and a sentence they do not credit
is credited when the model's p ≥ the stored threshold. Its cue then reads
``attribution model p=0.81 (threshold 0.60, attribution_model 1a2b3c4d5e6f)``.

Model: L2-regularised logistic regression, p = 1 / (1 + exp(−w·x)) (Hastie, Tibshirani and
Friedman, *The Elements of Statistical Learning*, 2nd ed., §4.4), over one sentence: a binary
feature vector x hashed into :data:`claims.kinds_model.DIMENSION` buckets by CRC-32 (the hashing
trick, Weinberger et al., ICML 2009; :func:`claims.kinds_model.vector`: bias at 0, the n-gram and
structural groups each scaled to unit L2 norm). Features (:func:`sentence_features`), strings
before hashing, meant to describe *a name-like span in a credit relation* rather than a list of
phrases:

* n-grams of the sentence written as **shapes**: a capitalised word not opening the sentence is
  ``C``, an acronym or camel-case name ``A``, a citation key (``@kohavi1995``, ``:cite:``) ``K``,
  a numbered or footnote marker ``M``, a year ``Y``, a quoted stretch ``Q``, any other number
  ``0``; other words lower-cased. Shape unigrams, bigrams and trigrams (``by C``, ``C et al``,
  ``the blog post recommends``, ``C 's method``, ``pioneered in A``);
* structure (``s:``): first person, a quotation, a year in parentheses, ``et al``, a possessive
  of a name, a name right before a verb ending in ``-s``/``-ed``, the sentence opening with a
  name, thanks, a question, an imperative start, a link left in the text, the number of names.

The rules' output is **not** a feature: the rules were tuned on the development pages, so a model
trained there would learn to trust them far beyond what they earn on unseen pages.

Cited names of a sentence the model credits (:func:`model_names`): the rules' names of the row
(:func:`claims.extract.cited_names`: ``X et al.``, acronyms, possessives) and the name-like spans
in a credit relation: after ``by``/``from``/``to``/``in``, before a verb of saying or finding, a
possessive, a citation key's name part.

The weights (``claims/attribution_model.json``, package data) are written by
``bench/train_attribution_model.py`` from the development part of the corpus only,
deterministically, and pinned by :data:`WEIGHTS_SHA256`: another file is refused (one line).
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from engine.runs.errors import RefusalError
from engine.runs.hashing import sha256_file

WEIGHTS = Path(__file__).resolve().parent / "attribution_model.json"
WEIGHTS_SHA256 = "39e5f61dbea7151474a0d6889e18b1e7d9545ba4aedb59e0fd1d3eb69a657fd3"
"""sha256 of :data:`WEIGHTS`; ``bench/train_attribution_model.py`` rewrites this line when it retrains."""

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


@dataclass(frozen=True)
class AttributionModel:
    """Weights per feature name (and ``bias``), the threshold, λ and the weights file's sha256."""

    weights: dict[str, float]
    threshold: float
    lam: float
    sha256: str

    def score(self, sentence: str) -> float:
        """p(the sentence credits a source) = σ(bias + Σ weights of its features)."""
        z = self.weights.get("bias", 0.0) + sum(self.weights.get(f, 0.0) for f in sentence_features(sentence))
        return 1.0 / (1.0 + math.exp(-z)) if z >= 0 else math.exp(z) / (1.0 + math.exp(z))


def load_model(path: Path = WEIGHTS, expected_sha256: str | None = None) -> AttributionModel:
    """Read a weights file whose sha256 is ``expected_sha256`` (default :data:`WEIGHTS_SHA256`);
    another hash, or weights for another feature list, is refused in one line."""
    expected = WEIGHTS_SHA256 if expected_sha256 is None else expected_sha256
    path = Path(path)
    if not path.is_file():
        raise RefusalError(f"{path}: attribution model weights not found (retrain: bench/train_attribution_model.py)")
    digest = sha256_file(path)
    if digest != expected:
        raise RefusalError(f"{path}: attribution model weights have sha256 {digest[:12]}…, the code pins "
                           f"{expected[:12]}…; refusing to load them (retrain: bench/train_attribution_model.py)")
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("features") != list(FEATURES):
        raise RefusalError(f"{path}: attribution model weights are for another feature list")
    return AttributionModel(weights={k: float(v) for k, v in data["weights"].items()},
                            threshold=float(data["threshold"]), lam=float(data["lam"]), sha256=digest)


@lru_cache(maxsize=1)
def shipped_model() -> AttributionModel:
    """The weights shipped in the package (loaded once)."""
    return load_model()


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


def credit_rows(rows: list, model: AttributionModel | None = None) -> list:
    """Claim rows with the model's credits added (module docstring): a sentence row the rules do not
    credit (kind ``attribution``, or ``credited to`` in its cue) whose p ≥ the threshold becomes an
    attribution, or, when it is a measured result, keeps its kind and gets ``; credited to …``; its
    cited names gain :func:`model_names`. Every other row is returned unchanged."""
    from dataclasses import replace

    model = model or shipped_model()
    tag = f"(threshold {model.threshold:.2f}, attribution_model {model.sha256[:12]})"
    out = []
    for row in rows:
        if row.kind in ("table value", "attribution") or "credited to" in row.cue:
            out.append(row)
            continue
        p = model.score(row.text)
        if p < model.threshold:
            out.append(row)
            continue
        names = list(row.cited_names) + [n for n in model_names(row.text) if n not in row.cited_names]
        if row.kind == "measured result":
            cue = f"{row.cue}; credited to {', '.join(names) or 'a source'} (attribution model p={p:.3f} {tag})"
            out.append(replace(row, cue=cue, cited_names=names))
        else:
            out.append(replace(row, kind="attribution", cited_names=names,
                               cue=f"attribution model p={p:.3f} {tag}; rules: {row.kind}"))
    return out
