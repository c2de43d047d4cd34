"""Budgeted selectors: hand-controlled cases, accounting, tie rule, unit texts, parameters."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from engine.budget.selection import (ALLOWANCE, NEVER_FITS, UNIT_CAP, BudgetParams, Candidate, batch_mmr,
                           cumulative_costs, explain, fits, loss_reason, mmr_marginals, normalise_rows,
                           packet_cost, select)
from engine.budget.run import read_vector_ids, unescape_separator
from engine.runs.errors import InputError
from engine.budget.units import read_units, unit_text

P = BudgetParams()


def docs(packet):
    return [c.doc for c in packet]


def unit(vector):
    v = np.asarray(vector, dtype=np.float64)
    return (v / np.linalg.norm(v)).astype(np.float32)


# ----------------------------------------------------------------------------------------------
# the chapter's hand-controlled MMR case


def test_mmr_prefers_complementary_over_redundant_vector():
    cands = [Candidate("r1", 1, 100), Candidate("r2", 2, 100), Candidate("r3", 3, 100)]
    vectors = {"r1": unit([1, 0, 0]),
               "r2": unit([0.99, math.sqrt(1 - 0.99 ** 2), 0]),   # cosine 0.99 with r1
               "r3": unit([0, 0, 1])}                             # orthogonal to r1
    # step 1: nothing selected, redundancy 0 -> marginal 0.7 / r
    first = mmr_marginals(cands, [], vectors, P)
    assert first == pytest.approx({"r1": 0.7, "r2": 0.35, "r3": 0.7 / 3})
    # step 2, hand computed: r2 = 0.7/2 - 0.3*0.99 = 0.053 ; r3 = 0.7/3 - 0.3*0 = 0.2333...
    second = mmr_marginals(cands, ["r1"], vectors, P)
    assert second["r2"] == pytest.approx(0.053, abs=1e-6)
    assert second["r3"] == pytest.approx(0.233333, abs=1e-6)
    assert docs(select("mmr", cands, P, vectors)) == ["r1", "r3", "r2"]
    assert docs(select("mmr", cands, BudgetParams(unit_cap=2), vectors)) == ["r1", "r3"]
    # the rank order alone (Count, Characters) takes the redundant r2 second
    assert docs(select("count", cands, BudgetParams(unit_cap=2))) == ["r1", "r2"]
    assert docs(select("characters", cands, BudgetParams(unit_cap=2))) == ["r1", "r2"]
    # without the redundancy weight MMR reduces to rank order
    assert docs(select("mmr", cands, BudgetParams(redundancy_weight=0.0), vectors)) == ["r1", "r2", "r3"]


def test_mmr_negative_cosine_counts_as_zero_redundancy():
    cands = [Candidate("s", 1, 10), Candidate("t", 2, 10), Candidate("u", 3, 10)]
    vectors = {"s": unit([1, 0]), "t": unit([-1, 0]), "u": unit([0.6, 0.8])}
    marg = mmr_marginals(cands, ["s"], vectors, P)
    assert marg["t"] == pytest.approx(0.35)                  # cos = -1 -> max(0, -1) = 0
    assert marg["u"] == pytest.approx(0.7 / 3 - 0.3 * 0.6)
    assert docs(select("mmr", cands, P, vectors)) == ["s", "t", "u"]


def test_mmr_rank_is_never_renumbered_and_oversized_units_are_not_scored():
    # rank 1 can never fit; the rank-2 unit keeps relevance 0.7/2, not 0.7/1
    cands = [Candidate("big", 1, 1500), Candidate("two", 2, 100), Candidate("three", 3, 100)]
    vectors = {"big": unit([1, 0, 0]), "two": unit([0, 1, 0]), "three": unit([0, 0, 1])}
    marg = mmr_marginals(cands, [], vectors, P)
    assert marg == pytest.approx({"two": 0.35, "three": 0.7 / 3})
    assert docs(select("mmr", cands, P, vectors)) == ["two", "three"]


# ----------------------------------------------------------------------------------------------
# the chapter's Characters case and its explanation


def test_characters_skips_oversized_positive_and_explains_it():
    cands = [Candidate("12", 1, 1108), Candidate("5", 2, 1298), Candidate("9", 3, 500)]
    packet = select("characters", cands, P)
    assert docs(packet) == ["12"]
    assert explain("characters", cands, packet, {"5"}, P) == (
        "positive 5 at rank 2 has 1,298 characters, more than the 1,200-character allowance: "
        "skipped; 12 (1,108 characters) selected")
    assert loss_reason("characters", cands[1], packet, P) == (NEVER_FITS, None)
    # moving the positive to first place would not help: it still cannot fit
    moved = [Candidate("5", 1, 1298), Candidate("12", 2, 1108), Candidate("9", 3, 500)]
    assert docs(select("characters", moved, P)) == ["12"]
    # Count has no content cap: it takes the positive and measures 2,910 characters
    count = select("count", cands, P)
    assert docs(count) == ["12", "5", "9"]
    assert packet_cost([c.length for c in count]) == 1108 + 2 + 1298 + 2 + 500 == 2910
    assert loss_reason("count", cands[1], [], P) == (UNIT_CAP, None)


def test_characters_skips_and_continues_down_the_order():
    cands = [Candidate("a", 1, 1000), Candidate("b", 2, 300), Candidate("c", 3, 150),
             Candidate("d", 4, 40), Candidate("e", 5, 1)]
    packet = select("characters", cands, P)
    assert docs(packet) == ["a", "c", "d"]                   # 1000 + 2 + 150 + 2 + 40 = 1194
    assert cumulative_costs([c.length for c in packet]) == [1000, 1152, 1194]
    # e (1 character) would still fit (1194 + 2 + 1 = 1197) but the unit cap of 3 is reached
    assert loss_reason("characters", cands[4], packet, P) == (UNIT_CAP, None)
    # b was examined when 1000 + 2 were used: 198 characters were left
    assert loss_reason("characters", cands[1], packet, P) == (ALLOWANCE, 198)
    assert explain("characters", cands, packet, {"b", "e"}, P) == (
        "positive b at rank 2 has 300 characters, more than the 198 characters left of the "
        "1,200-character allowance: skipped; positive e at rank 5 (1 characters) not selected: "
        "the 3-unit cap was reached; a (1,000 characters), c (150 characters), d (40 characters) "
        "selected (1,194 characters with separators)")


# ----------------------------------------------------------------------------------------------
# accounting


def test_separator_accounting_exact_fit():
    assert packet_cost([600, 598]) == 1200
    assert fits(600, 1, 598, P) and not fits(600, 1, 599, P)
    assert fits(0, 0, 1200, P) and not fits(0, 0, 1201, P)     # no separator before the first unit
    cands = [Candidate("e", 1, 600), Candidate("g", 2, 599), Candidate("f", 3, 598)]
    for selector in ("characters", "mmr"):
        vectors = {"e": unit([1, 0]), "g": unit([0, 1]), "f": unit([1, 1])}
        packet = select(selector, cands, P, vectors)
        assert docs(packet) == ["e", "f"]
        assert packet_cost([c.length for c in packet]) == 1200
        assert loss_reason(selector, cands[1], packet, P)[0] == ALLOWANCE
    # Characters examined g with 598 left; MMR's last round (nothing feasible) had 0 left
    assert loss_reason("characters", cands[1], [cands[0], cands[2]], P) == (ALLOWANCE, 598)
    assert loss_reason("mmr", cands[1], [cands[0], cands[2]], P) == (ALLOWANCE, 0)


def test_empty_packet_costs_zero_and_other_separators():
    assert packet_cost([]) == 0
    assert packet_cost([7]) == 7
    assert cumulative_costs([]) == []
    assert packet_cost([10, 20, 30], separator_length=3) == 66
    cands = [Candidate("x", 1, 1500), Candidate("y", 2, 1201)]
    vectors = {"x": unit([1, 0]), "y": unit([0, 1])}
    assert select("characters", cands, P) == []
    assert select("mmr", cands, P, vectors) == []
    assert explain("mmr", cands, [], set(), P) == (
        "no judged positive among the candidates; nothing selected (empty packet, 0 characters)")
    assert select("count", [], P) == []
    no_sep = BudgetParams(separator="", char_cap=10)
    assert docs(select("characters", [Candidate("p", 1, 5), Candidate("q", 2, 5)], no_sep)) == ["p", "q"]
    wide = BudgetParams(separator=" | ", char_cap=12)            # 5 + 3 + 5 = 13 > 12
    assert docs(select("characters", [Candidate("p", 1, 5), Candidate("q", 2, 5)], wide)) == ["p"]


def test_unit_length_is_codepoints_not_bytes():
    text = unit_text("α-synuclein", "résumé — ok")
    assert text == "α-synuclein\nrésumé — ok"
    assert len(text) == 23 and len(text.encode("utf-8")) > 23


# ----------------------------------------------------------------------------------------------
# tie rule


def test_exact_tie_broken_by_reference_string_order():
    # weights (0.3, 0.3): after s, m (rank 2, cos 0.25) scores 0.3/2 - 0.3*0.25 = 0.075 and
    # a (rank 4, cos 0) scores 0.3/4 = 0.075: an exact float tie, won by "a" < "m".
    params = BudgetParams(relevance_weight=0.3, redundancy_weight=0.3, unit_cap=2)
    vectors = {"s": np.array([1, 0, 0], np.float32),
               "m": np.array([0.25, math.sqrt(1 - 0.0625), 0], np.float32),
               "k": np.array([1, 0, 0], np.float32),
               "a": np.array([0, 0, 1], np.float32)}
    cands = [Candidate("s", 1, 10), Candidate("m", 2, 10), Candidate("k", 3, 10), Candidate("a", 4, 10)]
    marg = mmr_marginals(cands, ["s"], vectors, params)
    assert marg["m"] == marg["a"] == 0.075 and marg["k"] < 0.075
    assert docs(select("mmr", cands, params, vectors)) == ["s", "a"]
    # rename the rank-4 unit so that it sorts after "m": now the rank-2 unit wins the tie
    vectors["z"] = vectors.pop("a")
    cands[3] = Candidate("z", 4, 10)
    assert docs(select("mmr", cands, params, vectors)) == ["s", "m"]


def test_zero_relevance_weight_ties_follow_string_order_not_rank():
    params = BudgetParams(relevance_weight=0.0)
    cands = [Candidate("b", 1, 10), Candidate("a9", 2, 10), Candidate("a10", 3, 10)]
    vectors = {d: unit(v) for d, v in {"b": [1, 0, 0], "a9": [0, 1, 0], "a10": [0, 0, 1]}.items()}
    assert docs(select("mmr", cands, params, vectors)) == ["a10", "a9", "b"]   # "a10" < "a9" < "b"


def test_batch_rows_are_independent():
    # two queries in one batch give the same packets as each query alone
    lengths = np.array([[100, 100, 100], [100, 2000, 100]])
    valid = np.ones_like(lengths, dtype=bool)
    ranks = np.array([[1.0, 2.0, 3.0]] * 2)
    keys = np.array([[0, 1, 2]] * 2)
    cube = np.zeros((2, 3, 3), np.float32)
    cube[0] = [unit([1, 0, 0]), unit([0.99, 0.141, 0]), unit([0, 0, 1])]
    cube[1] = np.eye(3, dtype=np.float32)
    picks = batch_mmr(lengths, valid, ranks, keys, cube, P)
    assert picks.tolist() == [[0, 2, 1], [0, 2, -1]]
    assert batch_mmr(lengths[1:], valid[1:], ranks[1:], keys[1:], cube[1:], P).tolist() == [[0, 2, -1]]


# ----------------------------------------------------------------------------------------------
# parameters, vectors, unit texts


@pytest.mark.parametrize("params, field", [
    (BudgetParams(unit_cap=0), "unit_cap"),
    (BudgetParams(char_cap=0), "char_cap"),
    (BudgetParams(char_cap=-5), "char_cap"),
    (BudgetParams(char_cap=1), "char_cap"),          # smaller than the two-LF separator
    (BudgetParams(relevance_weight=-0.1), "relevance_weight"),
    (BudgetParams(redundancy_weight=float("nan")), "redundancy_weight"),
])
def test_invalid_parameters_name_the_field(params, field):
    with pytest.raises(InputError, match=f"field '{field}'"):
        params.validate()


def test_cap_equal_to_separator_is_allowed():
    BudgetParams(char_cap=2).validate()
    assert docs(select("characters", [Candidate("a", 1, 2), Candidate("b", 2, 0)],
                       BudgetParams(char_cap=2))) == ["a"]


def test_normalise_rows_counts_non_unit_rows_and_rejects_zero():
    matrix, off = normalise_rows(np.array([[3.0, 4.0], [1.0, 0.0], [0.6, 0.8]]))
    assert off == 1
    assert matrix.dtype == np.float32
    assert np.allclose(matrix, [[0.6, 0.8], [1, 0], [0.6, 0.8]])
    with pytest.raises(ValueError, match="row 1 is a zero vector"):
        normalise_rows(np.array([[1.0, 0.0], [0.0, 0.0]]))
    with pytest.raises(ValueError, match="row 0 holds a non-finite value"):
        normalise_rows(np.array([[np.nan, 0.0]]))


def test_separator_escapes():
    assert unescape_separator(r"\n\n") == "\n\n"
    assert unescape_separator(r" \t|\\ ") == " \t|\\ "
    with pytest.raises(InputError, match="separator"):
        unescape_separator(r"\x")


def test_read_units_beir_and_sandbox_fields(tmp_path):
    corpus = tmp_path / "c.jsonl"
    rows = [{"_id": "b1", "title": "T", "text": "body"},
            {"doc_id": "s1", "title": "", "text": "only text"},
            {"_id": 7, "text": "no title"},
            {"_id": "both", "doc_id": "both", "title": None, "text": "x"}]
    corpus.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n")
    assert read_units(corpus) == {"b1": "T\nbody", "s1": "only text", "7": "no title", "both": "x"}
    assert read_units(corpus, wanted={"s1"}) == {"s1": "only text"}


@pytest.mark.parametrize("lines, message", [
    (['{"_id": "a", "text": "x"}', '{"_id": "a", "text": "y"}'], r"c.jsonl:2: duplicate document id 'a' \(first on line 1\)"),
    (['{"_id": "a", "text": "x"}', '{"_id": "b", "text": '], r"c.jsonl:2: invalid JSON"),
    (['{"title": "t", "text": "x"}'], r"c.jsonl:1: missing field '_id' \(BEIR\) or 'doc_id'"),
    (['{"_id": "a", "doc_id": "b", "text": "x"}'], r"c.jsonl:1: fields '_id' \('a'\) and 'doc_id' \('b'\) disagree"),
    (['{"_id": "a", "title": "t"}'], r"c.jsonl:1: missing field 'text'"),
    (['{"_id": "a", "text": 5}'], r"c.jsonl:1: field 'text' must be a string"),
    (['{"_id": "a b", "text": "x"}'], r"c.jsonl:1: field '_id' must be non-empty and contain no whitespace"),
])
def test_read_units_rejects_bad_lines(tmp_path, lines, message):
    corpus = tmp_path / "c.jsonl"
    corpus.write_text("\n".join(lines) + "\n")
    with pytest.raises(InputError, match=message):
        read_units(corpus)


def test_vector_ids_file_errors(tmp_path):
    ids = tmp_path / "ids.txt"
    ids.write_text("a\nb\na\n")
    with pytest.raises(InputError, match=r"ids.txt:3: duplicate vector id 'a' \(first on line 1\)"):
        read_vector_ids(ids)
    ids.write_text("a\n\nb\n")
    with pytest.raises(InputError, match=r"ids.txt:2: empty line"):
        read_vector_ids(ids)
    ids.write_text("a\r\nb\n")
    assert read_vector_ids(ids) == ["a", "b"]
