"""Run-in labels: is a short lead (a bold ``**Symptom.**``, or its flattened ``Symptom.``) a label
of the sentence after it or a sentence of its own?

Label convention (c) (tests/data/corpus/manifest.json, REVIEW.md): a bold run-in label ending in a
period or colon, glued to the sentence after it in the same paragraph, is part of that sentence;
a bold full sentence (with its verb) stays a sentence of its own. :func:`reads_as_sentence` is
that verb test; :mod:`audit.document` applies it to bold runs and :mod:`audit.flattened` to the
first fragment of a flattened line, where the bold is lost.
"""

from __future__ import annotations

import re

FINITE_VERBS = frozenset("""
is are was were am isn't aren't wasn't weren't has have had hasn't haven't does did don't doesn't didn't
can could will would shall should may might must can't won't needs needed takes took makes made gets got
worked showed helps helped gives gave keeps kept becomes became seems seemed stays stayed won
requires required uses reaches reached achieves achieved improves improved reduces reduced increases
increased outperforms outperformed beats dropped falls fell rises rose grows grew saves saved fits loses
lost scaled matched fails failed
""".split())
SUBJECT_PRONOUNS = frozenset("it this that we i they he she you there these those".split())


def reads_as_sentence(label: str) -> bool:
    """A bold run with a finite verb (``It was hard.``, ``The vectors need 128 MB.``) is a full
    sentence; one without (``Symptom.``, ``Red herring — the transformers version.``,
    ``Designing AI Systems: Composition Frameworks and Strategies.``) is a run-in label
    (label convention (c), tests/data/corpus/REVIEW.md); so is one of more than five words with no
    colon or dash in it (``With binary quantization, those vectors only require 128 MB.``)."""
    words = re.findall(r"[A-Za-z']+", label.lower())
    return (any(w in FINITE_VERBS for w in words)
            or (len(words) >= 2 and words[0] in SUBJECT_PRONOUNS)
            or (len(label.split()) > 5 and not re.search(r"[:—–]|\s-\s", label)))  # a long clause, no title
