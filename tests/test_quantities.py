"""Quantities as written in the wild (issue 19): glued units, ranges, ±, prices, ordinals, and
names with digits that are not quantities. Every expected value is worked out by hand."""

from __future__ import annotations

import pytest

from claims.quantities import find_quantities


def one(text: str):
    (quantity,) = find_quantities(text)
    return quantity


@pytest.mark.parametrize("text, printed, value, unit", [
    ("an index of 5.2GB on disk", "5.2GB", 5.2, "GB"),
    ("41M binary embeddings", "41M", 41.0, "M"),
    ("about 10k examples", "10k", 10.0, "k"),
    ("from ~250ms per iteration", "250ms", 250.0, "ms"),
    ("a 2.70GHz CPU", "2.70GHz", 2.7, "GHz"),
    ("needs 1TB of memory", "1TB", 1.0, "TB"),
])
def test_glued_units_keep_the_printed_value(text, printed, value, unit):
    q = one(text)
    assert (q.text, q.value, q.unit) == (printed, value, unit)
    assert q.decimals == (2 if printed == "2.70GHz" else 1 if "." in printed else 0)
    assert text[q.span[0]:q.span[1]] == printed


@pytest.mark.parametrize("text, printed, value", [
    ("a 3x speed-up", "3x", 3.0), ("up to 24x higher throughput", "24x", 24.0), ("2X faster", "2X", 2.0),
])
def test_multipliers(text, printed, value):
    q = one(text)
    assert (q.text, q.value, q.unit, q.is_multiplier) == (printed, value, "×", True)


def test_price_per_month():
    q = one("costs $543 / mo at that scale")
    assert (q.text, q.value, q.currency, q.unit) == ("$543 / mo", 543.0, "USD", "/ mo")
    q = one("it costs $1,358 / mo")
    assert (q.value, q.decimals) == (1358.0, 0)


@pytest.mark.parametrize("text, printed, low, high, unit, percent", [
    ("training has 3–5 components", "3–5", 3.0, 5.0, None, False),
    ("a small cost (20-30%) compared", "20-30%", 20.0, 30.0, "%", True),
    ("accelerate training (2-3X) on", "2-3X", 2.0, 3.0, "×", False),
    ("we ran between 10 and 20 seeds", "between 10 and 20 seeds", 10.0, 20.0, "seeds", False),
])
def test_ranges(text, printed, low, high, unit, percent):
    q = one(text)
    assert (q.text, q.value, q.upper, q.unit, q.is_percent) == (printed, low, high, unit, percent)


def test_plus_minus_and_percent_of_a_baseline():
    q = one("a gain of ±2 points")
    assert (q.text, q.value, q.plus_minus, q.unit) == ("±2 points", 2.0, True, "points")
    q = one("it retains 90% of its score")
    assert (q.text, q.value, q.is_percent) == ("90%", 90.0, True)


def test_ordinals_and_spelled_durations():
    q = one("ranking 1st in MTEB")
    assert (q.text, q.value, q.unit) == ("1st", 1.0, "ordinal")
    quantities = find_quantities("indexing takes around twenty minutes; a run can take around half an hour")
    assert [(q.text, q.value, q.unit) for q in quantities] == [
        ("twenty minutes", 20.0, "minute"), ("half an hour", 0.5, "hour")]


@pytest.mark.parametrize("text", [
    "e5-base-v2", "text-embedding-3-small", "BM25", "nDCG@10 and MRR@10", "GPT-4", "all-MiniLM-L6-v2",
    "LLaMA-7B on an A10G", "T5 (T5-11B)", "version v2.1", "on 2020-09-14", "08/02/2023: Release",
    "at 22:40:00,334 - Loaded", "the 2D Matryoshka model",
])
def test_names_with_digits_and_dates_are_not_quantities(text):
    assert find_quantities(text) == []


def test_single_letter_identifiers_stay_quantities_for_bind():
    # bind binds the digits of D-005-style identifiers (claims/suggest.py); only names of two or
    # more letters before the hyphen are names
    assert [q.text for q in find_quantities("places D-005, D-010, and D-006")] == ["005", "010", "006"]


def test_ratios_and_p_values_unchanged():
    assert [(q.text, q.numerator, q.denominator) for q in find_quantities("121/160 passed")] == [
        ("121/160", 121, 160)]
    q = one("p < 0.05")
    assert (q.is_p_value, q.comparator, q.value) == (True, "<", 0.05)


def test_spelled_doubling_and_durations_in_hours():
    assert [(q.text, q.value, q.is_multiplier) for q in find_quantities(
        "We doubled the throughput, cutting the time in half.")] == [("doubled", 2.0, True), ("in half", 0.5, True)]
    assert find_quantities("double quantization saves memory") == []
    assert [q.text for q in find_quantities("The whole process took 3:50 hours.")] == ["3", "50 hours"]


def test_a_spelled_single_duration():
    assert [(q.text, q.value, q.unit) for q in find_quantities("indexing takes around an hour")] == [
        ("an hour", 1.0, "hour")]


def test_arxiv_ids_and_dois_are_no_quantities() -> None:
    """A paper's identifier names it (the model called "arXiv preprint arXiv:1508.07909." a
    measured result): no number of it is a quantity; a number beside it still is."""
    from claims.quantities import find_quantities

    for text in ("arXiv preprint arXiv:1508.07909.", "see arXiv 2104.08663v2 and arxiv.org/abs/2104.08663",
                 "doi:10.1145/290941.291025", "https://doi.org/10.1561/1500000019"):
        assert find_quantities(text) == [], text
    assert [q.text for q in find_quantities("It reached 0.41 (arXiv:2104.08663) on 2104 runs.")] == ["0.41", "2104 runs"]


@pytest.mark.parametrize("text, printed, value, unit", [
    ("the suite will take approximately 20min", "20min", 20.0, "min"),
    ("replies take 27.5s in one engine", "27.5s", 27.5, "s"),
    ("it saves ~3h of compilation", "3h", 3.0, "h"),
    ("a nightly job of 45mins", "45mins", 45.0, "mins"),
    ("after 2hrs on one node", "2hrs", 2.0, "hrs"),
    ("a request at -0.1s before the end", "-0.1s", -0.1, "s"),
    ("the app takes up 78MBs of space", "78MBs", 78.0, "MBs"),
    ("a constant 10RPS of traffic", "10RPS", 10.0, "RPS"),
])
def test_glued_durations_rates_and_plural_sizes(text, printed, value, unit):
    """A duration, rate or plural size glued to its number is one quantity with the suffix as
    its unit (the corpus labels them: "It will take approximately 20min", "0.3s than 15s")."""
    q = one(text)
    assert (q.text, q.value, q.unit) == (printed, value, unit)
    assert text[q.span[0]:q.span[1]] == printed


@pytest.mark.parametrize("text", [
    "music of the 1990s", "in the '80s", "as in the 60s", "GPUs such as 4090s", "10s of milliseconds",
    "the speedrun (10/18/24 version)",
])
def test_decades_plurals_and_short_dates_are_not_durations(text):
    """A decade, a plural of a four-digit model number, "10s of" (tens of) and a date written
    m/d/yy are no quantities, although a glued ``s`` is a duration elsewhere."""
    assert find_quantities(text) == []


def test_a_spelled_duration_in_parentheses_or_after_for():
    assert [(q.text, q.value, q.unit) for q in find_quantities("expensive (four days on 16 TPUs)")] == [
        ("four days", 4.0, "day"), ("16", 16.0, None)]
    assert [q.text for q in find_quantities("we waited for two hours")] == ["two hours"]
