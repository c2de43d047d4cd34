"""Claim ↔ source links, each with a stated reason (research-pack method points 8 and 9:
"a source that is merely topically related supports nothing").

A link is one of three kinds, decided in this order for every (claim, source) pair:

``mention``
    The claim text names the source: one of its *mention terms* occurs as a whole word
    (``(?<!\\w)TERM(?!\\w)``). **Record over description**: for a VERIFIED record the terms
    come from the record — author surnames (:func:`sources.names.surname`, suffixes such as
    "Jr." set aside), the one- or two-word short title before a colon ("RAGAS: Automated ..." →
    RAGAS), capitalised acronyms of the title ("The use of MMR, ..." → MMR) and the GitHub
    repository name (before and after a followed rename) — plus the description's named method
    or head word only when the record confirms it (it occurs in the verified title, abstract or
    repository name). A description name that contradicts the verified authors is a discrepancy
    (:func:`sources.leads.description_conflicts`) and links nothing. For an UNVERIFIED lead the
    description's names before ``'s``/``et al.'s`` ("Carbonell and Goldstein's MMR" → Carbonell,
    Goldstein), the named method after the possessive ("MMR", "xQuAD") and a one-word head
    before ``;``/``:`` ("Pyserini; ...") are used. Names match case-sensitively (at least three
    letters); terms with an inner capital (acronyms, "xQuAD") case-sensitively, plain words
    case-insensitively. Reason: ``mentions 'MMR'``.
``similarity``
    With an encoder: cosine of the L2-normalised embeddings of the claim text and of the source
    text (verified title, then the candidate description), rounded to two decimals, is at least
    ``similarity_threshold`` (default 0.50). Reason: ``embedding similarity 0.62 ≥ 0.50``. The
    rounded value is both printed and compared, so the reason is exactly the test applied.
``topical-only``
    Similarity in [``topical_threshold``, ``similarity_threshold``) (default 0.30), or — with or
    without an encoder — at least two shared content words and no mention. Reason starts
    ``topical only — supports nothing``. Such a link is recorded so that it is not mistaken for
    support; it must never be cited as evidence for the claim.

Pairs with none of these get no link. Each distinct text is encoded once (one ``encode`` call).
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any, Sequence

from sources.leads import description_head, description_names
from sources.names import surname
from sources.records import SourceRecord

MENTION, SIMILARITY, TOPICAL = "mention", "similarity", "topical-only"
TOPICAL_PREFIX = "topical only — supports nothing"
STOPWORDS = set("""
a about above after again against all also an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had
has have having here how if in into is it its itself just more most no nor not now of off on once
only or other our out over own same should so some such than that the their them then there these
they this those through to too under until up very was we were what when where which while who
whom why will with would you your yet one two three first second new used using based via upon
whose within without across among per
canonical practical reference approach method methods paper work worth comparing technique
""".split())
WORD_RE = re.compile(r"[A-Za-z][A-Za-z0-9]*")
POSSESSIVE_RE = re.compile(r"^(?P<names>.+?)(?:\s+et\s+al\.?)?\s*['’]s\s+(?P<thing>.+)$")


@dataclass(frozen=True)
class Term:
    text: str
    case_sensitive: bool


@dataclass
class ClaimLink:
    claim_id: str
    source: str               # the source's identifier (kind in source_kind)
    source_kind: str
    source_status: str        # VERIFIED / UNVERIFIED, so an unverified lead is never mistaken
    kind: str                 # mention | similarity | topical-only
    reason: str
    similarity: float | None = None
    terms: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "ClaimLink":
        return cls(**data)


def _inner_capital(word: str) -> bool:
    return any(c.isupper() for c in word[1:])


def _confirmed(term: str, source: SourceRecord) -> bool:
    """Whether a description's term occurs (whole word, any case) in the verified record's
    title, abstract, repository name or repository description."""
    texts = [source.verified.get(name) for name in ("title", "abstract", "full_name",
                                                     "description")]
    pattern = re.compile(rf"(?<!\w){re.escape(term)}(?!\w)", re.IGNORECASE)
    return any(isinstance(t, str) and pattern.search(t) for t in texts)


def _title_acronyms(title: str) -> list[str]:
    """Words of a verified title with two or more capitals (``MMR``, ``BM25``, ``xQuAD``)."""
    words = (w.strip(".,;:()[]'\"") for w in title.split())
    return [w for w in words if len(w) >= 2 and w[0].isalpha() and sum(c.isupper() for c in w) >= 2]


def mention_terms(source: SourceRecord) -> list[Term]:
    """The words whose whole-word presence in a claim counts as naming ``source``.

    Record over description: for a VERIFIED record the terms come from the record (author
    surnames, the short title, capitalised acronyms of the title, the repository name); a
    description's named method or head word is kept only when the record confirms it (it occurs
    in the verified title, abstract or repository name), and a description's person name only when
    the record has no authors to check it against. For an UNVERIFIED lead the description's
    names and terms are used (a link to a lead is shown as such).
    """
    terms: dict[str, Term] = {}

    def add(text: str, case_sensitive: bool) -> None:
        text = text.strip(" .,'’\"()")
        if len(text) < 2 or text.lower() in STOPWORDS:
            return
        key = text if case_sensitive else text.lower()
        terms.setdefault(key, Term(text, case_sensitive))

    verified = source.status == "VERIFIED"
    authors = source.verified.get("authors") or []
    for name in authors:
        family = surname(str(name))
        if family:
            add(family, True)
    head = description_head(source.description)
    possessive = POSSESSIVE_RE.match(head)
    if possessive:
        if not (verified and authors):
            for name in description_names(source.description):
                add(name, True)
        for word in possessive.group("thing").split():
            word = word.strip(".,()")
            if word and (_inner_capital(word) or word[0].isupper()) \
                    and (not verified or _confirmed(word, source)):
                add(word, _inner_capital(word))
    elif head and len(head.split()) == 1 and head[0].isupper() \
            and (not verified or _confirmed(head, source)):
        add(head, _inner_capital(head))
    title = source.verified.get("title")
    if isinstance(title, str):
        if ":" in title:
            short = title.split(":", 1)[0].strip()
            if 1 <= len(short.split()) <= 2 and any(c.isupper() for c in short):
                add(short, _inner_capital(short))
        for acronym in _title_acronyms(title):
            add(acronym, True)
    if source.kind == "github":
        names = [source.identifier, str(source.verified.get("full_name") or "")]
        for repo in (n.split("/", 1)[-1] for n in names if "/" in n):
            if len(repo) >= 4:
                add(repo, False)
    return list(terms.values())


def _found(term: Term, text: str) -> bool:
    flags = 0 if term.case_sensitive else re.IGNORECASE
    return re.search(rf"(?<!\w){re.escape(term.text)}(?!\w)", text, flags) is not None


def content_words(text: str) -> set[str]:
    return {w.lower() for w in WORD_RE.findall(text)
            if len(w) >= 4 and w.lower() not in STOPWORDS}


def source_text(source: SourceRecord) -> str:
    """The text embedded for a source: verified title (if any), then the candidate description."""
    title = source.title
    parts = [title] if title and source.kind != "github" else []
    if source.kind == "github" and source.verified.get("description"):
        parts.append(f"{source.verified['full_name']}: {source.verified['description']}")
    parts.append(source.description)
    return ". ".join(p.strip().rstrip(".") for p in parts if p and p.strip()) + "."


def link_claims(claims: Sequence[Any], sources: Sequence[SourceRecord], *, encoder: Any = None,
                similarity_threshold: float = 0.5,
                topical_threshold: float = 0.3) -> list[ClaimLink]:
    """Links in claim order, then source order; ``claims`` have ``.claim_id`` and ``.text``."""
    if not 0 <= topical_threshold <= similarity_threshold <= 1:
        raise ValueError("need 0 ≤ topical_threshold ≤ similarity_threshold ≤ 1")
    claims = list(claims)
    sources = list(sources)
    scores: dict[tuple[int, int], float] = {}
    if encoder is not None and claims and sources:
        scores = _similarities([c.text for c in claims], [source_text(s) for s in sources],
                               encoder)
    source_terms = [mention_terms(s) for s in sources]
    source_words = [content_words(source_text(s)) for s in sources]
    links: list[ClaimLink] = []
    for ci, claim in enumerate(claims):
        claim_words = content_words(claim.text)
        for si, source in enumerate(sources):
            base = dict(claim_id=str(claim.claim_id), source=source.identifier,
                        source_kind=source.kind, source_status=source.status)
            score = scores.get((ci, si))
            found = [t.text for t in source_terms[si] if _found(t, claim.text)]
            if found:
                reason = "mentions " + ", ".join(f"'{t}'" for t in found)
                links.append(ClaimLink(**base, kind=MENTION, reason=reason, similarity=score,
                                       terms=found))
            elif score is not None and score >= similarity_threshold:
                links.append(ClaimLink(**base, kind=SIMILARITY, similarity=score,
                                       reason=f"embedding similarity {score:.2f} ≥ "
                                              f"{similarity_threshold:.2f}"))
            elif score is not None and score >= topical_threshold:
                links.append(ClaimLink(**base, kind=TOPICAL, similarity=score,
                                       reason=f"{TOPICAL_PREFIX} (embedding similarity "
                                              f"{score:.2f} < {similarity_threshold:.2f})"))
            else:
                shared = sorted(claim_words & source_words[si])
                if len(shared) >= 2:
                    words = ", ".join(f"'{w}'" for w in shared)
                    links.append(ClaimLink(**base, kind=TOPICAL, similarity=score,
                                           reason=f"{TOPICAL_PREFIX} (shares only the words "
                                                  f"{words})", terms=shared))
    return links


def _similarities(claim_texts: list[str], source_texts: list[str],
                  encoder: Any) -> dict[tuple[int, int], float]:
    import numpy as np

    distinct: dict[str, int] = {}
    for text in claim_texts + source_texts:
        distinct.setdefault(text, len(distinct))
    import inspect

    shown = {"progress": None} if "progress" in inspect.signature(encoder.encode).parameters else {}
    vectors = np.asarray(encoder.encode(list(distinct), **shown), dtype=np.float64)  # progress on a terminal
    if vectors.ndim != 2 or vectors.shape[0] != len(distinct):
        raise ValueError(f"encoder returned shape {vectors.shape}, expected ({len(distinct)}, d)")
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = vectors / np.maximum(norms, 1e-12)
    out: dict[tuple[int, int], float] = {}
    for ci, ctext in enumerate(claim_texts):
        for si, stext in enumerate(source_texts):
            value = float(vectors[distinct[ctext]] @ vectors[distinct[stext]])
            out[(ci, si)] = round(value, 2) + 0.0
    return out


def load_default_encoder() -> Any:
    """The project's encoder (imported lazily: onnxruntime is only needed for similarity links)."""
    from engine.encoder.encode import EncoderConfig, load_encoder

    return load_encoder(EncoderConfig())
