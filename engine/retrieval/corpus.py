"""Readers for the sandbox inputs: corpus JSONL, topics JSONL and the supplied-run metadata.

Every defect is an :class:`engine.runs.errors.InputError` naming ``FILE:LINE`` (one line, exit 2),
raised before any computation. Formats (docs/sandbox.md, "Inputs"):

* corpus: one JSON object a line naming its document by ``doc_id``, BEIR's ``_id`` or ``id``
  alike (:func:`engine.runs.jsonl.document_id`: a string or an integer, non-empty, without
  whitespace, unique); a sandbox record (``doc_id``) has string fields ``title``, ``text``,
  ``source_type`` and ``license``; a BEIR record (``_id`` or ``id``) needs ``text``, and
  ``title`` (absent: empty), ``source_type`` and ``license`` (absent: ``""``) are optional;
  at least one record; a ``.gz`` corpus is read decompressed;
* topics: one JSON object a line with string fields ``topic_id`` (unique, no whitespace) and
  ``query``; the query must yield at least one token under :mod:`engine.retrieval.text`;
* supplied-run metadata: a JSON object; ``model_identity`` (optional) names the run when it is
  a non-empty string other than ``"none"``, otherwise the run is the "supplied opaque run".
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.runs.errors import InputError
from engine.runs.jsonl import document_id, read_json_file, read_jsonl, require_fields
from engine.runs.progress import tracked
from engine.retrieval.index import CHUNK_TOKENS, IndexBuilder, InvertedIndex
from engine.retrieval.text import document_text, tokenize

CORPUS_FIELDS = ("doc_id", "title", "text", "source_type", "license")
TOPIC_FIELDS = ("topic_id", "query")
SUPPLIED_RUN_LABEL = "supplied opaque run"


@dataclass(frozen=True)
class Document:
    doc_id: str
    title: str
    text: str
    source_type: str
    license: str
    line: int

    @property
    def tokens(self) -> list[str]:
        """Tokens of ``title + " " + text``."""
        return tokenize(document_text(self.title, self.text))


@dataclass(frozen=True)
class Topic:
    topic_id: str
    query: str
    line: int

    @property
    def tokens(self) -> list[str]:
        return tokenize(self.query)


def _identifier(value: str, name: str, path: Path, line: int) -> str:
    if not value or any(ch.isspace() for ch in value):
        raise InputError(f"field {name!r} must be non-empty and contain no whitespace, got {value!r}",
                         path=path, line=line)
    return value


def iter_corpus(path: str | Path) -> Iterator[Document]:
    """Corpus records in file order, one at a time; duplicate ``doc_id`` and an empty file are errors."""
    path = Path(path)
    seen: dict[str, int] = {}
    for line, record in read_jsonl(path):
        doc_id, id_field = document_id(record, path, line)
        if id_field == "doc_id":
            require_fields(record, CORPUS_FIELDS, path, line, kinds={f: str for f in CORPUS_FIELDS})
        else:  # BEIR: text required, the rest optional
            require_fields(record, ("text",), path, line, kinds={"text": str})
            for name in ("title", "source_type", "license"):
                if record.get(name) is not None and not isinstance(record[name], str):
                    raise InputError(f"field {name!r} must be str", path=path, line=line)
        if doc_id in seen:
            raise InputError(f"duplicate doc_id {doc_id!r} (first on line {seen[doc_id]})", path=path, line=line)
        seen[doc_id] = line
        yield Document(doc_id, record.get("title") or "", record["text"], record.get("source_type") or "",
                       record.get("license") or "", line)
    if not seen:
        raise InputError("corpus holds no documents (expected a record here)", path=path, line=1)


def read_corpus(path: str | Path) -> list[Document]:
    """Corpus records in file order; duplicate ``doc_id`` and an empty file are errors."""
    return list(iter_corpus(path))


def read_corpus_index(path: str | Path, *, batch_tokens: int = CHUNK_TOKENS) -> InvertedIndex:
    """The inverted index of a corpus, validated as :func:`read_corpus`, read as a stream.

    Documents are tokenised as they are read and handed to an
    :class:`engine.retrieval.index.IndexBuilder` in batches of about ``batch_tokens`` tokens;
    a batch's token lists are dropped once it is indexed, so neither the texts nor every
    document's tokens are ever held at once (the index equals :func:`build_index` of the whole
    corpus, tested).
    """
    builder = IndexBuilder(batch_tokens)
    batch_ids: list[str] = []
    batch_tokens_lists: list[list[str]] = []
    # equal tokens share one string: a batch then costs ~8 bytes a token instead of a string
    # object per occurrence (measured: peak 252 against 314 MiB at 100k documents)
    shared: dict[str, str] = {}
    share = shared.setdefault
    pending = 0
    for document in tracked(iter_corpus(path), f"indexing {Path(path).name}", unit="documents"):
        tokens = [share(token, token) for token in tokenize(document_text(document.title, document.text))]
        batch_ids.append(document.doc_id)
        batch_tokens_lists.append(tokens)
        pending += len(tokens)
        if pending >= batch_tokens:
            builder.add(batch_ids, batch_tokens_lists)
            batch_ids, batch_tokens_lists, pending = [], [], 0
    builder.add(batch_ids, batch_tokens_lists)
    return builder.finish()


def read_topics(path: str | Path) -> list[Topic]:
    """Topics in file order; duplicate ``topic_id`` or a query without tokens is an error."""
    path = Path(path)
    topics: list[Topic] = []
    seen: dict[str, int] = {}
    for line, record in read_jsonl(path):
        require_fields(record, TOPIC_FIELDS, path, line, kinds={f: str for f in TOPIC_FIELDS})
        topic_id = _identifier(record["topic_id"], "topic_id", path, line)
        if topic_id in seen:
            raise InputError(f"duplicate topic_id {topic_id!r} (first on line {seen[topic_id]})",
                             path=path, line=line)
        seen[topic_id] = line
        topic = Topic(topic_id, record["query"], line)
        if not topic.tokens:
            raise InputError(f"topic {topic_id!r} has a query with no tokens", path=path, line=line)
        topics.append(topic)
    if not topics:
        raise InputError("topics file holds no topics (expected a record here)", path=path, line=1)
    return topics


def read_metadata(path: str | Path) -> dict[str, Any]:
    """The supplied run's metadata: must be one JSON object."""
    path = Path(path)
    value = read_json_file(path)
    if not isinstance(value, dict):
        raise InputError(f"metadata must be a JSON object, got {type(value).__name__}", path=path, line=1)
    return value


def supplied_run_label(metadata: dict[str, Any]) -> str:
    """The run's display name: its ``model_identity`` if declared, else "supplied opaque run"."""
    identity = metadata.get("model_identity")
    if isinstance(identity, str) and identity.strip() and identity.strip().lower() != "none":
        return identity.strip()
    return SUPPLIED_RUN_LABEL
