"""Person names in source metadata, pack descriptions and free-text citations (no network).

Conventions (docs/sources.md, "Names"):

* **Folding** (:func:`fold`): Unicode NFKD, combining marks removed, case-folded — so
  ``Järvelin`` and ``Jarvelin`` compare equal. Used for every name comparison.
* **Surname** of a full name (:func:`surname`): the last word once a trailing generational
  suffix (:data:`SUFFIXES`: Jr., Sr., II, III, IV, ...) and commas are set aside; at least three
  letters, capitalised; ``None`` for an organisation (a word in :data:`ORGANISATION_WORDS`).
  ``"Frederick P. Brooks Jr."`` → ``Brooks``.
* **Person names** among a claim row's cited names (:func:`person_names`): capitalised words
  with no inner capital (``Carbonell``, ``Järvelin``), not a stop word such as a contraction's
  stem (``Here``, ``Let``); acronyms and camel-case names (``MMR``, ``xQuAD``) are *terms*.
* **Free-text citations** (:func:`parse_citation`): the year is the first ``(19|20)YY`` (with an
  optional letter); the names are the capitalised words before it (initials, ``and``, ``et al.``
  skipped); the title is the first sentence after the year (up to ``. `` or the end). With no year,
  the names are those before a possessive or ``et al.``, and the title is what follows them.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

SUFFIXES = frozenset({"jr", "jr.", "jnr", "jnr.", "sr", "sr.", "snr", "ii", "iii", "iv", "v",
                      "2nd", "3rd"})
ORGANISATION_WORDS = frozenset({"consortium", "team", "group", "committee", "project", "lab",
                                "laboratory", "association", "initiative", "collaboration", "inc",
                                "ltd", "university", "institute", "foundation", "society", "the"})
NOT_NAMES = frozenset("""
Here Let What That There It Its This These Those Today Tomorrow Yesterday Everyone Nobody Someone
Anyone Chapter Part Section Figure Table Year Author Book Reader Model System Method Team World
Project Who Where When Why How He She We They You One Each Every
""".split())
PARTICLES = frozenset({"van", "von", "de", "der", "den", "del", "della", "da", "di", "du", "la",
                       "le", "dos", "das", "ten", "ter", "bin", "al"})
_WORD = re.compile(r"[^\W\d_][\w'’\-]*", re.UNICODE)
_YEAR = re.compile(r"\(?\b((?:19|20)\d\d)[a-z]?\b\)?")
_POSSESSIVE = re.compile(r"^(?P<names>.+?)(?:\s+et\s+al\.?)?\s*['’]s\b")
_ET_AL = re.compile(r"^(?P<names>.+?)\s+et\s+al\.?")


def fold(text: str) -> str:
    """Accent- and case-insensitive form of a name (NFKD, marks removed, casefold)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()


def is_suffix(word: str) -> bool:
    return word.strip(",").lower() in SUFFIXES


def surname(name: str) -> str | None:
    """The family name of a full name ("Given Family [Suffix]"), or None (see module docstring)."""
    words = [w for w in name.replace(",", " ").split() if w]
    if not words or any(w.lower().strip(".") in ORGANISATION_WORDS for w in words):
        return None
    while len(words) > 1 and is_suffix(words[-1]):
        words.pop()
    last = words[-1].strip(".")
    if len(last) >= 3 and last[0].isupper() and last.replace("-", "").replace("'", "").isalpha():
        return last
    return None


def name_tokens(name: str) -> set[str]:
    """Folded words of a full name (suffixes, initials and particles dropped): what a cited
    surname may match."""
    tokens = set()
    for word in name.replace(",", " ").split():
        bare = word.strip(".")
        if len(bare) < 2 or is_suffix(word) or bare.lower() in PARTICLES:
            continue
        tokens.add(fold(bare))
    return tokens


def is_person_name(word: str) -> bool:
    """A capitalised word with no inner capital and at least three letters (not a stop word)."""
    bare = word.strip(" .,;:'’\"()")
    if len(bare) < 3 or bare in NOT_NAMES or not bare[0].isupper():
        return False
    if any(c.isupper() for c in bare[1:]) or any(c.isdigit() for c in bare):
        return False
    return bare.replace("-", "").replace("'", "").isalpha()


def person_names(cited: list[str]) -> list[str]:
    """Person surnames among cited names (each cited name may be "A and B" or "A et al.")."""
    out: list[str] = []
    for item in cited:
        for word in re.split(r"\s+(?:and|&)\s+|\s+et\s+al\.?|\s+", str(item)):
            if word and is_person_name(word) and word.strip(".") not in out:
                out.append(word.strip(" .,;:'’\"()"))
    return out


def terms(cited: list[str]) -> list[str]:
    """Cited names that are not person names (acronyms, camel case: ``MMR``, ``xQuAD``)."""
    out: list[str] = []
    for item in cited:
        word = str(item).strip()
        if (" " not in word and not is_person_name(word) and len(word) >= 2 and word not in out
                and not word.startswith("[")):  # a numbered reference marker ("[12]") is no search term
            out.append(word)
    return out


def _capitalised_names(text: str) -> list[str]:
    names: list[str] = []
    for word in _WORD.findall(text):
        bare = word[:-2] if word.endswith(("'s", "’s")) else word
        if bare.lower() in ("and", "et", "al", "eds", "ed") or bare.lower() in PARTICLES:
            continue
        if is_person_name(bare) and bare not in names:
            names.append(bare)
    return names


@dataclass(frozen=True)
class Citation:
    """What :func:`parse_citation` read from a free-text citation."""

    names: list[str] = field(default_factory=list)
    year: str | None = None
    title: str | None = None

    @property
    def searchable(self) -> bool:
        """Enough to search for: a name with a year or a title, or a title of three or more words."""
        return bool((self.names and (self.year or self.title))
                    or (self.title and len(self.title.split()) >= 3))


def parse_citation(text: str) -> Citation:
    """Names, year and title of a free-text citation (see the module docstring for the rules)."""
    text = " ".join(text.split())
    year_match = _YEAR.search(text)
    if year_match:
        before, after = text[:year_match.start()], text[year_match.end():]
        names = _capitalised_names(before)
        rest = after.lstrip(" .,;:)")
        title = re.split(r"(?<=[^A-Z])\.\s", rest, maxsplit=1)[0].strip(" .") if rest else ""
        return Citation(names, year_match.group(1), title or None)
    head = re.split(r"\s*;\s*", text, maxsplit=1)[0]
    match = _POSSESSIVE.match(head) or _ET_AL.match(head)
    if match:
        names = _capitalised_names(match.group("names"))
        title = head[match.end():].strip(" .,:")
        return Citation(names, None, title or None)
    return Citation([], None, head.strip(" .") or None)
