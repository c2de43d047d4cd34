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


REPORT_CHAPTER = """# Apples and seas

## Results

Hybrid fusion lifts macro NDCG@3 to 0.982, an improvement of 0.406 over the supplied run.
The supplied opaque run reaches macro NDCG@3 of 0.576.
"""


def _sections(report: str) -> dict[str, str]:
    """The report's level-2 sections by their number ("5", "6", "7")."""
    parts = report.split("\n## ")[1:]
    return {part.split(".", 1)[0]: part for part in parts}


def test_sections_6_and_7_agree_on_a_run_the_log_holds(tmp_path: Path) -> None:
    """The user ran the sandbox (logged ok) and asks for a report before binding. Section 6 said
    "not checked: the log holds an ok run of sandbox run (latest run R)" for C-001-01 and C-001-02,
    while section 7 said of the same two rows "the number has no logged run" and held no decision
    for section 6's row at all (with no log it has one: "accept … runnable here"). Now section 7
    names the run for each claim and decides section 6's row (accept: bind to R, no new run)."""
    from userfiles import sandbox_args, write_sandbox_inputs

    inputs = write_sandbox_inputs(tmp_path / "in")
    ran = run_cli(*sandbox_args(inputs, tmp_path / "out", tmp_path / "log.jsonl"), cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    run_id = ran.stdout.split()[1]
    (tmp_path / "ch.md").write_text(REPORT_CHAPTER, encoding="utf-8")
    done = run_cli("report", "ch.md", "--offline", "--log", "log.jsonl", "-o", "report.md", "--date", "2026-12-02",
                   cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    sections = _sections((tmp_path / "report.md").read_text(encoding="utf-8"))
    six = next(line for line in sections["6"].splitlines() if "reproduce C-001-01, C-001-02" in line)
    assert f"not checked: the log holds an ok run of sandbox run (latest run {run_id})" in six
    decisions = [line for line in sections["7"].splitlines() if line.startswith("| P-")]
    assert len(decisions) == 3, decisions
    for said in ("has no logged run", "with no logged run"):
        assert said not in sections["7"] and said not in sections["5"]
    for claim in ("Hybrid fusion lifts", "The supplied opaque run reaches"):
        row = next(line for line in decisions if claim in line)
        assert f"the log holds an ok run of sandbox run (latest run {run_id}), but no claims file binds" in row
    assert decisions[2].startswith("| P-3: experiment: the measured results no claims file binds (C-001-01, C-001-02) "
                                   "| accept |") and f"latest run {run_id}" in decisions[2]


def test_a_ratio_that_misses_either_way_fails_whatever_the_order(tmp_path: Path) -> None:
    """"2.1x faster: 10.5 s against 5.0 s" writes the slower time first, so which value is whose
    cannot be told (SKIP); but 10.5 / 5.0 = 2.1 (interval [10.45/5.05, 10.55/4.95] = [2.0693,
    2.1313]) whichever it is, so "3.1x faster" ([3.05, 3.15]) is wrong either way. It was the same
    SKIP, exit 0. Now a FAIL."""
    page = ("# Speed\n\nThe new index is 2.1x faster: 10.5 s against 5.0 s.\n\n"
            "The old index is 3.1x faster: 10.5 s against 5.0 s.\n")
    done = _consistency(tmp_path, "speed.md", page)
    assert done.returncode == 1, done.stdout
    assert "kind prose-times: 0 pass, 1 fail, 1 skip" in done.stdout
    assert ("FAIL prose-times: [C-002-01] paragraph 2, sentence 1 (line 5) says “3.1x” of 10.5 s and 5.0 s: "
            "10.5/5.0 = 2.1000 (interval [2.0693, 2.1313]) misses 3.1 [3.0500, 3.1500] ✗") in done.stdout


DELTA = """# Deltas

| method | nDCG@10 | Δ |
|---|---|---|
| BM25 | 0.812 | — |
| hybrid | 0.845 | {hybrid} |
| dense | 0.700† | −0.112 |
"""


def test_a_delta_column_against_a_baseline_row_is_checked(tmp_path: Path) -> None:
    """The Δ column follows one score column and is blank (—) for BM25: each row's difference from
    BM25. 0.845 − 0.812 = 0.033, so "+0.043" is wrong (|Δ| 0.010 > 0.0015); 0.700 − 0.812 =
    −0.112 (the † a footnote mark, the minus a unicode minus) is right. It was a SKIP ("names no
    two columns"), exit 0."""
    wrong = _consistency(tmp_path, "wrong.md", DELTA.format(hybrid="+0.043"))
    assert wrong.returncode == 1, wrong.stdout
    assert ("FAIL difference: table 1 (line 3): hybrid × Δ: +0.043 vs 0.845 − 0.812 = 0.033000 ✗ "
            "(|Δ| 0.010000 > 0.001500) ['nDCG@10' − its value in the baseline row 'BM25' (absolute)]") in wrong.stdout
    assert "PASS difference: table 1 (line 3): dense × Δ: −0.112 vs 0.700 − 0.812 = -0.112000 ✓" in wrong.stdout
    right = _consistency(tmp_path, "right.md", DELTA.format(hybrid="+0.033"))
    assert right.returncode == 0 and "kind difference: 2 pass, 0 fail, 0 skip" in right.stdout, right.stdout


SPREAD = """# Spread

| run | nDCG@10 | Recall@100 |
|---|---|---|
| a | 0.50 ± 0.02 | 0.70 |
| b | 0.61 +/- 0.03 | 0.80 |
| mean | {mean} | 0.75 |
"""


def test_cells_with_a_spread_take_part_in_a_mean(tmp_path: Path) -> None:
    """"0.50 ± 0.02" was text, so the mean row over it was never checked. It reads 0.50 at its
    own precision: mean(0.50, 0.61) = 0.555, tolerance 0.005 + (0.005 + 0.005)/2 = 0.010, so 0.60
    (|Δ| 0.045) fails and 0.56 (|Δ| 0.005) passes; the Recall@100 mean 0.75 passes either way."""
    wrong = _consistency(tmp_path, "wrong.md", SPREAD.format(mean="0.60"))
    assert wrong.returncode == 1, wrong.stdout
    assert ("FAIL aggregate: table 1 (line 3): mean × nDCG@10: 0.60 vs mean(0.50, 0.61) = 0.555000 ✗ "
            "(|Δ| 0.045000 > 0.010000)") in wrong.stdout
    right = _consistency(tmp_path, "right.md", SPREAD.format(mean="0.56"))
    assert right.returncode == 0 and "kind aggregate: 2 pass, 0 fail, 0 skip" in right.stdout, right.stdout


NEGATIVE = """# Correlations

| method | correlation |
|---|---|
| BM25 | −0.050 |
| hybrid | 0.120 |

The BM25 correlation is {bm25} on these topics.
"""


def test_a_negative_value_in_prose_is_compared(tmp_path: Path) -> None:
    """"The BM25 correlation is −0.090" names row BM25 and column correlation; the cell prints
    −0.050. Any number with a minus sign was left out as a signed change, exit 0. A minus-signed
    number a verb introduces is a value: |−0.090 − (−0.050)| = 0.040 > 0.001, a FAIL; −0.050 and
    -0.050 (hyphen-minus) pass."""
    wrong = _consistency(tmp_path, "wrong.md", NEGATIVE.format(bm25="−0.090"))
    assert wrong.returncode == 1, wrong.stdout
    assert "FAIL prose: [C-001-01] paragraph 1, sentence 1 (line 8): '−0.090' vs −0.050 at table 1" in wrong.stdout
    for printed in ("−0.050", "-0.050"):
        right = _consistency(tmp_path, "right.md", NEGATIVE.format(bm25=printed))
        assert right.returncode == 0 and f"PASS prose: [C-001-01] '{printed}' vs −0.050" in right.stdout, right.stdout


RANGES = """# Ranges

| method | nDCG@10 |
|---|---|
| BM25 | 0.812 |
| hybrid | 0.845 |

BM25 and hybrid reach nDCG@10 of 0.81–0.85.

BM25 and hybrid reach nDCG@10 of 0.81–0.83 on the second pass.

BM25 reaches an nDCG@10 of 0.80–0.82 on the third pass.
"""


def test_a_range_in_prose_holds_the_cells_it_names(tmp_path: Path) -> None:
    """A range is checked as a range: a cell lies in [lo − h_lo − h_c, hi + h_hi + h_c]. 0.81–0.85
    holds 0.812 and 0.845; 0.81–0.83 ([0.8045, 0.8355]) holds 0.812 but not the hybrid's 0.845:
    a FAIL, which was never compared (2 decimals against 3); 0.80–0.82 holds 0.812 (its two ends
    compared as two values would both have disagreed with the cell)."""
    done = _consistency(tmp_path, "ranges.md", RANGES)
    assert done.returncode == 1, done.stdout
    assert "kind prose: 4 pass, 1 fail, 0 skip" in done.stdout, done.stdout
    assert ("FAIL prose: [C-002-01] paragraph 2, sentence 1 (line 10): the range 0.81–0.83 vs 0.845 at table 1 "
            "(line 3) in § Ranges, row 'hybrid' × column 'nDCG@10', line 6 ✗ (outside [0.804500, 0.835500])") in done.stdout
    assert "the range 0.80–0.82 vs 0.812 at table 1 (line 3) in § Ranges, row 'BM25' × column 'nDCG@10', line 5 ✓" in done.stdout
