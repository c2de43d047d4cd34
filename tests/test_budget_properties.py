"""Property tests of the budgeted selectors (hypothesis).

* a capped packet never exceeds the allowance; every unit is whole, a candidate, unique, and
  the packet holds at most ``unit_cap`` units;
* the result does not depend on the order of the inputs beyond the declared ranks and the
  tie rule (candidate list and vector dict permuted);
* the batched selectors agree with a plain one-unit-at-a-time reference written from the
  chapter's description.
"""

from __future__ import annotations

import numpy as np
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from engine.budget.selection import BudgetParams, Candidate, fits, packet_cost, select

DOC_IDS = st.text(alphabet="abcxyz019", min_size=1, max_size=4)


@st.composite
def cases(draw, one_hot: bool = False):
    doc_ids = draw(st.lists(DOC_IDS, min_size=0, max_size=12, unique=True))
    lengths = draw(st.lists(st.one_of(st.integers(0, 700), st.integers(1100, 1500)),
                            min_size=len(doc_ids), max_size=len(doc_ids)))
    # ranks: distinct one-based integers, possibly with gaps (declared, never renumbered)
    ranks = draw(st.lists(st.integers(1, 40), min_size=len(doc_ids), max_size=len(doc_ids), unique=True))
    separator = draw(st.sampled_from(["\n\n", "", " | ", "\n"]))
    char_cap = draw(st.integers(max(1, len(separator)), 2000))
    if one_hot:
        weights = draw(st.sampled_from([(0.7, 0.3), (0.0, 0.3), (0.3, 0.3), (0.7, 0.0)]))
    else:
        weights = (draw(st.sampled_from([0.7, 0.5, 1.0])), draw(st.sampled_from([0.3, 0.6, 2.0])))
    params = BudgetParams(unit_cap=draw(st.integers(1, 5)), char_cap=char_cap, separator=separator,
                          relevance_weight=weights[0], redundancy_weight=weights[1])
    vectors = {}
    for doc in doc_ids:
        if one_hot:
            axis, sign = draw(st.integers(0, 3)), draw(st.sampled_from([1.0, -1.0]))
            v = np.zeros(4, np.float32)
            v[axis] = sign
        else:
            raw = np.array(draw(st.lists(st.integers(-3, 3), min_size=4, max_size=4)), dtype=np.float64)
            assume(np.any(raw != 0))
            v = (raw / np.linalg.norm(raw)).astype(np.float32)
        vectors[doc] = v
    cands = [Candidate(d, r, n) for d, r, n in zip(doc_ids, ranks, lengths)]
    return cands, vectors, params


def reference(selector, cands, vectors, params):
    """Plain transcription of the chapter's rules, one unit at a time (exact ties: reference order)."""
    order = sorted(cands, key=lambda c: c.rank)
    packet, cost = [], 0
    if selector == "count":
        return order[:params.unit_cap], []
    if selector == "characters":
        for cand in order:
            if len(packet) == params.unit_cap:
                break
            if fits(cost, len(packet), cand.length, params):
                cost = packet_cost([c.length for c in packet + [cand]], params.separator_length)
                packet.append(cand)
        return packet, []
    gaps = []
    while len(packet) < params.unit_cap:
        scored = []
        for cand in order:
            if cand in packet or not fits(cost, len(packet), cand.length, params):
                continue
            red = max((max(0.0, float(np.dot(vectors[cand.doc].astype(np.float64),
                                             vectors[p.doc].astype(np.float64)))) for p in packet), default=0.0)
            scored.append((params.relevance_weight / cand.rank - params.redundancy_weight * red, cand))
        if not scored:
            break
        best = max(s for s, _ in scored)
        gaps += [best - s for s, _ in scored if s != best]
        choice = min((c for s, c in scored if s == best), key=lambda c: c.doc)
        packet.append(choice)
        cost = packet_cost([c.length for c in packet], params.separator_length)
    return packet, gaps


@settings(max_examples=300, deadline=None)
@given(cases(), st.sampled_from(["count", "characters", "mmr"]))
def test_packet_is_whole_unique_bounded_and_within_cap(case, selector):
    cands, vectors, params = case
    packet = select(selector, cands, params, vectors)
    assert len(packet) <= params.unit_cap
    assert len({c.doc for c in packet}) == len(packet)
    assert all(c in cands for c in packet)                      # whole units, exactly as given
    cost = packet_cost([c.length for c in packet], params.separator_length)
    if selector != "count":
        assert cost <= params.char_cap
    else:
        assert packet == sorted(cands, key=lambda c: c.rank)[:params.unit_cap]
    if not packet:
        assert cost == 0


@settings(max_examples=200, deadline=None)
@given(cases(), st.sampled_from(["count", "characters", "mmr"]), st.randoms(use_true_random=False))
def test_selection_ignores_input_order(case, selector, rnd):
    cands, vectors, params = case
    expected = select(selector, cands, params, vectors)
    shuffled = list(cands)
    rnd.shuffle(shuffled)
    keys = list(vectors)
    rnd.shuffle(keys)
    permuted_vectors = {k: vectors[k] for k in keys}
    assert select(selector, shuffled, params, permuted_vectors) == expected


@settings(max_examples=300, deadline=None)
@given(cases(one_hot=True), st.sampled_from(["count", "characters", "mmr"]))
def test_batch_matches_reference_exact_arithmetic(case, selector):
    # one-hot vectors: cosines are exactly -1, 0 or 1, so marginals (and ties) are exact
    cands, vectors, params = case
    expected, _ = reference(selector, cands, vectors, params)
    assert select(selector, cands, params, vectors) == expected


@settings(max_examples=300, deadline=None)
@given(cases())
def test_mmr_matches_reference_general_vectors(case):
    cands, vectors, params = case
    expected, gaps = reference("mmr", cands, vectors, params)
    # rounding may differ in the last bit between summation orders: skip near-ties only
    assume(all(gap > 1e-9 for gap in gaps))
    assert select("mmr", cands, params, vectors) == expected


@settings(max_examples=200, deadline=None)
@given(cases())
def test_capped_selectors_stop_only_when_full_or_nothing_fits(case):
    cands, vectors, params = case
    for selector in ("characters", "mmr"):
        packet = select(selector, cands, params, vectors)
        if len(packet) < params.unit_cap:
            cost = packet_cost([c.length for c in packet], params.separator_length)
            rest = [c for c in cands if c not in packet]
            assert not any(fits(cost, len(packet), c.length, params) for c in rest)


@settings(max_examples=200, deadline=None)
@given(cases())
def test_mmr_without_redundancy_weight_equals_characters(case):
    # 0.7 / r alone: each round takes the best-ranked feasible unit, which is the Characters scan
    cands, vectors, params = case
    plain = BudgetParams(unit_cap=params.unit_cap, char_cap=params.char_cap, separator=params.separator,
                         relevance_weight=0.7, redundancy_weight=0.0)
    assert select("mmr", cands, plain, vectors) == select("characters", cands, plain)
