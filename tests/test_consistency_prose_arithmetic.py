"""Arithmetic stated only in prose (claims/consistency/prose_arithmetic.py): each sentence is ours,
right or wrong by hand, with the printed-precision rule (a number with d decimals stands for
± ½·10^−d; counts k of N are exact; ``twice`` / ``3x`` stand for ± ½).

Hand computations (the ones a verdict turns on):
- 7 of 20 = 35% (fits 35% ± 0.5, not 40%); 1 of 3 = 33.33% (fits 33% ± 0.5, not 33.4% ± 0.05);
  2 of 3 = 66.67% (fits 67%); 121/160 = 75.625% (fits 75.6% ± 0.05); 0.333 → 33.3 ± 0.05 (fits 33%,
  not 35%).
- 2/4 → 3/4: relative (0.75 − 0.5)/0.5 = 50% (a 50% gain passes, 40% fails); 25% matches only the
  25 points, and "a p% gain" claims the relative reading (campaign o): FAIL. 120 ms → 80 ms: (120 − 80)/120 = 33.33%, interval over 119.5–120.5 and 79.5–80.5
  is [32.64, 34.02]: 33% passes, 40% fails, "increase" fails on direction, "faster" is a SKIP (two
  bases). 40% → 50%: 25% relative passes; "a 10% increase" allows both readings and matches the 10 points: PASS naming the points reading. 0.41 → 0.45: [7.23, 12.35]% fits 10%.
  12 GB → 3 GB: 75% (interval [70.8, 79.2]). $10 → $15: 50%. 0.75 → 0.50 "a 33% gain": the
  values fall (direction fails).
- 6.0 s / 3.1 s: interval [5.95/3.15, 6.05/3.05] = [1.889, 1.984] meets twice [1.5, 2.5];
  9.5/3.1: [3.000, 3.131] misses it. 12/4 GB: [2.6, 3.57] meets 3x; 20/4: [4.33, 5.86] misses.
  8/3 GB: [2.14, 3.40] meets half (ratio 2, [1.5, 2.5]) at integer precision; 9.0/3.0:
  [2.93, 3.07] does not. 200/100 = 2. Read in the order written (the subject's value first), "twice
  as fast: 6.0 s against 3.1 s" and "3x smaller (12 GB vs 4 GB)" run the other way: SKIP.
- 40 + 35 + 25 = 100 (|Δ| 0 ≤ 1.5); 40 + 35 + 30 = 105 (|Δ| 5 > 1.5); 33 · 3 = 99 (|Δ| 1 ≤ 1.5).
- second of five, 0.41 behind 0.45: 2 ≤ 5 and 0.415 < 0.445 (pass); first and behind (fail);
  0.45 behind 0.41 (fail); sixth of five (fail); 0.41 behind 0.41: equal at print (SKIP); an error
  "behind" (lower is better): SKIP.
"""

from __future__ import annotations

import pytest

from claims.consistency import check_text
from claims.extract import extract_claims
from claims.consistency.prose_arithmetic import KINDS

