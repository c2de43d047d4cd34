"""Evidence-unit texts from a corpus JSONL file (BEIR or sandbox fields).

A corpus line is one JSON object holding either BEIR fields (``_id``, ``title``, ``text``) or
sandbox fields (``doc_id``, ``title``, ``text``). The identifier may be a JSON string or an
integer (an integer is read as its decimal string, since TREC runs and qrels name documents by
text); ``text`` must be a string; ``title`` is optional (absent or ``null`` means empty).
A line holding both ``_id`` and ``doc_id`` with different values is ambiguous and rejected;
a duplicate identifier is rejected naming the second line.

Unit-text rule (:data:`UNIT_TEXT_RULE`, recorded in every budget manifest):

* title non-empty → ``title + "\\n" + text`` (one LF between them);
* title empty or absent → ``text`` alone (no leading LF is charged for a missing title).

The strings are used exactly as stored: no stripping, Unicode normalisation or whitespace
collapsing, because the budget is charged in codepoints of the exact raw unit text. "Empty"
means the empty string; a title of only spaces is kept as written.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from engine.runs.errors import InputError
from engine.runs.jsonl import document_id, read_jsonl

UNIT_TEXT_RULE = "title + LF + text when the title is non-empty, otherwise text alone; raw strings, no normalisation"
ID_FIELDS = ("_id", "doc_id")


def unit_text(title: str, text: str) -> str:
    """The unit text of one document under :data:`UNIT_TEXT_RULE`."""
    return f"{title}\n{text}" if title else text


def _identifier(record: dict, path: Path, line: int) -> str:
    """The record's id (:func:`engine.runs.jsonl.document_id`: ``_id``, ``doc_id`` or ``id`` alike)."""
    return document_id(record, path, line)[0]


def read_units(path: str | Path, *, wanted: Iterable[str] | None = None) -> dict[str, str]:
    """``{doc_id: unit text}`` for every document of a corpus JSONL file.

    Every line is validated (and identifiers checked for duplicates) even when ``wanted``
    restricts which unit texts are kept in memory.
    """
    path = Path(path)
    keep = set(wanted) if wanted is not None else None
    seen: dict[str, int] = {}
    units: dict[str, str] = {}
    for line, record in read_jsonl(path):
        doc = _identifier(record, path, line)
        if doc in seen:
            raise InputError(f"duplicate document id {doc!r} (first on line {seen[doc]})", path=path, line=line)
        seen[doc] = line
        text = record.get("text")
        if not isinstance(text, str):
            raise InputError("missing field 'text'" if text is None else "field 'text' must be a string",
                             path=path, line=line)
        title = record.get("title")
        if title is None:
            title = ""
        if not isinstance(title, str):
            raise InputError("field 'title' must be a string", path=path, line=line)
        if keep is None or doc in keep:
            units[doc] = unit_text(title, text)
    if not seen:
        raise InputError("corpus holds no documents", path=path)
    return units
