"""TREC qrels and run files: reading with line-numbered errors, writing with fixed precision.

Formats (whitespace separated):

* qrels: ``topic_id iteration doc_id grade`` (grade may be non-integer, e.g. ``1.5``);
* run:   ``topic_id Q0 doc_id rank score tag``.

Run rows are re-ordered on reading by score descending, then doc_id ascending (the tie rule
used everywhere, :func:`engine.retrieval.ranking.order_by_score`); the file's own rank column is kept
only as a check that it is an integer.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO

from engine.runs.errors import InputError
from engine.runs.jsonl import parse_number, read_text_file
from engine.retrieval.ranking import SCORE_DECIMALS, order_by_score

Qrels = dict[str, dict[str, float]]   # topic -> doc -> grade
Run = dict[str, list[tuple[str, float]]]  # topic -> [(doc, score)] best first


def _lines(path: Path) -> Iterable[tuple[int, list[str]]]:
    text = read_text_file(path)
    for number, line in enumerate(text.splitlines(), start=1):
        if line.strip() and not line.lstrip().startswith("#"):
            yield number, line.split()


def read_qrels(path: str | Path, *, topics: Iterable[str] | None = None,
               docs: Iterable[str] | None = None) -> Qrels:
    """Read graded qrels; unknown topics/documents (when sets are given) are errors.

    Duplicate ``(topic, doc)`` pairs are an error: a judgment is stated once.
    """
    path = Path(path)
    known_topics = set(topics) if topics is not None else None
    known_docs = set(docs) if docs is not None else None
    qrels: Qrels = {}
    for number, fields in _lines(path):
        if len(fields) != 4:
            raise InputError(f"qrels row needs 4 fields (topic iteration doc grade), got {len(fields)}",
                             path=path, line=number)
        topic, _, doc, grade_text = fields
        grade = parse_number(grade_text, "grade", path, number)
        if known_topics is not None and topic not in known_topics:
            raise InputError(f"qrels names unknown topic {topic!r}", path=path, line=number)
        if known_docs is not None and doc not in known_docs:
            raise InputError(f"qrels names unknown document {doc!r}", path=path, line=number)
        if doc in qrels.get(topic, {}):
            raise InputError(f"duplicate judgment for topic {topic!r} document {doc!r}", path=path, line=number)
        qrels.setdefault(topic, {})[doc] = grade
    if not qrels:
        raise InputError("qrels file holds no judgments", path=path)
    return qrels


def read_run(path: str | Path, *, topics: Iterable[str] | None = None,
             docs: Iterable[str] | None = None, tags: dict[str, None] | None = None) -> Run:
    """Read a TREC run into best-first lists per topic (score desc, doc_id asc); the distinct run
    tags (column 6) are added to ``tags`` when it is given."""
    path = Path(path)
    known_topics = set(topics) if topics is not None else None
    known_docs = set(docs) if docs is not None else None
    scores: dict[str, dict[str, float]] = {}
    for number, fields in _lines(path):
        if len(fields) != 6:
            raise InputError(f"run row needs 6 fields (topic Q0 doc rank score tag), got {len(fields)}",
                             path=path, line=number)
        topic, _, doc, rank_text, score_text, tag = fields
        if tags is not None:
            tags.setdefault(tag, None)
        if not rank_text.lstrip("-").isdigit():
            raise InputError(f"non-integer rank {rank_text!r}", path=path, line=number)
        score = parse_number(score_text, "score", path, number)
        if known_topics is not None and topic not in known_topics:
            raise InputError(f"run names unknown topic {topic!r}", path=path, line=number)
        if known_docs is not None and doc not in known_docs:
            raise InputError(f"run names unknown document {doc!r}", path=path, line=number)
        if doc in scores.get(topic, {}):
            raise InputError(f"document {doc!r} listed twice for topic {topic!r}", path=path, line=number)
        scores.setdefault(topic, {})[doc] = score
    if not scores:
        raise InputError("run file holds no rows", path=path)
    return {topic: order_by_score(doc_scores) for topic, doc_scores in scores.items()}


def format_run(run: Mapping[str, list[tuple[str, float]]], tag: str,
               topic_order: Iterable[str] | None = None) -> str:
    """TREC run text, scores with :data:`SCORE_DECIMALS` decimals, ranks from 1."""
    buffer = io.StringIO()
    write_run(buffer, run, tag, topic_order)
    return buffer.getvalue()


def write_run(handle: IO[str], run: Mapping[str, list[tuple[str, float]]], tag: str,
              topic_order: Iterable[str] | None = None) -> None:
    """Write :func:`format_run`'s text to an open file, one topic at a time (bounded memory)."""
    for topic in (topic_order if topic_order is not None else sorted(run)):
        ranked = run.get(topic, [])
        if ranked:
            handle.write("".join(f"{topic} Q0 {doc} {rank} {score:.{SCORE_DECIMALS}f} {tag}\n"
                                 for rank, (doc, score) in enumerate(ranked, start=1)))
