"""Measured-result false alarms found on the development part of the labelled corpus (issue 19),
each pinned by a sentence of our own with its decision by hand: a hedged upper bound, an
alternative setting, a total size, a size ratio and bytes per element are no measured results;
a benchmark bound said with "can … up to" stays one."""

from __future__ import annotations

import pytest

from claims.extract import MEASURED
from test_kinds import roles, row  # the one-row helpers of the kind tests


@pytest.mark.parametrize("sentence", [
    "Spot machines give large cost savings over reserved ones, sometimes up to 70%.",
    "A smaller index may cut query latency by up to 40%.",
])
def test_a_hedged_upper_bound_is_no_measured_result(sentence):
    assert row(sentence).kind != MEASURED


def test_a_benchmark_bound_with_can_stays_measured():
    assert row("On our laptop the new index can answer up to 25% more queries per second.").kind == MEASURED


def test_settings_sizes_and_ratios_are_no_results():
    assert roles("For speed the window is only 32 tokens instead of 128, so the loss is noisier.") == [
        ("32 tokens", "parameter"), ("128", "parameter")]
    assert roles("The shard holds ten files with a total size of 52 GB.")[-1] == ("52 GB", "parameter")
    assert roles("Our encoder is small, and the teacher is a model 12 times the size of it.")[-1] == (
        "12 times", "parameter")
    assert roles("The int8 format stores weights (1 bytes per weight) and runs faster.") == [
        ("1 bytes", "parameter")]
    assert roles("The batch holds 8 examples per step, not 32.")[-1] == ("32", "parameter")


@pytest.mark.parametrize("sentence", [
    "For example, using 16 shards instead of 8 doubles the number of open files by 2x.",
    "At 40 users this translates to serving 120 pages per second from one node.",
])
def test_an_illustration_or_a_derived_requirement_is_no_measured_result(sentence):
    assert row(sentence).kind != MEASURED


def test_a_measured_example_stays_measured():
    assert row("For example, on the news split the fused run reaches 0.61 nDCG@10.").kind == MEASURED
