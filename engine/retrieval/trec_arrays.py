"""Vectorised reading of large TREC run files into arrays (pandas' C parser), validated.

The fast path reads ``topic Q0 doc rank score tag`` rows with ``pandas.read_csv`` and checks in
bulk what :func:`engine.retrieval.trec.read_run` checks line by line: six fields, an integer
rank, a finite numeric score, no document listed twice for a topic, at least one row. Whenever
anything is wrong (or the file holds ``#`` comment lines), the file is read again with
:func:`engine.retrieval.trec.read_run`, which raises the one-line InputError naming FILE:LINE.
So errors are the same as the line reader's; only correct files take the fast path.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.retrieval.trec import read_run
from engine.runs.errors import InputError


@dataclass
class RunArrays:
    """One run as parallel arrays (file order): topic ids, document ids, scores."""

    topic: np.ndarray   # object (str)
    doc: np.ndarray     # object (str)
    score: np.ndarray   # float64


def read_run_arrays(path: str | Path) -> RunArrays:
    """A TREC run as arrays; any defect raises the line reader's InputError (FILE:LINE)."""
    import pandas as pd

    path = Path(path)
    try:
        frame = pd.read_csv(path, sep=r"\s+", header=None, dtype=str, engine="c", quoting=csv.QUOTE_NONE,
                            na_filter=False, skip_blank_lines=True, encoding="utf-8")
    except (pd.errors.ParserError, pd.errors.EmptyDataError, UnicodeDecodeError, ValueError, OSError):
        return _from_line_reader(path)
    if frame.shape[1] != 6 or frame.shape[0] == 0:
        return _from_line_reader(path)
    topic = frame[0].to_numpy(dtype=object)
    doc = frame[2].to_numpy(dtype=object)
    rank = frame[3].str.lstrip("-")
    if not rank.str.isdigit().all() or frame[0].str.startswith("#").any():
        return _from_line_reader(path)
    score = pd.to_numeric(frame[4], errors="coerce").to_numpy(dtype=np.float64)
    if not np.isfinite(score).all():
        return _from_line_reader(path)
    if pd.DataFrame({"t": topic, "d": doc}).duplicated().any():
        return _from_line_reader(path)
    return RunArrays(topic, doc, score)


def _from_line_reader(path: Path) -> RunArrays:
    run = read_run(path)          # raises the precise InputError for a defective file
    topics, docs, scores = [], [], []
    for topic, ranked in run.items():
        for doc, score in ranked:
            topics.append(topic)
            docs.append(doc)
            scores.append(score)
    if not topics:  # pragma: no cover - read_run already refuses an empty run
        raise InputError("run file holds no rows", path=path)
    return RunArrays(np.asarray(topics, dtype=object), np.asarray(docs, dtype=object),
                     np.asarray(scores, dtype=np.float64))
