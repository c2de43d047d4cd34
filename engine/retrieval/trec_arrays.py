"""Large TREC run files as integer-coded arrays, read in bounded chunks and validated in bulk.

A run of 10,000 topics × 1,000 documents is ten million rows; held as Python strings that is
two objects a row (over a gigabyte) and hashing them dominates evaluation. So a run is kept as
codes: ``topic_code`` indexes the run's distinct topic ids, ``doc_code`` its distinct document
ids, which are numbered in code-point order (the order of Python's ``str`` comparison, and of
``strcmp`` on UTF-8 bytes), so that comparing codes compares ids, as the tie rules need.

:func:`read_run_arrays` reads ``topic Q0 doc rank score tag`` rows with pandas' C parser,
``CHUNK_ROWS`` rows at a time (peak memory follows the chunk, not the file), and checks in bulk
what :func:`engine.retrieval.trec.read_run` checks line by line: six fields, an integer rank,
a finite numeric score, no document listed twice for a topic, at least one row. A file the
fast path cannot vouch for is read again with :func:`engine.retrieval.trec.read_run`, which
accepts exactly what it accepts and raises the one-line InputError naming FILE:LINE; so both
paths agree on every file, and only the speed differs. The fast path declines a file that

* has a defect of any kind listed above (the line reader then names the line);
* holds ``#`` comment lines, a byte-order mark, NUL bytes, or ASCII control characters that
  Python's ``str.split``/``splitlines`` treat as whitespace or line breaks but the C parser
  does not (``\\x0b \\x0c \\x1c-\\x1f``);
* holds non-ASCII text in which a field contains a Unicode space (again a split difference).

A gzip file is read decompressed by both paths (:func:`engine.runs.opener.open_binary`).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from engine.retrieval.ranking import id_order_ranks
from engine.retrieval.trec import read_run
from engine.runs.errors import InputError
from engine.runs.jsonl import require_regular_file
from engine.runs.progress import counted
from engine.runs.opener import open_binary

CHUNK_ROWS = 1_000_000
_SCAN_BYTES = 1 << 24
_UNICODE_SPACE = re.compile(r"\s")
# bytes after which the fast path cannot promise the line reader's field and line splitting
_DECLINED_BYTES = tuple(bytes([b]) for b in (0x00, 0x0B, 0x0C, 0x1C, 0x1D, 0x1E, 0x1F))


@dataclass
class RunArrays:
    """One run as parallel arrays in file order, ids coded as integers.

    ``topics[topic_code[i]]`` and ``docs[doc_code[i]]`` are row i's ids; ``topics`` is in order
    of first appearance, ``docs`` in code-point order (so ``doc_code`` orders rows by id).
    """

    topic_code: np.ndarray  # int64
    topics: list[str]
    doc_code: np.ndarray    # int64
    docs: list[str]
    score: np.ndarray       # float64
    tags: list[str] = field(default_factory=list)   # the distinct run tags (column 6), first seen first

    def __len__(self) -> int:
        return int(self.score.size)

    @classmethod
    def from_rows(cls, topics: Iterable[str], docs: Iterable[str], scores: Iterable[float]) -> "RunArrays":
        """Code parallel sequences of topic ids, document ids and scores (no validation)."""
        import pandas as pd

        topic_code, topic_ids = pd.factorize(np.asarray(list(topics), dtype=object), sort=False)
        doc_code, doc_ids = sorted_codes(np.asarray(list(docs), dtype=object))
        return cls(topic_code.astype(np.int64), [str(t) for t in topic_ids], doc_code, doc_ids,
                   np.asarray(list(scores), dtype=np.float64))


def sorted_codes(values: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """Codes of ``values`` in ascending code-point order of the distinct strings, and those strings."""
    import pandas as pd

    codes, uniques = pd.factorize(values, sort=False)
    recode, distinct = code_point_order(uniques.tolist())
    return recode[codes], distinct


def code_point_order(distinct: list[str]) -> tuple[np.ndarray, list[str]]:
    """For distinct strings: ``rank[i]`` = position of ``distinct[i]`` in code-point order
    (:func:`engine.retrieval.ranking.id_order_ranks`), and the sorted strings."""
    rank = id_order_ranks(distinct)
    ordered: list[str] = [""] * len(distinct)
    for value, place in zip(distinct, rank.tolist()):
        ordered[place] = value
    return rank, ordered


class _Declined(Exception):
    """The fast path cannot vouch for this file; the line reader decides."""


def read_run_arrays(path: str | Path, *, chunk_rows: int = CHUNK_ROWS) -> RunArrays:
    """A TREC run as coded arrays; any defect raises the line reader's InputError (FILE:LINE)."""
    path = Path(path)
    require_regular_file(path)
    try:
        non_ascii = _scan_bytes(path)
        return _read_chunks(path, chunk_rows, non_ascii)
    except _Declined:
        return _from_line_reader(path)


def _scan_bytes(path: Path) -> bool:
    """Decline files with bytes the two readers split differently; True when non-ASCII is present."""
    non_ascii = False
    try:
        with open_binary(path) as handle:
            first = True
            while block := handle.read(_SCAN_BYTES):
                if (first and block.startswith(b"\xef\xbb\xbf")) or any(byte in block for byte in _DECLINED_BYTES):
                    raise _Declined
                first = False
                non_ascii = non_ascii or not block.isascii()
    except (OSError, InputError):
        raise _Declined
    return non_ascii


