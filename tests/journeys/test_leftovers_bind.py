"""Journeys of `bind` on ir_measures' parameterised names (leftovers 1 and 3): a user evaluates
their runs with `evaluate`, writes a chapter that prints the figures, and drafts the claims file.

The collection (two topics) is chosen so each figure is computed by hand:

* topic 1 judges d1 grade 2 and d2 grade 1; the run lists d2, d1, d3 (d3 unjudged).
  Linear nDCG@3 (gain = the grade): DCG = 1/log2 2 + 2/log2 3 = 2.261860, ideal = 2 + 1/log2 3 =
  2.630930, so 0.859719. Exponential (gain 2^g − 1): DCG = 1 + 3/log2 3 = 2.892789, ideal =
  3 + 1/log2 3 = 3.630930, so 0.796708.
* topic 2 judges e1 grade 1; the run lists e1 first: 1.0 under both gains.
* macro: linear (0.859719 + 1) / 2 = 0.929859; exponential (0.796708 + 1) / 2 = 0.898354.
  P(rel=2)@3: topic 1 has d1 (grade 2) in its top 3, so 1/3; topic 2 has none at grade 2: 0;
  macro 0.166667.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

from commands import run_cli

QRELS = "1 0 d1 2\n1 0 d2 1\n2 0 e1 1\n"
RUN = "1 Q0 d2 1 3.0 sys\n1 Q0 d1 2 2.0 sys\n1 Q0 d3 3 1.0 sys\n2 Q0 e1 1 1.0 sys\n"

PACK = """== 1. Identity ==
Book:            Invented Book
Chapter:         Gains

== 2. Chapter text ==

{body}
"""


def _evaluate(tmp_path: Path, measures: str, output: str) -> None:
    (tmp_path / "qrels.txt").write_text(QRELS, encoding="utf-8")
    (tmp_path / "run.txt").write_text(RUN, encoding="utf-8")
    done = run_cli("evaluate", "--qrels", "qrels.txt", "--run", "run.txt", "--measures", measures,
                   "--output", output, "--log", "log.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr


def _bind(tmp_path: Path, body: str) -> tuple[str, list[dict]]:
    (tmp_path / "pack.txt").write_text(PACK.format(body=body), encoding="utf-8")
    done = run_cli("bind", "pack.txt", "--log", "log.jsonl", "--output", "claims.toml", cwd=tmp_path)
    assert "Traceback" not in done.stderr, done.stderr
    if not (tmp_path / "claims.toml").exists():
        return done.stdout, []
    return done.stdout, tomllib.loads((tmp_path / "claims.toml").read_text(encoding="utf-8")).get("binding", [])


def test_the_exponential_ndcg_binds_its_own_key_and_never_the_linear_one(tmp_path: Path) -> None:
    """With both gains evaluated, "nDCG(dcg='exp-log2')@3 of 0.898" binds the exponential key and
    "nDCG@3 of 0.930" the linear one, each by the gain its own name states (the sentence names
    both), and `verify` gives MATCH for both."""
    _evaluate(tmp_path, "nDCG@3,nDCG(dcg='exp-log2')@3", "both")
    out, bindings = _bind(tmp_path, "The system reaches an nDCG(dcg='exp-log2')@3 of 0.898 and an nDCG@3 of 0.930.")
    assert [(b["claimed"], b["key"]) for b in bindings] == [
        ("0.898", "runs.sys.macro.nDCG(dcg='exp-log2')@3"), ("0.930", "runs.sys.macro.nDCG@3")], out
    verified = run_cli("verify", "claims.toml", "--log", "log.jsonl", cwd=tmp_path)
    assert verified.returncode == 0 and verified.stdout.count("MATCH") == 2, verified.stdout


def test_an_exponential_figure_never_binds_a_linear_value_that_equals_it(tmp_path: Path) -> None:
    """Only the linear nDCG@3 was evaluated. The chapter calls topic 2's 1.0 and the macro 0.930
    exponential. Before, the parameterised name read as a bare "nDCG" of no convention and both
    bound the linear keys (verify then printed MATCH for a figure of another measure); now
    neither binds, and nothing is written (exit 1, no bindable number)."""
    _evaluate(tmp_path, "nDCG@3", "linear")
    out, bindings = _bind(tmp_path, "On topic 2 the exponential nDCG(dcg='exp-log2')@3 is 1.0; "
                                    "over both topics nDCG(dcg='exp-log2')@3 is 0.930.")
    assert bindings == [] and not (tmp_path / "claims.toml").exists(), out
    assert "3 printed numbers: 0 bound, 0 ambiguous, 3 unmatched" in out   # the 2 of "topic 2" too


def test_a_relevance_level_is_part_of_the_measure(tmp_path: Path) -> None:
    """"P(rel=2)@3 of 0.167" binds ``P(rel=2)@3``; its "2" is a parameter, not a printed number
    (before, it was listed as an unmatched number and bound nothing), and "P@3 of 0.167" does not
    bind the level-2 precision (P@3 at level 1 is (2/3 + 1/3) / 2 = 0.5)."""
    _evaluate(tmp_path, "P(rel=2)@3,P@3", "levels")
    out, bindings = _bind(tmp_path, "The system reaches a P(rel=2)@3 of 0.167 and a P@3 of 0.500. "
                                    "The system reaches a P@3 of 0.167.")
    assert [(b["claimed"], b["key"]) for b in bindings] == [
        ("0.167", "runs.sys.macro.P(rel=2)@3"), ("0.500", "runs.sys.macro.P@3")], out
    assert "3 printed numbers: 2 bound, 0 ambiguous, 1 unmatched" in out


def test_a_p_value_is_never_the_p_of_a_precision(tmp_path: Path) -> None:
    """Two runs, equal on P(rel=2)@3 (0.166667 each): the pair's randomisation p is 1.0 (every
    sign flip of zero differences is as large; (10000 + 1) / (10000 + 1)). "Run b reaches a
    P(rel=2)@3 of 1.0" must not bind that p-value: the P of P(rel=2)@3 names no p (it did, through
    meaning_conflict's own copy of the table); "its randomisation p is 1.0" binds it."""
    (tmp_path / "qrels.txt").write_text(QRELS, encoding="utf-8")
    (tmp_path / "a.txt").write_text(RUN.replace(" sys", " a"), encoding="utf-8")
    (tmp_path / "b.txt").write_text(RUN.replace(" sys", " b"), encoding="utf-8")
    done = run_cli("evaluate", "--qrels", "qrels.txt", "--run", "a.txt", "--run", "b.txt", "--measures",
                   "P(rel=2)@3", "--output", "pair", "--log", "log.jsonl", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out, bindings = _bind(tmp_path, "Run b reaches a P(rel=2)@3 of 1.0 on topic 1. "
                                    "Against run a, run b reaches a randomisation p of 1.0 in P(rel=2)@3.")
    assert [(b["claimed"], b["key"]) for b in bindings] == [
        ("1.0", "pairs.b-minus-a.P(rel=2)@3.randomisation_p")], out
    assert "C-001-01 1.0: no value within precision; nearest: runs.b.per_topic.1.P(rel=2)@3 = 0.333333" in out
    assert "3 printed numbers: 1 bound, 0 ambiguous, 2 unmatched" in out   # the 1 of "topic 1" too
