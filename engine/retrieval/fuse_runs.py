"""``evaluate --fuse``: fuse the given TREC runs into one more run, evaluated beside them.

The methods and their conventions are :mod:`engine.retrieval.fusion`'s (and ranx's ``fuse``):
``rrf`` = Σ over runs of ``1 / (k + rank)`` (Cormack et al. 2009), ranks from 1 in each run's
own order (score as read descending, then document id ascending: ``--ties ours``), ``k`` from
``--rrf-k`` (default 60); ``combsum`` = Σ of per-topic min–max normalised scores (a topic whose
scores are all equal normalises to 0); ``combmnz`` = CombSUM × the number of runs that list the
document (Fox & Shaw 1994). A document absent from a run adds nothing from it. Topics are the
union of the runs' topics. Vectorised with pandas (one ``groupby`` per step).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from engine.retrieval.fusion import DEFAULT_RRF_K, FUSION_METHODS
from engine.retrieval.ranking import within_topic_ranks
from engine.retrieval.trec_arrays import RunArrays

FUSED_METHODS = FUSION_METHODS[1:]      # rrf, combsum, combmnz (minmax needs a weight per run)


def fuse_runs(runs: Sequence[RunArrays], method: str, rrf_k: int = DEFAULT_RRF_K) -> RunArrays:
    """One run fusing ``runs`` by ``method`` (``rrf``, ``combsum`` or ``combmnz``)."""
    import pandas as pd

    if method not in FUSED_METHODS:
        raise ValueError(f"unknown fusion method {method!r}")
    frames = []
    for run in runs:
        topic = np.asarray(run.topics, dtype=object)[run.topic_code]
        doc = np.asarray(run.docs, dtype=object)[run.doc_code]
        if method == "rrf":
            rank = within_topic_ranks(run.topic_code, run.score, run.doc_code)
            value = 1.0 / (rrf_k + rank.astype(np.float64))
        else:
            scores = pd.Series(run.score)
            by_topic = scores.groupby(run.topic_code)
            low, high = by_topic.transform("min").to_numpy(), by_topic.transform("max").to_numpy()
            span = high - low
            value = np.zeros(run.score.size, dtype=np.float64)
            np.divide(run.score - low, span, out=value, where=span > 0)
        frames.append(pd.DataFrame({"topic": topic, "doc": doc, "value": value}))
    joined = pd.concat(frames, ignore_index=True)
    grouped = joined.groupby(["topic", "doc"], sort=False)["value"]
    fused = grouped.sum()
    if method == "combmnz":
        fused = fused * grouped.size()
    topics = fused.index.get_level_values(0).tolist()
    docs = fused.index.get_level_values(1).tolist()
    return RunArrays.from_rows(topics, docs, fused.to_numpy(dtype=np.float64).tolist())