CASES = [
 # fraction
 ("The reranker answers 7 of 20 queries (35%) correctly.", [("prose-fraction","pass")]),
 ("The reranker answers 7 of 20 queries (40%) correctly.", [("prose-fraction","fail")]),
 ("One of 3 topics (33%) has no judged document.", [("prose-fraction","pass")]),
 ("One of 3 topics (33.4%) has no judged document.", [("prose-fraction","fail")]),
 ("Two of 3 runs (67%) finish.", [("prose-fraction","pass")]),
 ("It solves 121/160 tasks (75.6%).", [("prose-fraction","pass")]),
 ("It solves 35% (7 of 20) of the queries.", [("prose-fraction","pass")]),
 ("It solves 7 out of 20 queries, or 35%, on the first try.", [("prose-fraction","pass")]),
 ("It solves 7 of 20 queries (about 35%).", [("prose-fraction","skip")]),
 ("It solves 7 of 20 queries (35% more than BM25).", []),
 ("Recall is 0.333 (33%) on the hard topics.", [("prose-fraction","pass")]),
 ("Recall is 0.333 (35%) on the hard topics.", [("prose-fraction","fail")]),
 ("Of the 48 tasks, 36 are final.", []),
 # change
 ("Coverage rises from 2/4 to 3/4, a 50% gain.", [("prose-change","pass")]),
 ("Coverage rises from 2/4 to 3/4, a 25% gain.", [("prose-change","fail")]),
 ("Coverage rises from 2/4 to 3/4, a 40% gain.", [("prose-change","fail")]),
 ("Caching cuts latency from 120 ms to 80 ms, a 33% reduction.", [("prose-change","pass")]),
 ("Caching cuts latency from 120 ms to 80 ms, a 40% reduction.", [("prose-change","fail")]),
 ("Latency drops by 33% from 120 ms to 80 ms.", [("prose-change","pass")]),
 ("Caching cuts latency from 120 ms to 80 ms, a 33% increase.", [("prose-change","fail")]),
 ("Caching cuts latency from 120 ms to 80 ms, 50% faster.", [("prose-change","skip")]),
 ("Recall rose from 40% to 50%, a 25% increase.", [("prose-change","pass")]),
 ("Recall rose from 40% to 50%, a 10% increase.", [("prose-change","pass")]),
 ("nDCG@10 goes from 0.41 to 0.45, a 10% gain.", [("prose-change","pass")]),
 ("Memory fell from 12 GB to 3 GB, a 75% reduction.", [("prose-change","pass")]),
 ("From 2019 to 2021 usage grew by 40%.", []),
 ("With 10 to 20 documents per query, recall rose by 5%.", []),
 ("We scaled from 10 to 20 documents per query and recall rose by 5% overall.", []),
 ("Latency fell from 120 ms to 80 ms, roughly a 33% reduction.", []),
 ("Latency fell from 120 ms to 80 ms, a roughly 33% reduction.", [("prose-change","skip")]),
 ("Cost rose from $10 to $15, a 50% increase.", [("prose-change","pass")]),
 # times
 ("The new index is twice as fast: 3.1 s against 6.0 s.", [("prose-times","pass")]),
 ("The new index is twice as fast: 3.1 s against 9.5 s.", [("prose-times","fail")]),
 ("The index is 3x smaller (4 GB vs 12 GB).", [("prose-times","pass")]),
 ("The index is 3x smaller (4 GB vs 20 GB).", [("prose-times","fail")]),
 ("It uses half the memory: 3 GB instead of 8 GB.", [("prose-times","pass")]),
 ("It uses half the memory: 3.0 GB instead of 9.0 GB.", [("prose-times","fail")]),
 ("It answers twice as many queries (200 vs 100).", [("prose-times","pass")]),
 ("It is 2x faster at batch 32: 10 ms against 20 ms.", [("prose-times","skip")]),
 ("It is up to 2x faster: 10 ms against 20 ms.", [("prose-times","skip")]),
 ("It keeps 2x more candidates than the 2012 system at 0.5 precision.", []),
 ("Doris was 4.7 times, 12 times and 18.5 times faster than the other engine.", []),
 # shares
 ("The three shares are 40%, 35% and 25%.", [("prose-shares","pass")]),
 ("The three shares are 40%, 35% and 30%.", [("prose-shares","fail")]),
 ("The three shares are 33%, 33% and 33%.", [("prose-shares","pass")]),
 ("Traffic is split into three parts of 50% for search, 30% for chat and 20% for code.", [("prose-shares","pass")]),
 ("The two parts improve by 10% and 20%.", []),
 ("The three largest shares are 40%, 30% and 10%.", []),
 ("The three shares are 40% and 35%.", [("prose-shares","skip")]),
 ("The three shares of the budget are 40%, 35% and 30%.", [("prose-shares","fail")]),
 # rank
 ("The hybrid ranks second of five with 0.41 behind 0.45.", [("prose-rank","pass"),("prose-rank","pass")]),
 ("The hybrid ranks first of five with 0.41 behind 0.45.", [("prose-rank","pass"),("prose-rank","fail")]),
 ("The hybrid ranks second of five with 0.45 behind 0.41.", [("prose-rank","pass"),("prose-rank","fail")]),
 ("The hybrid ranks sixth of five.", [("prose-rank","fail")]),
 ("The hybrid ranks first with 0.45 ahead of 0.41.", [("prose-rank","pass")]),
 ("The hybrid ranks second with an error of 0.12 behind 0.10.", [("prose-rank","skip")]),
 ("The hybrid ranks second with 0.41 behind 0.41.", [("prose-rank","skip")]),
 ("Security comes first of all, and 3 of the checks run nightly.", []),
 # found on review: a measure after the count's percentage, a change of another thing, the order written
 ("Two of 4 runs (81% recall) finish.", []),
 ("It solves 81% recall (7 of 20 queries).", []),
 ("It solves 7 out of 20 queries, or 35% more than BM25.", []),
 ("We scaled from 10 to 20 GPUs, a 50% reduction in time.", []),
 ("Caching cuts latency from 120 ms to 80 ms, a 33% reduction in latency.", [("prose-change","pass")]),
 ("Accuracy falls from 0.75 to 0.50, a 33% gain.", [("prose-change","fail")]),
 ("The old index is twice as fast: 6.0 s against 3.1 s.", [("prose-times","skip")]),
 ("The new index is 3x smaller (12 GB vs 4 GB).", [("prose-times","skip")]),
 ("It serves twice as many queries per second: 200 vs 100.", [("prose-times","pass")]),
]


