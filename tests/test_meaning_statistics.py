"""The one table of test-statistic spellings (claims/meaning.py ``STATISTICS``), read by
``meaning_conflict`` and by ``bind``'s ``reading_conflict`` alike.

Hand-decided cases: ``P@1``, ``P @ 10``, ``P(rel=2)@5`` are precision and name no p-value; ``p``,
``p-value``, ``p-values``, "significant", "randomisation test" do; a t-test's p needs both the
t-test and the p; ``df`` / "degrees of freedom" name ``t_test_df``; ``t =`` / "t statistic" name ``t``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from claims.meaning import STATISTICS, meaning_conflict, statistic_named
from claims.suggest import run_values, suggest
from engine.runs.runlog import read_records, recorded_run


def test_the_p_of_a_precision_at_a_cutoff_is_never_a_p_value():
    texts = ["P@1 is 1.00", "P @ 10 reaches 0.3", "P(rel=2)@5 is 0.4", "P( rel=2)@5 is 0.4",
             "the p-value is 0.2", "p = 0.03", "p-values of 0.2", "P@10 is significant", "a p of 1.0"]
    assert [statistic_named("randomisation_p", t) for t in texts] == [
        False, False, False, False, True, True, True, True, True]
    # every corrected form is the same statistic; a part of no statistic is None
    assert [statistic_named(part, "p = 0.03") for part in (
        "randomisation_p_holm", "randomisation_p_bonferroni", "p_value", "p", "difference", "P@10")] == [
        True, True, True, True, None, None]


def test_each_statistic_needs_its_own_words():
    assert [statistic_named("t_test_p", t) for t in (
        "the t-test gives p = 0.04", "a Student test, significant", "p = 0.04", "the t-test of P@1")] == [
        True, True, False, False]
    assert [statistic_named("t_test_df", t) for t in ("with 2 df", "two degrees of freedom", "the dfs")] == [
        True, True, False]
    assert [statistic_named("t", t) for t in ("t = 2.1", "a t statistic of 2.1", "at 2.1")] == [True, True, False]
    assert [statistic_named("ci_low", t) for t in ("a 95% interval", "the lower bound", "P@1 of -1")] == [
        True, True, False]
    assert len(STATISTICS) == 5   # suggest.py keeps no copy of its own


def test_meaning_conflict_reads_the_table_on_the_raw_sentence():
    """Before, meaning_conflict had its own copy: its ``p`` accepted the P of ``P@1`` and it knew
    neither ``t``, ``t_test_df`` nor the corrected p-values."""
    def conflict(key: str, sentence: str) -> str | None:
        return meaning_conflict(key, (), "1.0", None, sentence, frozenset())

    assert conflict("significance.dense.p", "The dense run's P@1 is 1.0.") == (
        "p is a test statistic the sentence does not name")
    assert conflict("significance.dense.p", "The dense run's p is 1.0.") is None
    assert conflict("tests.dense.randomisation_p_holm", "P@10 of 1.0") is not None
    assert conflict("tests.dense.t_test_df", "P@10 of 2") is not None
    assert conflict("tests.dense.t_test_df", "the test has 2 degrees of freedom") is None


@dataclass
class Row:
    claim_id: str
    text: str
    kind: str = "measured result"
    location: str = "line 1"
    quantities: list = field(default_factory=list)

    def __post_init__(self) -> None:
        from claims.quantities import find_quantities

        self.quantities = find_quantities(self.text)


def test_bind_never_binds_a_p_value_outside_a_measure_to_a_precision(tmp_path):
    """A result file holding a p-value that is not below a measure part (``significance.dense.p =
    1.0``) and no MRR: "The dense run's P@1 is 0.50 and its MRR 1.00." bound the 1.00 to that
    p-value (its only equal value, sharing the word dense; the P of P@1 counted as a "p").
    Now the P of P@1 names no p-value: unmatched. "The dense run's p is 1.00." still binds it."""
    log, out = tmp_path / "log.jsonl", tmp_path / "out"
    out.mkdir()
    (out / "tests.json").write_text(json.dumps({"significance": {"dense": {"p": 1.0}}}))
    with recorded_run(log, "evaluate", {"draws": 200}) as rec:
        rec.run_id = "evaluate-000000000001"
        rec.add_outputs(out)
        rec.results = {"tests": str((out / "tests.json").resolve())}
    rows = [Row("C-001-01", "The dense run's P@1 is 0.50 and its MRR 1.00."), Row("C-001-02", "The dense run's p is 1.00.")]
    got = suggest(rows, run_values(read_records(log), log))
    assert [(s.claimed, s.status, s.best.value.key if s.best else None) for s in got if "." in s.claimed] == [
        ("0.50", "unmatched", None), ("1.00", "unmatched", None), ("1.00", "bound", "significance.dense.p")]
