"""Journeys p: wrong verdicts of ``consistency`` with exit 0 left by campaign o, and those found
hunting further the same way. Each page is written here, its verdict decided by hand, and the
verdict and exit code asserted through the command line (``python -m cli consistency``). Every
test failed before its fix.
"""

from __future__ import annotations

import json
from pathlib import Path

from commands import run_cli


def _consistency(tmp_path: Path, name: str, page: str, *extra: str):
    (tmp_path / name).write_text(page, encoding="utf-8")
    return run_cli("consistency", name, *extra, cwd=tmp_path)


TABLE = """# Results

| method | nDCG@10 | Recall@100 |
|---|---|---|
| BM25 | 1.000 | 0.800 |
| hybrid | 0.983 | 0.850 |

We ran both methods on the same topics.

Later we note that BM25 reaches an nDCG@10 of {bm25} and the hybrid an nDCG@10 of {hybrid}.
"""


def test_a_prose_number_rounded_below_the_cells_precision_is_compared(tmp_path: Path) -> None:
    """The sentence names row BM25 and column nDCG@10 a paragraph after the table and prints
    "0.95" (2 decimals) of the cell 1.000 (3 decimals): |1.000 − 0.95| = 0.05 > ½·10⁻² + ½·10⁻³ =
    0.0055, a contradiction. It was never compared (only numbers printed with the cell's decimals
    were), exit 0. "0.98" of the hybrid's 0.983 is that cell rounded: |Δ| 0.003 ≤ 0.0055, a pass."""
    done = _consistency(tmp_path, "wrong.md", TABLE.format(bm25="0.95", hybrid="0.98"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert ("FAIL prose: [C-002-01] paragraph 2, sentence 1 (line 10): '0.95' vs 1.000 at table 1 (line 3) in "
            "§ Results, row 'BM25' × column 'nDCG@10', line 5 ✗ (|Δ| 0.050000 > 0.005500)") in done.stdout
    assert "PASS prose: [C-002-01] '0.98' vs 0.983 at table 1 (line 3)" in done.stdout
    right = _consistency(tmp_path, "right.md", TABLE.format(bm25="1.00", hybrid="0.98"))
    assert right.returncode == 0, right.stdout
    assert "kind prose: 2 pass, 0 fail, 0 skip" in right.stdout


COUNTS = """# Judged documents

| split | judged |
|---|---|
| train | 7 |
| test | 3 |
| total | {total} |
"""


def test_whole_counts_in_a_total_row_add_exactly(tmp_path: Path) -> None:
    """7 + 3 = 10: a total row of 11 passed under the ±1.5 of three half-units (|Δ| 1 ≤ 1.5), and a
    Total row whose only cell disagreed would have been read as "not an aggregate" (a SKIP). Whole
    numbers without % are counts and add exactly: 11 fails (|Δ| 1 > 0), 10 passes."""
    wrong = _consistency(tmp_path, "wrong.md", COUNTS.format(total="11"))
    assert wrong.returncode == 1, wrong.stdout
    assert ("FAIL aggregate: table 1 (line 3): total × judged: 11 vs sum(7, 3) = 10.000000 ✗ "
            "(|Δ| 1.000000 > 0.000000)") in wrong.stdout
    right = _consistency(tmp_path, "right.md", COUNTS.format(total="10"))
    assert right.returncode == 0 and "kind aggregate: 1 pass, 0 fail, 0 skip" in right.stdout, right.stdout


SUMS = """# Sums

We judged 7 + 3 = 11 documents in total.

We judged 7 + 3 = 10 documents in the second round.

The two sets hold 0.25 + 0.50 = 0.80 of the mass.

The two sets hold 0.25 + 0.50 = 0.76 of the rest.

Of 1,024 queries, 1,024 - 24 = 1,000 remained.

The rounded shares 33% + 33% + 33% = 100% are printed as measured.
"""


def test_a_sum_written_out_in_prose_is_checked(tmp_path: Path) -> None:
    """No table: "7 + 3 = 11" was not checked at all (no relation, exit 3). Counts add exactly
    (11 ≠ 10: fail; 10: pass; 1,024 − 24 = 1,000: pass, thousands separators read); decimals to
    their printed precision, half a unit of each of the three prints: 0.25 + 0.50 = 0.75, so 0.80
    (|Δ| 0.05 > 0.015) fails and 0.76 (|Δ| 0.01 ≤ 0.015) passes; percentages are rounded shares:
    99 against 100 within 3 × 0.5 + 0.5 = 2.0, a pass."""
    done = _consistency(tmp_path, "sums.md", SUMS)
    assert done.returncode == 1, done.stdout
    assert "kind prose-sum: 4 pass, 2 fail, 0 skip" in done.stdout, done.stdout
    failed = [line for line in done.stdout.splitlines() if line.startswith("FAIL ")]
    assert len(failed) == 2
    assert "“7 + 3 = 11”: the terms give 10.0000 (|Δ| 1.0000 > 0.0000; whole counts add exactly) ✗ [line 3]" in failed[0]
    assert "“0.25 + 0.50 = 0.80”: the terms give 0.7500 (|Δ| 0.0500 > 0.0150; printed precision" in failed[1]
    data = json.loads(run_cli("consistency", "sums.md", "--format", "json", cwd=tmp_path).stdout)
    assert data["by_kind"]["prose-sum"] == {"fail": 2, "pass": 4, "skip": 0} and data["exit_code"] == 1


GAINS = """# Gains

Recall rose from 0.50 to 0.75, a 25% gain.

Recall rose from 0.40 to 0.60, a 50% relative gain.

Recall rose from 0.40 to 0.60, a gain of 20 points.

Recall rose from 40% to 60%, a 20 pp increase.

Recall rose from 40% to 60%, a 20% increase.

Recall rose from 40% to 60%, a 30% increase.

Recall rose from 0.40 to 0.60, a 25-point gain.
"""


def test_a_change_is_read_as_its_wording_says(tmp_path: Path) -> None:
    """0.50 → 0.75: the relative gain is 100·0.25/0.50 = 50%; 25 is the difference in points. "a
    25% gain" was a SKIP ("cannot be told"), exit 0. Now the wording decides: a gain or improvement
    in % is relative (25% fails, naming the points reading); "relative" is relative (0.40 → 0.60:
    50% passes); points / pp are points (20 passes, "25-point" fails: 20 ± 1 misses 25 ± 0.5);
    "a 20% increase" of 40% → 60% allows both, matches the 20 points and says so (never a silent
    pass of the wrong reading); "a 30% increase" matches neither 50% nor 20 points: fail."""
    done = _consistency(tmp_path, "gains.md", GAINS)
    assert done.returncode == 1, done.stdout
    assert "kind prose-change: 4 pass, 3 fail, 0 skip" in done.stdout, done.stdout
    lines = {int(line.rsplit("[line ", 1)[1].rstrip("]")): line for line in done.stdout.splitlines()
             if line.startswith(("PASS prose-change", "FAIL prose-change"))}
    assert lines[3].startswith("FAIL") and "misses 25% ✗" in lines[3] and "100·(0.75 − 0.50)/0.50 = 50.0000%" in lines[3]
    assert "write 'points' or 'pp' if that is meant" in lines[3]
    assert lines[5].startswith("PASS") and "= 50.0000%" in lines[5]
    assert lines[7].startswith("PASS") and "read as points by its wording" in lines[7]
    assert lines[9].startswith("PASS") and "|60% − 40%| = 20.0000" in lines[9]
    assert lines[11].startswith("PASS") and "matches as the difference in percentage points" in lines[11]
    assert "not as a relative change (50.0000%)" in lines[11]
    assert lines[13].startswith("FAIL") and "matches neither reading" in lines[13]
    assert lines[15].startswith("FAIL") and "misses 25 ± 0.5000 ✗" in lines[15]
