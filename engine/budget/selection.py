"""Budgeted evidence selection: the Count, Characters and MMR selectors and their accounting.

Every selector receives the same candidates of one query, already ordered (original one-based
rank ``r``, 1 = best), and the same unit texts; only the rule that turns the order into a
packet differs.

Accounting (one convention for all three selectors):

* the cost of a packet is the sum of ``len(unit)`` (Unicode codepoints of the exact raw unit
  text) plus ``len(separator)`` between consecutive selected units (default two LF = 2);
  an empty packet costs 0;
* units are whole: never clipped, shortened or replaced by a substitute;
* a unit is *feasible* when ``cost + (len(separator) if the packet is non-empty else 0)
  + len(unit) <= char_cap``.

Selectors:

* **Count** — the first ``unit_cap`` candidates in rank order; no content cap (its packet
  characters are still measured with the same accounting and may exceed ``char_cap``).
* **Characters** — scan in rank order, take each unit that is feasible, skip one that is
  not and continue down the order; stop at ``unit_cap``.
* **MMR** — the specific greedy variant of Maximal Marginal Relevance (Carbonell & Goldstein
  1998, "The use of MMR, diversity-based reranking for reordering documents and producing
  summaries", SIGIR, doi:10.1145/290941.291025): repeatedly choose, among feasible unselected
  units, the one with the highest ``relevance_weight / r - redundancy_weight * redundancy``,
  where ``r`` is the original rank (never renumbered when others are removed) and
  ``redundancy`` is 0 before anything is selected, otherwise the maximum over selected units
  of ``max(0, cosine)`` between L2-normalised vectors. Stop at ``unit_cap`` or when nothing
  is feasible. The relevance term uses the rank, not a score.

Tie rule: an exact tie of MMR marginals (bit-for-bit equal float64) is broken by the complete
document reference, ascending string order (Python ``str`` comparison, i.e. by codepoint).
Count and Characters cannot tie: they follow the rank order.

Implementation: the selectors work on batches of queries at once (2-D arrays of lengths,
3-D arrays of vectors, one row per query, columns in rank order). MMR needs similarities
only against units actually selected, so it computes one batched matrix-vector product per
selection step (``unit_cap - 1`` of them) and keeps the running maximum redundancy, instead
of the full depth x depth cosine matrix. The per-query functions (:func:`select`) call the
same batch code with one row, so there is a single implementation.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from engine.runs.errors import InputError

SELECTORS = ("count", "characters", "mmr")
LABELS = {"count": "Count", "characters": "Characters", "mmr": "MMR"}
CAPPED = {"count": False, "characters": True, "mmr": True}

#: Reasons a candidate is not in the packet (see :func:`loss_reason`).
NEVER_FITS, ALLOWANCE, UNIT_CAP = "never_fits", "allowance", "unit_cap"


@dataclass(frozen=True)
class BudgetParams:
    """The declared constants of the chapter's selectors (all recorded in the manifest)."""

    unit_cap: int = 3
    char_cap: int = 1200
    separator: str = "\n\n"
    relevance_weight: float = 0.7
    redundancy_weight: float = 0.3

    @property
    def separator_length(self) -> int:
        return len(self.separator)

    def validate(self) -> None:
        """InputError naming the first invalid parameter."""
        if isinstance(self.unit_cap, bool) or not isinstance(self.unit_cap, int) or self.unit_cap < 1:
            raise InputError(f"unit cap must be an integer >= 1, got {self.unit_cap!r}", field="unit_cap")
        if isinstance(self.char_cap, bool) or not isinstance(self.char_cap, int) or self.char_cap <= 0:
            raise InputError(f"character cap must be an integer > 0, got {self.char_cap!r}", field="char_cap")
        if self.char_cap < self.separator_length:
            raise InputError(f"character cap {self.char_cap} is smaller than the separator "
                             f"({self.separator_length} characters)", field="char_cap")
        for name in ("relevance_weight", "redundancy_weight"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                    or value < 0:
                raise InputError(f"{name.replace('_', ' ')} must be a finite number >= 0, got {value!r}",
                                 field=name)

    def as_dict(self) -> dict[str, Any]:
        return {"unit_cap": self.unit_cap, "char_cap": self.char_cap, "separator": self.separator,
                "relevance_weight": float(self.relevance_weight),
                "redundancy_weight": float(self.redundancy_weight)}


@dataclass(frozen=True)
class Candidate:
    """One candidate unit of a query: document reference, original one-based rank, codepoints."""

    doc: str
    rank: int
    length: int


# ----------------------------------------------------------------------------------------------
# accounting


def packet_cost(lengths: Sequence[int], separator_length: int = 2) -> int:
    """Cost of a packet: unit codepoints plus one separator between consecutive units (0 if empty)."""
    lengths = list(lengths)
    return sum(lengths) + separator_length * max(0, len(lengths) - 1)


def cumulative_costs(lengths: Sequence[int], separator_length: int = 2) -> list[int]:
    """Packet cost after each selected unit, separators included."""
    out, total = [], 0
    for position, length in enumerate(lengths):
        total += length + (separator_length if position else 0)
        out.append(total)
    return out


def fits(cost: int, units: int, length: int, params: BudgetParams) -> bool:
    """Whether a whole unit of ``length`` codepoints fits a packet of ``units`` units costing ``cost``."""
    return cost + (params.separator_length if units else 0) + length <= params.char_cap


def loss_reason(selector: str, candidate: Candidate, packet: Sequence[Candidate],
                params: BudgetParams) -> tuple[str, int | None]:
    """Why an unselected candidate is absent from a selector's final packet, and the room left.

    Returns ``(reason, room)`` where ``room`` is the allowance that was left for the unit (after
    the separator, never below 0) when the selector last examined it (``None`` unless the reason is
    :data:`ALLOWANCE`):

    * :data:`NEVER_FITS` — a content-capped selector and ``length > char_cap``: no order and
      no selector could admit it as a whole unit;
    * :data:`ALLOWANCE` — when last examined, the remaining allowance was too small. Characters
      examines each unit once in rank order until the unit cap is reached, so this holds when
      the packet is not full or the unit ranks above the last selected unit. MMR examines every
      unselected unit in each round; the last round is the one that made the final pick (or
      found nothing feasible, when the packet is not full);
    * :data:`UNIT_CAP` — otherwise: the unit still fitted (or was never reached) when the unit
      cap was filled. Count has no content cap, so every Count loss is of this kind.
    """
    if selector == "count":
        return UNIT_CAP, None
    sep = params.separator_length
    if candidate.length > params.char_cap:
        return NEVER_FITS, None
    full = len(packet) >= params.unit_cap
    if selector == "characters":
        if full and candidate.rank > packet[-1].rank:
            return UNIT_CAP, None
        before = [c.length for c in packet if c.rank < candidate.rank]
    elif selector == "mmr":
        before = [c.length for c in (packet[:-1] if full else packet)]
        if fits(packet_cost(before, sep), len(before), candidate.length, params):
            return UNIT_CAP, None
    else:
        raise ValueError(f"unknown selector {selector!r}")
    room = params.char_cap - packet_cost(before, sep) - (sep if before else 0)
    return ALLOWANCE, max(0, room)


# ----------------------------------------------------------------------------------------------
# batch selection (rows = queries, columns = candidates in rank order, padded at the end)


def _empty_picks(rows: int, params: BudgetParams, depth: int) -> np.ndarray:
    """``-1`` everywhere, one column per unit a packet can hold: never more than ``unit_cap``
    and never more than the ``depth`` candidates (so a unit cap of 10^12 allocates nothing)."""
    return np.full((rows, min(params.unit_cap, depth)), -1, dtype=np.int64)


def batch_count(lengths: np.ndarray, valid: np.ndarray, params: BudgetParams) -> np.ndarray:
    """Column indices of the Count packets, ``(Q, unit_cap)``, -1 where the packet has fewer units."""
    picks = _empty_picks(lengths.shape[0], params, lengths.shape[1])
    width = picks.shape[1]
    columns = np.broadcast_to(np.arange(width, dtype=np.int64), (lengths.shape[0], width))
    picks[:, :width] = np.where(valid[:, :width], columns, -1)
    return picks


def batch_characters(lengths: np.ndarray, valid: np.ndarray, params: BudgetParams) -> np.ndarray:
    """Column indices of the Characters packets (scan in rank order, take each feasible unit)."""
    rows, depth = lengths.shape
    picks = _empty_picks(rows, params, depth)
    cost = np.zeros(rows, dtype=np.int64)
    units = np.zeros(rows, dtype=np.int64)
    sep = params.separator_length
    for column in range(depth):
        take = valid[:, column] & (units < params.unit_cap)
        take &= cost + np.where(units > 0, sep, 0) + lengths[:, column] <= params.char_cap
        if not take.any():
            continue
        where = np.nonzero(take)[0]
        picks[where, units[where]] = column
        cost[where] += lengths[where, column] + np.where(units[where] > 0, sep, 0)
        units[where] += 1
    return picks


def batch_mmr(lengths: np.ndarray, valid: np.ndarray, ranks: np.ndarray, tie_keys: np.ndarray,
              vectors: np.ndarray, params: BudgetParams, *, chunk: int = 128) -> np.ndarray:
    """Column indices of the MMR packets, in selection order.

    ``ranks`` (float64, original one-based ranks), ``tie_keys`` (int, smaller wins an exact
    tie: the position of the candidate's reference in the query's sorted references) and
    ``vectors`` (``(Q, D, dim)``, L2-normalised rows) align with ``lengths``. Queries are
    processed ``chunk`` rows at a time so the working set stays in cache.
    """
    rows = lengths.shape[0]
    picks = _empty_picks(rows, params, lengths.shape[1])
    for start in range(0, rows, chunk):
        stop = min(rows, start + chunk)
        picks[start:stop] = _mmr_chunk(lengths[start:stop], valid[start:stop], ranks[start:stop],
                                       tie_keys[start:stop], vectors[start:stop], params)
    return picks


def _mmr_chunk(lengths, valid, ranks, tie_keys, vectors, params: BudgetParams) -> np.ndarray:
    rows, depth = lengths.shape
    picks = _empty_picks(rows, params, depth)
    relevance = float(params.relevance_weight) / ranks.astype(np.float64)
    redundancy = np.zeros((rows, depth), dtype=np.float64)
    available = valid.copy()
    cost = np.zeros(rows, dtype=np.int64)
    units = np.zeros(rows, dtype=np.int64)
    sep = params.separator_length
    everything = np.arange(rows)
    no_key = np.iinfo(np.int64).max
    weight = float(params.redundancy_weight)
    for step in range(picks.shape[1]):
        room = params.char_cap - cost - np.where(units > 0, sep, 0)
        feasible = available & (lengths <= room[:, None])
        marginal = np.where(feasible, relevance - weight * redundancy, -np.inf)
        best = marginal.max(axis=1)
        chosen_rows = np.isfinite(best)
        if not chosen_rows.any():
            break
        tied = feasible & (marginal == best[:, None])
        column = np.where(tied, tie_keys, no_key).argmin(axis=1)
        which = everything[chosen_rows]
        column = column[chosen_rows]
        picks[which, step] = column
        available[which, column] = False
        cost[which] += lengths[which, column] + np.where(units[which] > 0, sep, 0)
        units[which] += 1
        if step + 1 < params.unit_cap and weight != 0.0:
            selected = vectors[which, column]                      # (n, dim)
            if which.size == rows:                                 # common case: no row copy
                similarity = np.einsum("ndk,nk->nd", vectors, selected)
                np.maximum(redundancy, similarity, out=redundancy)  # redundancy >= 0: max(0, cos)
            else:
                similarity = np.einsum("ndk,nk->nd", vectors[which], selected)
                redundancy[which] = np.maximum(redundancy[which], similarity)
    return picks


# ----------------------------------------------------------------------------------------------
# per-query interface (same code path, one row)


def tie_order(docs: Sequence[str]) -> list[int]:
    """Position of each reference in ascending string order (the tie key)."""
    order = sorted(range(len(docs)), key=lambda i: docs[i])
    keys = [0] * len(docs)
    for position, index in enumerate(order):
        keys[index] = position
    return keys


def _ordered(candidates: Sequence[Candidate]) -> list[Candidate]:
    ordered = sorted(candidates, key=lambda c: c.rank)
    docs = [c.doc for c in ordered]
    if len(set(docs)) != len(docs):
        raise ValueError("a document appears twice among the candidates")
    ranks = [c.rank for c in ordered]
    if len(set(ranks)) != len(ranks) or (ranks and ranks[0] < 1):
        raise ValueError("candidate ranks must be distinct one-based integers")
    if any(c.length < 0 for c in ordered):
        raise ValueError("a unit length cannot be negative")
    return ordered


def select_batch(candidates: Mapping[str, Sequence[Candidate]], params: BudgetParams,
                 vectors: tuple[Mapping[str, int], np.ndarray] | None = None,
                 selectors: Sequence[str] = SELECTORS) -> dict[str, dict[str, list[Candidate]]]:
    """``{selector: {query: packet}}`` for many queries at once (one padded array per selector).

    Each query's candidates must already be in rank order (:func:`_ordered`). ``vectors`` is
    ``({doc: row}, L2-normalised matrix)`` and is needed only for MMR.
    """
    queries = list(candidates)
    depth = max((len(candidates[q]) for q in queries), default=0)
    lengths = np.zeros((len(queries), max(depth, 1)), dtype=np.int64)
    valid = np.zeros_like(lengths, dtype=bool)
    ranks = np.ones_like(lengths, dtype=np.float64)
    keys = np.zeros_like(lengths)
    for i, query in enumerate(queries):
        row = candidates[query]
        n = len(row)
        lengths[i, :n] = [c.length for c in row]
        valid[i, :n] = True
        ranks[i, :n] = [c.rank for c in row]
        keys[i, :n] = tie_order([c.doc for c in row])
    out: dict[str, dict[str, list[Candidate]]] = {}
    for selector in selectors:
        if selector not in SELECTORS:
            raise ValueError(f"unknown selector {selector!r}; expected one of {SELECTORS}")
        if selector == "count":
            picks = batch_count(lengths, valid, params)
        elif selector == "characters":
            picks = batch_characters(lengths, valid, params)
        else:
            if vectors is None:
                raise ValueError("MMR needs a vector for every candidate")
            index, matrix = vectors
            cube = np.zeros((len(queries), lengths.shape[1], matrix.shape[1]), dtype=np.float32)
            for i, query in enumerate(queries):
                rows_of = [index[c.doc] for c in candidates[query]]
                cube[i, :len(rows_of)] = matrix[rows_of]
            picks = batch_mmr(lengths, valid, ranks, keys, cube, params)
        out[selector] = {q: [candidates[q][int(j)] for j in picks[i] if j >= 0] for i, q in enumerate(queries)}
    return out


def select(selector: str, candidates: Sequence[Candidate], params: BudgetParams,
           vectors: Mapping[str, np.ndarray] | None = None) -> list[Candidate]:
    """The packet of one query, in selection order (:func:`select_batch` with one row).

    ``candidates`` may be given in any order: the declared ``rank`` orders them. ``vectors``
    (MMR only) maps each document reference to its vector, which must already be
    L2-normalised (see :func:`normalise_rows`).
    """
    if selector not in SELECTORS:
        raise ValueError(f"unknown selector {selector!r}; expected one of {SELECTORS}")
    ordered = _ordered(candidates)
    if not ordered:
        return []
    indexed = None
    if selector == "mmr":
        if vectors is None:
            raise ValueError("MMR needs a vector for every candidate")
        indexed = ({c.doc: i for i, c in enumerate(ordered)},
                   np.stack([np.asarray(vectors[c.doc], dtype=np.float32) for c in ordered]))
    return select_batch({"query": ordered}, params, indexed, (selector,))[selector]["query"]


class BadVector(ValueError):
    """A row that cannot be L2-normalised; ``row`` is its index, ``problem`` what is wrong."""

    def __init__(self, row: int, problem: str) -> None:
        self.row, self.problem = row, problem
        super().__init__(f"row {row} {problem}")


def mmr_marginals(candidates: Sequence[Candidate], selected: Sequence[str],
                  vectors: Mapping[str, np.ndarray], params: BudgetParams) -> dict[str, float]:
    """MMR marginal of every feasible unselected candidate, given the already-selected references.

    A readable one-query statement of the formula (for explanations and tests; selection itself
    runs in :func:`batch_mmr`): ``relevance_weight / r - redundancy_weight * redundancy``.
    """
    by_doc = {c.doc: c for c in candidates}
    lengths = [by_doc[d].length for d in selected]
    cost = packet_cost(lengths, params.separator_length)
    out = {}
    for cand in _ordered(candidates):
        if cand.doc in selected or not fits(cost, len(selected), cand.length, params):
            continue
        redundancy = max((max(0.0, float(np.dot(np.asarray(vectors[cand.doc], dtype=np.float64),
                                                 np.asarray(vectors[d], dtype=np.float64))))
                          for d in selected), default=0.0)
        out[cand.doc] = params.relevance_weight / cand.rank - params.redundancy_weight * redundancy
    return out


def normalise_rows(matrix: np.ndarray) -> tuple[np.ndarray, int]:
    """L2-normalised float32 copy of a 2-D array and the number of rows that were not unit length.

    A row counts as not normalised when its norm differs from 1 by more than 1e-4. A zero (or
    non-finite) row cannot be normalised: :class:`BadVector` naming the first such row.
    """
    data = np.asarray(matrix, dtype=np.float64)
    finite = np.isfinite(data).all(axis=1)
    if not finite.all():
        raise BadVector(int(np.nonzero(~finite)[0][0]), "holds a non-finite value")
    scale = np.abs(data).max(axis=1) if data.size else np.zeros(len(data))
    zero = scale == 0
    if zero.any():
        raise BadVector(int(np.nonzero(zero)[0][0]), "is a zero vector")
    with np.errstate(over="ignore", under="ignore"):
        norms = np.linalg.norm(data, axis=1)
    extreme = ~np.isfinite(norms) | (norms == 0)
    off = int(np.count_nonzero(extreme | (np.abs(norms - 1.0) > 1e-4)))
    result = data / np.where(extreme, 1.0, norms)[:, None]
    if extreme.any():
        # rows near the ends of the float64 range (1e300, 1e-320): scale by their largest
        # magnitude first, so that the norm neither overflows (a silent zero row) nor underflows
        rows = data[extreme] / scale[extreme][:, None]
        result[extreme] = rows / np.linalg.norm(rows, axis=1)[:, None]
    return result.astype(np.float32), off


# ----------------------------------------------------------------------------------------------
# explanations


def explain(selector: str, candidates: Sequence[Candidate], packet: Sequence[Candidate],
            positives: set[str], params: BudgetParams) -> str:
    """One-line explanation of a packet: the fate of every judged positive, then the selection.

    Example: ``positive 5 at rank 2 has 1,298 characters, more than the 1,200-character
    allowance: skipped; 12 (1,108 characters) selected``. Numbers use thousands separators.
    """
    chosen = {c.doc for c in packet}
    clauses = []
    for cand in _ordered(candidates):
        if cand.doc not in positives:
            continue
        head = f"positive {cand.doc} at rank {cand.rank}"
        if cand.doc in chosen:
            clauses.append(f"{head} ({cand.length:,} characters) selected")
            continue
        reason, room = loss_reason(selector, cand, packet, params)
        if reason == NEVER_FITS:
            clauses.append(f"{head} has {cand.length:,} characters, more than the "
                           f"{params.char_cap:,}-character allowance: skipped")
        elif reason == ALLOWANCE:
            clauses.append(f"{head} has {cand.length:,} characters, more than the {room:,} characters "
                           f"left of the {params.char_cap:,}-character allowance: skipped")
        else:
            clauses.append(f"{head} ({cand.length:,} characters) not selected: "
                           f"the {params.unit_cap:,}-unit cap was reached")
    if not any(c.doc in positives for c in candidates):
        clauses.append("no judged positive among the candidates")
    if packet:
        listed = ", ".join(f"{c.doc} ({c.length:,} characters)" for c in packet)
        total = packet_cost([c.length for c in packet], params.separator_length)
        clauses.append(f"{listed} selected" + (f" ({total:,} characters with separators)"
                                               if len(packet) > 1 else ""))
    else:
        clauses.append("nothing selected (empty packet, 0 characters)")
    return "; ".join(clauses)