class _Coder:
    """Integer codes for ids met chunk by chunk: each chunk is hashed on its own, and the chunks'
    distinct values once more at the end (no Python loop over ids)."""

    def __init__(self) -> None:
        self.codes: list[np.ndarray] = []
        self.uniques: list[np.ndarray] = []

    def add(self, values: np.ndarray) -> None:
        import pandas as pd

        codes, uniques = pd.factorize(values, sort=False)
        self.codes.append(codes)
        self.uniques.append(np.asarray(uniques, dtype=object))

    def add_runs(self, values: np.ndarray) -> None:
        """As :meth:`add`, hashing one value per run of equal neighbours (topics come in runs)."""
        heads = np.flatnonzero(np.concatenate(([True], values[1:] != values[:-1])))
        self.add(values[heads])
        self.codes[-1] = np.repeat(self.codes[-1], np.diff(np.append(heads, values.size)))

    def finish(self) -> tuple[np.ndarray, list[str]]:
        """Codes of every row (file order) and the distinct ids (first-appearance order)."""
        import pandas as pd

        merged, distinct = pd.factorize(np.concatenate(self.uniques), sort=False)
        parts, offset = [], 0
        for codes, uniques in zip(self.codes, self.uniques):
            parts.append(merged[offset:offset + uniques.size][codes])
            offset += uniques.size
        return np.concatenate(parts).astype(np.int64, copy=False), np.asarray(distinct, dtype=object).tolist()


def _read_chunks(path: Path, chunk_rows: int, non_ascii: bool) -> RunArrays:
    import pandas as pd

    def check_ids(values: list[str], topic: bool = False) -> None:
        for value in values:
            if not isinstance(value, str) or not value or (topic and value.startswith("#")):
                raise _Declined
            if non_ascii and _UNICODE_SPACE.search(value):
                raise _Declined

    topics, docs = _Coder(), _Coder()
    score_parts = []
    seen_ranks: set[str] = set()
    seen_tags: dict[str, None] = {}
    dtypes = {0: object, 1: object, 2: object, 3: object, 4: np.float64, 5: object}
    # scores must be the doubles Python's float() gives (the line reader's): pandas 3 parses
    # correctly rounded by default (and deprecates the option); pandas 2 needs "round_trip"
    precision = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
    try:
        source = open_binary(path)
        reader = pd.read_csv(source, sep=r"\s+", header=None, dtype=dtypes, engine="c", quoting=csv.QUOTE_NONE,
                             na_filter=False, skip_blank_lines=True, encoding="utf-8", chunksize=chunk_rows,
                             **precision)
        with source, reader:
            for frame in counted(reader, f"reading {path.name}", unit="rows"):
                if frame.shape[1] != 6:
                    raise _Declined
                score = frame[4].to_numpy(dtype=np.float64)
                if not np.isfinite(score).all():
                    raise _Declined
                tags = frame[5].to_numpy()
                if (tags == "").any():                  # a row with five fields
                    raise _Declined
                if non_ascii:                           # a Unicode space inside a field
                    check_ids(pd.unique(frame[1].to_numpy()).tolist())
                    check_ids(pd.unique(tags).tolist())
                for tag in pd.unique(tags).tolist():
                    if tag not in seen_tags:
                        seen_tags[tag] = None
                fresh = [rank for rank in pd.unique(frame[3].to_numpy()).tolist() if rank not in seen_ranks]
                check_ids(fresh)
                if not all(rank.lstrip("-").isdigit() for rank in fresh):
                    raise _Declined
                seen_ranks.update(fresh)
                topics.add_runs(frame[0].to_numpy())
                docs.add(frame[2].to_numpy())
                score_parts.append(score)
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError, ValueError, OSError, InputError):
        raise _Declined
    if not score_parts:
        raise _Declined
    topic_code, topic_ids = topics.finish()
    check_ids(topic_ids, topic=True)
    doc_code, doc_ids = docs.finish()
    check_ids(doc_ids)
    rank, sorted_docs = code_point_order(doc_ids)
    doc_code = rank[doc_code]
    if _has_duplicates(topic_code, doc_code, len(sorted_docs)):
        raise _Declined
    return RunArrays(topic_code, topic_ids, doc_code, sorted_docs, np.concatenate(score_parts), list(seen_tags))


def _has_duplicates(topic_code: np.ndarray, doc_code: np.ndarray, n_docs: int) -> bool:
    """True when a (topic, document) pair occurs twice (sorting the keys beats hashing them)."""
    keys = np.sort(topic_code * max(n_docs, 1) + doc_code)
    return bool((keys[1:] == keys[:-1]).any())


def _from_line_reader(path: Path) -> RunArrays:
    tags: dict[str, None] = {}
    run = read_run(path, tags=tags)   # raises the precise InputError for a defective file
    topics, docs, scores = [], [], []
    for topic, ranked in run.items():
        for doc, score in ranked:
            topics.append(topic)
            docs.append(doc)
            scores.append(score)
    if not topics:  # pragma: no cover - read_run already refuses an empty run
        raise InputError("run file holds no rows", path=path)
    arrays = RunArrays.from_rows(topics, docs, scores)
    arrays.tags = list(tags)
    return arrays
