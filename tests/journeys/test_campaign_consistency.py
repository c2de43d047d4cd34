"""Campaign journeys: `consistency` on a new user's own results page.

The page's table counts tasks per split (10 + 10 = 20 in its total row) and states shares; the
paragraph before it names Recall@3 (a caption-like sentence of 12 words). Hand-checked:

* the ``tasks`` column is a count (whole numbers, the total 20 included), never a Recall@3 in
  [0, 1]: no range failure;
* "Total tasks were 21" names the total row and the tasks column: 21 against the printed 20 at
  the same precision is a contradiction (two prints of one value at one precision are equal);
* "the hybrid reaches NDCG@3 of 0.982" against the table's 0.983 likewise; 0.983 passes.
"""

from __future__ import annotations

from pathlib import Path

from commands import run_cli

PAGE = """# Second chapter

Our run reaches macro Recall@3 of 0.75 for the supplied run.

| split | tasks | share |
|---|---|---|
| final | 10 | 50% |
| development | 10 | 50% |
| total | 20 | 100% |

Total tasks were {total} across both splits.

| method | NDCG@3 |
|---|---|
| BM25 | 1.000 |
| hybrid | 0.983 |

In this run the hybrid reaches NDCG@3 of {hybrid}.
"""


def _consistency(tmp_path: Path, total: str, hybrid: str):
    page = tmp_path / f"page-{total}-{hybrid}.md"
    page.write_text(PAGE.format(total=total, hybrid=hybrid), encoding="utf-8")
    return run_cli("consistency", page.name, cwd=tmp_path)


def test_counts_are_counts_and_two_prints_at_one_precision_must_be_equal(tmp_path: Path) -> None:
    right = _consistency(tmp_path, "20", "0.983")
    assert right.returncode == 0, right.stdout + right.stderr
    assert "recall@3 in [0, 1]" not in right.stdout.split("'tasks'", 1)[1].split("\n", 1)[0]
    assert "PASS range: table 1 (line 5) column 'tasks': 3 cell(s), each a count: non-negative integer" in right.stdout
    assert "PASS prose: [C-002-01] '20' vs 20" in right.stdout
    assert "PASS prose: [C-003-01] '0.983' vs 0.983" in right.stdout
    wrong = _consistency(tmp_path, "21", "0.982")
    assert wrong.returncode == 1, wrong.stdout + wrong.stderr
    assert "FAIL prose: [C-002-01] paragraph 2, sentence 1 (line 11): '21' vs 20 at table 1" in wrong.stdout
    assert "'0.982' vs 0.983 at table 2 (line 13)" in wrong.stdout and "(|Δ| 0.001000 ≥ 0.001000)" in wrong.stdout
    assert "FAIL range" not in wrong.stdout


COUNTS = """# Splits

| split | tasks | queries | accuracy |
|---|---|---|---|
| final | 1 | 40 | 0.81 |
| development | 1 | 10 | 0.79 |
| total | {tasks} | {queries} | 0.80 |
"""


def test_a_total_of_counts_is_exact(tmp_path: Path) -> None:
    """Counts (a column headed by a count noun, whole numbers) are exact: 1 + 1 is 2, never 3
    (the wrong page keeps 40 + 10 = 50, so the row still reads as a total). The accuracy of the
    total row is an overall rate, not a sum of rates: skipped, never failed."""
    right = tmp_path / "right.md"
    right.write_text(COUNTS.format(tasks=2, queries=50), encoding="utf-8")
    ok = run_cli("consistency", right.name, cwd=tmp_path)
    assert ok.returncode == 0, ok.stdout
    assert "PASS aggregate: table 1 (line 3): total × tasks: 2 vs sum(1, 1) = 2.000000 ✓ (|Δ| 0.000000 ≤ 0.000000)" \
        in ok.stdout
    wrong = tmp_path / "wrong.md"
    wrong.write_text(COUNTS.format(tasks=3, queries=50), encoding="utf-8")
    bad = run_cli("consistency", wrong.name, cwd=tmp_path)
    assert bad.returncode == 1, bad.stdout
    assert "FAIL aggregate: table 1 (line 3): total × tasks: 3 vs sum(1, 1) = 2.000000" in bad.stdout
    assert "PASS aggregate: table 1 (line 3): total × queries: 50 vs sum(40, 10)" in bad.stdout
    for out in (ok.stdout, bad.stdout):
        assert "SKIP aggregate: table 1 (line 3): total × accuracy: accuracy is a rate, not a sum" in out