def _checks(sentence: str):
    page = "# T\n\n" + sentence + "\n"
    return [c for c in check_text(page, "t.md", claims=extract_claims(page, "block")).checks if c.group in KINDS]


@pytest.mark.parametrize("sentence, expected", CASES, ids=[c[0][:60] for c in CASES])
def test_prose_arithmetic_verdicts(sentence, expected):
    assert sorted((c.group, c.status) for c in _checks(sentence)) == sorted(expected), \
        [c.arithmetic for c in _checks(sentence)]


def test_failures_print_the_arithmetic():
    [change] = _checks("Caching cuts latency from 120 ms to 80 ms, a 40% reduction.")
    assert change.arithmetic.endswith("relative change 100·(120 − 80)/120 = 33.3333% (interval [32.6360, 34.0249]) "
                                      "misses 40% [39.5000, 40.5000] ✗"), change.arithmetic
    [fraction] = _checks("The reranker answers 7 of 20 queries (40%) correctly.")
    assert "100·7/20 = 35.0000%" in fraction.arithmetic and "misses 40% [39.5000, 40.5000] ✗" in fraction.arithmetic
    [shares] = _checks("The three shares are 40%, 35% and 30%.")
    assert "40% + 35% + 30% = 105.0000% (|Δ| from 100% 5.0000 > 1.5000) ✗" in shares.arithmetic
    [times] = _checks("The new index is twice as fast: 3.1 s against 9.5 s.")
    assert "9.5/3.1 = 3.0645 (interval [3.0000, 3.1311]) misses twice [1.5000, 2.5000] ✗" in times.arithmetic
    field, order = _checks("The hybrid ranks second of five with 0.45 behind 0.41.")
    assert field.status == "pass" and "0.45 is not below 0.41 ✗" in order.arithmetic


def test_the_checks_read_no_kind():
    """The checks read the sentence's text only: the same verdicts whatever kind the row has."""
    from dataclasses import replace
    page = "# T\n\nThe reranker answers 7 of 20 queries (40%) correctly.\n"
    rows = extract_claims(page, "block")
    for kind in ("measured result", "method or definition"):
        report = check_text(page, "t.md", claims=[replace(r, kind=kind) for r in rows])
        assert [(c.group, c.status) for c in report.checks] == [("prose-fraction", "fail")]


def test_a_sentence_of_many_statements_is_one_skip_per_shape():
    """A sentence repeating one shape more than MAX_SHAPES (8) times is not paired (pairing would
    be quadratic in the sentence and which numbers go together cannot be told): one SKIP."""
    from claims.consistency.prose_arithmetic import MAX_SHAPES, check_prose_arithmetic

    class Row:
        claim_id, line, location = "C-001-01", 3, "paragraph 1, sentence 1"

        def __init__(self, text: str) -> None:
            self.text = text

    for unit, kind in (("from 120 ms to 80 ms, a 33% reduction, ", "prose-change"),
                       ("7 of 20 queries (35%), ", "prose-fraction"),
                       ("twice as fast: 3.1 s against 6.0 s, ", "prose-times"),
                       ("ranks second of five with 0.41 behind 0.45, ", "prose-rank")):
        checks = check_prose_arithmetic([Row(unit * (MAX_SHAPES + 1))])
        assert [(c.group, c.status) for c in checks] == [(kind, "skip")], [c.arithmetic for c in checks]
        assert "more than 8 statements of this shape" in checks[0].arithmetic
    assert len(check_prose_arithmetic([Row("7 of 20 queries (35%), " * MAX_SHAPES)])) == MAX_SHAPES
